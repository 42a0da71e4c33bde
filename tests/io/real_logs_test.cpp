// The real datasets of ../shared/real-logs (read in place, never copied into the repository):
// every run opens, the metadata agrees with the reference Java tool (golden-java/*/meta.txt),
// and facts checked by hand in the raw files hold.

#include "support/io_support.h"
#include "support/report_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;
using core::PeId;

namespace {

// Directories of real-logs/ that are not runs: they must fail with a clear error.
const std::set<std::string> kNotRuns { "golden-java", "projections-namd2-counters" };

struct GoldenMeta {
    std::string version;
    PeId processors = 0;
    std::size_t entries = 0;
    std::vector<PeId> validPes;
    core::TimeUs totalTime = 0;
    bool hasLog = false;
    bool hasSum = false;
    bool hasSumd = false;
};

GoldenMeta readGoldenMeta(const std::string& dataset)
{
    const auto path = realLog("golden-java") / dataset / "meta.txt";
    std::istringstream in(readFile(path));
    GoldenMeta g;
    std::string key;
    while (in >> key) {
        if (key == "sts_version") {
            in >> g.version;
        } else if (key == "processors") {
            in >> g.processors;
        } else if (key == "num_eps") {
            in >> g.entries;
        } else if (key == "total_time_us") {
            in >> g.totalTime;
        } else if (key == "valid_pes") {
            std::string rest;
            std::getline(in, rest);
            for (char& c : rest)
                if (c == '[' || c == ']' || c == ',')
                    c = ' ';
            std::istringstream list(rest);
            PeId pe = 0;
            while (list >> pe)
                g.validPes.push_back(pe);
        } else if (key == "has_log" || key == "has_sum" || key == "has_sumd") {
            std::string value;
            in >> value;
            (key == "has_log"          ? g.hasLog
                    : key == "has_sum" ? g.hasSum
                                       : g.hasSumd)
                = value == "true";
        }
    }
    return g;
}

std::string versionText(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The end-time rule differs from Java's on purpose (docs/format.md §3.4, §4.0;
// golden-java/README):
// ours is the maximum of the logs (comm threads included) and .projrc, Java's the .projrc alone
// or, without it, also the .sum bins.
struct EndTimes {
    core::TimeUs java;
    core::TimeUs ours;
};
const std::map<std::string, EndTimes> kDocumentedEndTimeDifferences {
    { "gen-feat-smp", { 1'248'117, 1'311'974 } }, // .projrc vs comm-thread logs
    { "projections-hello-v3", { 36'000, 30'320 } }, // 36 .sum bins vs logs
};

void checkAgainstGolden(const core::Trace& trace, const std::string& dataset)
{
    const auto golden = readGoldenMeta(dataset);
    INFO("dataset " << dataset);
    CHECK(versionText(trace.metadata.version) == golden.version);
    CHECK(trace.metadata.processors == golden.processors);
    CHECK(trace.metadata.entries.size() == golden.entries);
    CHECK(trace.validPes() == golden.validPes);
    CHECK(trace.hasLogs() == golden.hasLog);
    CHECK(trace.hasSummaries() == golden.hasSum);
    CHECK(trace.hasSummaryDetails() == golden.hasSumd);
    const auto difference = kDocumentedEndTimeDifferences.find(dataset);
    if (difference == kDocumentedEndTimeDifferences.end()) {
        CHECK(trace.endTime() == golden.totalTime);
    } else {
        CHECK(golden.totalTime == difference->second.java);
        CHECK(trace.endTime() == difference->second.ours);
    }
}

core::TimeUs maxLastTime(const core::Trace& trace)
{
    core::TimeUs end = 0;
    for (const auto& p : trace.pes)
        end = std::max(end, p.lastTime);
    return end;
}

} // namespace

TEST_CASE("every real dataset opens and the non-runs fail with a clear error")
{
    std::size_t runs = 0;
    for (const auto& entry : fs::directory_iterator(sharedDir() / "real-logs")) {
        if (!entry.is_directory())
            continue;
        const auto name = entry.path().filename().string();
        INFO("dataset " << name);
        if (kNotRuns.contains(name)) {
            const auto error = loadFails(entry.path());
            CHECK(error.find(entry.path().string()) != std::string::npos);
            CHECK(error.find(".sts") != std::string::npos);
            continue;
        }
        const auto trace = loadOk(entry.path());
        ++runs;
        INFO(describe(trace->report));
        CHECK(trace->metadata.processors > 0);
        CHECK_FALSE(trace->metadata.entries.empty());
        // Every line of the real logs has a valid layout (docs/format.md §6).
        CHECK(trace->report.count(Issue::MalformedLine) == 0);
        CHECK(trace->report.count(Issue::UnknownRecordType) == 0);
        CHECK(trace->report.count(Issue::UnknownEntry) == 0);
        CHECK(trace->report.count(Issue::TimeWentBackwards) == 0);
        CHECK(trace->report.total(core::Severity::Error) == 0);
        if (name != "charmthesis-leanmd-sts-only") {
            CHECK(trace->hasLogs());
            CHECK(trace->endTime() > trace->beginTime());
            CHECK(trace->eventCount() > 0);
        }
    }
    CHECK(runs >= 10);
}

TEST_CASE("the counter-only dataset and its sub-directories are not runs")
{
    for (const char* sub : { "", "4", "8" }) {
        const auto path = realLog("projections-namd2-counters") / sub;
        INFO(path.string());
        const auto error = loadFails(path);
        CHECK(error.find(".sts") != std::string::npos);
    }
}

TEST_CASE("the symbol-table-only dataset opens without logs or summaries")
{
    const auto trace = loadOk(realLog("charmthesis-leanmd-sts-only"));
    CHECK(trace->metadata.processors == 4);
    CHECK(trace->metadata.entries.size() == 273);
    CHECK_FALSE(trace->hasLogs());
    CHECK_FALSE(trace->hasSummaries());
    CHECK(trace->validPes().empty());
    CHECK(trace->endTime() == 0);
}

TEST_CASE("metadata agrees with the Java reference for every dataset with golden output")
{
    for (const char* dataset : { "projections-hello-v3", "pipit-pingpong-v11",
             "pipit-hello1darray-v11", "charm-synth-v7", "gen-feat-smp" }) {
        const auto trace = loadOk(realLog(dataset));
        checkAgainstGolden(*trace, dataset);
    }
}

TEST_CASE("gen-feat-smp end time includes the comm-thread tail beyond the projrc value")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    CHECK(trace->metadata.projrcEndTime == 1'248'117);
    CHECK(trace->pes[4].lastTime == 1'311'974);
    CHECK(trace->pes[3].lastTime == 1'248'117);
    CHECK(trace->endTime() == 1'311'974);
}

TEST_CASE("projections-hello-v3 end time comes from the logs, not from the sum bins")
{
    const auto trace = loadOk(realLog("projections-hello-v3"));
    CHECK(trace->metadata.projrcEndTime == 0);
    REQUIRE(trace->summaries.size() == 4);
    // "count:36" on PE 0, "count:33" on PEs 1-3, bins of 1 ms: Java's TotalTime is the max.
    core::TimeUs sumEnd = 0;
    for (const auto& s : trace->summaries) {
        REQUIRE(s);
        sumEnd = std::max(sumEnd, s->totalTime());
    }
    CHECK(trace->summaries[0]->totalTime() == 36'000);
    CHECK(trace->summaries[1]->totalTime() == 33'000);
    CHECK(sumEnd == 36'000);
    CHECK(maxLastTime(*trace) == 30'320);
    CHECK(trace->endTime() == 30'320);
}

TEST_CASE("gen-feat-smp summary-only copy ends at the last sum bin like Java")
{
    // golden-java/gen-feat-smp-sumonly: the .sts, .sum.sts, .sum and .sumd of gen-feat-smp,
    // without logs and without .projrc.
    TempDir dir;
    copyFiles(realLog("gen-feat-smp"), dir.path(), [](const std::string& name) {
        return endsWith(name, ".sts") || endsWith(name, ".sum") || endsWith(name, ".sumd");
    });
    REQUIRE_FALSE(fs::exists(dir / "feat.projrc"));
    REQUIRE_FALSE(fs::exists(dir / "feat.0.log.gz"));
    const auto trace = loadOk(dir.path());
    checkAgainstGolden(*trace, "gen-feat-smp-sumonly");
    CHECK(trace->endTime() == 1'263'000);
    CHECK(trace->missingPes().empty());
}

TEST_CASE("pipit-pingpong entry open at END_COMPUTATION is closed there on both PEs")
{
    // Both logs end "2 5 212 82953 ... / 7 82954" (CkExit inside an entry method).
    const auto trace = loadOk(realLog("pipit-pingpong-v11"));
    CHECK(trace->report.count(Issue::OpenAtEndComputation) == 2);
    for (std::size_t pe = 0; pe < 2; ++pe) {
        INFO("PE " << pe);
        const auto& x = trace->pes[pe].executions;
        REQUIRE(x.size() > 0);
        const auto last = x.size() - 1;
        CHECK(x.entry[last] == 212);
        CHECK(x.begin[last] == 82953);
        CHECK(x.end[last] == 82954);
        CHECK(x.flags[last] == core::kClosedAtEndComputation);
        CHECK(trace->pes[pe].endComputation == 82954);
    }
    CHECK(trace->pes[0].beginComputation == 77991);
}

TEST_CASE("pipit-pingpong 1-D 2-D 3-D and nodegroup object ids have their documented lengths")
{
    const auto trace = loadOk(realLog("pipit-pingpong-v11"));
    std::map<int, std::set<std::size_t>> lengthsByEntry;
    for (const auto& pe : trace->pes)
        for (std::size_t i = 0; i < pe.executions.size(); ++i)
            lengthsByEntry[pe.executions.entry[i]].insert(
                pe.objects[pe.executions.object[i]].length);
    // docs/format.md §2.3: Ping1/Ping2/Ping3 entries 151, 157, 161; nodegroup entry 183.
    CHECK(lengthsByEntry[151] == std::set<std::size_t> { 1 });
    CHECK(lengthsByEntry[157] == std::set<std::size_t> { 2 });
    CHECK(lengthsByEntry[161] == std::set<std::size_t> { 3 });
    CHECK(lengthsByEntry[183] == std::set<std::size_t> { 4 });
}

TEST_CASE("pipit-hello1darray 1-D array object ids have length 1 and group entries length 4")
{
    const auto trace = loadOk(realLog("pipit-hello1darray-v11"));
    const auto& pe0 = trace->pes[0];
    std::vector<std::int32_t> helloIndices;
    std::vector<std::int32_t> sayHiIndices;
    bool sawGroup = false;
    for (std::size_t i = 0; i < pe0.executions.size(); ++i) {
        const auto& object = pe0.objects[pe0.executions.object[i]];
        const auto entry = pe0.executions.entry[i];
        if (entry == 151 || entry == 152) {
            REQUIRE(object.length == 1);
            (entry == 151 ? helloIndices : sayHiIndices).push_back(object.values[0]);
        }
        if (entry == 17) { // RecvMsg of the CkReductionMgr group
            sawGroup = true;
            CHECK(object.length == 4);
        }
    }
    CHECK(sawGroup);
    // Lines 36/38/40 and 56/59/62 of hello.0.log: Hello() on elements 0,1,2 then SayHi.
    CHECK(helloIndices == std::vector<std::int32_t> { 0, 1, 2 });
    CHECK(sayHiIndices == std::vector<std::int32_t> { 0, 1, 2 });
    CHECK(trace->metadata.userEvents.at(0) == "Time Step Begin");
    CHECK(trace->metadata.stats.at(200) == "tracing user stat");
    // "98 1 1605 ..." ... "99 1 1767 ...": one begin/end bracket.
    REQUIRE(pe0.userBrackets.size() == 1);
    CHECK(pe0.userBrackets[0].begin == 1605);
    CHECK(pe0.userBrackets[0].end == 1767);
    CHECK(pe0.userBrackets[0].kind == core::BracketKind::BeginEnd);
    REQUIRE(pe0.userSupplied.size() == 1);
    CHECK(pe0.userSupplied[0].value == -2);
    CHECK(pe0.stats.size() == 2);
}

TEST_CASE("gen-feat-notracenested counts every nested BEGIN")
{
    // Counted by hand with the rule "BEGIN while an entry is open": 76 + 3 x 60 on PEs 0-3.
    const auto trace = loadOk(realLog("gen-feat-notracenested"));
    CHECK(trace->report.count(Issue::NestedBegin) == 256);
    CHECK(trace->report.count(Issue::UnmatchedEnd) >= 256);
    for (const auto& pe : trace->pes) {
        std::size_t closedByNext = 0;
        for (auto flags : pe.executions.flags)
            closedByNext += (flags & core::kClosedByNextBegin) != 0 ? 1U : 0U;
        if (pe.pe < 4)
            CHECK(closedByNext > 0);
    }
}

TEST_CASE("gen-feat-flush-plain has its buffer flushes recorded inside the running entry")
{
    const auto trace = loadOk(realLog("gen-feat-flush-plain"));
    // feat.0.log .. feat.3.log hold 4 + 2 + 3 + 2 BEGIN/END_INTERRUPT pairs.
    CHECK(trace->report.count(Issue::BufferFlush) == 11);
    const auto& pe0 = trace->pes[0];
    REQUIRE(pe0.flushes.size() == 4);
    CHECK(pe0.flushes.begin[0] == 151266);
    CHECK(pe0.flushes.end[0] == 151592);
    // "2 4 154 151264 ..." (step) ... flush ... "3 0 154 151595 ...": one execution around it.
    const auto r = pe0.executionsOverlapping(151266, 151592);
    REQUIRE(r.size() == 1);
    CHECK(pe0.executions.entry[r.first] == 154);
    CHECK(pe0.executions.begin[r.first] == 151264);
    CHECK(pe0.executions.end[r.first] == 151595);
    CHECK(trace->pes[1].flushes.size() == 2);
    CHECK(trace->pes[4].flushes.size() == 0);
}

TEST_CASE("gen-feat-smp multicasts decode with the doubled count and their destination lists")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    CHECK(trace->report.count(Issue::MulticastCountDoubled) == 12);
    const auto& pe0 = trace->pes[0];
    std::vector<std::size_t> multicasts;
    for (std::size_t i = 0; i < pe0.sends.size(); ++i)
        if (pe0.sends.kind[i] == core::SendKind::Multicast)
            multicasts.push_back(i);
    REQUIRE(multicasts.size() == 12);
    for (auto i : multicasts) {
        CHECK(pe0.sends.destinationCount[i] == 2);
        CHECK(pe0.multicastDestinations(i) == std::vector<PeId> { 0, 2 });
        CHECK(pe0.sends.entry[i] == 160);
    }
    // "21 5 160 1100360 21 0 176 1 2 2 0 2"
    const auto first = multicasts.front();
    CHECK(pe0.sends.time[first] == 1100360);
    CHECK(pe0.sends.eventId[first] == 21);
    CHECK(pe0.sends.msgBytes[first] == 176);
    CHECK(pe0.sends.messageType[first] == 5);
    CHECK(pe0.sends.sendDuration[first] == 1);
}

TEST_CASE("gen-feat-smp tracing gap keeps the entry open at END_TRACE and its resumed END")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    CHECK(trace->report.count(Issue::TracingGap) == 2);
    const auto& pe0 = trace->pes[0];
    REQUIRE(pe0.traceGaps.size() == 1);
    // "2 4 150 1202429 ..." "12 1202432" "11 1204433" ... "3 0 150 1204565 ..."
    CHECK(pe0.traceGaps[0].begin == 1202432);
    CHECK(pe0.traceGaps[0].end == 1204433);
    CHECK(pe0.traceGaps[0].openEntry == 150);
    CHECK(pe0.traceGaps[0].resumedEnd == 1204565);
    const auto r = pe0.executionsOverlapping(1202430, 1202431);
    REQUIRE(r.size() == 1);
    CHECK(pe0.executions.entry[r.first] == 150);
    CHECK(pe0.executions.begin[r.first] == 1202429);
    CHECK(pe0.executions.end[r.first] == 1202432);
    CHECK((pe0.executions.flags[r.first] & core::kClosedAtTraceOff) != 0);
    // Nothing is recorded inside the gap.
    CHECK(pe0.executionsOverlapping(1202433, 1204433).empty());
    // The comm thread of node 0 logs the same gap with nothing open.
    REQUIRE(trace->pes[4].traceGaps.size() == 1);
    CHECK(trace->pes[4].traceGaps[0].openEntry == core::kNoEntry);
}

TEST_CASE("gen-feat-smp point records user brackets and phases are read")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    const auto& pe0 = trace->pes[0];
    CHECK(trace->metadata.userEvents.at(20) == "Main loop bracket");
    // "100 20 1100255 19 0 0" / "100 20 1100355 19 0 0"
    const auto pair = std::find_if(pe0.userBrackets.begin(), pe0.userBrackets.end(),
        [](const core::UserEventBracket& b) { return b.begin == 1100255; });
    REQUIRE(pair != pe0.userBrackets.end());
    CHECK(pair->end == 1100355);
    CHECK(pair->id == 20);
    CHECK(pair->kind == core::BracketKind::Pair);
    // "27 752910336 1100255"
    REQUIRE_FALSE(pe0.memory.empty());
    CHECK(pe0.memory[0].time == 1100255);
    CHECK(pe0.memory[0].bytes == 752910336);
    // "32 1100356 -1 0 0 7"
    REQUIRE_FALSE(pe0.stats.empty());
    CHECK(pe0.stats[0].time == 1100356);
    CHECK(pe0.stats[0].statId == 7);
    // "30 0 1168146"
    REQUIRE(pe0.phaseEnds.size() == 1);
    CHECK(pe0.phaseEnds[0].time == 1168146);
    CHECK(pe0.phaseEnds[0].phase == 0);
    CHECK(trace->report.count(Issue::UnmatchedUserEventPair) == 0);
}

TEST_CASE("gen-feat-smp SMP layout has two nodes with one comm thread each")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    const auto& m = trace->metadata;
    CHECK(m.smp);
    CHECK(m.nodeSize == 2);
    CHECK(m.numNodes == 2);
    CHECK(m.commThreadsPerNode == 1);
    CHECK(m.isCommThread(4));
    CHECK(m.isCommThread(5));
    CHECK(m.nodeOf(5) == 1);
    REQUIRE(trace->summaries.size() == 6);
    CHECK(trace->summaries[0]->utilization.size() == 1255);
    CHECK(trace->details[3]->intervalCount == 1263);
}

TEST_CASE("gen-feat-binshrink-partial reports the missing files and still opens")
{
    const auto trace = loadOk(realLog("gen-feat-binshrink-partial"));
    INFO(describe(trace->report));
    CHECK(trace->validPes() == std::vector<PeId> { 0, 1, 2, 3, 4 });
    CHECK(trace->missingPes() == std::vector<PeId> { 5 });
    // PE 5's log, the .sum of PEs 2, 3, 5 and the .sumd of PEs 2, 3, 5.
    CHECK(trace->report.count(Issue::MissingFile) == 7);
    CHECK(findExample(trace->report, Issue::MissingFile, "feat.5.log"));
    CHECK(findExample(trace->report, Issue::MissingFile, "feat.2.sum"));
    CHECK(findExample(trace->report, Issue::MissingFile, "feat.3.sum"));
    CHECK(findExample(trace->report, Issue::MissingFile, "feat.5.sum"));
    REQUIRE(trace->summaries.size() == 6);
    for (std::size_t pe : { 0U, 1U, 4U }) {
        CHECK(trace->summaries[pe].has_value());
        CHECK(trace->details[pe].has_value());
    }
    for (std::size_t pe : { 2U, 3U, 5U }) {
        CHECK_FALSE(trace->summaries[pe].has_value());
        CHECK_FALSE(trace->details[pe].has_value());
    }
    // Shrunk bins: "ver:7.1 0/4 count:64 ep:215 interval:4.000000e-03"
    CHECK(trace->summaries[0]->intervalUs == 4000);
    CHECK(trace->summaries[0]->utilization.size() == 64);
    CHECK(trace->summaries[1]->utilization.size() == 65);
    // The logs of PEs 2 and 3 are complete.
    CHECK(trace->pes[2].endComputation > 0);
    CHECK(trace->pes[3].endComputation > 0);
}

TEST_CASE("projections-hello-v3 reads the 2002 format and reports its one unmatched END")
{
    const auto trace = loadOk(realLog("projections-hello-v3"));
    CHECK(trace->report.count(Issue::UnmatchedEnd) == 1);
    const auto example = findExample(trace->report, Issue::UnmatchedEnd);
    REQUIRE(example);
    CHECK(example->file == "hello.0.log");
    CHECK(example->line == 100); // "3 0 53 29975 5 3 0" right after the matched pair
    const auto& pe0 = trace->pes[0];
    CHECK(pe0.beginComputation == 19373);
    CHECK(pe0.endComputation == 30320);
    // v3.0: no object ids and no CPU times.
    for (std::size_t i = 0; i < pe0.executions.size(); ++i) {
        CHECK(pe0.objects[pe0.executions.object[i]].length == 0);
        CHECK(pe0.executions.cpuBegin[i] == 0);
    }
    CHECK(trace->metadata.entryName(13)
        == "CkLocMgr(const CkGroupID &map, const CkGroupID &lbdb, int numInitial)");
}

TEST_CASE("charm-synth-v7 reads VERSION 7.0 logs with 4-int object ids")
{
    const auto trace = loadOk(realLog("charm-synth-v7"));
    CHECK(trace->metadata.version == Approx(7.0));
    CHECK(trace->report.count(Issue::OpenAtEndComputation) == 4);
    std::size_t executions = 0;
    for (const auto& pe : trace->pes)
        for (std::size_t i = 0; i < pe.executions.size(); ++i) {
            ++executions;
            CHECK(pe.objects[pe.executions.object[i]].length == 4);
        }
    CHECK(executions > 20);
    // "20 3 135 48607 9 0 160 9959 4": a group broadcast whose send call took 9959 us.
    const auto& pe0 = trace->pes[0];
    const auto r = pe0.sendsIn(48607, 48608);
    REQUIRE(r.size() == 1);
    CHECK(pe0.sends.kind[r.first] == core::SendKind::Broadcast);
    CHECK(pe0.sends.sendDuration[r.first] == 9959);
    CHECK(pe0.sends.destinationCount[r.first] == 4);
}

TEST_CASE("gen-leanmd-smp loads completely with the comm-thread tail in the end time")
{
    const auto trace = loadOk(realLog("gen-leanmd-smp"));
    CHECK(trace->validPes() == std::vector<PeId> { 0, 1, 2, 3, 4, 5 });
    CHECK(trace->eventCount() > 900'000);
    CHECK(trace->metadata.projrcEndTime == 7'940'491);
    CHECK(trace->pes[5].endComputation == 9'822'144);
    CHECK(trace->endTime() == 9'822'144);
    CHECK(trace->endTime() == maxLastTime(*trace));
    // SDAG serial entries of the 3-D Cell array carry 3 index values.
    const auto cellSerial
        = std::find_if(trace->metadata.entries.begin(), trace->metadata.entries.end(),
            [](const core::EntryMethod& e) { return e.name == "Cell_serial_0"; });
    REQUIRE(cellSerial != trace->metadata.entries.end());
    const auto cellEntry = static_cast<std::uint16_t>(cellSerial - trace->metadata.entries.begin());
    std::size_t seen = 0;
    for (const auto& pe : trace->pes)
        for (std::size_t i = 0; i < pe.executions.size() && seen < 1000; ++i)
            if (pe.executions.entry[i] == cellEntry) {
                ++seen;
                CHECK(pe.objects[pe.executions.object[i]].length == 3);
            }
    CHECK(seen > 0);
    // Index invariant on a large real trace.
    for (const auto& pe : trace->pes) {
        CHECK(std::is_sorted(pe.executions.begin.begin(), pe.executions.begin.end()));
        CHECK(std::is_sorted(pe.executions.end.begin(), pe.executions.end.end()));
        CHECK(std::is_sorted(pe.idles.begin.begin(), pe.idles.begin.end()));
        CHECK(std::is_sorted(pe.sends.time.begin(), pe.sends.time.end()));
    }
}
