// Analyses of .sumd data now that the reader keeps the file's runs of equal cells (one
// SummaryDetailCell covers `length` intervals): a run counts as that many cells, and a header
// claiming millions of intervals cannot make the time profile's grid dense.

#include "core/analysis/overview.h"
#include "core/analysis/run_span.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "io/run_reduction.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>

using namespace parallax::core;
using namespace parallax::core::analysis;

namespace {

// A summary-only run of one PE whose .sumd holds `cells`.
TracePtr detailRun(
    TimeUs intervalUs, std::int64_t intervals, int entries, std::vector<SummaryDetailCell> cells)
{
    auto trace = std::make_shared<Trace>();
    auto& m = trace->metadata;
    m.version = 11.0;
    m.processors = 1;
    m.numNodes = 1;
    m.chares.push_back({ "Main", -1 });
    for (int e = 0; e < entries; ++e)
        m.entries.push_back({ "Main::e" + std::to_string(e) + "()", 0, -1 });
    trace->files.logPaths.assign(1, {});
    trace->files.sumPaths.assign(1, {});
    trace->files.sumdPaths.assign(1, "run.0.sumd");
    PeSummaryDetail d;
    d.pe = 0;
    d.version = 7.1;
    d.intervalUs = intervalUs;
    d.intervalCount = intervals;
    d.entryCount = entries;
    d.cells = std::move(cells);
    trace->summaries.resize(1);
    trace->details.resize(1);
    trace->details[0] = std::move(d);
    return trace;
}

} // namespace

TEST_CASE(
    "a .sumd run of cells counts once per interval it covers in the usage profile", "[analysis]")
{
    // Entry 0 holds 4 µs in each of the intervals 2..6 (µs 20..70).
    SummaryDetailCell run;
    run.entry = 0;
    run.interval = 2;
    run.length = 5;
    run.timeUs = 4;
    run.calls = 1;
    const auto trace = detailRun(10, 10, 2, { run });
    AnalysisRequest request;
    request.range = { 30, 55 };
    request.threads = 1;

    const auto correct = computeUsageProfile(*trace, request);
    REQUIRE(correct);
    // 25 µs of the run at 0.4 µs per µs: 10 µs, 40 % of the 25 µs range.
    CHECK(correct->at(0, 0) == Approx(40.0));

    request.mode = Mode::JavaCompat;
    const auto compat = computeUsageProfile(*trace, request);
    REQUIRE(compat);
    // Intervals 3, 4 and 5 whole, as Java sums them: 12 µs, 48 % of the range.
    CHECK(compat->at(0, 0) == Approx(48.0));
}

TEST_CASE("a .sumd header of 4M intervals does not make the time profile grid dense", "[analysis]")
{
    constexpr std::int64_t intervals = 4'194'304;
    SummaryDetailCell run;
    run.entry = 5;
    run.interval = 0;
    run.length = static_cast<std::uint32_t>(intervals);
    run.timeUs = 100;
    const auto trace = detailRun(1000, intervals, 300, { run });
    AnalysisRequest request;
    request.threads = 1;
    const auto profile = computeTimeProfile(*trace, request);
    REQUIRE(profile);
    const auto values = profile->grid.count * profile->columns.count();
    CHECK(values <= (std::int64_t { 1 } << 24));
    CHECK(profile->grid.count > 1000);
    double total = 0;
    for (std::int64_t i = 0; i < profile->grid.count; ++i)
        total += profile->at(i, 5);
    CHECK(total == Approx(100.0 * static_cast<double>(intervals)));
}

TEST_CASE("a reduced run: the source's traced span by default, its PEs without a log from their "
          "summaries as the source's summaries give them",
    "[analysis][reduce]")
{
    namespace test = parallax::test;
    const auto source = test::realLog("gen-leanmd-smp");
    const auto full = test::loadOk(source);
    test::TempDir tmp;
    parallax::io::ReductionSettings settings;
    settings.keep = *parseKeepAmount("2");
    settings.keepText = "2";
    settings.select = parallax::io::PeSelectionMethod::Random;
    settings.outDir = (tmp / "out").string();
    settings.source = "gen-leanmd-smp";
    const auto outcome = parallax::io::reduceRun(*full, settings);
    REQUIRE(outcome.ok());
    const auto reduced = test::loadOk(tmp / "out");
    REQUIRE(reduced->reduced);
    // The default range is the source's traced span, not the kept PEs'.
    const auto span = tracedRunSpan(*full);
    CHECK(tracedRunSpan(*reduced).begin == span.begin);
    CHECK(tracedRunSpan(*reduced).end == span.end);

    // Every PE is selected; the ones without a log come from their summaries.
    AnalysisRequest request;
    request.summaryFallback = true;
    const auto resolved = resolve(*reduced, request);
    CHECK(resolved.pes.size() == 6);
    REQUIRE(resolved.fromSummary.size() == 4);
    for (const auto pe : resolved.fromSummary)
        CHECK(reduced->reduced->find(pe) == nullptr);
    // Their figures are the source's own from its summaries (the same files).
    parallax::io::LoadOptions summariesOnly;
    summariesOnly.readLogs = false;
    const auto sums = test::loadOk(source, summariesOnly);
    AnalysisRequest same = request;
    same.range = span;
    const auto usage = computeUsageProfile(*reduced, same);
    const auto expected = computeUsageProfile(*sums, same);
    REQUIRE(usage);
    REQUIRE(expected);
    CHECK(usage->fromSummary == resolved.fromSummary);
    OverviewOptions coarse;
    coarse.columns = 40; // coarser than the .sum bins: the same grid with or without logs
    const auto overview = computeOverview(*reduced, same, coarse);
    const auto expectedOverview = computeOverview(*sums, same, coarse);
    REQUIRE(overview);
    REQUIRE(expectedOverview);
    REQUIRE(overview->grid.count == expectedOverview->grid.count);
    const auto width = static_cast<std::size_t>(usage->columns.count());
    for (const auto pe : resolved.fromSummary) {
        const auto at = [](const std::vector<PeId>& pes, PeId p) {
            return static_cast<std::size_t>(std::find(pes.begin(), pes.end(), p) - pes.begin());
        };
        const auto k = at(usage->pes, pe);
        const auto e = at(expected->pes, pe);
        REQUIRE(e < expected->pes.size());
        for (std::size_t c = 0; c < width; ++c)
            CHECK(usage->percent[k * width + c] == Approx(expected->percent[e * width + c]));
        const auto r = at(overview->pes, pe);
        const auto s = at(expectedOverview->pes, pe);
        REQUIRE(s < expectedOverview->pes.size());
        for (std::int64_t i = 0; i < overview->grid.count; ++i) {
            CHECK(overview->utilization[overview->index(r, i)]
                == expectedOverview->utilization[expectedOverview->index(s, i)]);
            CHECK(overview->idle[overview->index(r, i)]
                == expectedOverview->idle[expectedOverview->index(s, i)]);
        }
    }
    // Without the fallback, only the kept PEs.
    CHECK(resolve(*reduced, {}).pes.size() == 2);
}
