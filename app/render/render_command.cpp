#include "render_command.h"

#include "app/cli/command_support.h"
#include "app/cli/commands.h"
#include "core/text_args.h"
#include "io/counter_reader.h"
#include "io/pe_log_listing.h"
#include "io/session_file.h"
#include "render_live.h"
#include "render_options.h"
#include "views/common/apng_writer.h"
#include "views/common/entry_palette.h"
#include "views/common/view_factory.h"
#include "views/compare/compare_view.h"
#include "views/counters/counters_view.h"
#include "views/log_view/log_view.h"

#include <QApplication>
#include <QColor>
#include <QElapsedTimer>
#include <QImage>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

namespace parallax::render {

namespace {

// Qt needs a display unless told otherwise; a command-line tool must work headless. The
// application lives for the command only (it must be gone before Qt's own statics are).
std::unique_ptr<QApplication> makeApplication()
{
    if (QCoreApplication::instance() != nullptr)
        return nullptr;
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Keep stderr for our own messages: Qt's notes about the offscreen platform are noise here.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::fprintf(stderr, "%s\n", qPrintable(message));
    });
    static int argc = 1;
    static char name[] = "parallax-cli";
    static char* argv[] = { name, nullptr };
    return std::make_unique<QApplication>(argc, argv);
}

// Takes `--session FILE` out of the arguments, reads the session and puts its run (where it
// is now) in place of RUN. Returns 0 or the exit code after a message.
int takeRenderSession(
    std::vector<std::string>& args, std::optional<io::Session>& session, std::ostream& err)
{
    const auto it = std::find(args.begin(), args.end(), "--session");
    if (it == args.end())
        return cli::kExitOk;
    if (it + 1 == args.end())
        return cli::usageError(err, "render", "--session needs a FILE.parallax");
    const std::string path = *(it + 1);
    args.erase(it, it + 2);
    auto read = io::readSession(path);
    if (!read.session) {
        err << "parallax-cli render: " << read.error << "\n";
        return cli::kExitFatal;
    }
    const auto found = io::locateSessionRun(*read.session, path);
    if (found.path.empty()) {
        err << "parallax-cli render: the run of the session " << path
            << " is missing: " << read.session->runPath << "\n";
        return cli::kExitFatal;
    }
    if (found.moved)
        err << "parallax-cli render: note: the session's run was found beside it, at " << found.path
            << "\n";
    // RUN after VIEW, as the command line would have it.
    args.insert(args.empty() ? args.end() : args.begin() + 1, found.path);
    session = std::move(read.session);
    return cli::kExitOk;
}

// The session's entry colours and the state it saved for `viewName` (notes on stderr for what
// no longer applies). Returns 0, or 2 when the session has no such view.
int restoreRenderSession(const io::Session& session, const core::Trace& trace,
    const std::string& viewName, views::AnalysisView& view, views::EntryPalette& palette,
    std::ostream& err)
{
    const auto saved = std::find_if(session.views.begin(), session.views.end(),
        [&viewName](const io::SessionView& v) { return v.view == viewName; });
    if (saved == session.views.end()) {
        std::string have;
        for (const auto& v : session.views)
            have += (have.empty() ? "" : ", ") + v.view;
        return cli::usageError(err, "render",
            "the session has no " + viewName
                + " view (it has: " + (have.empty() ? std::string("none") : have) + ")");
    }
    if (session.fingerprint)
        for (const auto& difference :
            io::fingerprintDifferences(*session.fingerprint, io::fingerprintOf(trace)))
            err << "parallax-cli render: note: the run has changed since the session was saved: "
                << difference << "\n";
    auto overrides = palette.overrides();
    for (const auto& [entry, color] : session.entryColors)
        overrides.insert(QString::fromStdString(entry), QColor(QString::fromStdString(color)));
    palette.setOverrides(overrides);
    views::AnalysisView::State state;
    for (const auto& [key, value] : saved->state)
        state[QString::fromStdString(key)] = QString::fromStdString(value);
    QString problems;
    if (!view.restoreState(state, &problems))
        for (const auto& line : problems.split(QLatin1Char('\n')))
            err << "parallax-cli render: note: " << line.toStdString() << "\n";
    return cli::kExitOk;
}

} // namespace

int runRender(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> rest = args;
    // -o is the one short option; turn it into --output for the shared parser.
    for (auto& a : rest)
        if (a == "-o")
            a = "--output";
    if (rest.empty() || rest.front() == "--help" || rest.front() == "-h") {
        out << renderHelp();
        return rest.empty() ? cli::kExitUsage : cli::kExitOk;
    }
    std::optional<io::Session> session;
    if (const int rc = takeRenderSession(rest, session, err); rc != cli::kExitOk)
        return rc;
    if (rest.empty())
        return cli::usageError(err, "render", "missing VIEW");
    if (rest.front() == "live") {
        // The live view draws a recorded stream, not a run (render_live.cpp).
        if (session)
            return cli::usageError(
                err, "render", "live draws a recording (--replay), not a session");
        const auto application = makeApplication();
        return renderLive({ rest.begin() + 1, rest.end() }, out, err);
    }
    const RenderView* const renderView = findRenderView(rest.front());
    const auto kind = views::viewKindFromKey(QString::fromStdString(rest.front()));
    if (renderView == nullptr || !kind) {
        std::string keys;
        for (const auto& v : renderViews())
            keys += (keys.empty() ? "" : ", ") + std::string(v.key);
        return cli::usageError(err, "render", "unknown view '" + rest.front() + "' (" + keys + ")");
    }
    const std::string viewName = rest.front();
    rest.erase(rest.begin());
    // The common options and this view's own (render_options.cpp); any other is an error.
    std::set<std::string> options;
    std::set<std::string> flags; // also values: --NAME=off
    for (const auto& name : commonRenderOptions())
        options.insert(name);
    for (const auto& option : renderView->options) {
        options.insert(option.name);
        if (option.flag)
            flags.insert(option.name);
    }
    const std::string help = renderViewHelp(*renderView);
    cli::CommandLine cl;
    std::ostringstream parseErr;
    if (const int rc
        = cli::parseCommand("render", rest, options, cl, out, parseErr, help.c_str(), flags);
        rc != cli::kExitOk) {
        // An option of another view: say which views take it.
        const std::string unknown = "unknown option --";
        const std::string& why = cl.parser.error();
        if (rc > 0 && why.starts_with(unknown))
            if (const auto elsewhere = optionElsewhere(*renderView, why.substr(unknown.size()));
                !elsewhere.empty())
                return cli::usageError(err, "render", elsewhere);
        err << parseErr.str();
        return rc < 0 ? cli::kExitOk : rc;
    }
    const auto output = cl.parser.value("output");
    if (!output)
        return cli::usageError(err, "render", "missing -o OUT.png");
    std::int64_t width = 1600;
    std::int64_t height = 900;
    for (const auto& [name, target] :
        { std::pair<const char*, std::int64_t*> { "width", &width }, { "height", &height } })
        if (const int rc = cli::readIntOption("render", cl, name, 100, 16000, *target, err);
            rc != cli::kExitOk)
            return rc;
    core::analysis::AnalysisRequest request;
    if (const int rc = cli::parseAnalysisRequest("render", cl, request, err); rc != cli::kExitOk)
        return rc;
    // The old counter tracemode's files are no run: the counters view shows their table alone.
    std::optional<io::CounterRun> counterRun;
    if (*kind == views::ViewKind::Counters && io::isCounterRunPath(cl.run)) {
        auto read = io::readCounterRun(cl.run);
        if (!read.ok) {
            err << "parallax-cli render: " << read.error << "\n";
            return cli::kExitFatal;
        }
        if (cl.parser.value("range"))
            return cli::usageError(
                err, "render", "--range does not apply: the .count files hold whole-run totals");
        counterRun = std::move(read.run);
    }
    int rc = cli::kExitOk;
    const auto trace = counterRun ? core::TracePtr() : cli::load(cl, err, rc);
    if (!trace && !counterRun)
        return rc;
    if (trace)
        if (const int check = cli::checkRequestAgainstRun("render", *trace, request, err);
            check != cli::kExitOk)
            return check;

    const auto application = makeApplication();
    // Computations still running on the pool (e.g. after an option error) must end before the
    // application goes; declared after it, this guard is destroyed before it.
    struct PoolDrain {
        PoolDrain() = default;
        PoolDrain(const PoolDrain&) = delete;
        PoolDrain& operator=(const PoolDrain&) = delete;
        ~PoolDrain() { QThreadPool::globalInstance()->waitForDone(); }
    } drain;
    // Log Files reads its PE's log through io, which the views cannot reach themselves.
    views::LogView::setDefaultReader(&io::readLogListing);
    views::EntryPalette palette;
    palette.setRun(trace.get());
    std::unique_ptr<views::AnalysisView> view(views::createView(*kind, &palette));
    if (!view) {
        err << "parallax-cli render: the " << viewName << " view is not available in this build\n";
        return cli::kExitFatal;
    }
    view->resize(static_cast<int>(width), static_cast<int>(height));
    view->setTrace(trace);
    // compare: the run to compare with.
    if (const auto with = cl.parser.value("with")) {
        cli::CommandLine other = cl;
        other.run = *with;
        const auto b = cli::load(other, err, rc);
        if (!b)
            return rc;
        static_cast<views::CompareView*>(view.get())
            ->setOtherRun(
                b, QString::fromStdString(b->files.directory).section(QLatin1Char('/'), -1));
    }
    if (counterRun) {
        std::vector<QString> names;
        for (const auto& e : counterRun->metadata.entries)
            names.push_back(QString::fromStdString(e.name));
        palette.setEntryNames(std::move(names));
        static_cast<views::CountersView*>(view.get())
            ->setCounterTable(
                std::make_shared<const core::analysis::CounterTable>(counterRun->table),
                std::make_shared<const core::RunMetadata>(counterRun->metadata));
    }
    // Without --range every view keeps its own default: the run's traced span.
    const bool defaultRange = request.range.begin == 0 && request.range.end == 0;
    core::TimeRange range = defaultRange ? core::TimeRange {} : request.range;
    if (!defaultRange && range.end == core::kTimeMax && trace)
        range.end = std::max(trace->endTime(), range.begin + 1);
    auto pes = request.pes;
    if (*kind == views::ViewKind::Timeline && pes.empty()) {
        const auto valid = trace ? trace->validPes() : std::vector<core::PeId> {};
        pes.assign(valid.begin(),
            valid.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(valid.size(), 16)));
    }
    if (session) {
        if (const int restored
            = restoreRenderSession(*session, *trace, viewName, *view, palette, err);
            restored != cli::kExitOk)
            return restored;
        // The session's selection stands unless the command line gives one.
        if (!defaultRange || !request.pes.empty())
            view->setSelection(range, request.pes);
    } else {
        view->setSelection(range, pes);
    }
    // The view's options, by name, to the view itself.
    std::map<QString, QString> given;
    for (const auto& option : renderView->options)
        if (const auto v = cl.parser.value(option.name); v && option.use == OptionUse::View)
            given[QString::fromStdString(option.name)] = QString::fromStdString(*v);
        else if (option.flag && cl.parser.flag(option.name))
            given[QString::fromStdString(option.name)] = QStringLiteral("on");
    // Only when there are any: applying none would start the view's computation over.
    QString error;
    if (!given.empty() && !view->applyOptions(given, &error))
        return cli::usageError(err, "render", error.toStdString());
    // Let the view finish its computation (it runs on the thread pool).
    QElapsedTimer timer;
    timer.start();
    do {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (view->busy())
            QThread::msleep(2);
    } while (view->busy() && timer.elapsed() < 600'000);
    QCoreApplication::processEvents();
    const QSize size(static_cast<int>(width), static_cast<int>(height));
    const QString outputPath = QString::fromStdString(*output);
    if (outputPath.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QString why;
        if (!view->exportSvg(outputPath, size, &why)) {
            err << "parallax-cli render: could not write " << *output << ": " << why.toStdString()
                << "\n";
            return cli::kExitFatal;
        }
        return cli::kExitOk;
    }
    // A view that plays over time: every frame, as an animated PNG (and numbered PNGs).
    if (view->frameCount() > 0) {
        QString why;
        if (const auto dir = cl.parser.value("frames-dir");
            dir && !views::writeFrameSequence(*view, QString::fromStdString(*dir), size, &why)) {
            err << "parallax-cli render: " << why.toStdString() << "\n";
            return cli::kExitFatal;
        }
        if (!views::writeAnimatedPng(*view, outputPath, size, view->frameDelayMs(), &why)) {
            err << "parallax-cli render: could not write " << *output << ": " << why.toStdString()
                << "\n";
            return cli::kExitFatal;
        }
        return cli::kExitOk;
    }
    if (cl.parser.value("frames-dir"))
        return cli::usageError(err, "render", "--frames-dir: the animation has no frames to write");
    const QImage image = view->renderChart(size);
    if (image.isNull() || !image.save(outputPath, "PNG")) {
        err << "parallax-cli render: could not write " << *output
            << " (check the folder exists and is writable)\n";
        return cli::kExitFatal;
    }
    return cli::kExitOk;
}

} // namespace parallax::render
