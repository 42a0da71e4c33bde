// The Timeline keeps about kMaxAxisRows rows: asked to show more PEs, it collapses the extra
// ones into blocks (or SMP nodes), and a collapsed row expands in place.

#include "core/analysis/pe_groups.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"
#include "timeline_test_support.h"
#include "views/timeline/timeline_rows_internal.h"
#include "views/timeline/timeline_widget.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <random>
#include <utility>
#include <vector>

using namespace parallax;

// Its own namespace: the helpers share names with other test files (unity builds).
namespace parallax_test_timeline_groups_test {

namespace {

// `count` PEs traced over [0, 1000): each runs entry 0 over [0, 500) and idles after.
core::TracePtr manyPes(core::PeId count)
{
    return parallax::test::busyIdleRun(
        std::vector<core::TimeUs>(static_cast<std::size_t>(count), 500), 1000);
}

// The run of manyPes(count), every PE asked for.
void showAll(views::TimelineView& view, core::PeId count)
{
    view.setTrace(manyPes(count));
    std::vector<core::PeId> all(static_cast<std::size_t>(count));
    for (core::PeId pe = 0; pe < count; ++pe)
        all[static_cast<std::size_t>(pe)] = pe;
    view.setPes(all);
}

} // namespace

TEST_CASE("the timeline collapses PEs beyond about 200 rows into blocks, expandable in place",
    "[views][timeline][groups]")
{
    parallax::test::ShownTimeline shown(1200, 700);
    auto& view = shown.view;
    auto* timeline = view.timeline();
    QSignalSpy grouped(timeline, &views::TimelineWidget::groupsChanged);
    showAll(view, 600);
    // The 150 blocks are made at once: one layout, one signal (not one per block, which froze
    // the window for a second on 512 PEs).
    CHECK(grouped.count() == 1);
    CHECK(timeline->pes().size() == 600);
    const auto rows = timeline->rowSources().size();
    CHECK(rows <= core::analysis::kMaxAxisRows);
    REQUIRE_FALSE(timeline->groups().empty());
    CHECK(timeline->groups().front().label == QStringLiteral("PEs 0-3"));

    // Expanding one block adds its PEs as rows under its own row and keeps the others
    // collapsed.
    timeline->expand(0);
    CHECK(timeline->rowSources().size() == rows + 4);
    CHECK(timeline->groups().size() == rows);
    CHECK(timeline->groups().front().expanded);
    CHECK(timeline->groups().front().automatic);

    // A few PEs are shown one row each: the groups made for want of room go.
    view.setPes({ 1, 2, 3 });
    CHECK(timeline->rowSources().size() == 3);
    CHECK(timeline->groups().empty());
}

namespace {

// Four PEs traced over [0, 100): PE p runs entry 0 over [0, busy) and idles after.
// Busy: PE 0 40, PE 1 80, PE 2 20, PE 3 70 µs.
core::TracePtr fourPes()
{
    return parallax::test::busyIdleRun({ 40, 80, 20, 70 }, 100);
}

// The rows of `sources` over [0, 100) on a plot exactly 100 pixels wide: 1 µs per pixel.
views::TimelineGeometry onePixelPerUs(
    const core::Trace& trace, const std::vector<views::TimelineRowSource>& sources)
{
    views::TimelineLayout layout;
    const QSize size(layout.margin + layout.labelWidth + 100 + layout.margin, 300);
    return views::buildTimelineGeometryForRows(trace, sources, { 0, 100 }, size, layout);
}

const views::TimelineBlock* blockAtUs(const views::TimelineRow& row, core::TimeUs us)
{
    for (const auto& b : row.blocks)
        if (b.begin <= us && us < b.end)
            return &b;
    return nullptr;
}

} // namespace

TEST_CASE("a SET row gives per pixel the lowest, mean and highest member with their PEs",
    "[views][timeline][groups]")
{
    using views::TimelineRowRole;
    const auto trace = fourPes();
    views::TimelineRowSource source;
    source.members = { 0, 1, 2, 3 };
    source.group = 0;
    source.label = QStringLiteral("all");
    source.role = TimelineRowRole::GroupSet;
    const auto g = onePixelPerUs(*trace, { source });
    REQUIRE(g.rows.size() == 1);
    const auto& row = g.rows[0];
    REQUIRE(row.spread.size() == row.blocks.size());
    const auto spreadAt = [&](core::TimeUs us) {
        const auto* b = blockAtUs(row, us);
        REQUIRE(b != nullptr);
        return std::pair { b, row.spread[static_cast<std::size_t>(b - row.blocks.data())] };
    };
    // [0, 20): everybody busy.
    auto [all, allSpread] = spreadAt(10);
    CHECK(all->utilization == Approx(1.0F));
    CHECK(allSpread.low == Approx(1.0F));
    CHECK(allSpread.high == Approx(1.0F));
    CHECK(allSpread.lowPe == 0); // ties: the first member
    // [20, 40): PE 2 idles.
    auto [three, threeSpread] = spreadAt(30);
    CHECK(three->utilization == Approx(0.75F));
    CHECK(threeSpread.low == Approx(0.0F));
    CHECK(threeSpread.lowPe == 2);
    CHECK(threeSpread.high == Approx(1.0F));
    CHECK(threeSpread.highPe == 0);
    // [40, 70): PEs 1 and 3 busy; the first idle member is the lowest.
    auto [two, twoSpread] = spreadAt(50);
    CHECK(two->utilization == Approx(0.5F));
    CHECK(twoSpread.lowPe == 0);
    CHECK(twoSpread.highPe == 1);
    // [80, 100): nobody: nothing drawn.
    CHECK(blockAtUs(row, 90) == nullptr);
}

TEST_CASE("a SET row keeps the first member at a column's extremes when later ones tie them, and "
          "the shares of columns cut by executions",
    "[views][timeline][groups]")
{
    using views::TimelineRowRole;
    // Over [0, 200) on 100 pixels: 2 µs per pixel. PE 0 runs [0, 41), PE 1 [10, 200), PE 2
    // [41, 43). Worked by hand, per column: [4, 6) PE 0 whole, the others idle; [20, 22) PEs 0
    // and 1 whole; [40, 42) PE 0 1 µs, PE 1 whole, PE 2 1 µs; [42, 44) PE 1 whole, PE 2 1 µs.
    const auto trace
        = parallax::test::spansRun({ { { 0, 41 } }, { { 10, 200 } }, { { 41, 43 } } }, 200);
    views::TimelineRowSource source;
    source.members = { 0, 1, 2 };
    source.group = 0;
    source.label = QStringLiteral("all");
    source.role = TimelineRowRole::GroupSet;
    views::TimelineLayout layout;
    const QSize size(layout.margin + layout.labelWidth + 100 + layout.margin, 300);
    const auto g
        = views::buildTimelineGeometryForRows(*trace, { source }, { 0, 200 }, size, layout);
    REQUIRE(g.rows.size() == 1);
    const auto& row = g.rows[0];
    REQUIRE(row.spread.size() == row.blocks.size());
    // The column at `us`: its lowest and highest share and member.
    const auto check
        = [&](core::TimeUs us, float low, core::PeId lowPe, float high, core::PeId highPe) {
              INFO("at " << us << " us");
              const auto* b = blockAtUs(row, us);
              REQUIRE(b != nullptr);
              const auto& s = row.spread[static_cast<std::size_t>(b - row.blocks.data())];
              CHECK(s.low == low);
              CHECK(s.lowPe == lowPe);
              CHECK(s.high == high);
              CHECK(s.highPe == highPe);
          };
    check(5, 0.0F, 1, 1.0F, 0); // the first idle member is the lowest (PE 1, not PE 2)
    check(21, 0.0F, 2, 1.0F, 0); // PE 1 runs it whole after PE 0: PE 0 stays the highest
    check(41, 0.5F, 0, 1.0F, 1); // shares 0.5, 1, 0.5: the first at 0.5 is the lowest
    check(43, 0.0F, 0, 1.0F, 1);
}

TEST_CASE("KEY rows: the first, busiest and least busy PE as their own rows, the rest averaged, "
          "each named",
    "[views][timeline][groups]")
{
    using views::TimelineRowRole;
    parallax::test::ShownTimeline shown(900, 500);
    auto& view = shown.view;
    view.setTrace(fourPes());
    view.setPes({ 0, 1, 2, 3 });
    auto* w = view.timeline();
    w->collapse({ 0, 1, 2, 3 }, QStringLiteral("all"));
    QString error;
    REQUIRE(view.applyOptions({ { QStringLiteral("mode"), QStringLiteral("key") } }, &error));
    CHECK(w->groupMode() == core::analysis::AggregationMode::Key);
    CHECK(w->keyPes(0) == std::array<core::PeId, 3> { 0, 1, 2 });
    const auto rows = w->rowSources();
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].role == TimelineRowRole::KeyFirst);
    CHECK(rows[0].pe == 0);
    CHECK(rows[1].role == TimelineRowRole::KeyBusiest);
    CHECK(rows[1].pe == 1);
    CHECK(rows[2].role == TimelineRowRole::KeyLeastBusy);
    CHECK(rows[2].pe == 2);
    CHECK(rows[3].role == TimelineRowRole::KeyRest);
    CHECK(rows[3].members == std::vector<core::PeId> { 3 });
    // The key rows are the PEs' own: their executions can be selected (the drill-down).
    const auto& g = w->currentGeometry();
    REQUIRE(g.rows.size() == 4);
    const auto& busiest = g.rows[1];
    CHECK(busiest.blocks.front().kind == views::TimelineBlockKind::Execution);
    const QPoint label(busiest.label.center().x(), busiest.bar.center().y());
    CHECK(w->toolTipAt(label).contains(QStringLiteral("PE 1, the busiest")));
    const QPoint inBar(busiest.blocks.front().left + 2, busiest.bar.center().y());
    CHECK(w->toolTipAt(inBar).contains(QStringLiteral("PE 1, the busiest")));
    QTest::mouseClick(w, Qt::LeftButton, {}, inBar);
    REQUIRE(w->selectedBlock().has_value());
    CHECK(w->selectedBlock()->pe == 1);
    // SET names the PEs behind its extremes.
    REQUIRE(view.applyOptions({ { QStringLiteral("mode"), QStringLiteral("set") } }, &error));
    const auto& set = w->currentGeometry();
    REQUIRE(set.rows.size() == 1);
    CHECK(set.rows[0].role == TimelineRowRole::GroupSet);
    const auto& row = set.rows[0];
    const auto mid = std::find_if(row.blocks.begin(), row.blocks.end(),
        [](const views::TimelineBlock& b) { return b.begin >= 25 && b.begin < 35; });
    REQUIRE(mid != row.blocks.end());
    const QString tip = w->toolTipAt(QPoint(mid->left, row.bar.bottom() - 1));
    CHECK(tip.contains(QStringLiteral("lowest 0 % (PE 2)")));
    CHECK(tip.contains(QStringLiteral("highest 100 % (PE 0)")));
    CHECK_FALSE(view.applyOptions({ { QStringLiteral("mode"), QStringLiteral("max") } }, &error));
    CHECK(error.contains(QStringLiteral("sum, set or key")));
}

TEST_CASE("expanding and collapsing a group keeps the window and the group's place on screen",
    "[views][timeline][groups]")
{
    parallax::test::ShownTimeline shown(1000, 600);
    auto& view = shown.view;
    showAll(view, 600);
    auto* w = view.timeline();
    w->setWindow({ 100, 700 });
    const auto window = w->window();
    // Scroll to the middle of the groups and pick a group row well below the top.
    auto* bar = w->findChild<QScrollBar*>();
    REQUIRE(bar != nullptr);
    REQUIRE(bar->isVisible());
    bar->setValue(bar->maximum() / 2);
    const auto& before = w->currentGeometry();
    REQUIRE(before.rows.size() > 6);
    const auto& target = before.rows[5];
    const int group = target.group;
    REQUIRE(group >= 0);
    const int top = target.bar.top();
    const QPoint label(target.label.center().x(), target.bar.center().y());
    QTest::mouseClick(w, Qt::LeftButton, {}, label);
    REQUIRE(w->groups()[static_cast<std::size_t>(group)].expanded);
    const auto rowTop = [&]() {
        for (const auto& row : w->currentGeometry().rows)
            if (row.group == group && row.groupRow())
                return row.bar.top();
        return -1;
    };
    CHECK(rowTop() == top);
    CHECK(w->window().begin == window.begin);
    CHECK(w->window().end == window.end);
    // Its PEs are under it.
    const auto& after = w->currentGeometry();
    const auto it = std::find_if(after.rows.begin(), after.rows.end(),
        [&](const views::TimelineRow& r) { return r.group == group && r.groupRow(); });
    REQUIRE(it + 1 != after.rows.end());
    CHECK((it + 1)->role == views::TimelineRowRole::Member);
    CHECK((it + 1)->pe == w->groups()[static_cast<std::size_t>(group)].pes.front());
    // Collapsing it again (a click on the bracket of its PEs) keeps it there too.
    const auto& member = *(it + 1);
    QTest::mouseClick(
        w, Qt::LeftButton, {}, QPoint(member.label.left() + 1, member.bar.center().y()));
    CHECK_FALSE(w->groups()[static_cast<std::size_t>(group)].expanded);
    CHECK(rowTop() == top);
    CHECK(w->window().begin == window.begin);
    CHECK(w->window().end == window.end);
}

TEST_CASE("a group member's executions in the window are found from a guess: the same range as "
          "the binary search",
    "[views][timeline][groups]")
{
    core::PeTrace p;
    // [0, 10), a zero-length execution at 10, [10, 20), [30, 40), [50, 50).
    p.executions.begin = { 0, 10, 10, 30, 50 };
    p.executions.end = { 10, 10, 20, 40, 50 };
    // [10, 35): not [0, 10) (it ends where the window begins), the point at 10, [10, 20) and
    // [30, 40); [40, 50): nothing; [0, 60): all.
    const auto a = views::timeline_rows::executionsNear(p, { 10, 35 });
    CHECK(a.first == 1);
    CHECK(a.last == 4);
    CHECK(views::timeline_rows::executionsNear(p, { 40, 50 }).empty());
    const auto all = views::timeline_rows::executionsNear(p, { 0, 60 });
    CHECK(all.first == 0);
    CHECK(all.last == 5);
    const auto same = [&](core::TimeUs t0, core::TimeUs t1) {
        const auto near = views::timeline_rows::executionsNear(p, { t0, t1 });
        const auto exact = p.executionsOverlapping(t0, t1);
        return near.empty() == exact.empty()
            && (near.empty() || (near.first == exact.first && near.last == exact.last));
    };
    bool allSame = true;
    for (core::TimeUs t0 = -5; t0 <= 60; ++t0)
        for (core::TimeUs t1 = t0 - 1; t1 <= 65; ++t1)
            allSame = allSame && same(t0, t1);
    CHECK(allSame);

    // Executions bunched at the start and the end of a long run (a poor guess), and short
    // windows anywhere.
    std::mt19937 random(12);
    std::vector<core::TimeUs> begin;
    std::vector<core::TimeUs> end;
    core::TimeUs t = 0;
    for (int k = 0; k < 2000; ++k) {
        t += (k == 1000 ? 1'000'000 : 0) + static_cast<core::TimeUs>(random() % 5);
        begin.push_back(t);
        t += static_cast<core::TimeUs>(random() % 4);
        end.push_back(t);
    }
    p.executions.begin.assign(begin.begin(), begin.end());
    p.executions.end.assign(end.begin(), end.end());
    for (int k = 0; k < 20000 && allSame; ++k) {
        const auto t0 = static_cast<core::TimeUs>(random() % static_cast<unsigned>(t + 20)) - 10;
        allSame = same(t0, t0 + static_cast<core::TimeUs>(random() % 200))
            && same(t0, t0 + static_cast<core::TimeUs>(random() % 1'500'000));
    }
    CHECK(allSame);
}

} // namespace parallax_test_timeline_groups_test
