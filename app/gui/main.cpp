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
#include <QIcon>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QTimer>

#include <cstdio>
#include <functional>

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

} // namespace

int main(int argc, char* argv[])
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Parallax"));
    QApplication::setApplicationName(QStringLiteral("Parallax"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/parallax/parallax.svg")));
    QApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Parallax: a desktop visualizer for Charm++ Projections trace logs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("run"),
        QStringLiteral("A run directory, or its NAME.sts / NAME.sum.sts file."),
        QStringLiteral("[RUN]"));
    QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Load RUN, save a PNG of the window to FILE and exit."),
        QStringLiteral("FILE"));
    screenshotOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption sizeOption(QStringLiteral("window-size"),
        QStringLiteral("Window size for --screenshot (default 1280x860)."), QStringLiteral("WxH"),
        QStringLiteral("1280x860"));
    sizeOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption viewOption(QStringLiteral("view"),
        QStringLiteral("With --screenshot: open this view before grabbing."),
        QStringLiteral("KEY"));
    viewOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption readyOption(QStringLiteral("exit-when-ready"),
        QStringLiteral("Exit once RUN is open and painted (for timing the start-up)."));
    readyOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption indexOption(QStringLiteral("index"),
        QStringLiteral("Open RUN through this index only (e.g. written by parallax-index)."),
        QStringLiteral("DIR"));
    parser.addOption(indexOption);
    parser.addOption(readyOption);
    parser.addOption(screenshotOption);
    parser.addOption(sizeOption);
    parser.addOption(viewOption);
    parser.process(app);

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
