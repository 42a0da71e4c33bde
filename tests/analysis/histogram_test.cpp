// The duration histogram on real runs: what it counts at the edges of the run.

#include "core/analysis/entry_ranking.h"
#include "core/analysis/histogram.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

double executionCount(const Histogram& h)
{
    double n = 0;
    for (std::int64_t b = 0; b <= h.bins; ++b)
        for (int c = 0; c < h.columns.entryCount; ++c)
            n += h.count(b, c);
    return n;
}

} // namespace

TEST_CASE("an execution that begins exactly at the run's end is counted", "[analysis][histogram]")
{
    // pipit-hello1darray-v11 ends at 2045 µs (.projrc). PE 1's last record pair is a BEGIN of
    // traceProjectionsParallelShutdown at 2045 followed by END_COMPUTATION at 2045: an
    // execution of zero length at the very end. The logs hold 17 executions.
    const auto trace = parallax::test::loadOk(realLog("pipit-hello1darray-v11"));
    std::size_t stored = 0;
    for (const auto& pe : trace->pes)
        stored += pe.executions.size();
    REQUIRE(stored == 17);
    const auto h = computeHistogram(*trace, {}, { HistogramMetric::Duration, 0, 0, 0 });
    REQUIRE(h);
    CHECK(executionCount(*h) == 17);

    // Java reads only executions whose END is in the range, so neither execution cut by
    // END_COMPUTATION is counted: compat mode keeps its 15 (golden-java/histogram.txt).
    AnalysisRequest java;
    java.mode = Mode::JavaCompat;
    const auto compat = computeHistogram(*trace, java, { HistogramMetric::Duration, 0, 0, 0 });
    REQUIRE(compat);
    CHECK(executionCount(*compat) == 15);

    // A range that stops before the run's end keeps its half-open [begin, end).
    AnalysisRequest early;
    early.range = { 0, 2044 };
    const auto cut = computeHistogram(*trace, early, { HistogramMetric::Duration, 0, 0, 0 });
    REQUIRE(cut);
    CHECK(executionCount(*cut) == 15); // the two that begin at 2044 and 2045 are out
}

TEST_CASE("the heaviest entry methods of a real run rank first", "[analysis][histogram]")
{
    // gen-leanmd-smp: Compute::Compute_serial_1 takes a third of the processor time (the
    // time profile's legend), far ahead of every other entry method.
    const auto trace = parallax::test::loadOk(realLog("gen-leanmd-smp"));
    const auto ranking = rankEntriesByTime(*trace);
    REQUIRE_FALSE(ranking.order.empty());
    const auto& first = trace->metadata.entries[static_cast<std::size_t>(ranking.order[0])];
    CHECK(first.name.find("Compute_serial_1") != std::string::npos);
    for (std::size_t k = 1; k < ranking.order.size(); ++k)
        CHECK(ranking.time[static_cast<std::size_t>(ranking.order[k - 1])]
            >= ranking.time[static_cast<std::size_t>(ranking.order[k])]);
}

TEST_CASE("the message-size histogram leaves comm-thread relays out unless they are included",
    "[analysis][histogram]")
{
    // gen-leanmd-smp: PEs 4 and 5 are comm threads; what they send relays what workers sent.
    const auto trace = parallax::test::loadOk(realLog("gen-leanmd-smp"));
    REQUIRE(trace->metadata.isCommThread(4));
    AnalysisRequest request;
    request.threads = 1;
    HistogramOptions options;
    options.metric = HistogramMetric::MessageSize;
    options.bins = 1000;
    options.binSize = 1000.0; // every message of this run falls in a bin, none in the overflow
    const auto workers = computeHistogram(*trace, request, options);
    request.includeCommThreads = true;
    const auto all = computeHistogram(*trace, request, options);
    REQUIRE(workers);
    REQUIRE(all);
    // By hand: the workers' sends in the traced span, one per destination.
    const auto span = resolve(*trace, {}).range;
    double workerSends = 0;
    double relays = 0;
    for (core::PeId p = 0; p < trace->metadata.processors; ++p) {
        const auto& pe = trace->pes[static_cast<std::size_t>(p)];
        const auto range = pe.sendsIn(span.begin, span.end);
        for (auto k = range.first; k < range.last; ++k)
            (trace->metadata.isCommThread(p) ? relays : workerSends)
                += static_cast<double>(std::max(pe.sends.destinationCount[k], 1));
    }
    REQUIRE(relays > 0);
    double counted = 0;
    double countedAll = 0;
    for (std::int64_t b = 0; b <= workers->bins; ++b)
        for (int c = 0; c < workers->columns.count(); ++c) {
            counted += workers->count(b, c);
            countedAll += all->count(b, c);
        }
    CHECK(counted == Approx(workerSends));
    CHECK(countedAll == Approx(workerSends + relays));
}
