// The series analyses: user stats and memory usage over time and per PE, on the hand-written
// run tests/data/runs/series (numbers checked by hand in its README) and on the real runs that
// carry these records.

#include "core/analysis/counters.h"
#include "core/analysis/memory_usage.h"
#include "core/analysis/series_csv.h"
#include "core/analysis/user_stats.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

core::TracePtr seriesRun()
{
    return parallax::test::loadOk(parallax::test::dataDir() / "runs" / "series");
}

const UserStatSeries& statById(const UserStats& stats, std::int32_t id)
{
    for (const auto& s : stats.stats)
        if (s.statId == id)
            return s;
    FAIL("stat " << id << " missing");
    return stats.stats.front();
}

} // namespace

TEST_CASE("user stats aggregate each interval's samples over the PEs", "[analysis][series]")
{
    const auto trace = seriesRun();
    UserStatsOptions options;
    options.bins = 4; // 1 ms intervals over the traced span 1000-5000 µs
    const auto stats = computeUserStats(*trace, {}, options);
    REQUIRE(stats);
    REQUIRE(stats->stats.size() == 2);
    const auto& residual = statById(*stats, 3);
    CHECK(residual.name == "Residual");
    const auto& g = residual.overTime;
    REQUIRE(g.grid.count == 4);
    CHECK(g.grid.origin == 1000);
    CHECK(g.grid.size == 1000);
    // Interval 0: PE 0 says 4, PE 1 says 6.
    CHECK(g.combined[0] == 5.0);
    CHECK(g.combinedSamples[0] == 2);
    CHECK(g.low[0] == 4.0);
    CHECK(g.lowPe[0] == 0);
    CHECK(g.high[0] == 6.0);
    CHECK(g.highPe[0] == 1);
    CHECK(g.combined[1] == 2.5);
    CHECK(std::isnan(g.combined[2])); // no sample at all
    CHECK(g.combinedSamples[2] == 0);
    CHECK(g.combined[3] == 1.0);
    CHECK(g.pesWithValue[3] == 1);

    // Per PE over the whole range.
    REQUIRE(residual.perPe.size() == 2);
    CHECK(residual.perPe[0].count == 3);
    CHECK(residual.perPe[0].sum == 7.0);
    CHECK(residual.perPe[0].min == 1.0);
    CHECK(residual.perPe[0].max == 4.0);
    CHECK(residual.perPe[0].last == 1.0);
    CHECK(residual.perPe[1].value(SampleAggregate::Mean) == 4.5);
    CHECK(residual.overall.count == 5);
    CHECK(residual.overall.sum == 16.0);

    SECTION("with another aggregate")
    {
        options.aggregate = SampleAggregate::Sum;
        const auto sums = computeUserStats(*trace, {}, options);
        REQUIRE(sums);
        const auto& s = statById(*sums, 3).overTime;
        CHECK(s.combined[0] == 10.0);
        CHECK(s.combined[1] == 5.0);
        options.aggregate = SampleAggregate::Max;
        const auto maxima = computeUserStats(*trace, {}, options);
        REQUIRE(maxima);
        CHECK(statById(*maxima, 9).overTime.combined[2] == 70.0); // PE 1 at 3250 µs
    }
    SECTION("for a range and one PE")
    {
        AnalysisRequest request;
        request.range = { 2000, 5000 };
        request.pes = { 1 };
        options.stats = { 9 };
        options.bins = 0;
        options.intervalSize = 1000;
        const auto one = computeUserStats(*trace, request, options);
        REQUIRE(one);
        REQUIRE(one->stats.size() == 1);
        const auto& particles = one->stats.front();
        CHECK(particles.overall.count == 1); // 50 at 1250 µs is before the range
        CHECK(particles.overall.sum == 70.0);
        CHECK(particles.overTime.combined[1] == 70.0);
    }
}

TEST_CASE("user stats as CSV", "[analysis][series]")
{
    const auto trace = seriesRun();
    UserStatsOptions options;
    options.bins = 4;
    options.stats = { 3 };
    const auto stats = computeUserStats(*trace, {}, options);
    REQUIRE(stats);
    CHECK(userStatsTimeCsv(&*stats)
        == "interval,begin_us,end_us,stat,stat_name,samples,value,pe_min,pe_min_value,pe_max,"
           "pe_max_value\n"
           "0,1000,2000,3,Residual,2,5,0,4,1,6\n"
           "1,2000,3000,3,Residual,2,2.5,0,2,1,3\n"
           "3,4000,5000,3,Residual,1,1,0,1,0,1\n");
    CHECK(userStatsPeCsv(&*stats)
        == "pe,stat,stat_name,samples,value,sum,mean,min,max,last\n"
           "0,3,Residual,3,2.33333,7,2.33333,1,4,1\n"
           "1,3,Residual,2,4.5,9,4.5,3,6,3\n");
    const auto samples = userStatSamples(*trace, {}, { 9 });
    CHECK(userStatSamplesCsv(samples, trace->metadata.stats)
        == "pe,time_us,user_time,stat,stat_name,value\n"
           "0,1200,-1,9,Particles,100\n"
           "1,1250,-1,9,Particles,50\n"
           "1,3250,-1,9,Particles,70\n");
    CHECK(userStatsTimeCsv(nullptr).find('\n') + 1 == userStatsTimeCsv(nullptr).size());
}

TEST_CASE("user stats of the real runs that record them", "[analysis][series]")
{
    SECTION("pipit-hello1darray-v11: stat 200 updated twice at the same time on PE 0")
    {
        const auto trace = parallax::test::loadOk(realLog("pipit-hello1darray-v11"));
        CHECK(statIdsInLogs(*trace) == std::vector<std::int32_t> { 200 });
        const auto stats = computeUserStats(*trace, {});
        REQUIRE(stats);
        const auto& stat = statById(*stats, 200);
        CHECK(stat.name == "tracing user stat");
        CHECK(stat.overall.count == 2);
        CHECK(stat.overall.sum == 0.0);
        CHECK(stat.perPe[1].empty());
    }
    SECTION("gen-feat-smp: the iteration number 0..11 on PE 0")
    {
        const auto trace = parallax::test::loadOk(realLog("gen-feat-smp"));
        const auto stats = computeUserStats(*trace, {});
        REQUIRE(stats);
        const auto& stat = statById(*stats, 7);
        CHECK(stat.name == "Iteration number");
        CHECK(stat.overall.count == 12);
        CHECK(stat.overall.min == 0.0);
        CHECK(stat.overall.max == 11.0);
        CHECK(stat.overall.last == 11.0);
        CHECK(stat.overall.sum == 66.0);
        double total = 0;
        for (std::int64_t i = 0; i < stat.overTime.grid.count; ++i)
            total
                += static_cast<double>(stat.overTime.combinedSamples[static_cast<std::size_t>(i)]);
        CHECK(total == 12.0);
    }
}

TEST_CASE("memory usage keeps each PE's level between samples", "[analysis][series]")
{
    const auto trace = seriesRun();
    CHECK(hasMemoryRecords(*trace));
    MemoryUsageOptions options;
    options.bins = 4;
    const auto memory = computeMemoryUsage(*trace, {}, options);
    REQUIRE(memory);
    const auto& g = memory->overTime;
    REQUIRE(g.grid.count == 4);
    // PE 0: peak 1 MB, then 3 MB (3 MB and 2 MB in the interval), then its last level 2 MB.
    const std::vector<double> pe0 { 1e6, 3e6, 2e6, 2e6 };
    for (std::int64_t i = 0; i < 4; ++i) {
        INFO("interval " << i);
        CHECK(g.value[g.cell(0, i)] == pe0[static_cast<std::size_t>(i)]);
        CHECK(g.value[g.cell(1, i)] == 4e6);
    }
    CHECK(g.samples[g.cell(0, 1)] == 2);
    CHECK(g.samples[g.cell(0, 2)] == 0); // carried
    CHECK(g.low[0] == 1e6);
    CHECK(g.lowPe[0] == 0);
    CHECK(g.high[0] == 4e6);
    CHECK(g.highPe[0] == 1);
    CHECK(g.mean[1] == 3.5e6);
    CHECK(memory->total[2] == 6e6);
    CHECK(memory->withSamples == std::vector<core::PeId> { 0, 1 });
    CHECK(memoryCsv(&*memory)
        == "interval,begin_us,end_us,pes,min_bytes,min_pe,mean_bytes,max_bytes,max_pe,"
           "total_bytes\n"
           "0,1000,2000,2,1000000,0,2500000,4000000,1,5000000\n"
           "1,2000,3000,2,3000000,0,3500000,4000000,1,7000000\n"
           "2,3000,4000,2,2000000,0,3000000,4000000,1,6000000\n"
           "3,4000,5000,2,2000000,0,3000000,4000000,1,6000000\n");

    SECTION("a range that starts after a sample takes that sample's level")
    {
        AnalysisRequest request;
        request.range = { 3000, 5000 };
        options.bins = 2;
        const auto late = computeMemoryUsage(*trace, request, options);
        REQUIRE(late);
        CHECK(late->overTime.value[late->overTime.cell(0, 0)] == 2e6);
        CHECK(late->overTime.samples[late->overTime.cell(0, 0)] == 0);
        CHECK(late->withSamples.empty());
    }
    SECTION("before a PE's first sample it has no value")
    {
        AnalysisRequest request;
        request.pes = { 1 };
        options.bins = 8; // 500 µs: PE 1's first sample is at 1500 µs
        const auto one = computeMemoryUsage(*trace, request, options);
        REQUIRE(one);
        CHECK(one->overTime.has[one->overTime.cell(0, 0)] == 0);
        CHECK(std::isnan(one->overTime.high[0]));
        CHECK(one->overTime.value[one->overTime.cell(0, 1)] == 4e6);
        CHECK(memoryCsv(&*one).find("\n0,") == std::string::npos);
    }
}

TEST_CASE("memory usage of the real run that records it", "[analysis][series]")
{
    // gen-feat-smp: PE 0 records 752910336 bytes twelve times; the other PEs record nothing.
    const auto trace = parallax::test::loadOk(realLog("gen-feat-smp"));
    const auto memory = computeMemoryUsage(*trace, {});
    REQUIRE(memory);
    CHECK(memory->withSamples == std::vector<core::PeId> { 0 });
    CHECK(memory->perPe[0].count == 12);
    CHECK(memory->perPe[0].max == 752910336.0);
    const auto& g = memory->overTime;
    std::size_t withValue = 0;
    for (std::int64_t i = 0; i < g.grid.count; ++i)
        if (g.pesWithValue[static_cast<std::size_t>(i)] > 0) {
            ++withValue;
            CHECK(g.high[static_cast<std::size_t>(i)] == 752910336.0);
        }
    CHECK(withValue > 0);
    // Runs without the records give an empty result, not an error.
    const auto hello = parallax::test::loadOk(realLog("pipit-hello1darray-v11"));
    CHECK_FALSE(hasMemoryRecords(*hello));
}

TEST_CASE("sample aggregates by name and on one set of samples", "[analysis][series]")
{
    SampleSummary s;
    for (const TimedValue v : { TimedValue { 10, 3.0 }, { 5, 1.0 }, { 20, 2.0 } })
        s.add(v);
    CHECK(s.value(SampleAggregate::Sum) == 6.0);
    CHECK(s.value(SampleAggregate::Mean) == 2.0);
    CHECK(s.value(SampleAggregate::Min) == 1.0);
    CHECK(s.value(SampleAggregate::Max) == 3.0);
    CHECK(s.value(SampleAggregate::Count) == 3.0);
    CHECK(s.value(SampleAggregate::Last) == 2.0); // by time, not by order of addition
    for (int a = 0; a < kSampleAggregates; ++a) {
        SampleAggregate parsed = SampleAggregate::Mean;
        REQUIRE(parseSampleAggregate(sampleAggregateName(static_cast<SampleAggregate>(a)), parsed));
        CHECK(static_cast<int>(parsed) == a);
    }
    SampleAggregate untouched = SampleAggregate::Count;
    CHECK_FALSE(parseSampleAggregate("median", untouched));
    CHECK(untouched == SampleAggregate::Count);
}

TEST_CASE("hardware counters from the logs per entry method and PE", "[analysis][series]")
{
    const auto trace = seriesRun();
    REQUIRE(hasCounterValues(*trace));
    const auto table = countersFromLogs(*trace, {});
    REQUIRE(table);
    CHECK(table->names == std::vector<std::string> { "PAPI_TOT_INS", "PAPI_FP_OPS" });
    CHECK(table->unmeasured == 0);
    const auto byEntry = summarizeCounters(*table, CounterGrouping::Entry);
    REQUIRE(byEntry.size() == 3);
    // compute: 3 executions, 500 + 500 + 200 µs, instructions 3000 + 3000 + 800.
    const auto& compute = byEntry[1];
    CHECK(compute.entry == 1);
    CHECK(compute.counters[0].calls == 3.0);
    CHECK(compute.counters[0].timeUs == 1200.0);
    CHECK(compute.counters[0].total == 6800.0);
    CHECK(compute.counters[1].total == 2400.0);
    CHECK(perMicrosecond(compute.counters[1]) == 2.0);
    const auto byPe = summarizeCounters(*table, CounterGrouping::Pe);
    REQUIRE(byPe.size() == 2);
    CHECK(byPe[0].pe == 0);
    CHECK(byPe[0].counters[0].total == 7000.0);
    CHECK(byPe[1].counters[1].total == 450.0);
    CHECK(countersCsv(*table, summarizeCounters(*table, CounterGrouping::PeEntry, { 1 }, { 2 }),
              CounterGrouping::PeEntry, { "Main", "compute", "reduce" })
        == "pe,entry,entry_name,counter,calls,time_us,total,per_us\n"
           "1,2,reduce,PAPI_TOT_INS,1,100,500,5\n"
           "1,2,reduce,PAPI_FP_OPS,1,100,50,0.5\n");

    SECTION("an execution counts when it begins in the range")
    {
        AnalysisRequest request;
        request.range = { 1500, 3000 }; // compute on PE 0 at 1500, reduce on PE 1 at 2500
        request.entries = { 1, 2 };
        const auto some = countersFromLogs(*trace, request);
        REQUIRE(some);
        const auto rows = summarizeCounters(*some, CounterGrouping::Entry);
        REQUIRE(rows.size() == 2);
        CHECK(rows[0].counters[0].total == 3000.0);
        CHECK(rows[1].entry == 2);
    }
    SECTION("runs without PAPI values")
    {
        const auto tiny = parallax::test::loadOk(parallax::test::dataDir() / "runs" / "tiny");
        CHECK_FALSE(hasCounterValues(*tiny));
        const auto none = countersFromLogs(*tiny, {});
        REQUIRE(none);
        CHECK(none->names.empty());
        CHECK(summarizeCounters(*none, CounterGrouping::Entry).empty());
    }
}
