// A run opened over its memory budget (io::LoadOptions::memoryBudget) has no events in memory:
// the timeline reads the PEs it shows from their logs, off the GUI thread, and then shows
// exactly what it shows for a run read in full.

#include "core/analysis/run_span.h"
#include "io/pe_detail_cache.h"
#include "io/run_loader.h"
#include "support/io_support.h"
#include "support/qt_wait.h"
#include "support/test_support.h"
#include "views/common/entry_palette.h"
#include "views/timeline/timeline_view.h"

#include <QTest>

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::views;

namespace {

const std::filesystem::path kImbalance = std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance";

void waitIdle(const TimelineView& view)
{
    test::waitUntil([&]() { return !view.busy(); });
}

} // namespace

TEST_CASE("a run read on demand shows the same timeline once its PEs are read", "[views][timeline]")
{
    const auto full = test::loadOk(kImbalance);
    io::LoadOptions tight;
    tight.memoryBudget = 64 * 1024;
    const auto light = test::loadOk(kImbalance, tight);
    REQUIRE(light->logsOnDemand());

    EntryPalette palette;
    TimelineView reference(&palette);
    TimelineView onDemand(&palette);
    for (auto* view : { &reference, &onDemand })
        view->resize(1200, 600);
    reference.setTrace(full);
    onDemand.setTrace(light);
    waitIdle(onDemand);
    // Both open on the run's traced span, though the on-demand copy held no PE's log then.
    const auto traced = core::analysis::tracedRunSpan(*light);
    CHECK(onDemand.window().begin == traced.begin);
    CHECK(onDemand.window().end == traced.end);
    CHECK(reference.window().begin == core::analysis::tracedRunSpan(*full).begin);
    const core::TimeRange window { 20'000, 45'000 };
    for (auto* view : { &reference, &onDemand }) {
        view->setSelection(window, { 3, 9 });
        view->setPes({ 9, 3 });
    }
    waitIdle(onDemand);
    CHECK(onDemand.loadedPes() == std::vector<core::PeId> { 9, 3 });
    const auto csv = onDemand.csv();
    CHECK(csv == reference.csv());
    CHECK(csv.count(QLatin1Char('\n')) > 100); // the executions of both PEs in the window
    // The picture is the same too.
    CHECK(onDemand.renderChart(QSize(900, 400)) == reference.renderChart(QSize(900, 400)));

    // Another PE is read when it is added.
    onDemand.addPes({ 4 });
    reference.addPes({ 4 });
    waitIdle(onDemand);
    CHECK(onDemand.csv() == reference.csv());
}

TEST_CASE("rows changing read only the PEs not shown yet", "[views][timeline]")
{
    io::LoadOptions tight;
    tight.memoryBudget = 64 * 1024;
    auto run = std::make_shared<core::Trace>(*test::loadOk(kImbalance, tight));
    REQUIRE(run->logsOnDemand());
    // A cache holding only the PE read last: a PE asked for again would be read again.
    const auto cache = std::make_shared<io::PeDetailCache>(*run, 1);
    run->detailSource = cache;

    EntryPalette palette;
    TimelineView view(&palette);
    view.resize(1200, 600);
    view.setTrace(run);
    waitIdle(view);
    view.setPes({ 3, 9 });
    waitIdle(view);
    const auto reads = cache->reads();
    view.addPes({ 4 });
    waitIdle(view);
    CHECK(cache->reads() == reads + 1); // PE 4; PEs 3 and 9 come from the rows shown before
    CHECK(view.loadedPes() == std::vector<core::PeId> { 3, 4, 9 }); // in PE order
}
