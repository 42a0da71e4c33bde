// The default (correct) mode on a tiny hand-checked run: every number below was worked out
// by hand from the records in makeRun().

#include "core/analysis/communication.h"
#include "core/analysis/entry_ranking.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/summary_profiles.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/pe_trace_builder.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace {

LogRecord record(RecordType type, TimeUs t, EntryId entry = kNoEntry)
{
    return test::handMadeRecord(type, t, entry, 1, 64);
}

// PE 0:  BEGIN_COMPUTATION 0
//        entry 0 [10, 30) sends one 100-byte message to entry 1 at 20
//        idle    [30, 50)
//        entry 1 [50, 70) with a pack [55, 60) and a 3-PE broadcast of 50 bytes at 65
//        END_COMPUTATION 100
// PE 1:  BEGIN_COMPUTATION 0, idle [0, 80), entry 1 [80, 90) (message from PE 0), END 100
TracePtr makeRun()
{
    auto trace = test::handMadeTrace(2, { "Main::a()", "Main::b()" });
    const auto& m = trace->metadata;
    ImportReport report;
    {
        PeTraceBuilder b(0, m, "run.0.log", report);
        std::uint64_t line = 1;
        auto add = [&](LogRecord r) {
            b.add(r, ++line);
        };
        add(record(RecordType::BeginComputation, 0));
        add(record(RecordType::BeginProcessing, 10, 0));
        auto send = record(RecordType::Creation, 20, 1);
        send.msgBytes = 100;
        send.eventId = 7;
        add(send);
        add(record(RecordType::EndProcessing, 30, 0));
        add(record(RecordType::BeginIdle, 30));
        add(record(RecordType::EndIdle, 50));
        add(record(RecordType::BeginProcessing, 50, 1));
        add(record(RecordType::BeginPack, 55));
        add(record(RecordType::EndPack, 60));
        auto bcast = record(RecordType::CreationBcast, 65, 1);
        bcast.msgBytes = 50;
        bcast.destinationCount = 3;
        add(bcast);
        add(record(RecordType::EndProcessing, 70, 1));
        add(record(RecordType::EndComputation, 100));
        trace->pes.push_back(b.finish());
    }
    {
        PeTraceBuilder b(1, m, "run.1.log", report);
        std::uint64_t line = 1;
        auto add = [&](LogRecord r) {
            b.add(r, ++line);
        };
        add(record(RecordType::BeginComputation, 0));
        add(record(RecordType::BeginIdle, 0));
        add(record(RecordType::EndIdle, 80));
        auto begin = record(RecordType::BeginProcessing, 80, 1);
        begin.pe = 0; // from PE 0
        begin.eventId = 7;
        begin.msgBytes = 100;
        add(begin);
        add(record(RecordType::EndProcessing, 90, 1));
        add(record(RecordType::EndComputation, 100));
        trace->pes.push_back(b.finish());
    }
    return trace;
}

AnalysisRequest whole()
{
    AnalysisRequest r;
    r.range = { 0, 100 };
    r.threads = 1;
    return r;
}

} // namespace

TEST_CASE("usage profile splits entry, pack, idle and traced overhead exactly", "[analysis]")
{
    const auto trace = makeRun();
    const auto u = computeUsageProfile(*trace, whole());
    REQUIRE(u);
    REQUIRE(u->pes == std::vector<PeId> { 0, 1 });
    const auto& c = u->columns;
    CHECK(u->at(0, 0) == Approx(20.0)); // entry 0: 10..30
    CHECK(u->at(0, 1) == Approx(15.0)); // entry 1: 50..70 minus the 5 µs pack
    CHECK(u->at(0, c.pack()) == Approx(5.0));
    CHECK(u->at(0, c.idle()) == Approx(20.0));
    CHECK(u->at(0, c.overhead()) == Approx(40.0)); // 0..10 and 70..100
    CHECK(u->at(1, c.idle()) == Approx(80.0));
    CHECK(u->at(1, 1) == Approx(10.0));
    CHECK(u->at(1, c.overhead()) == Approx(10.0));
    CHECK(u->average[1] == Approx(12.5));
}

TEST_CASE("time profile splits executions exactly at interval boundaries", "[analysis]")
{
    const auto trace = makeRun();
    auto request = whole();
    request.pes = { 0 };
    const auto p = computeTimeProfile(*trace, request, { 25, 0 });
    REQUIRE(p);
    REQUIRE(p->grid.count == 4);
    const auto& c = p->columns;
    CHECK(p->at(0, 0) == Approx(15)); // [10, 25)
    CHECK(p->at(0, c.overhead()) == Approx(10));
    CHECK(p->at(1, 0) == Approx(5)); // [25, 30)
    CHECK(p->at(1, c.idle()) == Approx(20));
    CHECK(p->at(2, 1) == Approx(15));
    CHECK(p->at(2, c.pack()) == Approx(5));
    CHECK(p->at(2, c.overhead()) == Approx(5));
    CHECK(p->at(3, c.overhead()) == Approx(25));
    CHECK(p->percent(3, c.overhead()) == Approx(100));
}

TEST_CASE(
    "communication counts a broadcast once per destination and receives by source", "[analysis]")
{
    const auto trace = makeRun();
    const auto comm = computeCommunication(*trace, whole(), { 100, 0 });
    REQUIRE(comm);
    REQUIRE(comm->grid.count == 1);
    CHECK(comm->at(CommMetric::MsgsSent, 0, 1) == Approx(4)); // 1 + 3 broadcast destinations
    CHECK(comm->at(CommMetric::BytesSent, 0, 1) == Approx(250)); // 100 + 3 * 50
    // Receives: PE 0's two executions carry 64 bytes from PE 1 (another node); PE 1's from PE 0.
    CHECK(comm->at(CommMetric::MsgsRecv, 0, 1) == Approx(2));
    CHECK(comm->at(CommMetric::BytesRecv, 0, 1) == Approx(164));
    CHECK(comm->at(CommMetric::ExtNodeMsgsRecv, 0, 0) == Approx(1));
}

TEST_CASE("histogram counts whole durations and messages per destination", "[analysis]")
{
    const auto trace = makeRun();
    const auto h = computeHistogram(*trace, whole(), { HistogramMetric::Duration, 10, 5, 0 });
    REQUIRE(h);
    CHECK(h->count(4, 0) == 1); // entry 0: 20 µs -> bin [20, 25)
    CHECK(h->count(4, 1) == 1); // entry 1 on PE 0: 20 µs
    CHECK(h->count(2, 1) == 1); // entry 1 on PE 1: 10 µs
    CHECK(h->count(4, h->columns.idle()) == 1); // PE 0 idle 20 µs
    CHECK(h->count(10, h->columns.idle()) == 1); // PE 1 idle 80 µs: overflow bin
    const auto sizes = computeHistogram(*trace, whole(), { HistogramMetric::MessageSize, 0, 0, 0 });
    REQUIRE(sizes);
    CHECK(sizes->count(1, 1) == 1); // 100 bytes
    CHECK(sizes->count(0, 1) == 3); // the 50-byte broadcast to 3 PEs
}

TEST_CASE("idle periods are left out of the duration histogram when asked or when entries are "
          "named",
    "[analysis]")
{
    const auto trace = makeRun();
    HistogramOptions options { HistogramMetric::Duration, 10, 5, 0 };
    options.includeIdle = false;
    const auto h = computeHistogram(*trace, whole(), options);
    REQUIRE(h);
    CHECK(h->count(4, 0) == 1);
    CHECK(h->count(4, h->columns.idle()) == 0);
    CHECK(h->count(10, h->columns.idle()) == 0);
    // Naming entry methods selects executions: idle never comes along.
    AnalysisRequest request = whole();
    request.entries = { 1 };
    const auto only = computeHistogram(*trace, request, { HistogramMetric::Duration, 10, 5, 0 });
    REQUIRE(only);
    CHECK(only->count(4, 0) == 0);
    CHECK(only->count(4, 1) == 1);
    CHECK(only->count(2, 1) == 1);
    for (std::int64_t b = 0; b <= only->bins; ++b)
        CHECK(only->count(b, only->columns.idle()) == 0);
}

TEST_CASE("entry methods are ranked by their total time over the run", "[analysis]")
{
    const auto trace = makeRun();
    const auto ranking = rankEntriesByTime(*trace);
    // Entry 0: 20 µs on PE 0; entry 1: 20 µs on PE 0 and 10 µs on PE 1.
    REQUIRE(ranking.time.size() == 2);
    CHECK(ranking.time[0] == 20);
    CHECK(ranking.time[1] == 30);
    CHECK(ranking.order == std::vector<EntryId> { 1, 0 });
    CHECK(ranking.rank == std::vector<int> { 1, 0 });
}

TEST_CASE("overview reports utilization, idle and the dominant activity per column", "[analysis]")
{
    const auto trace = makeRun();
    OverviewOptions options;
    options.columns = 4;
    const auto o = computeOverview(*trace, whole(), options);
    REQUIRE(o);
    REQUIRE(o->grid.count == 4);
    CHECK(o->utilization[o->index(0, 0)] == Approx(60.0F)); // 15 of 25 µs
    CHECK(o->dominant[o->index(0, 0)] == 0);
    CHECK(o->idle[o->index(0, 1)] == Approx(80.0F));
    CHECK(o->dominant[o->index(0, 1)] == o->columns.idle());
    CHECK(o->dominant[o->index(0, 3)] == o->columns.overhead());
    CHECK(o->utilization[o->index(1, 3)] == Approx(40.0F)); // PE 1: entry 1 [80, 90) of [75, 100)
}

TEST_CASE("Extrema ranks the least idle PE first and averages outliers and the rest", "[analysis]")
{
    const auto trace = makeRun();
    const auto x = computeExtrema(*trace, whole(), { ExtremaCriterion::LeastIdle, 1, 0 });
    REQUIRE(x);
    REQUIRE(x->extremes == std::vector<PeId> { 0 });
    CHECK(x->extremeScores[0] == Approx(20.0));
    CHECK(x->outliers[static_cast<std::size_t>(x->columns.idle())] == Approx(20.0));
    CHECK(x->nonOutliers[static_cast<std::size_t>(x->columns.idle())] == Approx(80.0));
    CHECK(x->average[static_cast<std::size_t>(x->columns.idle())] == Approx(50.0));
    const auto sent = computeExtrema(*trace, whole(), { ExtremaCriterion::MsgsSent, 1, 0 });
    REQUIRE(sent);
    CHECK(sent->extremes == std::vector<PeId> { 0 });
    CHECK(sent->extremeScores[0] == Approx(4));
    const auto grain = computeExtrema(*trace, whole(), { ExtremaCriterion::GrainSize, 2, 0 });
    REQUIRE(grain);
    CHECK(grain->extremes == std::vector<PeId> { 0, 1 }); // 17.5 µs per call vs 10
    CHECK(grain->extremeScores[0] == Approx(17.5));
}

namespace {

PeSummary summary(
    PeId pe, TimeUs interval, std::vector<std::int16_t> busy, std::vector<std::int16_t> idle = {})
{
    PeSummary s;
    s.pe = pe;
    s.numPes = 2; // two worker PEs in the header; PE 2 below is a comm thread
    s.intervalUs = interval;
    s.utilization = std::move(busy);
    s.idlePercent = std::move(idle);
    return s;
}

// PE 0: 1 ms bins 80 60 40 (idle 10 30 50); PE 1: a 2 ms bin of 20 (idle 70), then it ends;
// PE 2 (comm thread): 1 ms bins 100 100 100 100, no idle line.
std::shared_ptr<Trace> summaryRun()
{
    auto trace = std::make_shared<Trace>();
    trace->summaries.resize(3);
    trace->summaries[0] = summary(0, 1000, { 80, 60, 40 }, { 10, 30, 50 });
    trace->summaries[1] = summary(1, 2000, { 20 }, { 70 });
    trace->summaries[2] = summary(2, 1000, { 100, 100, 100, 100 });
    return trace;
}

} // namespace

TEST_CASE(
    "the whole-run utilization averages each bin over the PEs that cover it", "[analysis][summary]")
{
    const auto avg = summaryAverage(*summaryRun(), Mode::Correct);
    CHECK(avg.intervalUs == 1000);
    CHECK(avg.peTotal == 3);
    CHECK(avg.resampled); // PE 1's 2 ms bin is repeated twice
    REQUIRE(avg.binCount() == 4);
    CHECK(avg.duration() == 4000);
    // Bins 0-1: PEs 0, 1, 2; bin 2: PEs 0 and 2; bin 3: PE 2 alone (the others have ended).
    CHECK(avg.peCount == std::vector<std::uint32_t> { 3, 3, 2, 1 });
    CHECK(avg.utilization[0] == Approx((80 + 20 + 100) / 3.0));
    CHECK(avg.utilization[1] == Approx((60 + 20 + 100) / 3.0));
    CHECK(avg.utilization[2] == Approx((40 + 100) / 2.0));
    CHECK(avg.utilization[3] == Approx(100.0));
    // Idle over the PEs with idle data for the bin; none has any for bin 3.
    REQUIRE(avg.hasIdle());
    CHECK(avg.idle[0] == Approx((10 + 70) / 2.0));
    CHECK(avg.idle[1] == Approx((30 + 70) / 2.0));
    CHECK(avg.idle[2] == Approx(50.0));
    CHECK(std::isnan(avg.idle[3]));
}

TEST_CASE("Java's whole-run utilization divides by the worker PEs and counts ended PEs as 0",
    "[analysis][summary]")
{
    const auto avg = summaryAverage(*summaryRun(), Mode::JavaCompat);
    CHECK(avg.peTotal == 2); // the comm thread's .sum is not read
    REQUIRE(avg.binCount() == 3);
    CHECK(avg.utilization[0] == Approx((80 + 20) / 2.0));
    CHECK(avg.utilization[1] == Approx((60 + 20) / 2.0));
    CHECK(avg.utilization[2] == Approx(40 / 2.0));
    CHECK(avg.idle[2] == Approx(50 / 2.0));
}

TEST_CASE(
    "a corrupt interval cannot make the whole-run average exhaust memory", "[analysis][summary]")
{
    auto trace = summaryRun();
    trace->summaries[1]->intervalUs = TimeUs { 1 } << 40; // a damaged header
    const auto avg = summaryAverage(*trace, Mode::Correct);
    CHECK(avg.binCount() <= (std::size_t { 1 } << 22));
    CHECK(avg.utilization[0] == Approx((80 + 20 + 100) / 3.0));
}
