// Session files in the app: a session saved and reopened in another window shows the same
// views drawing the same pictures; a moved run is found beside its session; a changed run opens
// with a message and keeps what applies; a missing run keeps the colours and bookmarks; broken
// and newer files get a clear error.

#include "app/gui/bookmarks_dock.h"
#include "app/gui/main_window.h"
#include "app/gui/session_controller.h"
#include "app/gui/view_workspace.h"
#include "gui/main_window_test_support.h"
#include "io/session_file.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/common/entry_palette.h"
#include "views/histogram/histogram_view.h"
#include "views/timeline/timeline_view.h"

#include <QAbstractButton>
#include <QMessageBox>
#include <QSignalSpy>

#include <catch2/catch.hpp>

using namespace parallax;
using parallax::app::LoadOutcome;
using parallax::app::MainWindow;

namespace {

const std::filesystem::path kSessionSamples = PARALLAX_SAMPLE_DIR;

// Opens a session and waits until it has been applied (or its run given up).
void openSessionAndWait(MainWindow& window, const std::filesystem::path& path)
{
    QSignalSpy restored(window.sessions(), &app::SessionController::restored);
    window.openRun(QString::fromStdString(path.string()));
    REQUIRE(restored.wait(60'000));
}

void waitForViews(MainWindow& window)
{
    test::waitUntil([&window] {
        for (auto* view : window.workspace()->openViews())
            if (view->busy())
                return false;
        return true;
    });
}

std::vector<QString> openViewKeys(const MainWindow& window)
{
    std::vector<QString> keys;
    for (auto* view : window.workspace()->openViews())
        keys.push_back(views::viewKey(view->kind()));
    return keys;
}

// A window with the imbalance run (or `run`) and three views in a state of their own.
void arrangeSessionWindow(MainWindow& window, const std::filesystem::path& run)
{
    window.resize(1200, 800);
    window.show();
    REQUIRE(test::openAndWait(window, run) == LoadOutcome::Loaded);
    auto* ws = window.workspace();
    auto* usage = ws->openView(views::ViewKind::UsageProfile);
    QString error;
    usage->setSelection({ 20'000, 90'000 }, { 1, 3, 5, 9, 11 });
    REQUIRE(usage->applyOptions({ { QStringLiteral("mode"), QStringLiteral("set") } }, &error));
    auto* histogram = ws->openView(views::ViewKind::Histogram);
    REQUIRE(histogram->applyOptions({ { QStringLiteral("metric"), QStringLiteral("msg-size") },
                                        { QStringLiteral("bins"), QStringLiteral("30") },
                                        { QStringLiteral("log-scale"), QStringLiteral("on") } },
        &error));
    auto* timeline = qobject_cast<views::TimelineView*>(ws->openView(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    timeline->setPes({ 9, 3, 0, 1, 2 });
    timeline->timeline()->collapse({ 0, 1, 2 }, QStringLiteral("three quiet PEs"));
    timeline->setWindow({ 30'000, 45'000 });
    timeline->timeline()->setReferenceTime(35'000);
    REQUIRE(timeline->timeline()->selectAt(3, 36'000));
    ws->openView(views::ViewKind::Histogram); // the current tab
    window.palette()->setEntryColor(13, QColor(QStringLiteral("#ff00ff")));
    window.bookmarks()->add({ 36'000, 3, std::nullopt, "PE 3 busy here" });
    waitForViews(window);
}

} // namespace

TEST_CASE("a saved session reopens with the same views drawing the same pictures", "[session]")
{
    test::TempDir dir;
    const auto path = dir / "imbalance.parallax";
    MainWindow original(false);
    arrangeSessionWindow(original, kSessionSamples / "imbalance");
    QString error;
    REQUIRE(original.sessions()->saveTo(QString::fromStdString(path.string()), &error));
    const auto saved = io::readSession(path.string());
    REQUIRE(saved.session);
    CHECK(saved.session->views.size() == 3);
    CHECK(saved.session->currentView == "histogram");
    REQUIRE(saved.session->fingerprint);
    CHECK(saved.session->fingerprint->pes == 12);

    MainWindow reopened(false);
    reopened.resize(1200, 800);
    reopened.show();
    openSessionAndWait(reopened, path);
    CHECK(reopened.sessions()->messageBox() == nullptr); // nothing to report
    REQUIRE(reopened.trace());
    CHECK(openViewKeys(reopened) == openViewKeys(original));
    REQUIRE(reopened.workspace()->currentView() != nullptr);
    CHECK(reopened.workspace()->currentView()->kind() == views::ViewKind::Histogram);
    CHECK(reopened.palette()->entryColor(13) == QColor(QStringLiteral("#ff00ff")));
    CHECK(reopened.bookmarks()->bookmarks() == original.bookmarks()->bookmarks());
    waitForViews(reopened);
    const auto originalViews = original.workspace()->openViews();
    const auto reopenedViews = reopened.workspace()->openViews();
    REQUIRE(originalViews.size() == reopenedViews.size());
    for (std::size_t i = 0; i < originalViews.size(); ++i) {
        INFO(views::viewKey(originalViews[i]->kind()).toStdString());
        CHECK(reopenedViews[i]->saveState() == originalViews[i]->saveState());
        const QSize size(900, 500);
        CHECK(reopenedViews[i]->renderChart(size) == originalViews[i]->renderChart(size));
    }
    auto* timeline
        = qobject_cast<views::TimelineView*>(reopened.workspace()->view(views::ViewKind::Timeline));
    REQUIRE(timeline->selectedBlock());
    CHECK(timeline->selectedBlock()->pe == 3);
    CHECK(timeline->timeline()->groups().size() == 1);
}

TEST_CASE("a run moved together with its session opens from beside it", "[session]")
{
    test::TempDir dir;
    test::copyFiles(kSessionSamples / "imbalance", dir / "before/runs/imbalance");
    MainWindow original(false);
    arrangeSessionWindow(original, dir / "before/runs/imbalance");
    QString error;
    REQUIRE(original.sessions()->saveTo(
        QString::fromStdString((dir / "before/analysis.parallax").string()), &error));
    std::filesystem::rename(dir / "before", dir / "after");

    MainWindow reopened(false);
    openSessionAndWait(reopened, dir / "after/analysis.parallax");
    REQUIRE(reopened.trace());
    CHECK(reopened.runPath().toStdString() == (dir / "after/runs/imbalance").string());
    REQUIRE(reopened.sessions()->messageBox() != nullptr);
    CHECK(reopened.sessions()->messageBox()->text().contains(QStringLiteral("beside the session")));
    CHECK(openViewKeys(reopened) == openViewKeys(original));
}

TEST_CASE("a changed run opens with a message and keeps what still applies", "[session]")
{
    test::TempDir dir;
    test::copyFiles(kSessionSamples / "imbalance", dir / "run");
    MainWindow original(false);
    arrangeSessionWindow(original, dir / "run");
    QString error;
    REQUIRE(
        original.sessions()->saveTo(QString::fromStdString((dir / "s.parallax").string()), &error));
    // The run now has 10 PEs: the Usage Profile's PE 11 is gone.
    auto sts = test::readFile(dir / "run/imbalance.sts");
    const auto at = sts.find("PROCESSORS 12");
    REQUIRE(at != std::string::npos);
    sts.replace(at, 13, "PROCESSORS 10");
    test::writeFile(dir / "run/imbalance.sts", sts);

    MainWindow reopened(false);
    openSessionAndWait(reopened, dir / "s.parallax");
    REQUIRE(reopened.trace());
    CHECK(reopened.trace()->metadata.processors == 10);
    auto* box = reopened.sessions()->messageBox();
    REQUIRE(box != nullptr);
    CHECK(box->text().contains(QStringLiteral("has changed")));
    CHECK(box->text().contains(QStringLiteral("10 PEs, was 12")));
    CHECK(box->informativeText().contains(QStringLiteral("the run has no PE 11")));
    // What applies is restored: the views, the Usage Profile's other PEs and its mode.
    CHECK(openViewKeys(reopened) == openViewKeys(original));
    const auto usage = reopened.workspace()->view(views::ViewKind::UsageProfile)->saveState();
    CHECK(usage.at(QStringLiteral("pes")) == QStringLiteral("1,3,5,9"));
    CHECK(usage.at(QStringLiteral("mode")) == QStringLiteral("set"));
}

TEST_CASE("a session whose run is missing keeps its colours and bookmarks, and finds the run "
          "when located",
    "[session]")
{
    test::TempDir dir;
    io::Session session;
    session.runPath = (dir / "gone").string();
    session.views.push_back({ "timeline", { { "rows", "3,9" } } });
    session.entryColors = { { "Worker::compute(int iter)", "#123456" } };
    session.bookmarks.push_back({ 40'000, 9, std::nullopt, "look here" });
    std::string why;
    REQUIRE(io::writeSession((dir / "s.parallax").string(), session, &why));

    MainWindow window(false);
    window.show();
    QSignalSpy restored(window.sessions(), &app::SessionController::restored);
    window.openRun(QString::fromStdString((dir / "s.parallax").string()));
    auto* box = window.sessions()->messageBox();
    REQUIRE(box != nullptr);
    CHECK(box->text().contains(QStringLiteral("is not at")));
    box->button(QMessageBox::Cancel)->click();
    REQUIRE((restored.count() == 1 || restored.wait(5000)));
    CHECK_FALSE(window.trace());
    CHECK(window.bookmarks()->bookmarks() == session.bookmarks);
    CHECK(window.palette()->overrides().value(QStringLiteral("Worker::compute(int iter)"))
        == QColor(QStringLiteral("#123456")));

    // Opened again and located: the run opens and the views come back.
    window.openRun(QString::fromStdString((dir / "s.parallax").string()));
    REQUIRE(window.sessions()->messageBox() != nullptr);
    QSignalSpy restoredAgain(window.sessions(), &app::SessionController::restored);
    window.sessions()->locateRun(QString::fromStdString((kSessionSamples / "imbalance").string()));
    REQUIRE(restoredAgain.wait(60'000));
    REQUIRE(window.trace());
    auto* timeline
        = qobject_cast<views::TimelineView*>(window.workspace()->view(views::ViewKind::Timeline));
    REQUIRE(timeline != nullptr);
    CHECK(timeline->loadedPes() == std::vector<core::PeId> { 3, 9 });
}

TEST_CASE("damaged and newer session files get a clear error and change nothing", "[session]")
{
    test::TempDir dir;
    test::writeFile(dir / "broken.parallax", "{\"format\": \"parallax-session\", \"vers");
    test::writeFile(dir / "newer.parallax",
        "{\"format\": \"parallax-session\", \"version\": 9, \"run\": {\"path\": \"/x\"}}");
    MainWindow window(false);
    window.show();
    REQUIRE(test::openAndWait(window, kSessionSamples / "grainsize") == LoadOutcome::Loaded);
    const auto before = window.trace();
    for (const auto& [file, says] : { std::pair { "broken.parallax", "not valid JSON" },
             { "newer.parallax", "newer Parallax" } }) {
        INFO(file);
        window.openRun(QString::fromStdString((dir / file).string()));
        auto* box = window.sessions()->messageBox();
        REQUIRE(box != nullptr);
        CHECK(box->text().contains(QStringLiteral("could not open the session")));
        CHECK(box->informativeText().contains(QString::fromLatin1(says)));
        box->close();
        CHECK(window.trace() == before);
    }
}
