// Timeline (first version): rows for the PEs asked for, time <-> pixel mapping, and message
// arrows linked by (source PE, event id) on real logs, stale event ids included.

#include "support/io_support.h"
#include "support/test_support.h"
#include "views/entry_palette.h"
#include "views/timeline_view.h"

#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

TEST_CASE(
    "the timeline shows the PEs it is given and maps time to pixels linearly", "[views][timeline]")
{
    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1200, 400);
    view.show();
    view.setTrace(parallax::test::loadOk(std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance"));
    view.setSelection({ 20'000, 32'000 }, { 3, 9 });
    CHECK(view.loadedPes() == std::vector<core::PeId> { 3, 9 });
    view.addPes({ 9, 0 }); // 9 is already there
    CHECK(view.loadedPes() == std::vector<core::PeId> { 3, 9, 0 });
    auto* canvas = view.canvas();
    const QSize size = canvas->size();
    CHECK(canvas->timeAt(canvas->xOf(26'000, size), size) == 26'000);
    CHECK(canvas->xOf(32'000, size) - canvas->xOf(26'000, size)
        == Approx(canvas->xOf(26'000, size) - canvas->xOf(20'000, size)));
    // A block under a time of PE 3 has a rectangle that contains that time's x.
    const auto& ex = view.canvas()->pes().empty() ? nullptr : &view.canvas()->pes();
    REQUIRE(ex != nullptr);
    const QRect block = canvas->blockRectAt(3, 26'500);
    if (block.isValid())
        CHECK(block.contains(static_cast<int>(canvas->xOf(26'500, size)), block.center().y()));
    const QImage image = view.renderChart(QSize(900, 300));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    CHECK(colours.size() > 6);
    CHECK(view.csv().count(QLatin1Char('\n')) > 10);
}

TEST_CASE(
    "clicking a block links it to its sender's CREATION; a stale event id is only a weak link",
    "[views][timeline]")
{
    EntryPalette palette;
    TimelineCanvas canvas(&palette);
    canvas.resize(1000, 200);
    // pipit-pingpong-v11 PE 1: "2 19 183 82012 10 0 160 ..." was created by PE 0 with event 10.
    canvas.setTrace(parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11")));
    canvas.setPes({ 1 });
    REQUIRE(canvas.selectAt(1, 82012));
    const auto pick = canvas.selected();
    REQUIRE(pick);
    CHECK(pick->senderPe == 0);
    REQUIRE(pick->send);
    const auto& trace = *parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11"));
    const auto& sends = trace.pes[0].sends;
    CHECK(sends.eventId[*pick->send] == 10);
    CHECK(sends.time[*pick->send] <= 82012);
    CHECK(sends.entry[*pick->send] == 183);
    CHECK_FALSE(pick->weak);

    // pipit-hello1darray-v11 PE 1: the Hello() constructor carries event 7 of PE 0, which is the
    // CkCheckpointMgr group-creation broadcast (FORMAT.md §2.3): not a solid arrow.
    TimelineCanvas hello(&palette);
    hello.resize(1000, 200);
    hello.setTrace(parallax::test::loadOk(parallax::test::realLog("pipit-hello1darray-v11")));
    hello.setPes({ 0, 1 });
    REQUIRE(hello.selectAt(1, 1864));
    const auto stale = hello.selected();
    REQUIRE(stale);
    CHECK((!stale->send || stale->weak));
}

TEST_CASE("Shift+drag in the timeline selects a time range; a plain drag pans", "[views][timeline]")
{
    EntryPalette palette;
    TimelineCanvas canvas(&palette);
    canvas.resize(1000, 200);
    canvas.show();
    canvas.setTrace(
        parallax::test::loadOk(std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance"));
    canvas.setPes({ 0 });
    canvas.setWindow({ 0, 100'000 });
    const QSize size = canvas.size();
    const int y = canvas.rowTop(0) + 5;
    const QPoint from(static_cast<int>(canvas.xOf(20'000, size)), y);
    const QPoint to(static_cast<int>(canvas.xOf(40'000, size)), y);
    QSignalSpy selected(&canvas, &TimelineCanvas::rangeSelected);
    QTest::mousePress(&canvas, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(&canvas, to);
    QTest::mouseRelease(&canvas, Qt::LeftButton, Qt::ShiftModifier, to);
    REQUIRE(selected.count() == 1);
    const auto range = selected.at(0).at(0).value<core::TimeRange>();
    CHECK(range.begin == Approx(20'000).margin(200));
    CHECK(range.end == Approx(40'000).margin(200));
    CHECK(canvas.window().begin == 0); // selecting does not pan
    QTest::mousePress(&canvas, Qt::LeftButton, {}, to);
    QTest::mouseMove(&canvas, from);
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, from);
    CHECK(canvas.window().begin == Approx(20'000).margin(200)); // dragged left by 20 ms
}
