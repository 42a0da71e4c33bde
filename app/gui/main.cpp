// parallax: the desktop application.
//
//   parallax [RUN]                  opens RUN (a run directory, NAME.sts or NAME.sum.sts)
//   parallax RUN --screenshot FILE  (hidden) loads RUN, saves a PNG of the window, exits:
//                                   0 loaded, 1 failed (the error box is in the picture),
//                                   2 cancelled, 3 timed out; without RUN the empty state.
//   parallax RUN --screenshot FILE --view KEY  (hidden) with that view open (overview, usage,
//                                   time-profile, histogram, comm, extrema, timeline)
//   parallax RUN --exit-when-ready  (hidden) exits as soon as RUN is open and the window has
//                                   painted it: time the whole process (start to a usable
//                                   window) with e.g. hyperfine. Prints the milliseconds since
//                                   main() on stderr.

#include "main_window.h"
#include "view_workspace.h"
#include "views/common/view_factory.h"
#include "views/summary/run_summary_widget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QPalette>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string_view>

namespace {

using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

constexpr int kSettleMs = 300; // let layouts and the first paint settle before grabbing
constexpr int kScreenshotTimeoutMs = 300'000;

// The window as the user sees it, with an open error box composited on top.
QImage grabWindow(MainWindow& window)
{
    QImage image = window.grab().toImage();
    if (auto* box = window.errorBox(); box && box->isVisible()) {
        QPainter painter(&image);
        painter.fillRect(image.rect(), QColor(0, 0, 0, 40));
        const QPixmap boxImage = box->grab();
        const QSize boxSize = boxImage.deviceIndependentSize().toSize();
        const QPoint at(
            (window.width() - boxSize.width()) / 2, (window.height() - boxSize.height()) / 3);
        painter.drawPixmap(at, boxImage);
    }
    return image;
}

int saveScreenshot(MainWindow& window, const QString& file)
{
    if (!grabWindow(window).save(file)) {
        std::fprintf(stderr, "parallax: could not write the screenshot to %s\n", qPrintable(file));
        return 4;
    }
    return 0;
}

// Calls `then` once nothing computes any more: the summary graph and `view` (may be null),
// polling every `intervalMs`.
void whenIdle(MainWindow& window, const parallax::views::AnalysisView* view, int intervalMs,
    std::function<void()> then)
{
    auto* poll = new QTimer(&window);
    poll->setInterval(intervalMs);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, view, then] {
        if ((view != nullptr && view->busy()) || window.runSummary()->graphPending())
            return;
        poll->stop();
        poll->deleteLater();
        then();
    });
    poll->start();
}

QSize parseSize(const QString& text)
{
    const auto parts = text.split(QLatin1Char('x'));
    if (parts.size() != 2)
        return {};
    bool okW = false;
    bool okH = false;
    const QSize size(parts[0].toInt(&okW), parts[1].toInt(&okH));
    return okW && okH && size.width() > 0 && size.height() > 0 ? size : QSize();
}

// The options of `parallax`; the hidden ones drive screenshots and start-up timing.
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption screenshot { QStringLiteral("screenshot"),
        QStringLiteral("Load RUN, save a PNG of the window to FILE and exit."),
        QStringLiteral("FILE") };
    QCommandLineOption size { QStringLiteral("window-size"),
        QStringLiteral("Window size for --screenshot (default 1280x860)."), QStringLiteral("WxH"),
        QStringLiteral("1280x860") };
    QCommandLineOption view { QStringLiteral("view"),
        QStringLiteral("With --screenshot: open this view before grabbing."),
        QStringLiteral("KEY") };
    QCommandLineOption ready { QStringLiteral("exit-when-ready"),
        QStringLiteral("Exit once RUN is open and painted (for timing the start-up).") };
    QCommandLineOption index { QStringLiteral("index"),
        QStringLiteral("Open RUN through this index only (e.g. written by parallax-index)."),
        QStringLiteral("DIR") };
    QCommandLineOption palette { QStringLiteral("palette"),
        QStringLiteral("dark: the Fusion style with a dark palette, as a desktop's dark theme "
                       "gives (for checking screenshots)."),
        QStringLiteral("NAME") };

    CommandLine()
    {
        parser.setApplicationDescription(QStringLiteral(
            "Parallax: a desktop visualizer for Charm++ Projections trace logs.\n\n"
            "Environment:\n"
            "  PARALLAX_CACHE_DIR      where the index cache of opened runs is kept (default:\n"
            "                          $XDG_CACHE_HOME/parallax, else ~/.cache/parallax)\n"
            "  PARALLAX_MEMORY_BUDGET  runs whose logs need more memory than this (e.g. 16G)\n"
            "                          open from their summary files (default: half the RAM)"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("run"),
            QStringLiteral("A run directory, or its NAME.sts / NAME.sum.sts file, or a session "
                           "saved by File > Save Session (NAME.parallax)."),
            QStringLiteral("[RUN | SESSION.parallax]"));
        parser.addOption(index);
        for (auto* option : { &screenshot, &size, &view, &ready, &palette }) {
            option->setFlags(QCommandLineOption::HiddenFromHelp);
            parser.addOption(*option);
        }
    }
};

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Parallax"));
    QCoreApplication::setApplicationName(QStringLiteral("Parallax"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));
}

// --help and --version are answered without a window, so they work without a display.
bool asksForHelpOrVersion(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v"
            || arg == "--version")
            return true;
    }
    return false;
}

// What a desktop's dark theme gives an application: Fusion with a dark palette (offscreen
// there is no desktop theme to ask).
void useDarkPalette()
{
    QApplication::setStyle(QStringLiteral("Fusion"));
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6a, 0xa9, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x3f));
    p.setColor(QPalette::Mid, QColor(0x25, 0x26, 0x29));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(p);
}

// Whether Qt will find a display: without one it aborts, so say why in one line instead.
bool hasDisplay(int argc, char* argv[])
{
    for (const char* name : { "QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY" })
        if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
            return true;
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "-platform")
            return true;
    return false;
}

// Parses the command line without exiting (QCommandLineParser::process would call exit()).
// Returns -1 to go on, else the exit code: 0 after --help or --version, 64 for a bad option.
int parseCommandLine(CommandLine& cl, const QStringList& arguments)
{
    if (!cl.parser.parse(arguments)) {
        QString error = cl.parser.errorText();
        if (error.endsWith(QLatin1Char('.')))
            error.chop(1);
        std::fprintf(stderr, "parallax: %s (see parallax --help)\n", qPrintable(error));
        return 64;
    }
    if (cl.parser.isSet(QStringLiteral("help")) || cl.parser.isSet(QStringLiteral("help-all"))) {
        // "Usage: parallax ...", not the path it was started by.
        QString text = cl.parser.helpText();
        const QString program = arguments.value(0);
        if (!program.isEmpty())
            text.replace(text.indexOf(program), program.size(), QFileInfo(program).fileName());
        std::fputs(qPrintable(text), stdout);
        return 0;
    }
    if (cl.parser.isSet(QStringLiteral("version"))) {
        std::printf("parallax %s\n", PARALLAX_VERSION);
        return 0;
    }
    return -1;
}

} // namespace

int main(int argc, char* argv[])
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    CommandLine cl;
    if (asksForHelpOrVersion(argc, argv)) {
        const QCoreApplication core(argc, argv);
        setApplicationIdentity();
        const int rc = parseCommandLine(cl, QCoreApplication::arguments());
        return rc < 0 ? 0 : rc;
    }
    if (!hasDisplay(argc, argv)) {
        std::fprintf(stderr,
            "parallax: no display to open a window on (set DISPLAY or WAYLAND_DISPLAY, or "
            "QT_QPA_PLATFORM=offscreen)\n");
        return 1;
    }
    QApplication app(argc, argv);
    setApplicationIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/parallax/parallax.svg")));
    // Desktop shells match the window to the installed launcher and icon by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral(PARALLAX_APP_ID));
    if (const int rc = parseCommandLine(cl, QCoreApplication::arguments()); rc >= 0)
        return rc;
    auto& parser = cl.parser;
    const auto& screenshotOption = cl.screenshot;
    const auto& sizeOption = cl.size;
    const auto& viewOption = cl.view;
    const auto& readyOption = cl.ready;
    const auto& indexOption = cl.index;
    if (parser.isSet(cl.palette)) {
        if (parser.value(cl.palette) != QStringLiteral("dark")) {
            std::fprintf(stderr, "parallax: --palette takes dark\n");
            return 64;
        }
        useDarkPalette();
    }

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "parallax: give at most one run to open\n");
        return 64;
    }
    const QString run = positional.value(0);
    const QString screenshot = parser.value(screenshotOption);
    const bool screenshotMode = !screenshot.isEmpty();

    MainWindow window(/*persistSettings=*/!screenshotMode);
    if (screenshotMode) {
        const QSize size = parseSize(parser.value(sizeOption));
        if (!size.isValid()) {
            std::fprintf(stderr, "parallax: --window-size needs WxH, e.g. 1280x860\n");
            return 64;
        }
        window.resize(size);
    }
    window.show();

    if (screenshotMode) {
        if (run.isEmpty()) {
            QTimer::singleShot(
                kSettleMs, &window, [&] { app.exit(saveScreenshot(window, screenshot)); });
        } else {
            const auto viewKind = parallax::views::viewKindFromKey(parser.value(viewOption));
            if (parser.isSet(viewOption) && !viewKind) {
                std::fprintf(
                    stderr, "parallax: unknown view %s\n", qPrintable(parser.value(viewOption)));
                return 64;
            }
            QObject::connect(
                &window, &MainWindow::loadFinished, &window, [&, viewKind](LoadOutcome outcome) {
                    parallax::views::AnalysisView* view = nullptr;
                    if (viewKind && outcome == LoadOutcome::Loaded)
                        view = window.workspace()->openView(*viewKind);
                    // Wait for the computations, then for the layout to settle.
                    whenIdle(window, view, 50, [&, outcome] {
                        QTimer::singleShot(kSettleMs, &window, [&, outcome] {
                            const int saved = saveScreenshot(window, screenshot);
                            const int code = outcome == LoadOutcome::Loaded ? 0
                                : outcome == LoadOutcome::Failed            ? 1
                                                                            : 2;
                            app.exit(saved != 0 ? saved : code);
                        });
                    });
                });
            QTimer::singleShot(kScreenshotTimeoutMs, &window, [&] {
                std::fprintf(stderr, "parallax: loading %s timed out\n", qPrintable(run));
                app.exit(3);
            });
        }
    }
    if (parser.isSet(readyOption)) {
        if (run.isEmpty()) {
            std::fprintf(stderr, "parallax: --exit-when-ready needs a run\n");
            return 64;
        }
        QObject::connect(&window, &MainWindow::loadFinished, &window, [&](LoadOutcome outcome) {
            whenIdle(window, nullptr, 1, [&, outcome] {
                window.repaint(); // the run as the user sees it, painted
                std::fprintf(stderr, "parallax: ready after %lld ms\n",
                    static_cast<long long>(sinceStart.elapsed()));
                app.exit(outcome == LoadOutcome::Loaded ? 0 : 1);
            });
        });
    }
    if (parser.isSet(indexOption) && run.isEmpty()) {
        std::fprintf(stderr, "parallax: --index needs a run\n");
        return 64;
    }
    if (!run.isEmpty())
        QTimer::singleShot(
            0, &window, [&] { window.openRunWithIndex(run, parser.value(indexOption)); });
    return app.exec();
}
