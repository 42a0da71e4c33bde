// parallax-bench-gui: does the desktop app stay responsive on a big run? It drives the main
// window as an analyst would — open the run, open every view, switch tabs, zoom and pan the
// Timeline, add all PEs to it, change views' options, find an entry method, bookmark, save and
// reopen a session, resize, export data, close — and an event-loop watchdog measures, per
// action, the longest stretch the GUI thread worked without returning to its event loop (input
// waits that long). Above ~100 ms an analyst feels the window freeze. Figures, not pass/fail;
// docs/performance.md has them and the command.
//
//   QT_QPA_PLATFORM=offscreen parallax-bench-gui RUN [--width W] [--height H]
//
// The watchdog is a heartbeat timer on the GUI thread (every 2 ms): the longest gap between two
// beats is the longest time the thread did not get back to its event loop. Each action is
// posted into the event loop, so its own time counts too.

#include "app/gui/bookmarks_dock.h"
#include "app/gui/data_export_job.h"
#include "app/gui/main_window.h"
#include "app/gui/session_controller.h"
#include "app/gui/view_navigation.h"
#include "app/gui/view_workspace.h"
#include "views/common/view_factory.h"
#include "views/summary/run_summary_widget.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using parallax::app::MainWindow;
namespace views = parallax::views;

constexpr double kFreezeMs = 100.0;
constexpr int kActionTimeoutMs = 600'000;

// A heartbeat on the GUI thread: a timer that should fire every kBeatMs. The longest gap
// between two beats is the longest time the thread could not get back to its event loop (and
// so could not have handled a click or a key either).
class EventLoopWatchdog {
public:
    static constexpr int kBeatMs = 2;
    EventLoopWatchdog()
    {
        m_clock.start();
        m_beat.setTimerType(Qt::PreciseTimer);
        m_beat.setInterval(kBeatMs);
        QObject::connect(&m_beat, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_longest = std::max(m_longest, now - m_last);
            m_last = now;
        });
        m_beat.start();
    }
    void reset()
    {
        m_longest = 0;
        m_last = m_clock.nsecsElapsed();
    }
    // The longest gap between beats, less the beat itself.
    [[nodiscard]] double longestMs() const
    {
        return std::max(0.0, static_cast<double>(m_longest) / 1e6 - kBeatMs);
    }

private:
    QElapsedTimer m_clock;
    QTimer m_beat;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

struct ActionResult {
    std::string name;
    double longestMs = 0;
    double totalMs = 0;
};

bool windowIdle(MainWindow& window)
{
    if (window.isLoading() || window.runSummary()->graphPending())
        return false;
    for (auto* view : window.workspace()->openViews())
        if (view->busy())
            return false;
    return true;
}

// Posts `action` into the event loop and runs the loop until the window is idle (and then
// a little longer, for the repaints), measuring the longest busy stretch.
ActionResult measure(EventLoopWatchdog& watchdog, MainWindow& window, const std::string& name,
    const std::function<void()>& action, const std::function<bool()>& done = {})
{
    QEventLoop loop;
    QElapsedTimer total;
    int idlePolls = 0;
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const bool idle = windowIdle(window) && (!done || done());
        idlePolls = idle ? idlePolls + 1 : 0;
        if (idlePolls >= 4 || total.elapsed() > kActionTimeoutMs)
            loop.quit();
    });
    watchdog.reset();
    total.start();
    QTimer::singleShot(0, &loop, [&] {
        action();
        poll.start();
    });
    loop.exec();
    ActionResult result { name, watchdog.longestMs(), static_cast<double>(total.elapsed()) };
    std::printf("%-44s %9.1f %10.1f%s\n", name.c_str(), result.longestMs, result.totalMs,
        result.longestMs > kFreezeMs ? "   FREEZE" : "");
    std::fflush(stdout);
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ParallaxBench"));
    QApplication::setApplicationName(QStringLiteral("ParallaxBenchGui"));
    QString run;
    int width = 1600;
    int height = 1000;
    const QStringList args = QApplication::arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        if (args[i] == QStringLiteral("--width") && i + 1 < args.size())
            width = args[++i].toInt();
        else if (args[i] == QStringLiteral("--height") && i + 1 < args.size())
            height = args[++i].toInt();
        else if (run.isEmpty() && !args[i].startsWith(QLatin1Char('-')))
            run = args[i];
        else {
            std::fprintf(stderr, "usage: parallax-bench-gui RUN [--width W] [--height H]\n");
            return 2;
        }
    }
    if (run.isEmpty() || width < 200 || height < 200) {
        std::fprintf(stderr, "usage: parallax-bench-gui RUN [--width W] [--height H]\n");
        return 2;
    }
    QTemporaryDir scratch;
    MainWindow window(false);
    window.resize(width, height);
    window.show();
    EventLoopWatchdog watchdog;
    std::vector<ActionResult> results;
    const auto step = [&](const std::string& name, const std::function<void()>& action,
                          const std::function<bool()>& done = {}) {
        results.push_back(measure(watchdog, window, name, action, done));
    };
    auto* ws = window.workspace();
    std::printf("%-44s %9s %10s\n", "action", "stall ms", "total ms");

    step(
        "open the run", [&] { window.openRun(run); }, [&] { return window.trace() != nullptr; });
    if (!window.trace()) {
        std::fprintf(stderr, "parallax-bench-gui: could not open %s\n", qPrintable(run));
        return 1;
    }
    for (const auto kind : views::kAllViewKinds)
        step("open " + views::viewKey(kind).toStdString(), [&, kind] { ws->openView(kind); });
    // Ends when the last tab is shown (not at the first idle moment between two switches).
    bool lastTabShown = false;
    step(
        "switch through every tab",
        [&] {
            for (int i = 0; i < ws->count(); ++i)
                QTimer::singleShot(i * 10, ws, [ws, i, &lastTabShown] {
                    ws->setCurrentIndex(i);
                    lastTabShown = i == ws->count() - 1;
                });
        },
        [&] { return lastTabShown; });

    auto* timeline = qobject_cast<views::TimelineView*>(ws->openView(views::ViewKind::Timeline));
    auto* nav = window.navigation();
    step("timeline: zoom in", [&] { nav->zoomBy(0.5); });
    step("timeline: zoom in x4", [&] { nav->zoomBy(1.0 / 16); });
    step("timeline: pan", [&] {
        const auto w = timeline->window();
        timeline->setWindow({ w.begin + w.length() / 2, w.end + w.length() / 2 });
    });
    step("timeline: whole run", [&] { nav->showWholeRun(); });
    step("timeline: add every PE", [&] {
        timeline->addPeList(QStringLiteral("0-%1").arg(window.trace()->metadata.processors - 1));
    });
    step("timeline: select an execution", [&] {
        const auto pe = timeline->loadedPes().front();
        const auto& ex = window.trace()->pes[static_cast<std::size_t>(pe)].executions;
        if (ex.size() > 0)
            timeline->timeline()->selectAt(pe, ex.begin[ex.size() / 2]);
    });
    step("find the heaviest entry method", [&] {
        nav->findEntry(
            static_cast<parallax::core::EntryId>(window.trace()->pes[0].executions.size() > 0
                    ? window.trace()->pes[0].executions.entry[0]
                    : 0));
    });
    step("find next", [&] { nav->findNextAction()->trigger(); });
    step("add a bookmark", [&] { window.addBookmark(); });
    // File → Export Data without its file dialog: the job writes the file (big views on a
    // worker); the step ends when the file is in place.
    const auto exportData = [&](views::ViewKind kind, const QString& file) {
        bool exported = false;
        step(
            views::viewKey(kind).toStdString() + ": export data (CSV)",
            [&, kind, file] {
                ws->openView(kind);
                auto* job = window.exportDataTo(scratch.filePath(file));
                QObject::connect(job, &parallax::app::DataExportJob::finished, &window,
                    [&exported] { exported = true; });
            },
            [&exported] { return exported; });
    };
    exportData(views::ViewKind::Timeline, QStringLiteral("timeline.csv"));

    const auto options = [&](views::ViewKind kind, std::map<QString, QString> o) {
        step("options: " + views::viewKey(kind).toStdString() + " " + o.begin()->first.toStdString()
                + " " + o.begin()->second.toStdString(),
            [&, kind, o] {
                QString error;
                ws->openView(kind)->applyOptions(o, &error);
            });
    };
    options(views::ViewKind::Overview, { { QStringLiteral("columns"), QStringLiteral("3000") } });
    options(views::ViewKind::Overview, { { QStringLiteral("by"), QStringLiteral("block:16") } });
    options(views::ViewKind::UsageProfile, { { QStringLiteral("mode"), QStringLiteral("key") } });
    options(
        views::ViewKind::Histogram, { { QStringLiteral("metric"), QStringLiteral("msg-size") } });
    options(
        views::ViewKind::Extrema, { { QStringLiteral("criterion"), QStringLiteral("msgs-sent") } });
    exportData(views::ViewKind::Overview, QStringLiteral("overview.csv"));

    const QString session = scratch.filePath(QStringLiteral("bench.parallax"));
    step("save the session", [&] {
        QString error;
        window.sessions()->saveTo(session, &error);
    });
    bool restored = false;
    QObject::connect(window.sessions(), &parallax::app::SessionController::restored, &window,
        [&restored] { restored = true; });
    step(
        "open the session (every view again)", [&] { window.openRun(session); },
        [&] { return restored; });
    step("resize the window", [&] { window.resize(width * 3 / 4, height * 3 / 4); });
    step("close the run", [&] { window.closeRun(); });

    const auto worst = std::max_element(results.begin(), results.end(),
        [](const ActionResult& a, const ActionResult& b) { return a.longestMs < b.longestMs; });
    std::printf("\nlongest stall: %.1f ms (%s); %zu of %zu actions above %.0f ms\n",
        worst->longestMs, worst->name.c_str(),
        static_cast<std::size_t>(std::count_if(results.begin(), results.end(),
            [](const ActionResult& r) { return r.longestMs > kFreezeMs; })),
        results.size(), kFreezeMs);
    return 0;
}
