// Regression tests for the hostile inputs of the review (PARALLAX_SHARED_DIR/robustness-cases):
// each case gives a clear message, bounded memory and time, and the rest of the run usable.
// The run directories are read in place; the two generated cases are re-created here in C++
// (smaller, with the same shape).

#include "core/analysis/csv_export.h"
#include "io/pe_detail_cache.h"
#include "io/run_loader.h"
#include "io/store_estimate.h"
#include "support/allocation_tracker.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {

fs::path robustnessCase(std::string_view name)
{
    const auto path = sharedDir() / "robustness-cases" / std::string(name);
    INFO("robustness case " << path.string() << " is missing");
    REQUIRE(fs::exists(path));
    return path;
}

std::uint64_t count(const core::Trace& trace, Issue issue)
{
    return std::as_const(trace.report).count(issue);
}

// True when one of the report's examples of `issue` contains `text`.
bool reported(const core::Trace& trace, Issue issue, std::string_view text)
{
    for (const auto& e : trace.report.examples())
        if (e.issue == issue && e.message.find(text) != std::string::npos)
            return true;
    return false;
}

fs::path pingpongSts()
{
    return realLog("pipit-pingpong-v11") / "pingpong.prj.sts";
}

} // namespace

TEST_CASE("a VERSION that is NaN or infinite is refused as not a number")
{
    const auto error = loadFails(robustnessCase("ub-version-nan"));
    CHECK(error.find("VERSION") != std::string::npos);
    CHECK(error.find("hello.sts") != std::string::npos);

    TempDir dir;
    const auto sts = readFile(robustnessCase("ub-version-nan") / "hello.sts");
    for (const std::string bad : { "inf", "-inf", "-nan", "1e400" }) {
        INFO("VERSION " << bad);
        auto text = sts;
        text.replace(text.find("nan"), 3, bad);
        writeFile(dir / "hello.sts", text);
        CHECK(loadFails(dir / "hello.sts").find("VERSION") != std::string::npos);
    }
}

TEST_CASE("a .projrc end time of 2^63-1 is reported and ignored, the run opens")
{
    const auto trace = loadOk(robustnessCase("projrc-endtime"));
    CHECK(trace->metadata.projrcEndTime == 0);
    CHECK(reported(*trace, Issue::SummaryProblem, "RC_GLOBAL_END_TIME"));
    CHECK(trace->pes.size() == 2);
    CHECK(trace->endTime() < (core::TimeUs { 1 } << 40));
}

TEST_CASE("a -2^63 .sumd time is read as 0 with a warning, and CSV numbers never overflow")
{
    const auto trace = loadOk(robustnessCase("ub-csv-float-cast"));
    REQUIRE(trace->details.size() >= 1);
    REQUIRE(trace->details[0].has_value());
    for (const auto& cell : trace->details[0]->cells) {
        CHECK(cell.timeUs >= 0);
        CHECK(cell.calls >= 0);
    }
    CHECK(reported(*trace, Issue::SummaryProblem, "negative"));

    // Values outside long long's range (and NaN) are printed, not converted.
    CHECK(core::analysis::formatCsvNumber(-9.3e18) == "-9.3e+18");
    CHECK(core::analysis::formatCsvNumber(1e300) == "1e+300");
    CHECK(core::analysis::formatCsvNumber(std::numeric_limits<double>::quiet_NaN()) == "nan");
    CHECK(core::analysis::formatCsvNumber(12.0) == "12");
}

TEST_CASE("negative .sum totals are read as 0 with a warning")
{
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    writeFile(dir / "r.0.sum",
        "ver:7.1 0/1 count:2 ep:3 interval:1.000000e-03 phases:0\n"
        "50 -7\n"
        "10 -9223372036854775808 5\n"
        "1 1 -1\n"
        "3 4 5\n"
        "NumMarks: 0\n");
    const auto trace = loadOk(dir.path());
    REQUIRE(trace->summaries.at(0).has_value());
    const auto& s = *trace->summaries[0];
    CHECK(s.entryTime == std::vector<std::int64_t> { 10, 0, 5 });
    CHECK(s.entryCalls == std::vector<std::int64_t> { 1, 1, 0 });
    CHECK(s.utilization == std::vector<std::int16_t> { 50, 0 });
    CHECK(reported(*trace, Issue::SummaryProblem, "negative"));
}

TEST_CASE("user-event brackets closed in reverse order are all matched, without a quadratic scan")
{
    // quadratic-brackets/gen.py: PE 0 opens N brackets (type 98) and closes them in reverse
    // order (99). With a linear search over the open brackets this size costs minutes of CPU.
    constexpr int n = 200'000;
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    std::string log = "PROJECTIONS-RECORD\n6 0\n";
    log.reserve(static_cast<std::size_t>(n) * 40);
    for (int i = 0; i < n; ++i)
        log += "98 " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i)
            + " 0 0\n";
    for (int i = n - 1; i >= 0; --i)
        log += "99 " + std::to_string(i) + " " + std::to_string(2 * n + i) + " " + std::to_string(i)
            + " 0 0\n";
    log += "7 " + std::to_string(4 * n) + "\n";
    writeFile(dir / "r.0.log", log);

    const auto trace = loadOk(dir.path());
    REQUIRE(trace->pes.size() >= 1);
    const auto& brackets = trace->pes[0].userBrackets;
    REQUIRE(brackets.size() == static_cast<std::size_t>(n));
    CHECK(count(*trace, Issue::UnmatchedUserEventPair) == 0);
    for (std::size_t k = 0; k < brackets.size(); k += 997) {
        const auto& b = brackets[k];
        CHECK(b.begin == b.id + 1);
        CHECK(b.end == 2 * n + b.id);
    }
}

TEST_CASE("brackets with the same id pair each END with the earliest open BEGIN")
{
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    writeFile(dir / "r.0.log",
        "PROJECTIONS-RECORD\n6 0\n"
        "98 5 10 0 0 0\n"
        "98 5 20 0 0 0\n"
        "99 5 15 0 0 0\n" // closes the one begun at 10 (the one at 20 has not begun yet)
        "99 5 30 0 0 0\n"
        "99 5 40 0 0 0\n" // nothing left open: unmatched
        "7 50\n");
    const auto trace = loadOk(dir.path());
    const auto& brackets = trace->pes.at(0).userBrackets;
    REQUIRE(brackets.size() == 2);
    CHECK(brackets[0].begin == 10);
    CHECK(brackets[0].end == 15);
    CHECK(brackets[1].begin == 20);
    CHECK(brackets[1].end == 30);
    CHECK(count(*trace, Issue::UnmatchedUserEventPair) == 1);
}

TEST_CASE("PROCESSORS 16777216 with one log does not make per-PE tables for every claimed PE")
{
    resetLargestAllocation();
    const auto trace = loadOk(robustnessCase("procs-2e24"));
    CHECK(reported(*trace, Issue::StsProblem, "PROCESSORS 16777216"));
    CHECK(trace->metadata.processors <= 65536);
    CHECK(trace->files.logPaths.size() == static_cast<std::size_t>(trace->metadata.processors));
    CHECK(count(*trace, Issue::PeOutOfRange) == 1); // r.16777215.log, named in the report
    CHECK(reported(*trace, Issue::PeOutOfRange, "16777215"));
    CHECK(largestAllocation() < (std::size_t { 64 } << 20));
}

TEST_CASE("a run traced on a sparse subset of many PEs keeps its PE numbering")
{
    TempDir dir;
    auto sts = readFile(pingpongSts());
    sts.replace(sts.find("PROCESSORS 2"), 12, "PROCESSORS 70000");
    writeFile(dir / "r.sts", sts);
    // 1,094 files: up to 70,016 PEs are plausible.
    for (int pe = 0; pe < 70000; pe += 64)
        writeFile(dir / ("r." + std::to_string(pe) + ".log"), "PROJECTIONS-RECORD\n6 0\n7 10\n");
    io::LoadOptions options;
    options.readLogs = false;
    const auto trace = loadOk(dir.path(), options);
    CHECK(trace->metadata.processors == 70000);
    CHECK(count(*trace, Issue::StsProblem) == 0);
    CHECK(count(*trace, Issue::PeOutOfRange) == 0);
    REQUIRE(trace->files.logPaths.size() == 70000);
    CHECK_FALSE(trace->files.logPaths[69952].empty());
}

TEST_CASE("a .sum claiming 1024 phases of 65536 entries holds only what its lines hold")
{
    resetLargestAllocation();
    const auto trace = loadOk(robustnessCase("sum-phases"));
    REQUIRE(trace->summaries.at(0).has_value());
    const auto& s = *trace->summaries[0];
    std::size_t values = 0;
    for (const auto& phase : s.phases)
        values += phase.entryCalls.size() + phase.entryTime.size() + phase.entryMaxTime.size();
    CHECK(values == 0); // every phase line of the case is "[p] 0"
    CHECK(largestAllocation() < (std::size_t { 16 } << 20));
}

TEST_CASE("phase lines of one .sum keep at most 2^20 values together")
{
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    std::string sum = "ver:7.1 0/1 count:1 ep:65536 interval:1.000000e-03 phases:64\n0\n0\n0\n0\n"
                      "NumMarks: 0\n";
    for (int p = 0; p < 64 * 3; ++p)
        sum.append("[").append(std::to_string(p / 3)).append("] 1+65536\n");
    writeFile(dir / "r.0.sum", sum);
    const auto trace = loadOk(dir.path());
    const auto& s = *trace->summaries.at(0);
    std::size_t values = 0;
    for (const auto& phase : s.phases)
        values += phase.entryCalls.size() + phase.entryTime.size() + phase.entryMaxTime.size();
    CHECK(values == (std::size_t { 1 } << 20));
    CHECK(reported(*trace, Issue::SummaryProblem, "phase lines"));
}

TEST_CASE("eight tiny .sumd files claiming 4M intervals x 65536 entries stay small")
{
    resetLargestAllocation();
    const auto trace = loadOk(robustnessCase("sumd-8"));
    REQUIRE(trace->details.size() == 8);
    std::size_t cells = 0;
    for (const auto& d : trace->details) {
        REQUIRE(d.has_value());
        cells += d->cells.size();
        REQUIRE(d->cells.size() == 1);
        // "1+4194304": every interval of entry 0 holds 1 µs and 1 call, kept as one run.
        CHECK(d->cells[0].entry == 0);
        CHECK(d->cells[0].interval == 0);
        CHECK(d->cells[0].length == 4194304);
        CHECK(d->cells[0].timeUs == 1);
        CHECK(d->cells[0].calls == 1);
    }
    CHECK(cells == 8);
    CHECK(largestAllocation() < (std::size_t { 4 } << 20));
    CHECK(reported(*trace, Issue::SummaryProblem, "numIntervals*numEPs"));
}

TEST_CASE("a gzip trailer that lies about the size cannot get a run past the memory budget")
{
    io::LoadOptions options;
    options.memoryBudget = std::uint64_t { 8 } << 20;
    options.readSummaries = false;
    const auto trace = loadOk(robustnessCase("budget-isize"), options);
    CHECK(trace->logsOnDemand());
    CHECK(trace->deferredStoreBytes > options.memoryBudget);
    CHECK(trace->storeBytes() < options.memoryBudget);
    CHECK(reported(*trace, Issue::FileError, "memory budget"));
}

TEST_CASE("a skewed first MiB cannot get a run past the memory budget")
{
    // budget-sample/gen.py, smaller: one 1 MB note line first (so the sampled bytes per
    // record are huge), then 1.2 million short records.
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    {
        std::ofstream out(dir / "r.0.log", std::ios::binary);
        out << "PROJECTIONS-RECORD\n6 0\n28 1 1040000 " << std::string(1040000, 'A') << "\n";
        std::string chunk;
        for (int i = 0; i < 10000; ++i)
            chunk += "14 5 0\n15 6 0\n";
        for (int k = 0; k < 60; ++k)
            out << chunk;
        out << "7 10\n";
        REQUIRE(out.good());
    }
    io::LoadOptions options;
    options.memoryBudget = std::uint64_t { 8 } << 20; // the records need about 29 MB
    const auto trace = loadOk(dir.path(), options);
    CHECK(trace->logsOnDemand());
    CHECK(trace->deferredStoreBytes > options.memoryBudget);
    CHECK(reported(*trace, Issue::FileError, "memory budget"));

    // Without a budget the same run is read in full.
    io::LoadOptions unlimited;
    const auto full = loadOk(dir.path(), unlimited);
    CHECK_FALSE(full->logsOnDemand());
    CHECK(full->pes.at(0).idles.size() == 600000);
}

TEST_CASE("a PE read on demand stops at the memory cap instead of reading its whole log")
{
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    std::string log = "PROJECTIONS-RECORD\n6 0\n";
    for (int i = 0; i < 300000; ++i)
        log += "14 5 0\n15 6 0\n";
    log += "7 10\n";
    writeFile(dir / "r.0.log", log);
    io::LoadOptions options;
    options.readLogs = false;
    const auto trace = loadOk(dir.path(), options);

    constexpr std::uint64_t cap = std::uint64_t { 4 } << 20; // the PE needs about 14 MB
    io::PeDetailCache cache(*trace, cap);
    core::ImportReport report;
    const auto pe = cache.get(0, &report);
    REQUIRE(pe != nullptr);
    CHECK(pe->idles.size() > 0);
    CHECK(pe->idles.size() < 300000);
    CHECK(pe->memoryBytes() <= cap + (std::uint64_t { 1 } << 20));
    bool said = false;
    for (const auto& e : report.examples())
        said = said || e.message.find("memory budget") != std::string::npos;
    CHECK(said);

    // With room, the same PE is read whole.
    io::PeDetailCache roomy(*trace, std::uint64_t { 1 } << 30);
    CHECK(roomy.get(0)->idles.size() == 300000);
}

TEST_CASE("the memory budget counts the PEs a run claims")
{
    const auto files = [] {
        core::RunFiles f;
        f.logPaths.assign(1000, {});
        return f;
    }();
    const auto estimate = io::estimateStore(files);
    CHECK(estimate.storeBytes == 1000 * io::kStoreBytesPerPe);
    CHECK(io::kStoreBytesPerPe >= sizeof(core::PeTrace));
}

TEST_CASE("PAPI_EVENT without TOTAL_PAPI_EVENTS is reported and does not spoil the logs")
{
    const auto run = realLog("pipit-pingpong-v11");
    TempDir dir;
    copyFiles(run, dir.path());
    const auto clean = loadOk(dir.path());
    REQUIRE(clean->pes.size() == 2);
    REQUIRE(clean->pes[0].executions.size() > 0);

    auto sts = readFile(dir / "pingpong.prj.sts");
    sts.insert(sts.rfind("END"), "PAPI_EVENT 3 X\n");
    writeFile(dir / "pingpong.prj.sts", sts);
    const auto trace = loadOk(dir.path());
    CHECK(reported(*trace, Issue::StsProblem, "PAPI_EVENT"));
    CHECK(trace->metadata.papiEvents.empty());
    CHECK(count(*trace, Issue::MalformedLine) == count(*clean, Issue::MalformedLine));
    for (std::size_t p = 0; p < 2; ++p)
        CHECK(trace->pes[p].executions.size() == clean->pes[p].executions.size());
}
