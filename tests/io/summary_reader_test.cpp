// readSummary / readSummaryDetail / readProjrcEndTime (docs/format.md §3.1, §3.2, §3.4).

#include "io/summary_reader.h"
#include "support/allocation_tracker.h"
#include "support/report_support.h"
#include "support/scan_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <numeric>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {

struct Sum {
    std::optional<core::PeSummary> summary;
    core::ImportReport report;
};

Sum readSumText(const std::string& text, core::PeId pe = 0)
{
    TempDir dir;
    const auto path = dir / ("run." + std::to_string(pe) + ".sum");
    writeFile(path, text);
    Sum s;
    s.summary = io::readSummary(path.string(), pe, s.report);
    return s;
}

struct Detail {
    std::optional<core::PeSummaryDetail> detail;
    core::ImportReport report;
};

Detail readSumdText(const std::string& text)
{
    TempDir dir;
    const auto path = dir / "run.0.sumd";
    writeFile(path, text);
    Detail d;
    d.detail = io::readSummaryDetail(path.string(), 0, d.report);
    return d;
}

std::vector<std::int16_t> i16(std::initializer_list<int> values)
{
    std::vector<std::int16_t> out;
    for (int v : values)
        out.push_back(static_cast<std::int16_t>(v));
    return out;
}

std::vector<std::int64_t> i64(std::initializer_list<std::int64_t> values)
{
    return values;
}

std::uint64_t summaryProblems(const core::ImportReport& report)
{
    return report.count(Issue::SummaryProblem);
}

// Sums a .sumd's time cells per entry.
std::vector<std::int64_t> timePerEntry(const core::PeSummaryDetail& d)
{
    std::vector<std::int64_t> out(static_cast<std::size_t>(d.entryCount), 0);
    for (const auto& cell : d.cells)
        out.at(cell.entry) += cell.timeUs * cell.length;
    return out;
}

} // namespace

TEST_CASE("sum run-length encoding expands each value to its repeat count")
{
    const auto s = readSumText("ver:7.1 0/4 count:10 ep:3 interval:1.000000e-03 phases:0\n"
                               "   0+3  50 100+4  99   7\n"
                               "EPExeTime: 256 8 195 \n"
                               "EPCallTime: 9 54 82 \n"
                               "MaxEPTime: 100 1 20 \n"
                               "NumMarks: 0 \n"
                               "IdlePercent:    0+2   2  99+7\n");
    REQUIRE(s.summary);
    const auto& x = *s.summary;
    CHECK(x.version == Approx(7.1));
    CHECK(x.numPes == 4);
    CHECK(x.intervalUs == 1000);
    CHECK(x.utilization == i16({ 0, 0, 0, 50, 100, 100, 100, 100, 99, 7 }));
    CHECK(x.idlePercent == i16({ 0, 0, 2, 99, 99, 99, 99, 99, 99, 99 }));
    CHECK(x.entryTime == i64({ 256, 8, 195 }));
    CHECK(x.entryCalls == i64({ 9, 54, 82 }));
    CHECK(x.entryMaxTime == i64({ 100, 1, 20 }));
    CHECK(x.marks.empty());
    CHECK(x.totalTime() == 10'000);
    CHECK(s.report.empty());
}

TEST_CASE("sum interval is floor of seconds times a million")
{
    const auto s = readSumText("ver:7.1 0/1 count:2 ep:1 interval:4.000000e-03 phases:0\n"
                               " 1 2\nEPExeTime: 0 \nEPCallTime: 0 \nMaxEPTime: 0 \nNumMarks: 0 \n"
                               "IdlePercent: 0+2\n");
    REQUIRE(s.summary);
    CHECK(s.summary->intervalUs == 4000);
    CHECK(s.summary->totalTime() == 8000);
}

TEST_CASE("v3.0 sum without labels without MaxEPTime and with a bare marks line")
{
    const auto s = readSumText("ver:3.0 0/4 count:6 ep:4 interval:1.000000e-03 phases:0\n"
                               "   0   0   6  52   0  15\n"
                               "0 276 0 385 \n"
                               "0 2 0 5 \n"
                               "0\n");
    REQUIRE(s.summary);
    const auto& x = *s.summary;
    CHECK(x.utilization == i16({ 0, 0, 6, 52, 0, 15 }));
    CHECK(x.entryTime == i64({ 0, 276, 0, 385 }));
    CHECK(x.entryCalls == i64({ 0, 2, 0, 5 }));
    CHECK(x.entryMaxTime.empty());
    CHECK(x.idlePercent.empty());
    CHECK(x.marks.empty());
    CHECK(s.report.empty());
}

TEST_CASE("sum marks are read as type and time in seconds")
{
    const auto s = readSumText("ver:7.1 0/1 count:1 ep:1 interval:1.000000e-03 phases:0\n"
                               " 5\nEPExeTime: 1 \nEPCallTime: 1 \nMaxEPTime: 1 \n"
                               "NumMarks: 2 3 0.001500 4 1.250000 \nIdlePercent: 0\n");
    REQUIRE(s.summary);
    REQUIRE(s.summary->marks.size() == 2);
    CHECK(s.summary->marks[0].type == 3);
    CHECK(s.summary->marks[0].time == 1500);
    CHECK(s.summary->marks[1].type == 4);
    CHECK(s.summary->marks[1].time == 1'250'000);
}

TEST_CASE("sum phase lines are three per phase and the IdlePercent line after them stays aligned")
{
    const auto s = readSumText("ver:7.1 0/1 count:3 ep:2 interval:1.000000e-03 phases:2\n"
                               " 10 20 30\n"
                               "EPExeTime: 5 6 \nEPCallTime: 1 2 \nMaxEPTime: 5 4 \nNumMarks: 0 \n"
                               "[0] 1 1 \n[0] 2 3 \n[0] 2 3 \n"
                               "[1] 0 1 \n[1] 3 3 \n[1] 3 3 \n"
                               "IdlePercent:   90  80  70\n");
    REQUIRE(s.summary);
    const auto& x = *s.summary;
    REQUIRE(x.phases.size() == 2);
    CHECK(x.phases[0].entryCalls == i64({ 1, 1 }));
    CHECK(x.phases[0].entryTime == i64({ 2, 3 }));
    CHECK(x.phases[1].entryCalls == i64({ 0, 1 }));
    CHECK(x.phases[1].entryTime == i64({ 3, 3 }));
    CHECK(x.phases[1].entryMaxTime == i64({ 3, 3 }));
    CHECK(x.idlePercent == i16({ 90, 80, 70 }));
    CHECK(s.report.empty());
}

TEST_CASE("sum with fewer values than count is padded and counted")
{
    const auto s = readSumText("ver:7.1 0/1 count:5 ep:2 interval:1.000000e-03 phases:0\n"
                               "   7+2\n"
                               "EPExeTime: 5 \nEPCallTime: 1 2 \nMaxEPTime: 5 4 \nNumMarks: 0 \n"
                               "IdlePercent: 1+5\n");
    REQUIRE(s.summary);
    CHECK(s.summary->utilization == i16({ 7, 7, 0, 0, 0 }));
    CHECK(s.summary->entryTime == i64({ 5, 0 }));
    CHECK(s.summary->entryCalls == i64({ 1, 2 }));
    CHECK(s.summary->idlePercent == i16({ 1, 1, 1, 1, 1 }));
    CHECK(summaryProblems(s.report) == 2);
    const auto example = findExample(s.report, Issue::SummaryProblem);
    REQUIRE(example);
    CHECK(example->file == "run.0.sum");
    CHECK(example->line == 2);
}

TEST_CASE("sum with more values than count keeps count values and is counted")
{
    const auto s = readSumText("ver:7.1 0/1 count:3 ep:1 interval:1.000000e-03 phases:0\n"
                               "   1 2 3 4 5+100\n"
                               "EPExeTime: 5 6 \nEPCallTime: 1 \nMaxEPTime: 5 \nNumMarks: 0 \n"
                               "IdlePercent: 1+3\n");
    REQUIRE(s.summary);
    CHECK(s.summary->utilization == i16({ 1, 2, 3 }));
    CHECK(s.summary->entryTime == i64({ 5 }));
    CHECK(summaryProblems(s.report) == 2);
}

TEST_CASE("sum with a non-numeric value is counted and keeps what was read")
{
    const auto s = readSumText("ver:7.1 0/1 count:3 ep:1 interval:1.000000e-03 phases:0\n"
                               "   1 x 3\n"
                               "EPExeTime: 5 \nEPCallTime: 1 \nMaxEPTime: 5 \nNumMarks: 0 \n");
    REQUIRE(s.summary);
    CHECK(s.summary->utilization.size() == 3);
    CHECK(s.summary->utilization[0] == 1);
    CHECK(s.summary->entryTime == i64({ 5 }));
    CHECK(summaryProblems(s.report) >= 1);
}

TEST_CASE("sum that ends after the header is kept empty and counted")
{
    const auto s = readSumText("ver:7.1 0/1 count:3 ep:1 interval:1.000000e-03 phases:0\n");
    REQUIRE(s.summary);
    CHECK(s.summary->utilization.empty());
    CHECK(summaryProblems(s.report) == 1);
}

TEST_CASE("sum with a garbage header is skipped and reported at line 1")
{
    for (const char* header : { "this is not a summary\n",
             "ver:7.1 0/1 count:x ep:2 interval:1e-3\n", "ver:7.1 0/1 count:3 ep:2 interval:0\n",
             "ver:7.1 0/1 count:-3 ep:2 interval:1e-3\n", "\x1f\x8b\x08garbage\n", "" }) {
        const auto s = readSumText(std::string(header) + " 1 2 3\nEPExeTime: 1 2 \n");
        INFO("header '" << header << "'");
        CHECK_FALSE(s.summary.has_value());
        CHECK(summaryProblems(s.report) == 1);
        const auto example = findExample(s.report, Issue::SummaryProblem);
        REQUIRE(example);
        CHECK(example->line == 1);
        CHECK(example->file == "run.0.sum");
    }
}

TEST_CASE("sum claiming a trillion bins with a trillion-long run stays small and fast")
{
    resetLargestAllocation();
    const auto start = std::chrono::steady_clock::now();
    const auto s
        = readSumText("ver:7.1 0/1 count:1000000000000 ep:2 interval:1.000000e-03 phases:0\n"
                      "   5+999999999999\n"
                      "EPExeTime: 10 20 \nEPCallTime: 1 2 \nMaxEPTime: 10 20 \nNumMarks: 0 \n"
                      "IdlePercent:   0+999999999999\n");
    const auto seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto largest = largestAllocation();
    INFO("largest single allocation " << largest << " bytes, " << seconds << " s");
    CHECK(largest < (std::size_t { 16 } << 20));
    CHECK(seconds < 1.0);
    REQUIRE(s.summary);
    CHECK(summaryProblems(s.report) >= 1);
    // The per-entry totals after the damaged line are still read.
    CHECK(s.summary->entryTime == i64({ 10, 20 }));
    CHECK(s.summary->entryCalls == i64({ 1, 2 }));
}

TEST_CASE("sumd runs cross entry boundaries and are split per entry")
{
    // 2 entries x 4 intervals, EP-major: entry 0 = 0 0 0 7, entry 1 = 7 3 0 0
    const auto d
        = readSumdText("ver:7.1 cpu:0/1 numIntervals:4 numEPs:2 intervalSize:1.000000e-03\n"
                       "ExeTimePerEPperInterval 0+3 7+2 3 0+2\n"
                       "EPCallTimePerInterval 0+3 1+2 1 0+2\n");
    REQUIRE(d.detail);
    const auto& x = *d.detail;
    CHECK(x.intervalUs == 1000);
    CHECK(x.intervalCount == 4);
    CHECK(x.entryCount == 2);
    CHECK(x.totalTime() == 4000);
    REQUIRE(x.cells.size() == 3);
    CHECK(x.cells[0].entry == 0);
    CHECK(x.cells[0].interval == 3);
    CHECK(x.cells[0].timeUs == 7);
    CHECK(x.cells[0].calls == 1);
    CHECK(x.cells[1].entry == 1);
    CHECK(x.cells[1].interval == 0);
    CHECK(x.cells[1].timeUs == 7);
    CHECK(x.cells[2].entry == 1);
    CHECK(x.cells[2].interval == 1);
    CHECK(x.cells[2].timeUs == 3);
    CHECK(x.cells[2].calls == 1);
    CHECK(d.report.empty());
}

TEST_CASE("sumd cells with calls but no time and time but no calls are both kept")
{
    const auto d
        = readSumdText("ver:7.1 cpu:0/1 numIntervals:2 numEPs:1 intervalSize:1.000000e-03\n"
                       "ExeTimePerEPperInterval 5 0\n"
                       "EPCallTimePerInterval 0 2\n");
    REQUIRE(d.detail);
    REQUIRE(d.detail->cells.size() == 2);
    CHECK(d.detail->cells[0].interval == 0);
    CHECK(d.detail->cells[0].timeUs == 5);
    CHECK(d.detail->cells[0].calls == 0);
    CHECK(d.detail->cells[1].interval == 1);
    CHECK(d.detail->cells[1].timeUs == 0);
    CHECK(d.detail->cells[1].calls == 2);
}

TEST_CASE("sumd with a wrong number of values is counted")
{
    const auto shortLine
        = readSumdText("ver:7.1 cpu:0/1 numIntervals:3 numEPs:2 intervalSize:1.000000e-03\n"
                       "ExeTimePerEPperInterval 1+4\nEPCallTimePerInterval 0+6\n");
    REQUIRE(shortLine.detail);
    CHECK(summaryProblems(shortLine.report) == 1);
    const auto longLine
        = readSumdText("ver:7.1 cpu:0/1 numIntervals:3 numEPs:2 intervalSize:1.000000e-03\n"
                       "ExeTimePerEPperInterval 1+4 2+5\nEPCallTimePerInterval 0+6\n");
    REQUIRE(longLine.detail);
    CHECK(summaryProblems(longLine.report) == 1);
    std::uint64_t cells = 0; // runs of cells: 1+3 (entry 0), 1 and 2+2 (entry 1)
    for (const auto& cell : longLine.detail->cells)
        cells += cell.length;
    CHECK(longLine.detail->cells.size() == 3);
    CHECK(cells == 6);
}

TEST_CASE("sumd claiming huge sizes stays small and fast")
{
    resetLargestAllocation();
    const auto start = std::chrono::steady_clock::now();
    const auto d = readSumdText(
        "ver:7.1 cpu:0/1 numIntervals:1000000000000 numEPs:60000 intervalSize:1.000000e-03\n"
        "ExeTimePerEPperInterval 0+999999999999 3+999999999999\n"
        "EPCallTimePerInterval 1+999999999999\n");
    const auto seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO("largest single allocation " << largestAllocation() << " bytes, " << seconds << " s");
    CHECK(largestAllocation() < (std::size_t { 16 } << 20));
    CHECK(seconds < 2.0);
    REQUIRE(d.detail);
    CHECK(summaryProblems(d.report) >= 1);
}

TEST_CASE("projrc gives RC_GLOBAL_END_TIME and reports a bad value")
{
    TempDir dir;
    writeFile(dir / "a.projrc", "RC_GLOBAL_START_TIME 0\nRC_GLOBAL_END_TIME   1248117\n");
    core::ImportReport report;
    CHECK(io::readProjrcEndTime((dir / "a.projrc").string(), report) == 1248117);
    CHECK(report.empty());
    writeFile(dir / "b.projrc", "RC_GLOBAL_END_TIME soon\n");
    CHECK(io::readProjrcEndTime((dir / "b.projrc").string(), report) == 0);
    CHECK(std::as_const(report).count(Issue::SummaryProblem) == 1);
    writeFile(dir / "c.projrc", "");
    CHECK(io::readProjrcEndTime((dir / "c.projrc").string(), report) == 0);
}

TEST_CASE("real gen-feat-smp sum expands its RLE to count bins")
{
    core::ImportReport report;
    const auto s = io::readSummary((realLog("gen-feat-smp") / "feat.0.sum").string(), 0, report);
    REQUIRE(s);
    CHECK(s->version == Approx(7.1));
    CHECK(s->intervalUs == 1000);
    REQUIRE(s->utilization.size() == 1255);
    REQUIRE(s->idlePercent.size() == 1255);
    REQUIRE(s->entryTime.size() == 215);
    // "   0+13  50 100+48  99 100+61 ..."
    for (std::size_t i = 0; i < 13; ++i)
        CHECK(s->utilization[i] == 0);
    CHECK(s->utilization[13] == 50);
    for (std::size_t i = 14; i < 62; ++i)
        CHECK(s->utilization[i] == 100);
    CHECK(s->utilization[62] == 99);
    CHECK(s->utilization[63] == 100);
    // "IdlePercent:    0+1101   2  99+13 ..."
    CHECK(s->idlePercent[1100] == 0);
    CHECK(s->idlePercent[1101] == 2);
    CHECK(s->idlePercent[1102] == 99);
    CHECK(s->idlePercent[1114] == 99);
    // "EPExeTime: 256 8 195 ..."
    CHECK(s->entryTime[0] == 256);
    CHECK(s->entryTime[1] == 8);
    CHECK(s->entryTime[2] == 195);
    CHECK(report.empty());
}

TEST_CASE("real v3.0 sum of projections-hello reads 36 bins and 61 entries")
{
    core::ImportReport report;
    const auto s
        = io::readSummary((realLog("projections-hello-v3") / "hello.0.sum").string(), 0, report);
    REQUIRE(s);
    CHECK(s->version == Approx(3.0));
    CHECK(s->utilization.size() == 36);
    CHECK(s->utilization[22] == 6);
    CHECK(s->utilization[23] == 52);
    CHECK(s->totalTime() == 36'000);
    REQUIRE(s->entryTime.size() == 61);
    // "... 0 276 0 385 798 0 0 11 11" are the last values of the time line.
    CHECK(s->entryTime[53] == 276);
    CHECK(s->entryTime[55] == 385);
    CHECK(s->entryTime[56] == 798);
    CHECK(s->entryTime[60] == 11);
    CHECK(std::accumulate(s->entryCalls.begin(), s->entryCalls.end(), std::int64_t { 0 }) > 0);
    CHECK(report.empty());
}

TEST_CASE("real sumd per-entry times agree with the sum totals up to per-cell truncation")
{
    // Investigated on the data: .sumd cells are truncated to whole µs per interval piece while
    // the .sum totals are truncated once, so per entry 0 <= sum - sumd <= calls + nonzero
    // cells; call counts agree except for executions outside the written bins (at most 2).
    const auto dir = realLog("gen-feat-smp");
    for (core::PeId pe = 0; pe < 6; ++pe) {
        core::ImportReport report;
        const auto base = dir / ("feat." + std::to_string(pe));
        const auto s = io::readSummary(base.string() + ".sum", pe, report);
        const auto d = io::readSummaryDetail(base.string() + ".sumd", pe, report);
        INFO("PE " << pe);
        REQUIRE(s);
        REQUIRE(d);
        CHECK(report.empty());
        CHECK(d->intervalCount == static_cast<std::int64_t>(s->utilization.size()));
        CHECK(d->intervalUs == s->intervalUs);
        REQUIRE(d->entryCount == 215);
        const auto detailTime = timePerEntry(*d);
        std::vector<std::int64_t> detailCalls(215, 0);
        std::vector<std::int64_t> nonzeroCells(215, 0);
        for (const auto& cell : d->cells) {
            detailCalls.at(cell.entry) += cell.calls * cell.length;
            if (cell.timeUs != 0)
                nonzeroCells.at(cell.entry) += cell.length;
        }
        std::int64_t callDifference = 0;
        std::int64_t exactEntries = 0;
        for (std::size_t e = 0; e < 215; ++e) {
            INFO("entry " << e);
            const auto diff = s->entryTime[e] - detailTime[e];
            CHECK(diff >= 0);
            CHECK(diff <= s->entryCalls[e] + nonzeroCells[e]);
            CHECK(detailCalls[e] <= s->entryCalls[e]);
            callDifference += s->entryCalls[e] - detailCalls[e];
            exactEntries += diff == 0 ? 1 : 0;
        }
        CHECK(callDifference <= 2);
        CHECK(exactEntries >= 200);
    }
}

TEST_CASE("sumd tokens: the one-pass reading agrees with the long way at its edges")
{
    // Leading zeros, a tab, 19 digits (past the one-pass reader's 18), a negative value.
    const auto d
        = readSumdText("ver:7.1 cpu:0/1 numIntervals:5 numEPs:1 intervalSize:1.000000e-03\n"
                       "ExeTimePerEPperInterval\t007 1234567890123456789+1\t-4 2+2\n");
    REQUIRE(d.detail);
    const auto& cells = d.detail->cells;
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].interval == 0);
    CHECK(cells[0].timeUs == 7);
    CHECK(cells[1].interval == 1);
    CHECK(cells[1].timeUs == 1234567890123456789);
    CHECK(cells[2].interval == 3);
    CHECK(cells[2].length == 2);
    CHECK(cells[2].timeUs == 2);
    CHECK(summaryProblems(d.report) == 1); // the negative value, read as 0

    // A token that is not `value[+repeat]` ends the line: what came before it is kept.
    for (const std::string token : { "5-", "+3", "1+0", "2+3+1", "4x", "-", "9+" }) {
        INFO(token);
        const auto bad
            = readSumdText("ver:7.1 cpu:0/1 numIntervals:3 numEPs:1 intervalSize:1.000000e-03\n"
                           "ExeTimePerEPperInterval 1 "
                + token + " 1\n");
        REQUIRE(bad.detail);
        REQUIRE(bad.detail->cells.size() == 1);
        CHECK(bad.detail->cells[0].timeUs == 1);
        CHECK(summaryProblems(bad.report) == 1);
    }
}

TEST_CASE("summary lines read the same with the portable and the AVX-512 token readers")
{
    // Random .sumd and .sum lines (long enough for the 64-byte blocks), mostly well formed with
    // the odd token the block reader must leave to the byte loop: a negative value, 9+ digits, a
    // repeat of 0, a doubled '+', a tab, a double blank, a foreign character. Read with each
    // reader, the cells, values and reports must be equal. Seeded: the same lines every run.
    WideScanSwitch scans;
    SeededRandom random(0x2545F4914F6CDD1DULL);
    auto next = [&](std::uint64_t bound) {
        return random.below(bound);
    };
    // One token covering at most `left` values (a well-formed line covers exactly its count).
    auto token = [&](int& left) {
        const auto kind = next(800);
        --left;
        if (kind == 0)
            return std::string("-") + std::to_string(next(50));
        if (kind == 1)
            return std::to_string(100000000 + next(900000000)); // 9 digits
        if (kind == 2)
            return std::to_string(next(9)) + "+0";
        if (kind == 3)
            return std::to_string(next(9)) + "+2+3";
        if (kind == 4)
            return std::string("7x");
        std::string t = std::to_string(next(4) == 0 ? next(100000) : next(10));
        if (left > 0 && next(4) == 0) {
            const auto repeat = 1 + static_cast<int>(next(next(10) == 0 ? 5000 : 6));
            const auto taken = std::min(repeat, left + 1);
            left -= taken - 1;
            t += "+" + std::to_string(taken);
        }
        return t;
    };
    std::size_t clean = 0;
    for (int round = 0; round < 300; ++round) {
        const int intervals = 40 + static_cast<int>(next(200));
        const int entries = 1 + static_cast<int>(next(5));
        const int total = intervals * entries;
        auto line = [&](const char* label) {
            std::string text = label;
            for (int left = total; left > 0;) {
                text += next(40) == 0 ? (next(2) == 0 ? "\t" : "  ") : " ";
                text += token(left);
            }
            return text + "\n";
        };
        const std::string sumd = "ver:7.1 cpu:0/1 numIntervals:" + std::to_string(intervals)
            + " numEPs:" + std::to_string(entries) + " intervalSize:1.000000e-03\n"
            + line("ExeTimePerEPperInterval") + line("EPCallTimePerInterval");
        const std::string sum = "ver:7.1 0/1 count:" + std::to_string(total)
            + " ep:1 interval:1.000000e-03 phases:0\n" + line("").substr(1);
        scans.allowWide(false);
        const auto portableDetail = readSumdText(sumd);
        const auto portableSum = readSumText(sum);
        scans.allowWide(true);
        const auto wideDetail = readSumdText(sumd);
        const auto wideSum = readSumText(sum);
        INFO("round " << round);
        REQUIRE(portableDetail.detail.has_value() == wideDetail.detail.has_value());
        REQUIRE(portableDetail.detail);
        const auto& a = portableDetail.detail->cells;
        const auto& b = wideDetail.detail->cells;
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            REQUIRE(a[i].entry == b[i].entry);
            REQUIRE(a[i].interval == b[i].interval);
            REQUIRE(a[i].length == b[i].length);
            REQUIRE(a[i].timeUs == b[i].timeUs);
            REQUIRE(a[i].calls == b[i].calls);
        }
        REQUIRE(summaryProblems(portableDetail.report) == summaryProblems(wideDetail.report));
        REQUIRE(portableSum.summary.has_value() == wideSum.summary.has_value());
        REQUIRE(portableSum.summary);
        REQUIRE(portableSum.summary->utilization == wideSum.summary->utilization);
        REQUIRE(summaryProblems(portableSum.report) == summaryProblems(wideSum.report));
        if (summaryProblems(portableDetail.report) == 0)
            ++clean;
    }
    // Both the clean and the damaged lines were exercised.
    CHECK(clean > 30);
    CHECK(clean < 270);
}
