// Indexes built slice by slice, as parallax-index's ranks build them (io/index_build.h), opened
// through --index (io::loadRunFromIndex): the same store and import report as a plain load for
// any number of slices, and every bad index refused with one clear reason.

#include "core/analysis/entry_ranking.h"
#include "io/index_build.h"
#include "io/index_cache.h"
#include "io/index_format.h"
#include "io/mapped_index.h"
#include "support/index_forge.h"
#include "support/io_support.h"
#include "support/test_support.h"
#include "trace_compare.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace parallax;
using namespace parallax::test;

namespace {

// What parallax-index does on `slices` ranks, one after the other in this process.
void buildIndex(const fs::path& run, const fs::path& out, std::size_t slices, unsigned threads = 2)
{
    io::LoadOptions options;
    options.threads = threads;
    auto found = io::findRun(run.string(), options);
    REQUIRE(found.trace);
    auto& t = *found.trace;
    auto rows = io::indexRowsOfFound(t, options);
    REQUIRE(rows.total() >= slices);
    const auto bounds = io::sliceByBytes(io::rowBytes(t, options), slices);
    std::string error;
    const auto key = io::indexKeyOf(t.files, error);
    REQUIRE(error.empty());
    fs::create_directories(out);
    const auto buildId = io::sliceBuildId(t, options, rows, slices);
    std::vector<core::ImportReport> logs;
    std::vector<core::ImportReport> sums;
    std::vector<io::ShardInfo> shards;
    rows.storeBytes = 0;
    for (std::size_t s = 0; s < slices; ++s) {
        auto slice = io::indexSlice(t, options, rows, out.string(), buildId, s, slices, bounds[s],
            bounds[s + 1] - bounds[s]);
        logs.push_back(std::move(slice.logReport));
        sums.push_back(std::move(slice.summaryReport));
        shards.push_back(slice.shard);
        io::addSliceTotals(rows, slice);
    }
    io::mergeSliceReports(t, logs, sums);
    io::writeManifest(
        out.string(), t, rows, io::indexOptionFlags(true, true), key, buildId, shards);
}

void requireSameReport(const core::ImportReport& a, const core::ImportReport& b)
{
    for (std::size_t k = 0; k < core::kIssueKinds; ++k)
        REQUIRE(a.count(static_cast<core::Issue>(k)) == b.count(static_cast<core::Issue>(k)));
    REQUIRE(a.examples().size() == b.examples().size());
    for (std::size_t i = 0; i < a.examples().size(); ++i) {
        REQUIRE(a.examples()[i].file == b.examples()[i].file);
        REQUIRE(a.examples()[i].line == b.examples()[i].line);
        REQUIRE(a.examples()[i].message == b.examples()[i].message);
    }
}

void requireSameStore(const core::Trace& fresh, const core::Trace& t)
{
    requireSameReport(fresh.report, t.report);
    REQUIRE(t.pes.size() == fresh.pes.size());
    for (std::size_t p = 0; p < t.pes.size(); ++p)
        requireSamePeTrace(fresh.pes[p], t.pes[p]);
    REQUIRE(t.summaries.size() == fresh.summaries.size());
    for (std::size_t p = 0; p < t.summaries.size(); ++p) {
        REQUIRE(t.summaries[p].has_value() == fresh.summaries[p].has_value());
        if (t.summaries[p]) {
            REQUIRE(t.summaries[p]->utilization == fresh.summaries[p]->utilization);
            REQUIRE(t.summaries[p]->entryTime == fresh.summaries[p]->entryTime);
        }
    }
    REQUIRE(t.details.size() == fresh.details.size());
    for (std::size_t p = 0; p < t.details.size(); ++p) {
        REQUIRE(t.details[p].has_value() == fresh.details[p].has_value());
        if (t.details[p])
            REQUIRE(t.details[p]->cells.size() == fresh.details[p]->cells.size());
    }
    REQUIRE(t.storeBytes() == fresh.storeBytes());
    // The entry palette's ranking, recorded in the index, as the logs give it.
    const auto ranked = core::analysis::rankEntriesByTime(t);
    const auto expected = core::analysis::rankEntriesByTime(fresh);
    REQUIRE(ranked.order == expected.order);
    REQUIRE(ranked.time == expected.time);
    REQUIRE(t.eventCount() == fresh.eventCount());
    REQUIRE(t.beginTime() == fresh.beginTime());
    REQUIRE(t.endTime() == fresh.endTime());
    REQUIRE(t.validPes() == fresh.validPes());
    REQUIRE(t.missingPes() == fresh.missingPes());
    REQUIRE(t.fullReport().examples().size() == fresh.report.examples().size());
}

struct AgedRun {
    TempDir dir;
    fs::path run;
    explicit AgedRun(const fs::path& from)
    {
        run = dir.path() / "run";
        copyFiles(from, run);
        ageFiles(run);
    }
};

io::LoadResult openThrough(const fs::path& run, const fs::path& index)
{
    return io::loadRunFromIndex(run.string(), index.string(), {});
}

} // namespace

TEST_CASE("an index built in 1, 2 or 3 slices opens as the plain load of the run", "[index]")
{
    // Runs with damaged logs, summaries only, SMP comm threads, PEs without logs.
    for (const auto* name : { "gen-feat-smp", "gen-feat-binshrink-partial", "pipit-pingpong-v11",
             "projections-hello-v3", "charm-synth-v7" }) {
        INFO(name);
        const auto run = realLog(name);
        const auto fresh = loadOk(run);
        const auto rows = io::indexRowsOfFound(*io::findRun(run.string()).trace, {});
        for (std::size_t slices = 1; slices <= std::min<std::uint64_t>(3, rows.total()); ++slices) {
            INFO(slices << " slices");
            TempDir out;
            buildIndex(run, out.path(), slices);
            const auto opened = openThrough(run, out.path());
            INFO("error: " << opened.error);
            REQUIRE(opened.trace);
            REQUIRE(opened.fromCache);
            requireSameStore(*fresh, *opened.trace);
        }
    }
}

TEST_CASE("slices of PEs are contiguous, non-empty and balanced by bytes", "[index]")
{
    CHECK(io::sliceByBytes({ 10, 10, 10, 10 }, 2) == std::vector<std::uint64_t> { 0, 2, 4 });
    CHECK(io::sliceByBytes({ 100, 1, 1, 1, 1, 100 }, 2) == std::vector<std::uint64_t> { 0, 3, 6 });
    CHECK(io::sliceByBytes({ 1000, 1, 1, 1 }, 4) == std::vector<std::uint64_t> { 0, 1, 2, 3, 4 });
    CHECK(io::sliceByBytes({ 0, 0, 0 }, 3) == std::vector<std::uint64_t> { 0, 1, 2, 3 });
    CHECK(io::sliceByBytes({ 5 }, 1) == std::vector<std::uint64_t> { 0, 1 });
    // One heavy PE in the middle: it gets a slice of its own; the rest share the other.
    CHECK(io::sliceByBytes({ 1, 1, 1, 90, 1, 1, 1 }, 3)[2] == 4);
    std::vector<std::uint64_t> big(512);
    std::iota(big.begin(), big.end(), 1000);
    const auto bounds = io::sliceByBytes(big, 4);
    REQUIRE(bounds.size() == 5);
    std::vector<std::uint64_t> sums;
    for (std::size_t s = 0; s < 4; ++s)
        sums.push_back(std::accumulate(big.begin() + static_cast<std::ptrdiff_t>(bounds[s]),
            big.begin() + static_cast<std::ptrdiff_t>(bounds[s + 1]), std::uint64_t { 0 }));
    const auto [lo, hi] = std::minmax_element(sums.begin(), sums.end());
    CHECK(static_cast<double>(*hi - *lo) < 0.01 * static_cast<double>(*hi));
    CHECK_THROWS(io::sliceByBytes({ 1, 2 }, 3));
}

TEST_CASE("an import report survives being sent from rank to rank", "[index]")
{
    const auto damaged = loadOk(realLog("gen-feat-binshrink-partial"));
    REQUIRE(damaged->report.total(core::Severity::Warning) > 0);
    const auto back = io::decodeReport(io::encodeReport(damaged->report));
    requireSameReport(damaged->report, back);
    auto bytes = io::encodeReport(damaged->report);
    bytes.resize(bytes.size() - 3);
    CHECK_THROWS(io::decodeReport(bytes));
}

TEST_CASE("opening through --index refuses an index that is missing, damaged, stale or of another "
          "run",
    "[index]")
{
    AgedRun a(realLog("gen-feat-smp"));
    TempDir out;
    const auto index = out.path() / "index";
    buildIndex(a.run, index, 2);
    REQUIRE(openThrough(a.run, index).trace);
    const auto manifest = index / "manifest";
    const auto shard1 = index / io::shardFileName(1, 2);

    auto requireRefused = [&](const fs::path& run, const std::string& why) {
        const auto result = openThrough(run, index);
        INFO("error: " << result.error);
        CHECK(result.trace == nullptr);
        CHECK(result.error.find("cannot be used") != std::string::npos);
        CHECK(result.error.find(why) != std::string::npos);
        CHECK(result.error.find('\n') == std::string::npos);
    };
    SECTION("no index at all")
    {
        fs::remove_all(index);
        requireRefused(a.run, "no manifest");
    }
    SECTION("an index of another run")
    {
        AgedRun b(realLog("pipit-hello1darray-v11"));
        requireRefused(b.run, "an index of another run");
    }
    SECTION("a run changed since it was indexed")
    {
        fs::path log;
        for (const auto& e : fs::directory_iterator(a.run))
            if (endsWith(e.path().string(), ".1.log.gz"))
                log = e.path();
        REQUIRE(!log.empty());
        fs::last_write_time(log, fs::last_write_time(log) + std::chrono::seconds(5));
        requireRefused(a.run, "changed");
    }
    SECTION("an index of an older format version")
    {
        auto bytes = readFile(manifest);
        forge::store<std::uint32_t>(bytes, 8, 2);
        writeFile(manifest, bytes);
        std::string why = "written by another version (format 2, expected ";
        why += std::to_string(io::index::kFormatVersion);
        why += ")";
        requireRefused(a.run, why);
    }
    SECTION("a truncated shard")
    {
        fs::resize_file(shard1, fs::file_size(shard1) - 100);
        requireRefused(a.run, "is truncated");
    }
    SECTION("a manifest naming a missing shard")
    {
        fs::remove(shard1);
        requireRefused(a.run, "names " + io::shardFileName(1, 2) + ", which is missing");
    }
    SECTION("a shard of another build of the index")
    {
        TempDir other;
        buildIndex(a.run, other.path(), 3);
        fs::copy_file(
            other.path() / io::shardFileName(1, 3), shard1, fs::copy_options::overwrite_existing);
        requireRefused(a.run, io::shardFileName(1, 2));
    }
    // Refusing never wrote anything into the index or the run.
    CHECK_FALSE(fs::exists(index / ".tmp"));
}

TEST_CASE("an index opened through --index is kept when a PE fails its check", "[index]")
{
    AgedRun a(dataDir() / "runs" / "base");
    TempDir out;
    buildIndex(a.run, out.path(), 2);
    // PE 1's first execution begins before 0: checked when PE 1 is read.
    const auto shard = out.path() / io::shardFileName(1, 2);
    auto bytes = readFile(shard);
    const auto r = forge::load<io::index::PeRecord>(bytes, forge::recordAt(0));
    REQUIRE(r.pe == 1);
    forge::store<core::TimeUs>(bytes, static_cast<std::size_t>(r.dataOffset), -5);
    forge::resealShard(bytes);
    auto manifest = readFile(out.path() / "manifest");
    forge::resealManifest(manifest, { { shard.filename().string(), bytes } });
    writeFile(shard, bytes);
    writeFile(out.path() / "manifest", manifest);

    const auto opened = openThrough(a.run, out.path());
    REQUIRE(opened.trace);
    CHECK_FALSE(opened.trace->pes[0].executions.begin.empty());
    CHECK(opened.trace->pes[1].executions.begin.empty());
    CHECK(opened.trace->lateIssues->snapshot().count(core::Issue::FileError) == 1);
    // The user's index stays as it is (only the cache drops its own).
    CHECK(fs::exists(out.path() / "manifest"));
}
