// The Timeline keeps about kMaxAxisRows rows: asked to show more PEs, it collapses the extra
// ones into blocks (or SMP nodes), and a collapsed row expands in place.

#include "core/analysis/pe_groups.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"
#include "timeline_test_support.h"
#include "views/timeline/timeline_widget.h"

#include <catch2/catch.hpp>

using namespace parallax;

namespace {

// `count` PEs traced over [0, 1000): each runs entry 0 over [0, 500) and idles after.
core::TracePtr manyPes(core::PeId count)
{
    return parallax::test::busyIdleRun(
        std::vector<core::TimeUs>(static_cast<std::size_t>(count), 500), 1000);
}

} // namespace

TEST_CASE("the timeline collapses PEs beyond about 200 rows into blocks, expandable in place",
    "[views][timeline][groups]")
{
    parallax::test::ShownTimeline shown(1200, 700);
    auto& view = shown.view;
    view.setTrace(manyPes(600));
    std::vector<core::PeId> all(600);
    for (core::PeId pe = 0; pe < 600; ++pe)
        all[static_cast<std::size_t>(pe)] = pe;
    view.setPes(all);
    auto* timeline = view.timeline();
    CHECK(timeline->pes().size() == 600);
    const auto rows = timeline->rowSources().size();
    CHECK(rows <= core::analysis::kMaxAxisRows);
    REQUIRE_FALSE(timeline->groups().empty());
    CHECK(timeline->groups().front().label == QStringLiteral("PEs 0-3"));

    // Expanding one block adds its PEs as rows and keeps the others collapsed.
    timeline->expand(0);
    CHECK(timeline->rowSources().size() == rows + 3);
    CHECK(timeline->groups().size() == rows - 1);

    // A few PEs are shown one row each.
    view.setPes({ 1, 2, 3 });
    CHECK(timeline->rowSources().size() == 3);
}
