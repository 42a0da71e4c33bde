// Timeline geometry without a window: time <-> pixel mapping, the ruler, sub-pixel merging,
// hit-testing at block borders, and linking executions to their senders' CREATIONs on
// hand-made traces and on real logs (stale event ids included).

#include "support/io_support.h"
#include "support/test_support.h"
#include "views/timeline/timeline_bar_painter.h"
#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_summary.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

using namespace parallax;
using namespace parallax::views;

namespace {

// A hand-made trace: entries 0 = dummy_thread_ep, 1..5 = e1..e5.
class TraceMaker {
public:
    explicit TraceMaker(int pes)
    {
        m_trace = std::make_shared<core::Trace>();
        auto& meta = m_trace->metadata;
        meta.version = 11.0;
        meta.processors = pes;
        meta.numNodes = pes;
        meta.chares.push_back({ "Main", -1 });
        meta.entries.push_back({ "dummy_thread_ep", 0, -1 });
        for (char i = '1'; i <= '5'; ++i)
            meta.entries.push_back({ std::string { 'e', i }, 0, -1 });
        m_trace->pes.resize(static_cast<std::size_t>(pes));
        for (int p = 0; p < pes; ++p) {
            auto& pe = m_trace->pes[static_cast<std::size_t>(p)];
            pe.pe = p;
            pe.hasLog = true;
            pe.beginComputation = 0;
            pe.firstTime = 0;
        }
    }

    TraceMaker& exec(core::PeId pe, core::TimeUs b, core::TimeUs e, int entry,
        core::PeId source = 0, std::int32_t event = -1)
    {
        auto& p = at(pe);
        auto& x = p.executions;
        x.begin.push_back(b);
        x.end.push_back(e);
        x.entry.push_back(static_cast<std::uint16_t>(entry));
        x.sourcePe.push_back(source);
        x.msgBytes.push_back(64);
        x.eventId.push_back(event);
        x.object.push_back(0);
        x.cpuBegin.push_back(0);
        x.cpuDuration.push_back(0);
        x.flags.push_back(0);
        p.lastTime = std::max(p.lastTime, e);
        return *this;
    }

    TraceMaker& idle(core::PeId pe, core::TimeUs b, core::TimeUs e)
    {
        auto& p = at(pe);
        p.idles.begin.push_back(b);
        p.idles.end.push_back(e);
        p.lastTime = std::max(p.lastTime, e);
        return *this;
    }

    TraceMaker& send(core::PeId pe, core::TimeUs t, int entry, std::int32_t event,
        core::SendKind kind = core::SendKind::PointToPoint)
    {
        auto& s = at(pe).sends;
        s.time.push_back(t);
        s.entry.push_back(static_cast<std::uint16_t>(entry));
        s.kind.push_back(kind);
        s.messageType.push_back(21);
        s.msgBytes.push_back(64);
        s.eventId.push_back(event);
        s.destinationCount.push_back(1);
        s.sendDuration.push_back(0);
        s.execution.push_back(core::kNoExecution);
        return *this;
    }

    TraceMaker& bracket(core::PeId pe, core::TimeUs b, core::TimeUs e, core::UserEventId id)
    {
        at(pe).userBrackets.push_back({ b, e, id, 0, core::BracketKind::Pair });
        return *this;
    }

    TraceMaker& note(core::PeId pe, core::TimeUs b, std::string text)
    {
        at(pe).notes.push_back({ b, b, -1, std::move(text) });
        return *this;
    }

    [[nodiscard]] core::TracePtr done()
    {
        for (auto& p : m_trace->pes)
            p.endComputation = p.lastTime;
        return m_trace;
    }

private:
    core::PeTrace& at(core::PeId pe) { return m_trace->pes[static_cast<std::size_t>(pe)]; }
    std::shared_ptr<core::Trace> m_trace;
};

// A layout whose plot starts at x = 100 and is exactly `width` pixels wide.
TimelineLayout plotOf(int width, QSize& size)
{
    TimelineLayout layout;
    layout.margin = 0;
    layout.labelWidth = 100;
    size = QSize(100 + width, 300);
    return layout;
}

std::vector<TimelineBlock> blocksOf(const TimelineGeometry& g, core::PeId pe)
{
    const auto* row = g.rowOfPe(pe);
    REQUIRE(row != nullptr);
    return row->blocks;
}

void requireSortedAndDisjoint(const std::vector<TimelineBlock>& blocks)
{
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        INFO("block " << i);
        REQUIRE(blocks[i].left < blocks[i].right);
        if (i > 0)
            REQUIRE(blocks[i - 1].right <= blocks[i].left);
    }
}

} // namespace

TEST_CASE("time maps to pixels linearly and back to the nearest microsecond", "[views][timeline]")
{
    TimeMapping map;
    map.window = { 1'000, 3'000 };
    map.left = 50;
    map.width = 1000;
    CHECK(map.xOf(1'000) == Approx(50));
    CHECK(map.xOf(3'000) == Approx(1050));
    CHECK(map.xOf(2'000) == Approx(550));
    CHECK(map.usPerPixel() == Approx(2.0));
    for (const core::TimeUs t : { 1'000, 1'234, 2'999, 3'000 })
        CHECK(map.timeAt(map.xOf(t)) == t);
    CHECK(map.timeAt(50.6) == 1'001);
    // Outside the window is extrapolated, not clamped (callers clamp).
    CHECK(map.xOf(0) == Approx(-450));
}

TEST_CASE("the ruler has nice steps, readable labels with units, and offsets when deep in a run",
    "[views][timeline]")
{
    TimeMapping map;
    map.left = 0;
    map.width = 1000;

    map.window = { 0, 8'000'000 };
    auto axis = buildTimeAxis(map, 100);
    CHECK(axis.step == Approx(1'000'000));
    REQUIRE(axis.ticks.size() >= 8);
    CHECK(axis.ticks[0].label == QStringLiteral("0"));
    CHECK(axis.ticks[1].label == QStringLiteral("1 s"));
    CHECK(axis.origin.isEmpty());
    for (std::size_t i = 1; i < axis.ticks.size(); ++i)
        CHECK(axis.ticks[i].x - axis.ticks[i - 1].x >= 100.0);

    map.window = { 2'867'000, 3'011'000 }; // ~144 ms
    axis = buildTimeAxis(map, 100);
    CHECK(axis.step == Approx(20'000));
    CHECK(axis.ticks.front().label == QStringLiteral("2,880 ms"));
    CHECK(axis.origin.isEmpty());

    map.window = { 2'987'000, 2'988'000 }; // 1 ms: still absolute
    axis = buildTimeAxis(map, 100);
    CHECK(axis.step == Approx(100));
    CHECK(axis.ticks[1].label == QStringLiteral("2,987.1 ms"));

    map.window = { 2'987'870, 2'987'890 }; // 20 µs: offsets from t0
    axis = buildTimeAxis(map, 100);
    CHECK(axis.step == Approx(2));
    CHECK(axis.origin == QStringLiteral("2.987870 s"));
    CHECK(axis.ticks[0].label == QStringLiteral("t₀"));
    CHECK(axis.ticks[1].label == QStringLiteral("+2 µs"));

    CHECK(formatAxisTime(1'500'000, 500'000) == QStringLiteral("1.5 s"));
    CHECK(formatAxisTime(250, 50) == QStringLiteral("250 µs"));
    CHECK(formatPreciseTime(2'987'873) == QStringLiteral("2.987873 s"));
    CHECK(formatPreciseTime(12'345) == QStringLiteral("12.345 ms"));
    CHECK(formatPreciseTime(250) == QStringLiteral("250 µs"));
}

TEST_CASE("with a reference mark the ruler counts from it: 0 at the mark, signed offsets",
    "[views][timeline]")
{
    TimeMapping map;
    map.left = 0;
    map.width = 1000;
    map.window = { 2'000'000, 2'010'000 }; // 10 ms deep into a run
    const auto axis = buildTimeAxis(map, 100, core::TimeUs { 2'004'321 });
    CHECK(axis.step == Approx(1'000));
    CHECK(axis.originName == QStringLiteral("ref"));
    CHECK(axis.origin == QStringLiteral("2.004321 s"));
    // One tick lies exactly on the mark; the others are whole steps before and after it.
    const auto zero = std::find_if(axis.ticks.begin(), axis.ticks.end(),
        [](const TimeTick& t) { return t.label == QStringLiteral("0"); });
    REQUIRE(zero != axis.ticks.end());
    CHECK(zero->x == Approx(map.xOf(2'004'321)));
    REQUIRE(zero != axis.ticks.begin());
    CHECK((zero - 1)->label == QStringLiteral("−1 ms"));
    REQUIRE(zero + 1 != axis.ticks.end());
    CHECK((zero + 1)->label == QStringLiteral("+1 ms"));
    CHECK(axis.ticks.front().x >= 0.0);
    CHECK(axis.ticks.back().x <= 1000.0);
    // A mark outside the window still anchors the ticks (all one sign).
    const auto later = buildTimeAxis(map, 100, core::TimeUs { 3'000'000 });
    REQUIRE_FALSE(later.ticks.empty());
    for (const auto& t : later.ticks)
        CHECK(t.label.startsWith(QStringLiteral("−")));
    // Without a mark: absolute labels, no origin name.
    CHECK(buildTimeAxis(map, 100).originName.isEmpty());
}

TEST_CASE("blocks narrower than a pixel share their pixel: dominant activity and a count",
    "[views][timeline]")
{
    // 1000 µs over 100 px: 10 µs per pixel.
    TraceMaker m(1);
    m.exec(0, 0, 100, 1); // pixels 0..9
    // Pixel 20 (200..210): nine 1-µs executions of e2 and one of e3 (e2 dominates).
    for (int i = 0; i < 9; ++i)
        m.exec(0, 200 + i, 201 + i, 2);
    m.exec(0, 209, 210, 3);
    m.exec(0, 503, 506, 4); // alone in pixel 50: a normal 1-pixel block
    m.idle(0, 600, 800); // pixels 60..79
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(100, size);
    const auto g = buildTimelineGeometry(*trace, { 0 }, { 0, 1000 }, size, layout);
    REQUIRE(g.map.left == Approx(100));
    REQUIRE(g.map.width == Approx(100));
    const auto blocks = blocksOf(g, 0);
    requireSortedAndDisjoint(blocks);
    REQUIRE(blocks.size() == 4);

    CHECK(blocks[0].kind == TimelineBlockKind::Execution);
    CHECK(blocks[0].left == 100);
    CHECK(blocks[0].right == 110);
    CHECK(blocks[0].activity == 1);

    CHECK(blocks[1].kind == TimelineBlockKind::Merged);
    CHECK(blocks[1].left == 120);
    CHECK(blocks[1].right == 121);
    CHECK(blocks[1].count == 10);
    CHECK(blocks[1].executions == 10);
    CHECK(blocks[1].activity == 2);
    CHECK(blocks[1].dominantShare == Approx(0.9F));
    CHECK(blocks[1].begin == 200);
    CHECK(blocks[1].end == 210);

    CHECK(blocks[2].kind == TimelineBlockKind::Execution);
    CHECK(blocks[2].left == 150);
    CHECK(blocks[2].right == 151);
    CHECK(blocks[2].activity == 4);
    CHECK(blocks[2].count == 1);

    CHECK(blocks[3].kind == TimelineBlockKind::Idle);
    CHECK(blocks[3].activity == g.columns.idle());
    CHECK(blocks[3].left == 160);
    CHECK(blocks[3].right == 180);

    const auto* row = g.rowOfPe(0);
    CHECK(row->busyUs == 100 + 10 + 3);
    CHECK(row->idleUs == 200);
    CHECK(g.activityTime[2] == 9);
    CHECK(g.activityTime[static_cast<std::size_t>(g.columns.idle())] == 200);
}

TEST_CASE("a merged pixel knows how much of its time its executions ran", "[views][timeline]")
{
    // 1000 µs over 100 px: 10 µs per pixel. Pixel 20: ten 1-µs executions (fully busy).
    // Pixel 40: two 1-µs executions in 10 µs (20 % busy, like an SMP comm thread).
    TraceMaker m(1);
    for (int i = 0; i < 10; ++i)
        m.exec(0, 200 + i, 201 + i, 2);
    m.exec(0, 401, 402, 3);
    m.exec(0, 405, 406, 3);
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(100, size);
    const auto g = buildTimelineGeometry(*trace, { 0 }, { 0, 1000 }, size, layout);
    const auto blocks = blocksOf(g, 0);
    REQUIRE(blocks.size() == 2);
    REQUIRE(blocks[0].kind == TimelineBlockKind::Merged);
    REQUIRE(blocks[1].kind == TimelineBlockKind::Merged);
    CHECK(blocks[0].utilization == Approx(1.0F));
    CHECK(blocks[1].utilization == Approx(0.2F));
    // Drawn as high as that share: full for the busy pixel, a fifth for the sparse one.
    CHECK(TimelineBarPainter::blockHeight(blocks[0], 40) == 40);
    CHECK(TimelineBarPainter::blockHeight(blocks[1], 40) == 8);
    // A single execution is always full height.
    TimelineBlock single;
    single.kind = TimelineBlockKind::Execution;
    single.utilization = 0.1F;
    CHECK(TimelineBarPainter::blockHeight(single, 40) == 40);
}

TEST_CASE("adjacent blocks meet without gaps or overlaps, a partly covered pixel goes to the "
          "interval covering most of it",
    "[views][timeline]")
{
    TraceMaker m(1);
    m.exec(0, 0, 104, 1); // ends 0.4 px into pixel 10
    m.exec(0, 104, 300, 2); // covers 0.6 of pixel 10: takes it
    m.exec(0, 300, 457, 3); // ends 0.7 into pixel 45: keeps it (next begins later)
    m.exec(0, 480, 600, 4); // starts 0.0 into pixel 48
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(100, size);
    const auto g = buildTimelineGeometry(*trace, { 0 }, { 0, 1000 }, size, layout);
    const auto blocks = blocksOf(g, 0);
    requireSortedAndDisjoint(blocks);
    REQUIRE(blocks.size() == 4);
    CHECK(blocks[0].right == 110);
    CHECK(blocks[1].left == 110);
    CHECK(blocks[1].right == 130);
    CHECK(blocks[2].left == 130);
    CHECK(blocks[2].right == 146);
    CHECK(blocks[3].left == 148);
    CHECK(blocks[3].right == 160);
    for (const auto& b : blocks)
        CHECK(b.kind == TimelineBlockKind::Execution);
}

TEST_CASE("hit-testing at block borders finds the block that owns the pixel", "[views][timeline]")
{
    TraceMaker m(1);
    m.exec(0, 100, 200, 1).exec(0, 200, 350, 2).idle(0, 350, 500);
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(1000, size); // 1 µs per pixel
    const auto g = buildTimelineGeometry(*trace, { 0 }, { 0, 1000 }, size, layout);
    const auto* row = g.rowOfPe(0);
    REQUIRE(row != nullptr);
    auto at = [&](core::TimeUs t) {
        return g.blockAt(*row, static_cast<int>(g.map.xOf(t)));
    };
    CHECK(at(99) == nullptr);
    REQUIRE(at(100) != nullptr);
    CHECK(at(100)->index == 0);
    CHECK(at(199)->index == 0);
    CHECK(at(200)->index == 1); // the first pixel of the second block
    CHECK(at(349)->kind == TimelineBlockKind::Execution);
    CHECK(at(350)->kind == TimelineBlockKind::Idle);
    CHECK(at(499)->kind == TimelineBlockKind::Idle);
    CHECK(at(500) == nullptr);
    const QRect r = g.blockRect(*row, *at(250));
    CHECK(r.left() == static_cast<int>(g.map.xOf(200)));
    CHECK(r.right() + 1 == static_cast<int>(g.map.xOf(350)));
    CHECK(r.top() == row->bar.top());
    CHECK(r.height() == row->bar.height());
    // rowAt covers the event strip, the bar and the gap below.
    CHECK(g.rowAt(row->bar.center().y()) == row);
    CHECK(g.rowAt(row->eventStrip.top()) == row);
}

TEST_CASE("rows share the height, scroll when they do not fit, and only visible rows are built",
    "[views][timeline]")
{
    TraceMaker m(40);
    for (core::PeId p = 0; p < 40; ++p)
        m.exec(p, 0, 100, 1);
    const auto trace = m.done();
    std::vector<core::PeId> pes;
    for (core::PeId p = 0; p < 40; ++p)
        pes.push_back(p);
    TimelineLayout layout;
    const auto few
        = buildTimelineGeometry(*trace, { 0, 1, 2 }, { 0, 100 }, QSize(800, 600), layout);
    CHECK(few.barHeight == layout.maxBarHeight);
    CHECK(few.rows.size() == 3);
    const auto many = buildTimelineGeometry(*trace, pes, { 0, 100 }, QSize(800, 400), layout);
    CHECK(many.barHeight == layout.minBarHeight);
    CHECK(many.contentHeight > many.rowsArea.height());
    CHECK(many.rows.size() < 40);
    CHECK(many.rows.front().pe == 0);
    layout.scrollY = 10 * many.rowPitch;
    const auto scrolled = buildTimelineGeometry(*trace, pes, { 0, 100 }, QSize(800, 400), layout);
    CHECK(scrolled.rows.front().pe == 9); // row 9 is partly visible at the top
    for (const auto& row : scrolled.rows) {
        CHECK(row.bar.bottom() >= scrolled.rowsArea.top() - scrolled.rowPitch);
        CHECK(row.eventStrip.top() <= scrolled.rowsArea.bottom());
    }
}

TEST_CASE("brackets open at the window's start are drawn, overlapping ones share a span, "
          "notes get ticks",
    "[views][timeline]")
{
    TraceMaker m(1);
    m.exec(0, 0, 1000, 1);
    m.bracket(0, 100, 900, 7);
    m.bracket(0, 200, 300, 10); // over before the window
    m.bracket(0, 600, 650, 8).bracket(0, 950, 990, 9);
    m.note(0, 700, "checkpoint");
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(500, size); // [500, 1000) at 1 µs per pixel from x = 100
    const auto g = buildTimelineGeometry(*trace, { 0 }, { 500, 1000 }, size, layout);
    REQUIRE(g.rows.size() == 1);
    const auto& row = g.rows[0];
    REQUIRE(row.bar.height() >= 10);
    REQUIRE(row.brackets.size() == 2);
    CHECK(row.brackets[0].left == 100); // begun before the window: from its left edge
    CHECK(row.brackets[0].right == 500);
    CHECK(row.brackets[0].count == 2); // 7 and 8 overlap
    CHECK(row.brackets[0].index == 0);
    CHECK(row.brackets[1].left == 550);
    CHECK(row.brackets[1].right == 590);
    CHECK(row.brackets[1].index == 3);
    REQUIRE(row.notes.size() == 1);
    CHECK(row.notes[0].x == 300);
    CHECK(row.notes[0].index == 0);
}

TEST_CASE("a collapsed row shows its PEs' utilization and dominant entry per pixel column",
    "[views][timeline]")
{
    TraceMaker m(3);
    m.exec(0, 0, 40, 1).idle(0, 40, 100);
    m.exec(1, 0, 100, 2);
    m.exec(2, 0, 100, 2);
    const auto trace = m.done();
    QSize size;
    const auto layout = plotOf(100, size); // 1 µs per pixel
    std::vector<TimelineRowSource> sources(2);
    sources[0].members = { 0, 1, 2 };
    sources[0].group = 0;
    sources[0].label = QStringLiteral("node 0");
    sources[1].pe = 1;
    const auto g = buildTimelineGeometryForRows(*trace, sources, { 0, 100 }, size, layout);
    REQUIRE(g.rows.size() == 2);
    const auto& row = g.rows[0];
    CHECK(row.collapsed());
    CHECK(row.pe == core::kNoPe);
    CHECK(row.group == 0);
    CHECK(row.groupLabel == QStringLiteral("node 0"));
    CHECK(row.busyUs == 240);
    CHECK(row.idleUs == 60);
    CHECK(g.rows[1].pe == 1);
    CHECK_FALSE(g.rows[1].collapsed());
    REQUIRE(row.blocks.size() == 100); // one per pixel column
    requireSortedAndDisjoint(row.blocks);
    const auto& early = row.blocks[10]; // all three busy, two of them in e2
    CHECK(early.kind == TimelineBlockKind::Aggregate);
    CHECK(early.utilization == Approx(1.0));
    CHECK(early.activity == 2);
    CHECK(early.dominantShare == Approx(2.0 / 3.0));
    const auto& late = row.blocks[70]; // PE 0 idle
    CHECK(late.utilization == Approx(2.0 / 3.0));
    CHECK(late.activity == 2);
    CHECK(late.dominantShare == Approx(1.0));
    CHECK(row.blocks[0].count == 3); // the three executions begin in the first column
    CHECK(row.blocks[50].count == 0);
    // The legend counts every member's time.
    CHECK(g.activityTime[1] == 40 + 0); // e1 only in the collapsed row
    CHECK(g.activityTime[2] == 200 + 100); // e2: PEs 1 and 2 collapsed, PE 1 on its own row
    // Hit-testing works as on any row.
    const auto* hit = g.blockAt(row, row.blocks[70].left);
    REQUIRE(hit != nullptr);
    CHECK(hit == &row.blocks[70]);
}

TEST_CASE("zoomed far out a collapsed row reads coarse summaries and agrees with the exact row",
    "[views][timeline]")
{
    TraceMaker m(2);
    m.exec(0, 0, 50'000, 1).idle(0, 50'000, 100'000);
    m.exec(1, 0, 100'000, 2);
    const auto trace = m.done();
    const TimelineSummaryCache summaries(trace);
    CHECK(summaries.bucketWidth() == 13); // 100 ms in 8192 buckets
    const auto one = summaries.of(0);
    REQUIRE(one);
    CHECK(one->busy[0] == Approx(13.0));
    CHECK(one->dominant[0] == 1);
    CHECK(one->started[0] == 1);
    CHECK(one->busy[one->size() - 1] == Approx(0.0));
    CHECK(summaries.of(5) == nullptr);

    QSize size;
    auto layout = plotOf(100, size); // 1 ms per pixel: many buckets per pixel
    std::vector<TimelineRowSource> sources(1);
    sources[0].members = { 0, 1 };
    sources[0].label = QStringLiteral("both");
    const auto exact = buildTimelineGeometryForRows(*trace, sources, { 0, 100'000 }, size, layout);
    layout.summaries = &summaries;
    const auto coarse = buildTimelineGeometryForRows(*trace, sources, { 0, 100'000 }, size, layout);
    REQUIRE(exact.rows.size() == 1);
    REQUIRE(coarse.rows.size() == 1);
    const auto& e = exact.rows[0];
    const auto& c = coarse.rows[0];
    REQUIRE(c.blocks.size() == e.blocks.size());
    for (std::size_t i = 0; i < e.blocks.size(); ++i) {
        INFO("column " << i);
        CHECK(c.blocks[i].left == e.blocks[i].left);
        CHECK(c.blocks[i].utilization == Approx(e.blocks[i].utilization).margin(0.02));
        if (i >= 55)
            CHECK(c.blocks[i].activity == 2);
    }
    CHECK(static_cast<double>(c.busyUs) == Approx(static_cast<double>(e.busyUs)).epsilon(0.01));
    CHECK(c.tracedUs == e.tracedUs);
    // Zoomed in, the exact path is used even with summaries.
    const auto fine
        = buildTimelineGeometryForRows(*trace, sources, { 49'990, 50'010 }, size, layout);
    const auto fineExact = buildTimelineGeometryForRows(
        *trace, sources, { 49'990, 50'010 }, size, plotOf(100, size));
    REQUIRE(fine.rows.size() == 1);
    CHECK(fine.rows[0].busyUs == fineExact.rows[0].busyUs);
}

TEST_CASE("a collapsed row zoomed in part way reads the fine group summary and agrees with the "
          "exact row",
    "[views][timeline]")
{
    TraceMaker m(2);
    m.exec(0, 0, 50'000, 1).idle(0, 50'000, 100'000);
    m.exec(1, 0, 100'000, 2);
    const auto trace = m.done();
    const TimelineSummaryCache summaries(trace);
    CHECK(summaries.fineBucketWidth() == 2); // 100 ms in 65,536 buckets
    // Hand-checked: bucket 0 holds 2 µs of each entry (the first written, entry 1, dominates),
    // bucket 25,000 (50 ms) only PE 1's entry 2; both executions begin in bucket 0.
    const auto group = summaries.fineOf({ 0, 1 });
    REQUIRE(group);
    CHECK(group->busy[0] == 4.0F);
    CHECK(group->dominant[0] == 1);
    CHECK(group->dominantUs[0] == 2.0F);
    CHECK(group->started[0] == 2);
    CHECK(group->busy[25'000] == 2.0F);
    CHECK(group->dominant[25'000] == 2);
    CHECK(group->started[25'000] == 0);
    CHECK(group->idle.empty());

    QSize size;
    auto layout = plotOf(100, size);
    // 2 ms over 100 pixels: 20 µs per pixel, finer than 4 coarse buckets (52 µs), coarser than
    // 4 fine ones (8 µs).
    const core::TimeRange window { 49'000, 51'000 };
    for (const auto role : { TimelineRowRole::Pe, TimelineRowRole::GroupSet }) {
        std::vector<TimelineRowSource> sources(1);
        sources[0].members = { 0, 1 };
        sources[0].role = role;
        const auto exact = buildTimelineGeometryForRows(*trace, sources, window, size, layout);
        auto withSummaries = layout;
        withSummaries.summaries = &summaries;
        const auto fine
            = buildTimelineGeometryForRows(*trace, sources, window, size, withSummaries);
        const auto& e = exact.rows.at(0);
        const auto& f = fine.rows.at(0);
        REQUIRE(f.blocks.size() == e.blocks.size());
        for (std::size_t i = 0; i < e.blocks.size(); ++i) {
            INFO("column " << i);
            CHECK(f.blocks[i].left == e.blocks[i].left);
            CHECK(f.blocks[i].utilization == Approx(e.blocks[i].utilization));
            if (i >= 50)
                CHECK(f.blocks[i].activity == 2);
        }
        CHECK(f.busyUs == e.busyUs);
        CHECK(f.idleUs == e.idleUs);
        CHECK(f.tracedUs == e.tracedUs);
        REQUIRE(f.spread.size() == e.spread.size());
        for (std::size_t i = 0; i < e.spread.size(); ++i) {
            CHECK(f.spread[i].low == e.spread[i].low);
            CHECK(f.spread[i].high == e.spread[i].high);
            CHECK(f.spread[i].lowPe == e.spread[i].lowPe);
            CHECK(f.spread[i].highPe == e.spread[i].highPe);
        }
    }
}

TEST_CASE("a SET row's coarse spread keeps, per pair of buckets, every member that can be the "
          "first lowest or highest of a pixel column",
    "[views][timeline]")
{
    // 40 members over 6 buckets, their shares from a few levels (many ties) and a hand-made
    // pattern; for many column weights the first lowest and highest member found by reading
    // every member must be among the bucket's candidates.
    GroupSpread spread;
    spread.buckets = 6;
    const std::size_t members = 40;
    for (std::size_t m = 0; m < members; ++m)
        spread.members.push_back(static_cast<core::PeId>(100 + m));
    spread.busy.resize(spread.buckets * members);
    const std::uint8_t levels[] = { 0, 0, 17, 128, 200, 255, 255 };
    for (std::size_t i = 0; i < spread.busy.size(); ++i)
        spread.busy[i] = levels[(i * 7919U + i / 13U) % std::size(levels)];
    // Hand-checked pair: members 0–3 over buckets 0 and 1 as (255, 0), (0, 255), (0, 0), (0, 0).
    const std::uint8_t pair[4][2] = { { 255, 0 }, { 0, 255 }, { 0, 0 }, { 0, 0 } };
    for (std::size_t m = 0; m < 4; ++m) {
        spread.busy[m] = pair[m][0];
        spread.busy[members + m] = pair[m][1];
    }
    addSpreadCandidates(spread);
    REQUIRE(spread.lowStart.size() == spread.buckets + 1);
    const auto listed = [](const std::vector<std::uint32_t>& start,
                            const std::vector<std::uint32_t>& candidates, std::size_t b) {
        return std::vector<std::uint32_t>(
            candidates.begin() + start[b], candidates.begin() + start[b + 1]);
    };
    // Member 2 (0, 0) is at or below members 0 and 1 in both buckets: it and no later member
    // can be the first lowest. Member 0 is the first candidate for the highest.
    const auto low0 = listed(spread.lowStart, spread.lowCandidates, 0);
    CHECK(low0 == std::vector<std::uint32_t> { 0, 1, 2 });
    CHECK(listed(spread.highStart, spread.highCandidates, 0).front() == 0);

    for (std::size_t b = 0; b < spread.buckets; ++b) {
        const auto low = listed(spread.lowStart, spread.lowCandidates, b);
        const auto high = listed(spread.highStart, spread.highCandidates, b);
        const std::size_t next = std::min(b + 1, spread.buckets - 1);
        for (int k = 0; k <= 40; ++k) {
            // The weights as a column's: float parts, the second 0 for a column in one bucket.
            const float w0 = static_cast<float>(k) / 40.0F / 255.0F;
            const float w1 = (k % 5 == 0 ? 0.0F : 1.0F - static_cast<float>(k) / 40.0F) / 255.0F;
            std::size_t first = 0;
            std::size_t last = 0;
            float lowest = 2.0F;
            float highest = -1.0F;
            for (std::size_t m = 0; m < members; ++m) {
                float share = 0.0F;
                share += static_cast<float>(spread.busy[b * members + m]) * w0;
                share += static_cast<float>(spread.busy[next * members + m]) * w1;
                if (share < lowest) {
                    lowest = share;
                    first = m;
                }
                if (share > highest) {
                    highest = share;
                    last = m;
                }
            }
            INFO("bucket " << b << ", weights " << w0 << ", " << w1);
            CHECK(std::find(low.begin(), low.end(), first) != low.end());
            CHECK(std::find(high.begin(), high.end(), last) != high.end());
        }
    }
}

TEST_CASE("a dense row zoomed far out is drawn from the PE's summary like the exact row",
    "[views][timeline]")
{
    // 100 ms of 10 µs slots: entry 1 runs 6 µs, then 4 µs idle; every 5th slot entry 2 runs 9 µs.
    TraceMaker m(1);
    for (core::TimeUs t = 0; t < 100'000; t += 10) {
        const bool long2 = (t / 10) % 5 == 0;
        const core::TimeUs run = long2 ? 9 : 6;
        m.exec(0, t, t + run, long2 ? 2 : 1);
        m.idle(0, t + run, t + 10);
    }
    const auto trace = m.done();
    const TimelineSummaryCache summaries(trace);
    QSize size;
    auto layout = plotOf(200, size); // 500 µs per pixel, 100 intervals per pixel
    const auto exact = buildTimelineGeometry(*trace, { 0 }, { 0, 100'000 }, size, layout);
    layout.summaries = &summaries;
    const auto coarse = buildTimelineGeometry(*trace, { 0 }, { 0, 100'000 }, size, layout);
    const auto& e = exact.rows.at(0);
    const auto& c = coarse.rows.at(0);
    REQUIRE(c.blocks.size() == e.blocks.size());
    std::size_t same = 0;
    for (std::size_t i = 0; i < c.blocks.size(); ++i) {
        CHECK(c.blocks[i].kind == TimelineBlockKind::Merged);
        CHECK(c.blocks[i].left == e.blocks[i].left);
        if (c.blocks[i].activity == e.blocks[i].activity)
            ++same;
    }
    CHECK(same >= c.blocks.size() * 9 / 10);
    CHECK(c.blocks[10].activity == 1); // entry 1 covers most of every pixel
    CHECK(c.blocks[10].executions == Approx(50).margin(1));
    CHECK(static_cast<double>(c.busyUs) == Approx(static_cast<double>(e.busyUs)).epsilon(0.01));
    CHECK(static_cast<double>(c.idleUs) == Approx(static_cast<double>(e.idleUs)).epsilon(0.01));
    // Zoomed in, the exact blocks (single executions) come back.
    const auto fine = buildTimelineGeometry(*trace, { 0 }, { 1'000, 1'100 }, size, layout);
    REQUIRE_FALSE(fine.rows.at(0).blocks.empty());
    CHECK(fine.rows.at(0).blocks.front().kind != TimelineBlockKind::Merged);
}

TEST_CASE(
    "a whole real run draws at most one block per pixel column and row", "[views][timeline][real]")
{
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    const std::vector<core::PeId> pes { 0, 1, 2, 3, 4, 5 };
    const auto g = buildTimelineGeometry(
        *trace, pes, { 0, trace->endTime() }, QSize(1600, 900), TimelineLayout {});
    REQUIRE(g.rows.size() == 6);
    for (const auto& row : g.rows) {
        INFO("PE " << row.pe);
        requireSortedAndDisjoint(row.blocks);
        CHECK(row.blocks.size() <= static_cast<std::size_t>(g.map.width));
        CHECK_FALSE(row.blocks.empty());
        // Nothing is lost: the pixel of every execution's midpoint holds a block.
        const auto& p = trace->pes[static_cast<std::size_t>(row.pe)];
        const double scale = g.map.width / static_cast<double>(g.map.window.length());
        std::size_t missing = 0;
        for (std::size_t k = 0; k < p.executions.size(); ++k) {
            const double mid
                = 0.5 * static_cast<double>(p.executions.begin[k] + p.executions.end[k]);
            const int x = std::min(static_cast<int>(std::floor(g.map.left
                                       + (mid - static_cast<double>(g.map.window.begin)) * scale)),
                row.bar.right());
            if (g.blockAt(row, x) == nullptr)
                ++missing;
        }
        CHECK(missing == 0);
    }
}

TEST_CASE("a send links to the execution it caused by (source PE, event id), later or "
          "mismatched sends do not give a solid arrow",
    "[views][timeline][links]")
{
    TraceMaker m(2);
    m.send(0, 100, 2, 5).send(0, 300, 2, 5).send(0, 400, 3, 6).send(0, 900, 2, 8);
    m.send(0, 1000, 2, 9);
    m.exec(1, 150, 160, 2, 0, 5) // index 0: the send at 100
        .exec(1, 350, 360, 2, 0, 5) // 1: the latest earlier one, at 300
        .exec(1, 450, 460, 2, 0, 6) // 2: the send was for e3: weak
        .exec(1, 500, 510, 0, 0, 6) // 3: a thread resumption: weak
        .exec(1, 600, 610, 2, 0, 8) // 4: event 8 is only sent at 900: stale
        .exec(1, 995, 996, 2, 0, 9) // 5: sent 5 µs after the begin: clock skew, accepted
        .exec(1, 1100, 1110, 2, 0, -1) // 6: no sender recorded
        .exec(1, 1200, 1210, 2, 0, 77); // 7: nothing with event 77
    const auto trace = m.done();

    auto link = findMessageSource(*trace, 1, 0);
    CHECK(link.status == MessageLink::Status::Linked);
    CHECK(link.senderPe == 0);
    REQUIRE(link.send);
    CHECK(*link.send == 0);

    link = findMessageSource(*trace, 1, 1);
    CHECK(link.status == MessageLink::Status::Linked);
    REQUIRE(link.send);
    CHECK(*link.send == 1);

    link = findMessageSource(*trace, 1, 2);
    CHECK(link.status == MessageLink::Status::Weak);
    CHECK(link.linked());
    CHECK(link.reason.find("e3") != std::string::npos);

    CHECK(findMessageSource(*trace, 1, 3).status == MessageLink::Status::Weak);

    link = findMessageSource(*trace, 1, 4);
    CHECK(link.status == MessageLink::Status::SentAfterBegin);
    CHECK_FALSE(link.linked());

    link = findMessageSource(*trace, 1, 5);
    CHECK(link.status == MessageLink::Status::Linked);
    REQUIRE(link.send);
    CHECK(*link.send == 4);

    CHECK(findMessageSource(*trace, 1, 6).status == MessageLink::Status::NoSource);
    CHECK(findMessageSource(*trace, 1, 7).status == MessageLink::Status::NotFound);
    CHECK(findMessageSource(*trace, 1, 99).status == MessageLink::Status::NoSource);
}

TEST_CASE("real logs: a BEGIN whose sender's CREATION exists gets a solid link",
    "[views][timeline][links][real]")
{
    // pipit-pingpong-v11 PE 1: "2 19 183 82012 10 0 160 ..." was created by PE 0 with event 10.
    const auto trace = parallax::test::loadOk(parallax::test::realLog("pipit-pingpong-v11"));
    const auto& ex = trace->pes[1].executions;
    const auto r = trace->pes[1].executionsOverlapping(82012, 82013);
    REQUIRE(r.size() == 1);
    const auto link = findMessageSource(*trace, 1, r.first);
    CHECK(link.status == MessageLink::Status::Linked);
    CHECK(link.senderPe == 0);
    REQUIRE(link.send);
    const auto& sends = trace->pes[0].sends;
    CHECK(sends.eventId[*link.send] == 10);
    CHECK(sends.time[*link.send] <= ex.begin[r.first]);
    CHECK(sends.entry[*link.send] == ex.entry[r.first]);
}

TEST_CASE("real logs: the stale event id of the Hello() constructors gives no solid arrow",
    "[views][timeline][links][real]")
{
    // pipit-hello1darray-v11: the Hello() array-constructor BEGINs carry event 7 of PE 0, the
    // CkCheckpointMgr group-creation broadcast (docs/format.md §2.3). SayHi is a real message.
    const auto trace = parallax::test::loadOk(parallax::test::realLog("pipit-hello1darray-v11"));
    const auto& meta = trace->metadata;
    int hellos = 0;
    int sayHis = 0;
    for (core::PeId pe = 0; pe < 2; ++pe) {
        const auto& ex = trace->pes[static_cast<std::size_t>(pe)].executions;
        for (std::size_t k = 0; k < ex.size(); ++k) {
            const auto& name = meta.entryName(ex.entry[k]);
            const auto link = findMessageSource(*trace, pe, k);
            INFO("PE " << pe << " " << name << " at " << ex.begin[k]);
            if (name == "Hello()") {
                ++hellos;
                CHECK(link.status != MessageLink::Status::Linked);
            } else if (name == "SayHi(int hiNo)") {
                ++sayHis;
                CHECK(link.status == MessageLink::Status::Linked);
            }
        }
    }
    CHECK(hellos == 5);
    CHECK(sayHis > 0);
}

TEST_CASE("real SMP logs: the message path goes back through the comm thread to the sender",
    "[views][timeline][links][real]")
{
    // gen-feat-smp PE 0 executes recvHalo at 1127502, relayed by comm thread PE 4, which got it
    // from PE 3 ("2 21 155 1127469 4 3 624 ..." in PE 4's log, docs/format.md §2.4).
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-feat-smp"));
    REQUIRE(trace->metadata.isCommThread(4));
    const auto r = trace->pes[0].executionsOverlapping(1127502, 1127503);
    REQUIRE(r.size() == 1);
    const auto path = findMessagePath(*trace, 0, r.first);
    REQUIRE(path.size() == 2);
    CHECK(path[0].status == MessageLink::Status::Linked);
    CHECK(path[0].senderPe == 4);
    CHECK(path[1].pe == 4);
    CHECK(path[1].status == MessageLink::Status::Linked);
    CHECK(path[1].senderPe == 3);
    const auto& relay = trace->pes[4].executions;
    CHECK(relay.begin[path[1].execution] == 1127469);
}
