// loadRun / readPeLog: encodings give identical stores, threads do not change results,
// progress adds up, cancellation stops the load.

#include "io/run_loader.h"
#include "support/io_support.h"
#include "support/report_support.h"
#include "support/scan_support.h"
#include "support/test_support.h"
#include "trace_compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace parallax_test_run_loader_test {

void requireSameTrace(const core::Trace& a, const core::Trace& b)
{
    REQUIRE(a.pes.size() == b.pes.size());
    for (std::size_t p = 0; p < a.pes.size(); ++p)
        requireSamePeTrace(a.pes[p], b.pes[p]);
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<Issue>(k);
        INFO(core::issueKey(issue));
        REQUIRE(a.report.count(issue) == b.report.count(issue));
    }
    REQUIRE(a.beginTime() == b.beginTime());
    REQUIRE(a.endTime() == b.endTime());
    REQUIRE(a.eventCount() == b.eventCount());
    REQUIRE(a.validPes() == b.validPes());
}

// Copies a real run into `to` with every NAME.N.log.gz replaced by the decompressed NAME.N.log.
void copyGunzipped(const fs::path& from, const fs::path& to)
{
    copyFiles(from, to, [](const std::string& name) { return !endsWith(name, ".log.gz"); });
    for (const auto& entry : fs::directory_iterator(from)) {
        const auto name = entry.path().filename().string();
        if (endsWith(name, ".log.gz"))
            writeFile(to / name.substr(0, name.size() - 3), gunzipToString(entry.path()));
    }
}

struct Recorder {
    std::mutex mutex;
    std::vector<io::LoadProgress> reports;
    void operator()(const io::LoadProgress& p)
    {
        std::lock_guard lock(mutex);
        reports.push_back(p);
    }
};

TEST_CASE("log and log.gz of the same run give identical stores")
{
    for (const char* name :
        { "gen-feat-smp", "pipit-pingpong-v11", "pipit-hello1darray-v11", "charm-synth-v7" }) {
        INFO(name);
        const auto original = realLog(name);
        TempDir dir;
        copyGunzipped(original, dir.path());
        const auto gz = loadOk(original);
        const auto plain = loadOk(dir.path());
        for (const auto& path : gz->files.logPaths)
            REQUIRE(endsWith(path, ".log.gz"));
        for (const auto& path : plain->files.logPaths)
            REQUIRE(endsWith(path, ".log"));
        REQUIRE(plain->hasLogs());
        requireSameTrace(*gz, *plain);
    }
}

TEST_CASE("a plain-text run and its gzipped copy give identical stores")
{
    const auto original = realLog("gen-feat-flush-plain");
    TempDir dir;
    copyFiles(
        original, dir.path(), [](const std::string& name) { return !endsWith(name, ".log"); });
    for (const auto& entry : fs::directory_iterator(original)) {
        const auto name = entry.path().filename().string();
        if (endsWith(name, ".log"))
            gzipString(dir / (name + ".gz"), readFile(entry.path()));
    }
    const auto plain = loadOk(original);
    const auto gz = loadOk(dir.path());
    REQUIRE(endsWith(gz->files.logPaths[0], ".log.gz"));
    requireSameTrace(*plain, *gz);
}

TEST_CASE("one worker thread and several give identical stores")
{
    const auto path = realLog("gen-feat-smp");
    io::LoadOptions one;
    one.threads = 1;
    io::LoadOptions many;
    many.threads = 4;
    requireSameTrace(*loadOk(path, one), *loadOk(path, many));
}

TEST_CASE("the portable and the AVX-512 integer scans give identical stores on every real run")
{
    // The loader picks the AVX-512 scan where the processor has it; every real dataset must load
    // to the same store, issue counts included, with either. Where the processor lacks it both
    // loads take the portable scan, and this says so.
    WideScanSwitch scans;
    std::size_t runs = 0;
    for (const char* name : { "gen-feat-smp", "gen-leanmd-smp", "gen-feat-flush-plain",
             "gen-feat-notracenested", "gen-feat-binshrink-partial", "pipit-pingpong-v11",
             "pipit-hello1darray-v11", "charm-synth-v7", "projections-hello-v3" }) {
        INFO(name);
        scans.allowWide(false);
        const auto portable = loadOk(realLog(name));
        scans.allowWide(true);
        const auto wide = loadOk(realLog(name));
        requireSameTrace(*portable, *wide);
        // The summaries too (their token reader has an AVX-512 form as well).
        REQUIRE(portable->summaries.size() == wide->summaries.size());
        for (std::size_t p = 0; p < portable->summaries.size(); ++p) {
            const auto& a = portable->summaries[p];
            const auto& b = wide->summaries[p];
            REQUIRE(a.has_value() == b.has_value());
            if (a)
                REQUIRE(a->utilization == b->utilization);
        }
        REQUIRE(portable->details.size() == wide->details.size());
        for (std::size_t p = 0; p < portable->details.size(); ++p) {
            const auto& a = portable->details[p];
            const auto& b = wide->details[p];
            REQUIRE(a.has_value() == b.has_value());
            if (!a)
                continue;
            REQUIRE(a->cells.size() == b->cells.size());
            for (std::size_t i = 0; i < a->cells.size(); ++i) {
                REQUIRE(a->cells[i].entry == b->cells[i].entry);
                REQUIRE(a->cells[i].interval == b->cells[i].interval);
                REQUIRE(a->cells[i].length == b->cells[i].length);
                REQUIRE(a->cells[i].timeUs == b->cells[i].timeUs);
                REQUIRE(a->cells[i].calls == b->cells[i].calls);
            }
        }
        ++runs;
    }
    CHECK(runs == 9);
}

TEST_CASE("progress reports bytes that grow to the total of the log files")
{
    const auto path = realLog("gen-feat-smp");
    Recorder recorder;
    io::LoadOptions options;
    options.threads = 1;
    options.progress = std::ref(recorder);
    const auto trace = loadOk(path, options);
    REQUIRE_FALSE(recorder.reports.empty());
    std::uint64_t expectedTotal = 0;
    for (const auto& log : trace->files.logPaths)
        expectedTotal += fs::file_size(log);
    CHECK(trace->files.logBytes == expectedTotal);
    const auto& last = recorder.reports.back();
    CHECK(last.stage == "done");
    CHECK(last.bytesTotal == expectedTotal);
    CHECK(last.bytesDone == expectedTotal);
    CHECK(last.filesTotal == 6);
    CHECK(last.filesDone == 6);
    std::uint64_t previous = 0;
    for (const auto& p : recorder.reports) {
        CHECK(p.bytesDone >= previous);
        CHECK(p.bytesDone <= expectedTotal);
        previous = p.bytesDone;
    }
}

TEST_CASE("progress bytes also end at the total with parallel workers on a large run")
{
    const auto path = realLog("gen-leanmd-smp");
    Recorder recorder;
    io::LoadOptions options;
    options.threads = 2;
    options.progress = std::ref(recorder);
    const auto trace = loadOk(path, options);
    REQUIRE_FALSE(recorder.reports.empty());
    CHECK(recorder.reports.back().stage == "done");
    CHECK(recorder.reports.back().bytesDone == trace->files.logBytes);
    CHECK(recorder.reports.back().bytesTotal == trace->files.logBytes);
}

TEST_CASE("cancelling after the first progress call returns cancelled and no trace")
{
    for (const char* name : { "gen-feat-smp", "gen-leanmd-smp" }) {
        INFO(name);
        std::atomic<int> progressCalls { 0 };
        std::mutex mutex;
        std::vector<std::string> stages;
        io::LoadOptions options;
        options.threads = 1;
        options.progress = [&](const io::LoadProgress& p) {
            ++progressCalls;
            std::lock_guard lock(mutex);
            stages.push_back(p.stage);
        };
        options.cancelled = [&]() {
            return progressCalls.load() > 0;
        };
        const auto result = io::loadRun(realLog(name).string(), options);
        CHECK(result.cancelled);
        CHECK(result.trace == nullptr);
        CHECK(std::find(stages.begin(), stages.end(), "done") == stages.end());
        CHECK(std::find(stages.begin(), stages.end(), "reading summaries") == stages.end());
    }
}

TEST_CASE("a cancelled large log stops within the file instead of reading it to the end")
{
    // gen-leanmd-smp PE 0 has ~220k records: the chunk callback must see the cancel early.
    const auto path = realLog("gen-leanmd-smp");
    core::ImportReport report;
    const auto sts = io::loadRun(path.string(), [] {
        io::LoadOptions o;
        o.readLogs = false;
        o.readSummaries = false;
        return o;
    }());
    REQUIRE(sts.trace);
    core::PeTrace out;
    std::uint64_t seen = 0;
    const bool finished = io::readPeLog(sts.trace->files.logPaths[0], 0, sts.trace->metadata, out,
        report, [&](std::uint64_t delta, std::uint64_t) {
            seen += delta;
            return false;
        });
    CHECK_FALSE(finished);
    CHECK(seen > 0);
    CHECK(seen < fs::file_size(sts.trace->files.logPaths[0]));
}

TEST_CASE("readPeLog reports chunks that add up to the file size")
{
    const auto path = realLog("gen-leanmd-smp");
    io::LoadOptions metaOnly;
    metaOnly.readLogs = false;
    metaOnly.readSummaries = false;
    const auto run = loadOk(path, metaOnly);
    CHECK_FALSE(run->hasLogs());
    CHECK_FALSE(run->hasSummaries());
    core::ImportReport report;
    core::PeTrace out;
    std::uint64_t seen = 0;
    int calls = 0;
    const auto& log = run->files.logPaths[4];
    std::uint64_t lines = 0;
    REQUIRE(io::readPeLog(
        log, 4, run->metadata, out, report, [&](std::uint64_t delta, std::uint64_t read) {
            seen += delta;
            lines += read;
            ++calls;
            return true;
        }));
    CHECK(seen == fs::file_size(log));
    CHECK(calls > 1);
    CHECK(out.pe == 4);
    CHECK(out.hasLog);
    CHECK(out.recordCount > 10'000);
    CHECK(lines >= out.recordCount); // every record is a line; blank and ignored lines too

    // A small log: one call, with exactly its lines (the memory budget counts these, so a
    // 17-line log must not weigh like 16,384).
    const auto tiny = loadOk(fs::path(PARALLAX_TEST_DATA_DIR) / "runs" / "tiny", metaOnly);
    std::vector<std::uint64_t> chunks;
    core::PeTrace small;
    REQUIRE(io::readPeLog(tiny->files.logPaths[0], 0, tiny->metadata, small, report,
        [&](std::uint64_t, std::uint64_t read) {
            chunks.push_back(read);
            return true;
        }));
    CHECK(chunks == std::vector<std::uint64_t> { 17 });
}

TEST_CASE("reading without logs keeps the metadata and the summaries only")
{
    io::LoadOptions options;
    options.readLogs = false;
    const auto trace = loadOk(realLog("gen-feat-smp"), options);
    CHECK_FALSE(trace->hasLogs());
    CHECK(trace->hasSummaries());
    CHECK(trace->hasSummaryDetails());
    CHECK(trace->metadata.entries.size() == 215);
    CHECK(trace->validPes() == std::vector<core::PeId> { 0, 1, 2, 3, 4, 5 });
}

} // namespace parallax_test_run_loader_test
