#include "views/summary/run_summary_widget.h"

#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/count_format.h"
#include "views/common/time_format.h"
#include "views/summary/summary_graph_widget.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::views {

namespace {

// Sections go four abreast from this width on, else two.
constexpr int kWideLayoutWidth = 1100;

QString fromStd(const std::string& s)
{
    return QString::fromStdString(s);
}

QString dash()
{
    return QStringLiteral("—");
}

// "1 warning", "4 warnings" (tr()'s %n plurals need a loaded translation to read well).
// CHARMVERSION is either a number-like tag (v80001 = 8.0.1, major*10000 + minor*100 + patch) or
// a git description (v7.1.0-devel-335).
QString charmVersionText(const std::string& raw)
{
    if (raw.empty())
        return dash();
    const QString text = fromStd(raw);
    static const QRegularExpression numeric(QStringLiteral("^v?(\\d{5,6})$"));
    const auto match = numeric.match(text);
    if (!match.hasMatch())
        return text;
    const int v = match.captured(1).toInt();
    return QStringLiteral("%1.%2.%3  (%4)")
        .arg(v / 10000)
        .arg((v / 100) % 100)
        .arg(v % 100)
        .arg(text);
}

std::size_t presentCount(const std::vector<std::string>& paths)
{
    return static_cast<std::size_t>(
        std::count_if(paths.begin(), paths.end(), [](const std::string& p) { return !p.empty(); }));
}

// "3, 7-9" for the PEs the run leaves out, then the PEs that only lack a summary file, so a
// reader sees which PEs are affected, not only how many.
QString missingPesText(const core::Trace& t)
{
    QStringList parts;
    auto missing = t.missingPes();
    if (t.reduced) {
        // The reduction left these logs out on purpose: their summaries are there.
        std::vector<core::PeId> noLog = core::Trace::pesLackingFile(t.files.logPaths);
        if (!noLog.empty())
            parts << QObject::tr("%1 PEs without a log: left out by the reduction (their "
                                 "summaries are kept)")
                         .arg(noLog.size());
        std::erase_if(missing, [&noLog](core::PeId pe) {
            return std::find(noLog.begin(), noLog.end(), pe) != noLog.end();
        });
    }
    if (!missing.empty())
        parts << QObject::tr("%1 (no data: left out of every view)")
                     .arg(fromStd(core::formatPeList(missing)));
    const std::pair<const std::vector<std::string>*, const char*> kinds[]
        = { { &t.files.logPaths, ".log" }, { &t.files.sumPaths, ".sum" },
              { &t.files.sumdPaths, ".sumd" } };
    for (const auto& [paths, kind] : kinds) {
        if (t.reduced && std::string_view(kind) == ".log")
            continue;
        auto lacking = core::Trace::pesLackingFile(*paths);
        std::erase_if(lacking, [&missing](core::PeId pe) {
            return std::find(missing.begin(), missing.end(), pe) != missing.end();
        });
        if (!lacking.empty())
            parts << QObject::tr("no %1 file: %2")
                         .arg(QLatin1String(kind), fromStd(core::formatPeList(lacking)));
    }
    return parts.isEmpty() ? QObject::tr("none") : parts.join(QStringLiteral("; "));
}

// What a reduced run holds, and what that means for the views.
QString reducedRunNotice(const core::Trace& t)
{
    const auto& r = *t.reduced;
    int exemplars = 0;
    int outliers = 0;
    for (const auto& k : r.kept) {
        exemplars += k.role == "exemplar" ? 1 : 0;
        outliers += k.role == "outlier" ? 1 : 0;
    }
    QString who = r.select == "clusters"
        ? QObject::tr("%1 exemplars and %2 outliers of k-means clusters")
              .arg(exemplars)
              .arg(outliers)
        : QObject::tr("chosen at random");
    return QObject::tr(
        "A reduced run (parallax-cli reduce, from %1): the logs of %2 representative "
        "PEs (%3) and the summaries of all %4 PEs. Views computed from the logs "
        "show the representatives; the summary graph covers every PE. "
        "REDUCTION.md in the run's folder has the quality report.")
        .arg(fromStd(r.source))
        .arg(r.kept.size())
        .arg(who)
        .arg(t.metadata.processors);
}

QLabel* makeHeading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text.toUpper(), parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 0.85);
    f.setLetterSpacing(QFont::PercentageSpacing, 108);
    label->setFont(f);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

QLabel* makeValue(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

RunSummaryWidget::RunSummaryWidget(QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(28, 22, 28, 22);
    outer->setSpacing(0);

    // Header: run name, directory, command line.
    auto* name = new QLabel(this);
    QFont nameFont = name->font();
    nameFont.setPointSizeF(nameFont.pointSizeF() * 1.9);
    nameFont.setWeight(QFont::DemiBold);
    name->setFont(nameFont);
    name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fields.insert(QStringLiteral("name"), name);
    outer->addWidget(name);
    outer->addSpacing(2);

    auto* directory = makeValue(this);
    directory->setWordWrap(false);
    directory->setForegroundRole(QPalette::PlaceholderText);
    // Long paths are clipped rather than forcing the window wider; the tooltip has all of it.
    directory->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_fields.insert(QStringLiteral("directory"), directory);
    outer->addWidget(directory);

    auto* command = makeValue(this);
    command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    command->setForegroundRole(QPalette::PlaceholderText);
    command->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_fields.insert(QStringLiteral("commandLine"), command);
    outer->addSpacing(4);
    outer->addWidget(command);

    auto* notice = makeValue(this);
    notice->setObjectName(QStringLiteral("runSummaryNotice"));
    notice->setStyleSheet(
        QStringLiteral("QLabel#runSummaryNotice { background: rgba(217, 119, 6, 0.12);"
                       " border: 1px solid rgba(217, 119, 6, 0.45);"
                       " border-radius: 6px; padding: 8px 12px; }"));
    notice->hide();
    m_fields.insert(QStringLiteral("notice"), notice);
    outer->addSpacing(14);
    outer->addWidget(notice);

    // Sections of label/value rows.
    auto addSection = [&](const QString& title) {
        auto* section = new QWidget(this);
        auto* v = new QVBoxLayout(section);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(6);
        v->addWidget(makeHeading(title, section));
        auto* form = new QFormLayout;
        form->setContentsMargins(0, 0, 0, 0);
        form->setHorizontalSpacing(14);
        form->setVerticalSpacing(5);
        form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        form->setRowWrapPolicy(QFormLayout::DontWrapRows);
        v->addLayout(form);
        m_sections.push_back(section);
        return form;
    };
    auto* run = addSection(tr("Run"));
    addField(run, QStringLiteral("machine"), tr("Machine"));
    addField(run, QStringLiteral("charmVersion"), tr("Charm++"));
    addField(run, QStringLiteral("formatVersion"), tr("Log format"));
    addField(run, QStringLiteral("recorded"), tr("Recorded"));
    addField(run, QStringLiteral("user"), tr("User"));

    auto* processors = addSection(tr("Processors"));
    addField(processors, QStringLiteral("processors"), tr("PEs"));
    addField(processors, QStringLiteral("smpNodes"), tr("SMP nodes"));
    addField(processors, QStringLiteral("commThreads"), tr("Comm threads"));
    addField(processors, QStringLiteral("entries"), tr("Entry methods"));
    addField(processors, QStringLiteral("userEvents"), tr("User events"));

    auto* time = addSection(tr("Time"));
    addField(time, QStringLiteral("begin"), tr("Begin"));
    addField(time, QStringLiteral("end"), tr("End"));
    addField(time, QStringLiteral("duration"), tr("Duration"));
    addField(time, QStringLiteral("traced"), tr("Traced"));
    addField(time, QStringLiteral("events"), tr("Events"));

    auto* files = addSection(tr("Files"));
    addField(files, QStringLiteral("logs"), tr("Logs"));
    addField(files, QStringLiteral("sums"), tr("Summaries"));
    addField(files, QStringLiteral("sumds"), tr("Details"));
    addField(files, QStringLiteral("missingPes"), tr("Missing PEs"));
    auto* report = addField(files, QStringLiteral("importReport"), tr("Import"));
    report->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    report->setTextFormat(Qt::RichText);
    connect(report, &QLabel::linkActivated, this, &RunSummaryWidget::importReportRequested);

    m_sectionGrid = new QGridLayout;
    m_sectionGrid->setContentsMargins(0, 0, 0, 0);
    m_sectionGrid->setHorizontalSpacing(36);
    m_sectionGrid->setVerticalSpacing(20);
    outer->addSpacing(18);
    outer->addLayout(m_sectionGrid);
    arrangeSections();

    // Utilisation graph.
    outer->addSpacing(26);
    outer->addWidget(makeHeading(tr("Utilization"), this));
    m_graphHeading = makeValue(this);
    m_graphHeading->setForegroundRole(QPalette::PlaceholderText);
    m_fields.insert(QStringLiteral("graphCaption"), m_graphHeading);
    outer->addSpacing(2);
    outer->addWidget(m_graphHeading);
    m_commThreads = new QCheckBox(tr("Include comm threads"), this);
    m_commThreads->setObjectName(QStringLiteral("summaryIncludeCommThreads"));
    m_commThreads->setToolTip(tr("Comm threads have no idle data; by default the graph averages "
                                 "the worker PEs only"));
    m_commThreads->hide();
    connect(m_commThreads, &QCheckBox::toggled, this, [this]() { computeGraph(); });
    outer->addWidget(m_commThreads);
    outer->addSpacing(8);
    m_graph = new SummaryGraphWidget(this);
    m_graph->setMinimumHeight(240);
    outer->addWidget(m_graph, 1);
    m_noGraph = makeValue(this);
    m_noGraph->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(m_noGraph);
    m_graphComputation = new AsyncComputation(this);
    outer->addStretch(0);

    setTrace(nullptr);
}

QLabel* RunSummaryWidget::addField(QFormLayout* form, const QString& key, const QString& label)
{
    auto* name = new QLabel(label, this);
    name->setForegroundRole(QPalette::PlaceholderText);
    auto* value = makeValue(this);
    form->addRow(name, value);
    m_fields.insert(key, value);
    m_fieldForms.insert(key, form);
    return value;
}

void RunSummaryWidget::setField(const QString& key, const QString& text, bool visible)
{
    auto* label = m_fields.value(key);
    if (!label)
        return;
    label->setText(text);
    if (auto* form = m_fieldForms.value(key))
        form->setRowVisible(label, visible);
    else
        label->setVisible(visible);
}

QString RunSummaryWidget::fieldText(const QString& key) const
{
    const auto* label = m_fields.value(key);
    if (!label)
        return {};
    if (label->textFormat() == Qt::RichText) {
        QString plain = label->text();
        plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
        return plain;
    }
    return label->text();
}

bool RunSummaryWidget::isFieldVisible(const QString& key) const
{
    const auto* label = m_fields.value(key);
    return label && !label->isHidden();
}

void RunSummaryWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    arrangeSections();
}

void RunSummaryWidget::arrangeSections()
{
    const int columns = width() >= kWideLayoutWidth ? 4 : 2;
    if (columns == m_sectionColumns)
        return;
    m_sectionColumns = columns;
    for (auto* section : m_sections)
        m_sectionGrid->removeWidget(section);
    for (std::size_t i = 0; i < m_sections.size(); ++i) {
        const auto index = static_cast<int>(i);
        m_sectionGrid->addWidget(m_sections[i], index / columns, index % columns, Qt::AlignTop);
    }
    for (int c = 0; c < 4; ++c)
        m_sectionGrid->setColumnStretch(c, c < columns ? 1 : 0);
}

void RunSummaryWidget::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    if (!m_trace) {
        for (auto it = m_fields.begin(); it != m_fields.end(); ++it)
            setField(it.key(), dash());
        setField(QStringLiteral("name"), tr("No run"));
        setField(QStringLiteral("notice"), {}, false);
        setField(QStringLiteral("commandLine"), {}, false);
        m_graphComputation->cancel();
        m_graph->setSeries({});
        m_graph->hide();
        m_noGraph->hide();
        m_commThreads->hide();
        return;
    }
    const auto& t = *m_trace;
    const auto& m = t.metadata;
    const QLocale locale;

    setField(QStringLiteral("name"), fromStd(t.files.baseName));
    const QString directory = QDir::toNativeSeparators(fromStd(t.files.directory));
    setField(QStringLiteral("directory"), directory);
    m_fields.value(QStringLiteral("directory"))
        ->setToolTip(QDir::toNativeSeparators(fromStd(t.files.stsPath)));
    setField(QStringLiteral("commandLine"), fromStd(m.commandLine), !m.commandLine.empty());

    // Run.
    setField(QStringLiteral("machine"), m.machine.empty() ? dash() : fromStd(m.machine));
    setField(QStringLiteral("charmVersion"), charmVersionText(m.charmVersion));
    setField(QStringLiteral("formatVersion"),
        m.version > 0 ? locale.toString(m.version, 'f', 1) : tr("— (no VERSION line)"));
    setField(QStringLiteral("recorded"), fromStd(m.timestamp), !m.timestamp.empty());
    QString user = fromStd(m.userName);
    if (!m.hostName.empty())
        user += (user.isEmpty() ? QString() : QStringLiteral("@")) + fromStd(m.hostName);
    setField(QStringLiteral("user"), user, !user.isEmpty());

    // Processors.
    setField(QStringLiteral("processors"), locale.toString(m.processors));
    setField(QStringLiteral("smpNodes"),
        tr("%1 × %2").arg(countOf(static_cast<std::uint64_t>(m.numNodes), tr("node"), tr("nodes")),
            countOf(static_cast<std::uint64_t>(m.nodeSize), tr("worker PE"), tr("worker PEs"))),
        m.smp);
    std::vector<core::PeId> commPes;
    for (core::PeId pe = 0; pe < m.processors; ++pe)
        if (m.isCommThread(pe))
            commPes.push_back(pe);
    setField(QStringLiteral("commThreads"),
        tr("PEs %1  (%2 per node)")
            .arg(fromStd(core::formatPeList(commPes)), locale.toString(m.commThreadsPerNode)),
        !commPes.empty());
    setField(QStringLiteral("entries"),
        tr("%1 in %2 chares").arg(countText(m.entries.size()), countText(m.chares.size())));
    setField(QStringLiteral("userEvents"), countText(m.userEvents.size()));
    QStringList eventNames;
    for (const auto& [id, eventName] : m.userEvents) {
        if (eventNames.size() == 20) {
            eventNames << tr("…");
            break;
        }
        eventNames << QStringLiteral("%1  %2").arg(id).arg(fromStd(eventName));
    }
    m_fields.value(QStringLiteral("userEvents"))->setToolTip(eventNames.join(QLatin1Char('\n')));

    // Time.
    const bool hasLogs = t.hasLogs();
    const bool hasSums = t.hasSummaries();
    const core::TimeUs begin = t.beginTime();
    const core::TimeUs end = t.endTime();
    const bool hasTime = end > begin;
    setField(QStringLiteral("begin"), hasTime ? durationText(begin) : dash());
    setField(QStringLiteral("end"), hasTime ? durationText(end) : dash());
    setField(QStringLiteral("duration"), hasTime ? durationText(end - begin) : dash());
    // The span every view opens on (first BEGIN_COMPUTATION to the run's end), next to the
    // records' own first and last times, which comm-thread tails and start-up stretch.
    const auto traced = core::analysis::tracedRunSpan(t);
    setField(QStringLiteral("traced"),
        hasTime ? tr("%1 – %2 (%3)")
                      .arg(durationText(traced.begin), durationText(traced.end),
                          durationText(traced.length()))
                : dash());
    m_fields.value(QStringLiteral("traced"))
        ->setToolTip(tr("The span the views open on: from the first BEGIN_COMPUTATION of a "
                        "worker PE to the run's end time (.projrc), else the workers' last "
                        "END_COMPUTATION. Records outside it (start-up, comm-thread tails) "
                        "are shown as \"not traced\" or marked on the graph."));
    setField(QStringLiteral("events"),
        hasLogs                ? countText(t.eventCount())
            : t.logsOnDemand() ? tr("— (logs read on demand)")
                               : tr("— (no logs)"));

    // Files.
    const auto logs = presentCount(t.files.logPaths);
    const auto sums = presentCount(t.files.sumPaths);
    const auto sumds = presentCount(t.files.sumdPaths);
    auto filesText = [&](std::size_t n, std::uint64_t bytes) {
        if (n == 0)
            return tr("none");
        return tr("%1  ·  %2").arg(countText(n), locale.formattedDataSize(qint64(bytes)));
    };
    setField(QStringLiteral("logs"), filesText(logs, t.files.logBytes));
    setField(QStringLiteral("sums"), filesText(sums, t.files.sumBytes));
    setField(QStringLiteral("sumds"), sumds == 0 ? tr("none") : countText(sumds));
    setField(QStringLiteral("missingPes"), missingPesText(t));

    const auto report = t.fullReport();
    const auto errors = report.total(core::Severity::Error);
    const auto warnings = report.total(core::Severity::Warning) - errors;
    const auto notes = report.total(core::Severity::Info) - warnings - errors;
    if (report.empty()) {
        setField(QStringLiteral("importReport"), tr("no problems"));
    } else {
        QStringList parts;
        if (errors > 0)
            parts << countOf(errors, tr("error"), tr("errors"));
        if (warnings > 0)
            parts << countOf(warnings, tr("warning"), tr("warnings"));
        if (notes > 0)
            parts << countOf(notes, tr("note"), tr("notes"));
        setField(QStringLiteral("importReport"),
            parts.join(QStringLiteral(", "))
                + QStringLiteral(" — <a href=\"report\">%1</a>").arg(tr("show")));
    }

    // Notice for runs that are missing a whole kind of file.
    QString noticeText;
    if (!hasLogs && !hasSums && !t.logsOnDemand())
        noticeText = tr("Only the symbol table was found: there are no .log or .sum files next "
                        "to %1. Copy the run's NAME.N.log(.gz) or NAME.N.sum files into %2 and "
                        "open it again.")
                         .arg(QFileInfo(fromStd(t.files.stsPath)).fileName(), directory);
    else if (t.logsOnDemand())
        noticeText = tr("The logs of this run would need about %1 in memory, more than the memory "
                        "budget: %2 (View → Memory Budget… changes the budget.)")
                         .arg(locale.formattedDataSize(qint64(t.deferredStoreBytes)),
                             hasSums ? tr("the views are computed from the summary files, and the "
                                          "Timeline reads the PEs it shows from their logs.")
                                     : tr("it has no summary files, so only the Timeline can show "
                                          "it, reading the PEs it shows from their logs."));
    else if (!hasLogs)
        noticeText = tr("This run has summary files only (-tracemode summary): views that need "
                        "individual events stay empty.");
    else if (t.reduced)
        noticeText = reducedRunNotice(t);
    setField(QStringLiteral("notice"), noticeText, !noticeText.isEmpty());

    {
        const QSignalBlocker block(m_commThreads);
        m_commThreads->setChecked(false);
    }
    m_commThreads->hide();
    computeGraph();
    // Start-up and the tail after the traced span are marked, not drawn as the program's work.
    m_graph->setTracedSpan(core::analysis::tracedRunSpan(*m_trace));
}

void RunSummaryWidget::computeGraph()
{
    if (!m_trace)
        return;
    // Averaged off the GUI thread (a newer run replaces a pending average).
    m_graphComputation->run<core::analysis::SummaryAverage>(
        [trace = m_trace, include = m_commThreads->isChecked()](const core::analysis::Progress&) {
            return core::analysis::summaryAverage(*trace, core::analysis::Mode::Correct, include);
        },
        [this](core::analysis::SummaryAverage series) { showGraph(std::move(series)); });
}

bool RunSummaryWidget::graphPending() const
{
    return m_graphComputation->busy();
}

void RunSummaryWidget::showGraph(core::analysis::SummaryAverage series)
{
    if (series.empty()) {
        m_graph->setSeries({});
        m_graph->hide();
        setField(QStringLiteral("graphCaption"), {}, false);
        m_noGraph->setText(tr("No .sum files in this run. The whole-run utilization graph needs a "
                              "run linked with -tracemode summary."));
        m_noGraph->show();
        return;
    }
    QString caption
        = tr("Average over %1, %2 bins")
              .arg(countOf(static_cast<std::uint64_t>(series.peTotal), tr("PE"), tr("PEs")),
                  durationText(series.intervalUs));
    // The box stays once shown for this run, so that it can be unticked again.
    if (series.commThreadsApart > 0)
        m_commThreads->show();
    if (series.commThreadsApart > 0)
        caption += tr(" (worker PEs; %1 left out: no idle data)")
                       .arg(countOf(static_cast<std::uint64_t>(series.commThreadsApart),
                           tr("comm thread"), tr("comm threads")));
    if (m_commThreads->isChecked())
        caption += tr(" (comm threads included)");
    if (series.resampled)
        caption += tr(" (coarser bins repeated)");
    caption += tr(", from the .sum files");
    if (!series.hasIdle())
        caption += tr("; these files have no idle data");
    setField(QStringLiteral("graphCaption"), caption);
    m_graph->setSeries(std::move(series));
    m_graph->show();
    m_noGraph->hide();
}

} // namespace parallax::views
