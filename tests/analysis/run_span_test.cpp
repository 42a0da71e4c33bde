// The traced span of a run (the default range) and comm threads kept apart from averages,
// sums, the Extrema ranking and message counts, on a hand-checked SMP run and on real runs.

#include "core/analysis/communication.h"
#include "core/analysis/extrema.h"
#include "core/analysis/run_span.h"
#include "core/analysis/summary_profiles.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/pe_trace_builder.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "support/busy_idle_run.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace parallax_test_run_span_test {

LogRecord record(RecordType type, TimeUs t, EntryId entry = kNoEntry)
{
    return test::handMadeRecord(type, t, entry, 0, 64);
}

// One SMP node of two worker PEs and a comm thread (PE 2):
// PE 0: BEGIN_COMPUTATION 10, entry 0 [20, 60) sending one message at 30, idle [60, 80), END 90
// PE 1: BEGIN_COMPUTATION 12, entry 0 [12, 50), idle [50, 85), END 85
// PE 2: BEGIN_COMPUTATION 5, entry 0 [5, 40) relaying the message at 35, entry 0 [100, 140),
//       END 150 (a comm-thread tail past the workers' end)
TracePtr makeSmpRun(TimeUs projrcEnd)
{
    auto trace = test::handMadeTrace(3, { "Main::work()" });
    auto& m = trace->metadata;
    m.smp = true;
    m.nodeSize = 2;
    m.numNodes = 1;
    m.commThreadsPerNode = 1;
    m.projrcEndTime = projrcEnd;
    ImportReport report;
    auto pe = [&](PeId id, const std::vector<LogRecord>& records) {
        PeTraceBuilder b(id, m, "run.log", report);
        std::uint64_t line = 1;
        for (const auto& r : records)
            b.add(r, ++line);
        trace->pes.push_back(b.finish());
    };
    using T = RecordType;
    auto send = [](TimeUs t) {
        auto r = record(T::Creation, t, 0);
        r.eventId = 3;
        return r;
    };
    pe(0,
        { record(T::BeginComputation, 10), record(T::BeginProcessing, 20, 0), send(30),
            record(T::EndProcessing, 60, 0), record(T::BeginIdle, 60), record(T::EndIdle, 80),
            record(T::EndComputation, 90) });
    pe(1,
        { record(T::BeginComputation, 12), record(T::BeginProcessing, 12, 0),
            record(T::EndProcessing, 50, 0), record(T::BeginIdle, 50), record(T::EndIdle, 85),
            record(T::EndComputation, 85) });
    pe(2,
        { record(T::BeginComputation, 5), record(T::BeginProcessing, 5, 0), send(35),
            record(T::EndProcessing, 40, 0), record(T::BeginProcessing, 100, 0),
            record(T::EndProcessing, 140, 0), record(T::EndComputation, 150) });
    return trace;
}

AnalysisRequest defaults()
{
    AnalysisRequest r;
    r.threads = 1;
    return r;
}

TracePtr loadReal(const char* name)
{
    auto result = io::loadRun(test::realLog(name).string());
    INFO(result.error);
    REQUIRE(result.trace);
    return result.trace;
}

TEST_CASE("the traced span runs from the first BEGIN_COMPUTATION of a worker to the workers' end",
    "[analysis]")
{
    const auto trace = makeSmpRun(0);
    CHECK(trace->endTime() == 150); // the comm thread's tail
    const auto span = tracedRunSpan(*trace);
    CHECK(span.begin == 10);
    CHECK(span.end == 90);
    // .projrc's end time wins when present.
    CHECK(tracedRunSpan(*makeSmpRun(95)).end == 95);
    // It is the default range in the correct mode; compat mode keeps Java's [0, end].
    CHECK(resolve(*trace, defaults()).range.begin == 10);
    CHECK(resolve(*trace, defaults()).range.end == 90);
    auto java = defaults();
    java.mode = Mode::JavaCompat;
    CHECK(resolve(*trace, java).range.begin == 0);
    CHECK(resolve(*trace, java).range.end == 150);
    // "to the end" means the end of the traced span.
    auto open = defaults();
    open.range = { 20, kTimeMax };
    CHECK(resolve(*trace, open).range.end == 90);
}

TEST_CASE("comm threads stay out of the usage profile's average unless included", "[analysis]")
{
    const auto trace = makeSmpRun(0);
    const auto u = computeUsageProfile(*trace, defaults());
    REQUIRE(u);
    REQUIRE(u->pes == std::vector<PeId> { 0, 1, 2 });
    CHECK(u->apart == std::vector<PeId> { 2 });
    // Over [10, 90) (80 µs): PE 0 entry 40, idle 20, overhead 20; PE 1 entry 38, idle 35 and
    // 7 µs not traced (10-12, 85-90).
    CHECK(u->at(0, 0) == Approx(50.0));
    CHECK(u->at(1, 0) == Approx(47.5));
    CHECK(u->at(1, u->columns.idle()) == Approx(43.75));
    CHECK(u->average[0] == Approx(48.75));
    CHECK(u->average[static_cast<std::size_t>(u->columns.idle())] == Approx(34.375));
    CHECK(u->average[static_cast<std::size_t>(u->columns.overhead())] == Approx(12.5));
    // The comm thread's own bar is still there: entry [10, 40), no idle.
    CHECK(u->at(2, 0) == Approx(37.5));

    auto all = defaults();
    all.includeCommThreads = true;
    const auto withComm = computeUsageProfile(*trace, all);
    REQUIRE(withComm);
    CHECK(withComm->apart.empty());
    CHECK(withComm->average[0] == Approx((50.0 + 47.5 + 37.5) / 3.0));

    // Selecting only comm threads averages them (there is nothing else to average).
    auto only = defaults();
    only.pes = { 2 };
    const auto alone = computeUsageProfile(*trace, only);
    REQUIRE(alone);
    CHECK(alone->apart.empty());
    CHECK(alone->average[0] == Approx(37.5));
}

TEST_CASE("Extrema ranks worker PEs only unless comm threads are included", "[analysis]")
{
    const auto trace = makeSmpRun(0);
    const auto x = computeExtrema(*trace, defaults(), { ExtremaCriterion::LeastIdle, 1, 0 });
    REQUIRE(x);
    CHECK(x->pes == std::vector<PeId> { 0, 1 });
    CHECK(x->apart == std::vector<PeId> { 2 });
    CHECK(x->extremes == std::vector<PeId> { 0 }); // 25 % idle against PE 1's 43.75 %
    auto all = defaults();
    all.includeCommThreads = true;
    const auto withComm = computeExtrema(*trace, all, { ExtremaCriterion::LeastIdle, 1, 0 });
    REQUIRE(withComm);
    CHECK(withComm->extremes == std::vector<PeId> { 2 }); // no idle records: "least idle"
}

TEST_CASE("a comm thread's relay is not counted as another message", "[analysis]")
{
    const auto trace = makeSmpRun(0);
    auto total = [](const CommunicationOverTime& c, CommMetric m) {
        const auto& v = c.values[static_cast<std::size_t>(m)];
        return std::accumulate(v.begin(), v.end(), 0.0);
    };
    const auto c = computeCommunication(*trace, defaults());
    REQUIRE(c);
    CHECK(total(*c, CommMetric::MsgsSent) == 1.0);
    CHECK(c->apart == std::vector<PeId> { 2 });
    auto all = defaults();
    all.includeCommThreads = true;
    const auto withComm = computeCommunication(*trace, all);
    REQUIRE(withComm);
    CHECK(total(*withComm, CommMetric::MsgsSent) == 2.0);
}

TEST_CASE("the time profile sums worker PEs only by default", "[analysis]")
{
    const auto trace = makeSmpRun(0);
    TimeProfileOptions one;
    one.bins = 1;
    const auto p = computeTimeProfile(*trace, defaults(), one);
    REQUIRE(p);
    CHECK(p->peCount == 2);
    CHECK(p->apart == std::vector<PeId> { 2 });
    CHECK(p->at(0, 0) == Approx(78.0)); // 40 + 38 µs of entry time
    auto all = defaults();
    all.includeCommThreads = true;
    const auto withComm = computeTimeProfile(*trace, all, one);
    REQUIRE(withComm);
    CHECK(withComm->peCount == 3);
    CHECK(withComm->at(0, 0) == Approx(108.0));
}

TEST_CASE("on real SMP runs the traced span ignores the comm-thread tail", "[analysis][real]")
{
    const auto feat = loadReal("gen-feat-smp");
    // .projrc: 1248117 µs; the comm-thread logs run to 1311974 µs.
    CHECK(feat->endTime() == 1311974);
    const auto span = tracedRunSpan(*feat);
    CHECK(span.end == 1248117);
    TimeUs firstBegin = -1;
    for (PeId p = 0; p < feat->metadata.workerPes(); ++p) {
        const auto& pe = feat->pes[static_cast<std::size_t>(p)];
        if (pe.hasLog && (firstBegin < 0 || pe.beginComputation < firstBegin))
            firstBegin = pe.beginComputation;
    }
    CHECK(firstBegin > 0);
    CHECK(span.begin == firstBegin);

    const auto leanmd = loadReal("gen-leanmd-smp");
    REQUIRE(leanmd->metadata.isCommThread(4));
    REQUIRE(leanmd->metadata.isCommThread(5));
    const auto u = computeUsageProfile(*leanmd, defaults());
    REQUIRE(u);
    CHECK(u->apart == std::vector<PeId> { 4, 5 });
    // The average of the four workers, by hand from their bars.
    const auto idle = static_cast<std::size_t>(u->columns.idle());
    double workers = 0;
    for (std::size_t k = 0; k < 4; ++k)
        workers += u->at(k, u->columns.idle());
    CHECK(u->average[idle] == Approx(workers / 4.0));
    CHECK(u->average[idle] > 0.0);
    // The summary graph averages the workers' .sum files only, when the run has them.
    const auto avg = summaryAverage(*feat, Mode::Correct);
    const auto withComm = summaryAverage(*feat, Mode::Correct, true);
    CHECK(avg.peTotal + avg.commThreadsApart == withComm.peTotal);
    CHECK(avg.commThreadsApart
        == static_cast<std::size_t>(feat->metadata.processors - feat->metadata.workerPes()));
}

} // namespace parallax_test_run_span_test
