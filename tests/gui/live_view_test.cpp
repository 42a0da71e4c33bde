// The Live Utilization view fed by the app's polling thread (app/gui/live_connection.h) from a
// CCS server inside the test, and by a recording: the charts show the hand-checked numbers, a
// corrupt reply is reported and the view keeps what it had, an unreachable port says so.

#include "app/gui/live_connection.h"
#include "gui/main_window_test_support.h"
#include "io/stream/stream_recording.h"
#include "support/ccs_test_server.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/common/stacked_bar_chart.h"
#include "views/live/live_view.h"

#include <QSignalSpy>
#include <QStatusBar>

#include <catch2/catch.hpp>

using namespace parallax;

namespace {

// The value of the series named `name` in bar `category` (0 when absent).
double liveBarValue(const views::StackedBarChart& chart, std::size_t category, const QString& name)
{
    const auto& data = chart.data();
    for (std::size_t s = 0; s < data.series.size(); ++s)
        if (data.series[s].name == name)
            return data.value(category, s);
    return 0.0;
}

app::LiveConnectSettings localSettings(const test::CcsTestServer& server)
{
    app::LiveConnectSettings settings;
    settings.host = QStringLiteral("127.0.0.1");
    settings.port = server.port();
    settings.pollMs = 5;
    settings.timeoutMs = 2000;
    return settings;
}

} // namespace

TEST_CASE("live view: File menu offers Connect to Running Program and Open Recording")
{
    app::MainWindow window(false);
    CHECK(test::fileMenuAction(window, QStringLiteral("Connect to Running &Program…")) != nullptr);
    CHECK(test::fileMenuAction(window, QStringLiteral("Open Recordin&g…")) != nullptr);
}

TEST_CASE("live view: chunks from a running program scroll in, a corrupt one keeps the view")
{
    test::CcsTestServer server;
    server.queueChunk(test::handMadeChunk());
    server.queueChunk(test::handMadeChunk());
    app::LiveWindow window;
    auto* view = window.view();
    QSignalSpy chunks(view, &views::LiveUtilizationView::chunkAdded);
    window.connectTo(localSettings(server));
    while (view->stream().chunkCount() < 2)
        REQUIRE(chunks.wait(10'000));

    const auto& scroll = *view->scrollChart();
    // 2 s of 100-ms bars, on an axis that spans 10 s from the start: empty bars to the right.
    REQUIRE(scroll.data().categoryCount() == 100);
    CHECK(scroll.data().categories[19].span->end == 2'000'000);
    CHECK(scroll.data().total(20) == 0.0);
    CHECK(scroll.data().categories.back().span->end == 10'000'000);
    CHECK(liveBarValue(scroll, 0, QStringLiteral("Entry 3")) == Approx(75.0));
    CHECK(liveBarValue(scroll, 0, QStringLiteral("Other")) == Approx(5.0));
    CHECK(liveBarValue(scroll, 11, QStringLiteral("Entry 7")) == Approx(40.0));
    // Other is grey and on top; the entries take the palette's colours.
    CHECK(scroll.data().series.back().name == QStringLiteral("Other"));
    CHECK(scroll.seriesColor(scroll.data().series.size() - 1) == QColor(0x9e, 0x9e, 0x9e));
    // The detail chart: the newest second at 1 ms.
    REQUIRE(view->detailChart()->data().categoryCount() == 1000);
    CHECK(liveBarValue(*view->detailChart(), 60, QStringLiteral("Entry 3")) == Approx(50.0));
    test::waitUntil([&] { return view->statusText().contains(QStringLiteral("polling")); });
    CHECK(view->statusText().contains(QString::fromStdString(server.endpoint())));
    CHECK(view->statusText().contains(QStringLiteral("2 chunks received")));

    auto corrupt = core::stream::encodeUtilizationPayload(test::handMadeChunk());
    corrupt.resize(corrupt.size() - 1);
    QSignalSpy refused(view, &views::LiveUtilizationView::payloadRefused);
    server.queuePayload(corrupt);
    REQUIRE(refused.wait(10'000));
    CHECK(view->lastError().contains(QStringLiteral("chunk refused")));
    CHECK(view->stream().chunkCount() == 2);
    CHECK(scroll.data().categoryCount() == 100);
    CHECK(liveBarValue(scroll, 0, QStringLiteral("Entry 3")) == Approx(75.0));
    CHECK(view->statusText().contains(QStringLiteral("last error: chunk refused")));
}

TEST_CASE("live view: a refused port is reported in the status line")
{
    std::uint16_t port = 0;
    {
        test::CcsTestServer gone;
        port = gone.port();
    }
    app::LiveWindow window;
    app::LiveConnectSettings settings;
    settings.host = QStringLiteral("127.0.0.1");
    settings.port = port;
    window.connectTo(settings);
    test::waitUntil([&] { return !window.view()->lastError().isEmpty(); });
    CHECK(window.view()->lastError().contains(QStringLiteral("refused")));
    CHECK(window.view()->statusText().contains(QStringLiteral("not connected")));
}

TEST_CASE("live view: a recording replays, the slider moves the 10-s window")
{
    test::TempDir dir;
    const auto path = (dir / "sim.plxstream").string();
    std::string error;
    {
        io::stream::StreamRecorder recorder;
        REQUIRE(recorder.open(path, "simulator", error));
        for (std::uint64_t k = 0; k < 12; ++k)
            REQUIRE(recorder.append(core::stream::encodeUtilizationPayload(
                                        core::stream::syntheticUtilizationChunk(k, 4)),
                k, error));
        REQUIRE(recorder.finish(error));
    }
    app::LiveWindow window;
    QSignalSpy read(&window, &app::LiveWindow::recordingRead);
    window.openRecording(QString::fromStdString(path));
    auto* view = window.view();
    // Read on a worker: the window says so until the chunks arrive.
    CHECK(view->statusText().contains(QStringLiteral("reading")));
    REQUIRE(read.wait(10'000));
    CHECK(read.front().front().toBool());
    CHECK(view->stream().chunkCount() == 12);
    CHECK(view->windowEnd() == 12);
    CHECK(view->scrollChart()->data().categoryCount() == 100);
    CHECK(view->statusText().contains(QStringLiteral("recorded from simulator")));
    view->showUpTo(5);
    CHECK(view->windowEnd() == 5);
    // Still a 10-s axis, the 5 s shown filling it from the left.
    CHECK(view->scrollChart()->data().categoryCount() == 100);
    CHECK(view->scrollChart()->data().categories.front().span->begin == 0);
    CHECK(view->scrollChart()->data().total(49) > 0.0);
    CHECK(view->scrollChart()->data().total(50) == 0.0);
    // A click on an empty bar (a second not shown yet) changes nothing.
    emit view->scrollChart()->categoryClicked(80);
    CHECK(view->selectedSecond() == 4);
    // A click on a bar shows its second at 1 ms: bar 25 is [2.5, 2.6) s.
    emit view->scrollChart()->categoryClicked(25);
    CHECK(view->selectedSecond() == 2);
    CHECK(view->detailChart()->title() == QStringLiteral("Second 2 at 1 ms"));
    view->selectSecond(9);
    // Second 9 holds the made-up program's load-balancing dip from 9.6 s on.
    const auto& detail = view->detailChart()->data();
    REQUIRE(detail.categoryCount() == 1000);
    CHECK(detail.total(100) > 50.0);
    CHECK(detail.total(700) < 30.0);

    // A recording cut inside its last record: what was read is shown, and where it was cut.
    const auto whole = test::readFile(path);
    test::writeFile(path, whole.substr(0, whole.size() - 10));
    window.openRecording(QString::fromStdString(path));
    REQUIRE(read.wait(10'000));
    CHECK(read.back().front().toBool());
    CHECK(view->stream().chunkCount() == 11);
    CHECK(view->windowEnd() == 11);
    CHECK(view->lastError().contains(QStringLiteral("inside record 12")));

    window.openRecording(QString::fromStdString((dir / "none").string()));
    REQUIRE(read.wait(10'000));
    CHECK_FALSE(read.back().front().toBool());
    CHECK(view->lastError().contains(QStringLiteral("cannot open recording")));
    CHECK(view->statusText().contains(QStringLiteral("not read")));
}

TEST_CASE("live view: closing the window while the program never answers returns at once")
{
    test::CcsTestServer server;
    io::stream::CcsAnswer silence;
    silence.holdOpen = true; // the stream request is taken and never answered
    server.queueChunk(test::handMadeChunk());
    server.queueAnswer(silence);
    test::TempDir dir;
    const auto record = QString::fromStdString((dir / "closed.plxstream").string());
    auto settings = localSettings(server);
    settings.timeoutMs = 600'000; // only abandoning the request can end it within the test
    settings.recordPath = record;

    app::MainWindow main(false);
    auto* window = new app::LiveWindow(&main);
    QSignalSpy chunks(window->view(), &views::LiveUtilizationView::chunkAdded);
    window->connectTo(settings);
    REQUIRE(chunks.wait(10'000));
    REQUIRE(server.waitUntilDrained()); // the request in flight now hangs

    std::vector<QString> order;
    auto& polling = app::LivePolling::instance();
    const auto finished
        = QObject::connect(&polling, &app::LivePolling::finished, [&](const QString& message) {
              if (message.contains(record))
                  order.push_back(message);
          });
    window->close(); // WA_DeleteOnClose: the window and its view go
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    order.push_back(QStringLiteral("closed"));
    test::waitUntil([&] { return order.size() == 2; }, 10'000);
    QObject::disconnect(finished);
    CHECK(order.front() == QStringLiteral("closed"));
    CHECK(order.back() == QStringLiteral("Recording saved to %1 (1 chunk(s))").arg(record));
    CHECK(main.statusBar()->currentMessage() == order.back()); // told in the main window
    // The recording was completed off the GUI thread: renamed into place, with its one chunk.
    const auto recording = io::stream::readStreamRecording(record.toStdString());
    REQUIRE(recording.ok);
    CHECK(recording.replies.size() == 1);
    CHECK(recording.cut.empty());
}

TEST_CASE("live view: quitting stops every polling thread and waits for its recording")
{
    test::CcsTestServer server;
    io::stream::CcsAnswer silence;
    silence.holdOpen = true;
    server.queueAnswer(silence);
    test::TempDir dir;
    auto settings = localSettings(server);
    settings.timeoutMs = 600'000;
    settings.recordPath = QString::fromStdString((dir / "quit.plxstream").string());
    app::LiveWindow window;
    window.connectTo(settings);
    REQUIRE(server.waitUntilDrained());
    // The window stays open, as when the application quits with it.
    CHECK(app::LivePolling::instance().stopAllAndWait(10'000));
    CHECK(app::LivePolling::instance().running() == 0);
    CHECK(io::stream::readStreamRecording(settings.recordPath.toStdString()).ok);
}

TEST_CASE("live view: a second whose 1-ms bins were let go keeps its bars and says why")
{
    views::LiveUtilizationView view;
    view.setDetailSeconds(2);
    for (std::uint64_t k = 0; k < 5; ++k)
        view.appendPayload(
            core::stream::encodeUtilizationPayload(core::stream::syntheticUtilizationChunk(k, 4)));
    CHECK(view.scrollChart()->data().total(0) > 50.0); // second 0's bars are all there
    CHECK(view.detailChart()->data().categoryCount() == 1000); // the newest second at 1 ms
    emit view.scrollChart()->categoryClicked(5); // [0.5, 0.6) s
    CHECK(view.selectedSecond() == 0);
    CHECK_FALSE(view.detailChart()->hasData());
}
