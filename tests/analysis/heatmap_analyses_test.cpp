// The heat-map tools' analyses: Communication per Processor (comm_matrix), the message-size
// evolution and the utilization animation, on a hand-written SMP run with exact numbers and on
// real runs.

#include "core/analysis/animation.h"
#include "core/analysis/comm_matrix.h"
#include "core/analysis/communication.h"
#include "core/analysis/histogram.h"
#include "core/analysis/msg_size_evolution.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

// tests/data/runs/comm-smp: 2 SMP nodes of 2 workers (PEs 0-3) and their comm threads (PE 4
// serves node 0, PE 5 node 1); see its README for every message.
core::TracePtr commRun()
{
    return parallax::test::loadOk(parallax::test::dataDir() / "runs" / "comm-smp");
}

using PairKey = std::tuple<core::PeId, core::PeId>;
std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> pairsOf(const CommMatrix& m)
{
    std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> out;
    for (const auto& p : m.pairs)
        out[{ p.sender, p.receiver }] = { p.messages, p.bytes };
    return out;
}

} // namespace

TEST_CASE(
    "comm matrix: a relayed message counts once, from worker to worker", "[analysis][comm-matrix]")
{
    const auto trace = commRun();
    const auto m = computeCommMatrix(*trace, {});
    REQUIRE(m);
    CHECK(m->pes == std::vector<core::PeId> { 0, 1, 2, 3 });
    CHECK(m->apart == std::vector<core::PeId> { 4, 5 });
    // 0 -> 2 went through comm thread 5 and 3 -> 0 through comm thread 4: each counts once,
    // between the workers. The thread resumption on PE 1 (no message) is no receive; the
    // broadcast of PE 2 counts once per PE that received it.
    const std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> expected {
        { { 0, 1 }, { 1, 100 } },
        { { 0, 2 }, { 1, 200 } },
        { { 1, 1 }, { 1, 50 } },
        { { 2, 2 }, { 1, 64 } },
        { { 2, 3 }, { 1, 64 } },
        { { 3, 0 }, { 1, 300 } },
    };
    CHECK(pairsOf(*m) == expected);
    CHECK(m->unresolvedRelays == 1); // PE 2's message from comm thread 5 with an unknown event
    CHECK(m->invalidSenders == 1); // PE 3's message naming PE 999
    CHECK(m->fromOtherPes == 0);
    CHECK(m->totalMessages() == 6);

    // Per PE: sent = the row, received = the column.
    REQUIRE(m->totals.size() == 4);
    CHECK(m->totals[0].messagesSent == 2);
    CHECK(m->totals[0].bytesSent == 300);
    CHECK(m->totals[1].messagesReceived == 2);
    CHECK(m->totals[1].bytesReceived == 150);
    CHECK(m->totals[2].bytesReceived == 264);
    CHECK(m->totals[3].bytesSent == 300);
    CHECK(m->heaviestSender(false) == std::optional<std::size_t>(0)); // 2 messages; 2 also, later
    CHECK(m->heaviestSender(true) == std::optional<std::size_t>(0)); // 300 B; 3 also, later
    CHECK(m->heaviestReceiver(true) == std::optional<std::size_t>(0)); // 300 B
    CHECK(m->heaviestReceiver(false) == std::optional<std::size_t>(1)); // 2 messages

    // The node x node matrix and the CSVs.
    std::vector<int> nodes;
    const auto axis = commNodeAxis(*m, trace->metadata, &nodes);
    CHECK(nodes == std::vector<int> { 0, 1 });
    const auto cells = aggregateCommMatrix(*m, axis);
    CHECK(cells.messages == std::vector<double> { 2, 1, 1, 2 });
    CHECK(cells.bytes == std::vector<double> { 150, 200, 300, 128 });
    CHECK(commMatrixCsv(&*m)
        == "src_pe,dst_pe,messages,bytes\n0,1,1,100\n0,2,1,200\n1,1,1,50\n2,2,1,64\n2,3,1,64\n"
           "3,0,1,300\n");
    CHECK(commNodeMatrixCsv(&*m, trace->metadata)
        == "src_node,dst_node,messages,bytes\n0,0,2,150\n0,1,1,200\n1,0,1,300\n1,1,2,128\n");
    CHECK(commPerPeCsv(&*m)
        == "pe,msgs_sent,bytes_sent,msgs_recv,bytes_recv\n0,2,300,1,300\n1,1,50,2,150\n"
           "2,2,128,2,264\n3,1,300,1,64\n");
    CHECK(commMatrixCsv(nullptr) == "src_pe,dst_pe,messages,bytes\n");
}

TEST_CASE(
    "comm matrix: options select messages by node, entry, PE and range", "[analysis][comm-matrix]")
{
    const auto trace = commRun();
    CommMatrixOptions external;
    external.externalOnly = true;
    const auto off = computeCommMatrix(*trace, {}, external);
    REQUIRE(off);
    CHECK(pairsOf(*off)
        == std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> {
            { { 0, 2 }, { 1, 200 } }, { { 3, 0 }, { 1, 300 } } });

    AnalysisRequest bcast;
    bcast.entries = { 3 };
    const auto only = computeCommMatrix(*trace, bcast);
    REQUIRE(only);
    CHECK(only->totalMessages() == 2);
    CHECK(only->invalidSenders == 0); // that message started entry 2

    // Both ends must be selected; what came from the others is counted apart.
    AnalysisRequest two;
    two.pes = { 0, 1 };
    const auto sub = computeCommMatrix(*trace, two);
    REQUIRE(sub);
    CHECK(pairsOf(*sub)
        == std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> {
            { { 0, 1 }, { 1, 100 } }, { { 1, 1 }, { 1, 50 } } });
    CHECK(sub->fromOtherPes == 1); // 3 -> 0
    CHECK(sub->totals[0].messagesSent == 1); // 0 -> 2 reached an unselected PE

    AnalysisRequest early; // [1000, 1400): the relayed messages arrive later
    early.range = { 1000, 1400 };
    const auto cut = computeCommMatrix(*trace, early);
    REQUIRE(cut);
    CHECK(cut->totalMessages() == 2); // 0 -> 1 at 1150 and the self message at 1180
}

TEST_CASE("comm matrix: comm threads included or Java's rules count every record",
    "[analysis][comm-matrix]")
{
    const auto trace = commRun();
    AnalysisRequest include;
    include.includeCommThreads = true;
    const auto raw = computeCommMatrix(*trace, include);
    REQUIRE(raw);
    CHECK(raw->pes == std::vector<core::PeId> { 0, 1, 2, 3, 4, 5 });
    CHECK(raw->apart.empty());
    const std::map<PairKey, std::pair<std::uint64_t, std::uint64_t>> relays {
        { { 0, 1 }, { 1, 100 } },
        { { 0, 5 }, { 1, 200 } },
        { { 1, 1 }, { 1, 50 } },
        { { 2, 2 }, { 1, 64 } },
        { { 2, 3 }, { 1, 64 } },
        { { 3, 4 }, { 1, 300 } },
        { { 4, 0 }, { 1, 300 } },
        { { 5, 2 }, { 2, 280 } },
    };
    CHECK(pairsOf(*raw) == relays);
    CHECK(raw->unresolvedRelays == 0);

    AnalysisRequest java;
    java.mode = Mode::JavaCompat;
    const auto compat = computeCommMatrix(*trace, java);
    REQUIRE(compat);
    auto javaPairs = relays;
    javaPairs[{ 1, 1 }] = { 2, 50 }; // the thread resumption (0 bytes) is a receive for Java
    CHECK(pairsOf(*compat) == javaPairs);
    // Java's per-PE totals: its CREATION records (the broadcast once per destination) and every
    // BEGIN_PROCESSING, whoever sent it.
    REQUIRE(compat->totals.size() == 6);
    const std::vector<std::uint64_t> sent { 2, 1, 2, 1, 1, 1 };
    const std::vector<std::uint64_t> received { 1, 3, 3, 2, 1, 1 };
    const std::vector<std::uint64_t> bytesReceived { 300, 150, 344, 104, 300, 200 };
    for (std::size_t k = 0; k < 6; ++k) {
        INFO("PE " << k);
        CHECK(compat->totals[k].messagesSent == sent[k]);
        CHECK(compat->totals[k].messagesReceived == received[k]);
        CHECK(compat->totals[k].bytesReceived == bytesReceived[k]);
    }
    CHECK(compat->totals[2].bytesSent == 128);
}

TEST_CASE("comm matrix: Java's totals equal the reference tool's on a real SMP run",
    "[analysis][comm-matrix]")
{
    // golden-java/gen-feat-smp/comm_over_time.txt: Java's Communication over Time over
    // [0, 1248117] in intervals of 1248 µs, values per (1248 / 1000). Summed over intervals and
    // entries they are the totals over all PEs that Communication per Processor shows per PE.
    std::ifstream golden(parallax::test::sharedDir() / "real-logs" / "golden-java" / "gen-feat-smp"
        / "comm_over_time.txt");
    REQUIRE(golden);
    std::map<std::string, double> java;
    std::string line;
    while (std::getline(golden, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string metric;
        long interval = 0;
        int entry = 0;
        double value = 0;
        fields >> metric >> interval >> entry >> value;
        java[metric] += value * 1.248;
    }
    const auto trace = parallax::test::loadOk(realLog("gen-feat-smp"));
    AnalysisRequest request;
    request.mode = Mode::JavaCompat;
    request.range = { 0, 1248117 };
    const auto m = computeCommMatrix(*trace, request);
    REQUIRE(m);
    CommPeTotals sum;
    for (const auto& t : m->totals) {
        sum.messagesSent += t.messagesSent;
        sum.bytesSent += t.bytesSent;
        sum.messagesReceived += t.messagesReceived;
        sum.bytesReceived += t.bytesReceived;
    }
    CHECK(static_cast<double>(sum.messagesSent) == Approx(java["msgs_sent"]).margin(1e-6));
    CHECK(static_cast<double>(sum.bytesSent) == Approx(java["bytes_sent"]).epsilon(1e-9));
    CHECK(static_cast<double>(sum.messagesReceived) == Approx(java["msgs_recv"]).margin(1e-6));
    CHECK(static_cast<double>(sum.bytesReceived) == Approx(java["bytes_recv"]).epsilon(1e-9));
    CHECK(sum.messagesSent == 1020);
    CHECK(sum.messagesReceived == 1476);
}

TEST_CASE("comm matrix: on a real SMP run every worker receive is counted once",
    "[analysis][comm-matrix]")
{
    // gen-leanmd-smp: the matrix's messages and the correct-mode Communication over Time's
    // receives are the same executions (the 68 that name no PE of the run aside).
    const auto trace = parallax::test::loadOk(realLog("gen-leanmd-smp"));
    const auto m = computeCommMatrix(*trace, {});
    REQUIRE(m);
    const auto c = computeCommunication(*trace, {}, { 0, 1 });
    REQUIRE(c);
    double received = 0;
    for (int e = 0; e < c->columns.count(); ++e)
        received += c->at(CommMetric::MsgsRecv, 0, e);
    CHECK(m->invalidSenders == 68);
    CHECK(m->unresolvedRelays == 0);
    CHECK(static_cast<double>(m->totalMessages() + m->invalidSenders) == received);
    CHECK(m->totalMessages() == 93017);
    // Relays resolved: no pair has a comm thread at either end, and both nodes talk to each other.
    for (const auto& p : m->pairs) {
        CHECK_FALSE(trace->metadata.isCommThread(p.sender));
        CHECK_FALSE(trace->metadata.isCommThread(p.receiver));
    }
    const auto cells = aggregateCommMatrix(*m, commNodeAxis(*m, trace->metadata));
    REQUIRE(cells.size == 2);
    CHECK(cells.messages[1] == 24227); // node 0 -> node 1
    CHECK(cells.messages[2] == 24002); // node 1 -> node 0
}

TEST_CASE("comm matrix: a run without logs gives an empty matrix", "[analysis][comm-matrix]")
{
    core::Trace empty;
    const auto m = computeCommMatrix(empty, {});
    REQUIRE(m);
    CHECK(m->pairs.empty());
    CHECK_FALSE(m->heaviestSender(false));
}

namespace {

// The non-empty cells of an evolution as (interval, size_lo) -> messages.
std::map<std::pair<std::int64_t, double>, double> cellsOf(const MsgSizeEvolution& e)
{
    std::map<std::pair<std::int64_t, double>, double> out;
    for (std::int64_t i = 0; i < e.grid.count; ++i)
        for (std::size_t b = 0; b < e.sizeBins(); ++b)
            if (e.count(i, b) > 0)
                out[{ i, e.edges[b] }] = e.count(i, b);
    return out;
}

} // namespace

TEST_CASE("message size evolution: sends and receives by interval and power-of-two size",
    "[analysis][msg-size-evolution]")
{
    // comm-smp over its traced span [1000, 3000) in 100 intervals of 20 µs.
    const auto trace = commRun();
    const auto sends = computeMsgSizeEvolution(*trace, {});
    REQUIRE(sends);
    CHECK(sends->grid.origin == 1000);
    CHECK(sends->grid.size == 20);
    CHECK(sends->grid.count == 100);
    // Sizes 50, 64, 100, 200 and 300 B: bins 32-64 up to 256-512.
    CHECK(sends->edges == std::vector<double> { 32, 64, 128, 256, 512 });
    // PE 3's 300 B at 1050, PE 0's 100 B at 1100 and 200 B at 1200, PE 1's 50 B at 1160, PE 2's
    // broadcast of 64 B to 2 PEs at 1460; the comm threads' relays are not sends of their own.
    const std::map<std::pair<std::int64_t, double>, double> sent {
        { { 2, 256 }, 1 },
        { { 5, 64 }, 1 },
        { { 8, 32 }, 1 },
        { { 10, 128 }, 1 },
        { { 23, 64 }, 2 },
    };
    CHECK(cellsOf(*sends) == sent);
    CHECK(sends->total() == 6);
    CHECK(sends->bytes[23 * 4 + 1] == 128);
    CHECK(sends->entryCounts == std::vector<double> { 0, 0, 4, 2 });
    CHECK(msgSizeEvolutionCsv(&*sends).substr(0, 88)
        == "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n2,1040,1060,256,512,1,300\n"
           "5,1100");

    MsgSizeOptions receive;
    receive.event = MessageEvent::Receive;
    receive.intervals = 2;
    const auto received = computeMsgSizeEvolution(*trace, {}, receive);
    REQUIRE(received);
    // Every message received by a worker (the unresolved relay and the junk sender too: they
    // were received), not the thread resumption; 40 B is the smallest.
    CHECK(received->edges == std::vector<double> { 32, 64, 128, 256, 512 });
    CHECK(received->count(0, 0) == 2); // 50 and 40 B
    CHECK(received->count(0, 1) == 4); // 100 B, 80 B and the broadcast's 64 B on PEs 2 and 3
    CHECK(received->count(0, 2) == 1);
    CHECK(received->count(0, 3) == 1);
    CHECK(received->total() == 8);

    // Per entry method on demand: only the broadcast's.
    AnalysisRequest bcast;
    bcast.entries = { 3 };
    const auto one = computeMsgSizeEvolution(*trace, bcast);
    REQUIRE(one);
    CHECK(one->total() == 2);
    CHECK(one->entryCounts == sends->entryCounts); // still every entry's count, to choose from
}

TEST_CASE("message size evolution: linear bins end in an open bin, summed over time they are "
          "the histogram of message sizes",
    "[analysis][msg-size-evolution]")
{
    const auto trace = commRun();
    MsgSizeOptions linear;
    linear.logScale = false;
    linear.binSize = 50;
    linear.sizeBins = 4;
    linear.minimum = 60;
    const auto e = computeMsgSizeEvolution(*trace, {}, linear);
    REQUIRE(e);
    REQUIRE(e->sizeBins() == 5);
    CHECK(e->edges.front() == 60);
    CHECK(std::isinf(e->edges.back()));
    CHECK(e->total() == 5); // the 50 B message is below the minimum
    CHECK(msgSizeEvolutionCsv(&*e).find(",260,inf,1,300\n") != std::string::npos);

    // On a real SMP run the evolution summed over its intervals is the Histogram's message-size
    // column, bin for bin (the same sends, broadcasts once per destination, relays left out).
    const auto feat = parallax::test::loadOk(realLog("gen-feat-smp"));
    MsgSizeOptions asHistogram;
    asHistogram.logScale = false;
    asHistogram.binSize = 100;
    asHistogram.sizeBins = 200;
    const auto evolution = computeMsgSizeEvolution(*feat, {}, asHistogram);
    REQUIRE(evolution);
    const auto histogram
        = computeHistogram(*feat, {}, { HistogramMetric::MessageSize, 200, 100, 0, true });
    REQUIRE(histogram);
    double total = 0;
    for (std::int64_t b = 0; b <= 200; ++b) {
        double fromHistogram = 0;
        for (int c = 0; c < histogram->columns.count(); ++c)
            fromHistogram += histogram->count(b, c);
        double fromEvolution = 0;
        for (std::int64_t i = 0; i < evolution->grid.count; ++i)
            fromEvolution += evolution->count(i, static_cast<std::size_t>(b));
        INFO("bin " << b);
        CHECK(fromEvolution == fromHistogram);
        total += fromEvolution;
    }
    CHECK(total > 500);
}

TEST_CASE("message size evolution: Java's rule counts receives from other PEs, relays included",
    "[analysis][msg-size-evolution]")
{
    const auto trace = commRun();
    AnalysisRequest java;
    java.mode = Mode::JavaCompat;
    const auto e = computeMsgSizeEvolution(*trace, java);
    REQUIRE(e);
    CHECK(e->event == MessageEvent::Receive);
    // 8 BEGINs from another PE: 100, 200 (PE 5's relay), 200, 300 (PE 4's), 64, 300, 80, 40; not
    // PE 1's message to itself nor PE 2's broadcast to itself.
    CHECK(e->total() == 8);
}

TEST_CASE("animation: each PE's utilization per frame, no data where it was not traced",
    "[analysis][animation]")
{
    // comm-smp in 4 frames of 500 µs from 1000 µs. PE 0 runs 1500-1600 (20 % of frame 1); PE 1
    // 1150-1170, 1180-1190 and the thread resumption 1300-1310 (40 µs: 8 % of frame 0); PE 2
    // 1400-1450 and 1470-1480 (12 %), then 1700-1710 (2 %); PE 3 1475-1485 and 1800-1810 (2 %).
    const auto trace = commRun();
    AnimationOptions four;
    four.frames = 4;
    const auto a = computeAnimation(*trace, {}, four);
    REQUIRE(a);
    CHECK(a->pes == std::vector<core::PeId> { 0, 1, 2, 3 });
    CHECK(a->apart == std::vector<core::PeId> { 4, 5 });
    CHECK_FALSE(a->fromSummaries);
    REQUIRE(a->frameCount() == 4);
    CHECK(a->grid.origin == 1000);
    CHECK(a->grid.size == 500);
    const std::vector<std::vector<float>> expected { { 0, 8, 12, 2 }, { 20, 0, 2, 2 },
        { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    for (std::int64_t f = 0; f < 4; ++f)
        for (std::size_t k = 0; k < 4; ++k) {
            INFO("frame " << f << " PE " << k);
            CHECK(a->at(f, k) == Approx(expected[static_cast<std::size_t>(f)][k]));
        }
    CHECK(a->meanOf(0) == Approx(5.5));
    CHECK(animationCsv(&*a).substr(0, 73)
        == "frame,begin_us,end_us,pe,utilization_pct\n0,1000,1500,0,0\n0,1000,1500,1,8\n");

    // Beyond END_COMPUTATION (3000) nothing was traced: no data, not 0 %.
    AnalysisRequest late;
    late.range = { 2000, 4000 };
    late.pes = { 0 };
    AnimationOptions interval;
    interval.intervalSize = 1000;
    const auto tail = computeAnimation(*trace, late, interval);
    REQUIRE(tail);
    REQUIRE(tail->frameCount() == 2);
    CHECK(tail->at(0, 0) == 0.0F);
    CHECK(std::isnan(tail->at(1, 0)));
    CHECK(std::isnan(tail->meanOf(1)));
    CHECK(animationCsv(&*tail) == "frame,begin_us,end_us,pe,utilization_pct\n0,2000,3000,0,0\n");

    // Comm threads only when asked for.
    AnalysisRequest include;
    include.includeCommThreads = true;
    const auto all = computeAnimation(*trace, include, four);
    REQUIRE(all);
    CHECK(all->pes.size() == 6);
    CHECK(all->at(0, 4) == Approx(0.2)); // PE 4 relays 1400-1401
}

TEST_CASE("animation: a run without logs is animated from its .sum bins", "[analysis][animation]")
{
    parallax::test::TempDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(realLog("gen-feat-smp"))) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum"))
            std::filesystem::copy_file(entry.path(), dir.path() / name);
    }
    const auto trace = parallax::test::loadOk(dir.path());
    REQUIRE_FALSE(trace->hasLogs());
    AnimationOptions many;
    many.frames = 2000; // finer than the .sum bins: the frames take the bins' size
    const auto a = computeAnimation(*trace, {}, many);
    REQUIRE(a);
    CHECK(a->fromSummaries);
    CHECK(a->pes == std::vector<core::PeId> { 0, 1, 2, 3 });
    CHECK(a->frameCount() < 2000);
    CHECK(a->grid.size >= trace->summaries[0]->intervalUs);
    double busiest = 0;
    for (std::int64_t f = 0; f < a->frameCount(); ++f)
        for (std::size_t k = 0; k < a->pes.size(); ++k)
            if (!std::isnan(a->at(f, k)))
                busiest = std::max(busiest, static_cast<double>(a->at(f, k)));
    CHECK(busiest > 10.0);
    CHECK(busiest <= 100.0);
}
