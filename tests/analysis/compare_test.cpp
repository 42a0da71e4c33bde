// Comparing runs: entry methods matched by name, aligned time profiles and the warnings, on the
// hand-written run tests/data/runs/series (numbers from its README) and on real runs.

#include "core/analysis/run_compare.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

core::TracePtr run(const char* name)
{
    return parallax::test::loadOk(parallax::test::dataDir() / "runs" / name);
}

CompareSide side(const core::TracePtr& trace, core::TimeRange range, const char* label)
{
    CompareSide s;
    s.trace = trace.get();
    s.request.range = range;
    s.label = label;
    return s;
}

} // namespace

TEST_CASE("a run compared with itself has zero deltas", "[analysis][compare]")
{
    for (const auto& trace : { run("series"), parallax::test::loadOk(realLog("gen-feat-smp")) }) {
        const auto c = compareRuns({ side(trace, {}, "a"), side(trace, {}, "b") });
        REQUIRE(c);
        CHECK(c->warnings.empty());
        CHECK_FALSE(c->differentPrograms);
        CHECK(c->matchedEntries == c->entries.size());
        REQUIRE_FALSE(c->entries.empty());
        for (const auto& e : c->entries) {
            INFO(e.name);
            CHECK(e.timeUs[0] == e.timeUs[1]);
            CHECK(e.ids[0] == e.ids[1]);
        }
        CHECK(c->busyPercent[0] == c->busyPercent[1]);
        const auto csv = comparisonCsv(&*c);
        CHECK(csv.find(",0,1\n") != std::string::npos);
        for (const auto& line : parallax::test::splitLines(csv))
            if (line.rfind("entry,", 0) != 0)
                CHECK(line.find(",0,1") != std::string::npos);
    }
}

TEST_CASE(
    "two ranges of one run: entry times and busy profiles side by side", "[analysis][compare]")
{
    const auto trace = run("series");
    CompareOptions options;
    options.intervalSize = 1000;
    const auto c = compareRuns(
        { side(trace, { 1000, 3000 }, "first"), side(trace, { 3000, 5000 }, "second") }, options);
    REQUIRE(c);
    // [1000, 3000): Main 200, compute 500 (PE 0) + 200 (PE 1), reduce 100; [3000, 5000):
    // compute 500. Largest change first; equal changes by name.
    CHECK(comparisonCsv(&*c)
        == "entry,a_us,b_us,delta_us,ratio\n"
           "Main::Main(CkArgMsg* m),200,0,-200,0\n"
           "Worker::compute(int n),700,500,-200,0.714286\n"
           "Worker::reduce(),100,0,-100,0\n");
    CHECK(c->matchedEntries == 1);
    CHECK(c->totalUs == std::vector<double> { 1000.0, 500.0 });
    CHECK(c->peCounts == std::vector<std::size_t> { 2, 2 });
    CHECK(c->origins == std::vector<core::TimeUs> { 1000, 3000 });
    CHECK(c->intervalSize == 1000);
    // Busy share of 2 PEs × 1000 µs per interval: 900 µs, then 100 µs; then 500 µs and 0.
    REQUIRE(c->busyPercent[0].size() == 2);
    CHECK(c->busyPercent[0] == std::vector<double> { 45.0, 5.0 });
    CHECK(c->busyPercent[1] == std::vector<double> { 25.0, 0.0 });
    CHECK(comparisonProfileCsv(&*c)
        == "interval,offset_us,a_busy_pct,b_busy_pct,delta_pct\n"
           "0,0,45,25,-20\n"
           "1,1000,5,0,-5\n");
    CHECK(c->warnings.empty()); // equal lengths

    SECTION("ranges of different lengths are worth a warning")
    {
        const auto uneven
            = compareRuns({ side(trace, { 1000, 2000 }, "a"), side(trace, { 2000, 5000 }, "b") });
        REQUIRE(uneven);
        REQUIRE(uneven->warnings.size() == 1);
        CHECK(uneven->warnings[0].find("ranges differ in length") != std::string::npos);
    }
}

TEST_CASE("time profiles align on a user event", "[analysis][compare]")
{
    const auto trace = run("series");
    CHECK(firstUserEvent(*trace, {}, 5) == 3000);
    AnalysisRequest early;
    early.range = { 1000, 2500 };
    CHECK_FALSE(firstUserEvent(*trace, early, 5));
    CompareOptions options;
    options.origin = CompareOrigin::UserEvent;
    options.event = 5;
    options.intervalSize = 500;
    const auto c = compareRuns({ side(trace, {}, "a"), side(trace, { 2000, 5000 }, "b") }, options);
    REQUIRE(c);
    CHECK(c->origins == std::vector<core::TimeUs> { 3000, 3000 });
    // From the event on: PE 0 runs compute 3000-3500 (half of 2 PEs × 500 µs), then both idle.
    CHECK(c->busyPercent[0][0] == 50.0);
    CHECK(c->busyPercent[0][1] == 0.0);
    CHECK(c->busyPercent[1] == c->busyPercent[0]);

    // A side without the event has no profile and says so.
    const auto missing
        = compareRuns({ side(trace, {}, "a"), side(trace, { 1000, 2500 }, "b") }, options);
    REQUIRE(missing);
    CHECK(std::isnan(missing->busyPercent[1][0]));
    CHECK(missing->warnings.back().find("b has no user event 5") != std::string::npos);
}

TEST_CASE("runs of other programs or PE counts are flagged", "[analysis][compare]")
{
    const auto series = run("series");
    const auto tiny = run("tiny");
    const auto c = compareRuns({ side(series, {}, "series"), side(tiny, {}, "tiny") });
    REQUIRE(c);
    CHECK(c->differentPrograms);
    CHECK(c->matchedEntries == 1); // Main::Main(CkArgMsg* m) is in both
    CHECK(c->warnings.front()
        == "series ran series but tiny ran tiny: the runs may be different "
           "programs");

    const auto feat = parallax::test::loadOk(realLog("gen-feat-smp"));
    auto two = side(feat, {}, "two");
    two.request.pes = { 0, 1 };
    const auto pes = compareRuns({ side(feat, {}, "all"), two });
    REQUIRE(pes);
    CHECK_FALSE(pes->differentPrograms);
    CHECK(pes->peCounts == std::vector<std::size_t> { 4, 2 }); // the 4 workers; comm threads apart
    REQUIRE(pes->warnings.size() == 1);
    CHECK(pes->warnings[0] == "all has 4 PEs but two has 2: times are summed over all PEs");

    const auto three = compareRuns({ side(feat, {}, "x"), two, side(feat, {}, "z") });
    REQUIRE(three);
    CHECK(comparisonCsv(&*three).rfind("entry,x_us,two_us,z_us\n", 0) == 0);
    CHECK(comparisonProfileCsv(&*three).rfind(
              "interval,offset_us,x_busy_pct,two_busy_pct,z_busy_pct\n", 0)
        == 0);
}
