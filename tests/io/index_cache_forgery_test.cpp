// Indexes that are intact (every checksum recomputed) but describe no possible run: what the open
// checks (the manifest, the PE directories) is refused at once and the cache rebuilt from the
// logs; what is checked when a PE is first read (its columns, its summaries) leaves that PE's data
// out, reports it, and drops the cached index so that the next open rebuilds it. Also: FIFOs in
// place of the index's files, byte-identical indexes for the same run, and the checks themselves.

#include "io/cache_file.h"
#include "io/cache_validation.h"
#include "io/index_cache.h"
#include "support/index_forge.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <climits>
#include <cmath>
#include <functional>
#include <sys/stat.h>
#include <sys/types.h>
#include <thread>

using namespace parallax;
using namespace parallax::test;
namespace ix = parallax::io::index;
using forge::load;
using forge::store;

namespace {

struct CachedRun {
    TempDir dir;
    fs::path run;
    io::CacheOptions cache;
    fs::path index;

    CachedRun(const fs::path& from = dataDir() / "runs" / "base")
    {
        run = dir.path() / "run";
        copyFiles(from, run);
        ageFiles(run);
        cache.directory = (dir.path() / "cache").string();
        const auto first = io::loadRunCached(run.string(), {}, cache);
        REQUIRE(first.trace != nullptr);
        REQUIRE(first.cacheNote.empty());
        index = io::cacheFilePath(run.string(), {}, cache);
        REQUIRE(fs::is_regular_file(index / ix::kManifestName));
        REQUIRE(io::loadRunCached(run.string(), {}, cache).fromCache);
    }
    [[nodiscard]] fs::path manifest() const { return index / ix::kManifestName; }
    [[nodiscard]] fs::path shard() const { return index / "shard-0-of-1.pxshard"; }
};

// Lets `edit` change the manifest and the shard, then makes every checksum match again.
void forgeIndex(const CachedRun& c, const std::function<void(std::string&, std::string&)>& edit)
{
    auto manifest = readFile(c.manifest());
    auto shard = readFile(c.shard());
    edit(manifest, shard);
    forge::resealShard(shard);
    forge::resealManifest(manifest, { { c.shard().filename().string(), shard } });
    writeFile(c.shard(), shard);
    writeFile(c.manifest(), manifest);
}

// Start of the manifest's section `k`.
std::size_t sectionAt(const std::string& manifest, std::size_t k)
{
    return static_cast<std::size_t>(
        load<ix::Section>(manifest, sizeof(ix::ManifestHeader) + k * sizeof(ix::Section)).offset);
}

// PE `p`'s directory entry in the shard and where its column `c` starts.
ix::PeRecord recordOf(const std::string& shard, std::size_t p)
{
    return load<ix::PeRecord>(shard, forge::recordAt(p));
}
std::size_t columnAt(const std::string& shard, std::size_t p, ix::Column c)
{
    const auto r = recordOf(shard, p);
    std::uint64_t at = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(c); ++k)
        at = ix::alignUp(at) + r.counts[k] * ix::kColumnElementBytes[k];
    return static_cast<std::size_t>(r.dataOffset + ix::alignUp(at));
}

// The forged index is not used: the run is read from its logs, equal to a fresh load, the note
// says why, and the next open uses the rewritten index.
void requireRejected(const CachedRun& c, std::string_view why)
{
    const auto fresh = loadOk(c.run);
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.trace != nullptr);
    CHECK_FALSE(result.fromCache);
    INFO("note: " << result.cacheNote);
    CHECK(result.cacheNote.find("damaged") != std::string::npos);
    CHECK(result.cacheNote.find(std::string(why)) != std::string::npos);
    CHECK(result.trace->metadata.processors == fresh->metadata.processors);
    REQUIRE(result.trace->pes.size() == fresh->pes.size());
    for (std::size_t p = 0; p < fresh->pes.size(); ++p) {
        CHECK(result.trace->pes[p].pe == fresh->pes[p].pe);
        CHECK(result.trace->pes[p].executions.begin == fresh->pes[p].executions.begin);
        CHECK(result.trace->pes[p].executions.end == fresh->pes[p].executions.end);
    }
    CHECK(io::loadRunCached(c.run.string(), {}, c.cache).fromCache);
}

// The open accepts the forged index (its structure is sound), but PE `pe`'s data fails its
// check when first read: that data is left out and reported, the other PEs are as a fresh load
// has them, and the next open rebuilds the index.
void requireDroppedOnRead(const CachedRun& c, std::size_t pe, std::string_view why)
{
    const auto fresh = loadOk(c.run);
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.trace != nullptr);
    REQUIRE(result.fromCache);
    const auto& t = *result.trace;
    REQUIRE(t.lateIssues != nullptr);
    CHECK(t.fullReport().count(core::Issue::FileError)
        == fresh->report.count(core::Issue::FileError));
    REQUIRE(t.pes.size() == fresh->pes.size());
    CHECK(t.pes[pe].pe == fresh->pes[pe].pe);
    CHECK(t.pes[pe].executions.begin.empty());
    CHECK(t.pes[pe].sends.time.empty());
    const auto report = t.fullReport();
    CHECK(report.count(core::Issue::FileError) == fresh->report.count(core::Issue::FileError) + 1);
    bool named = false;
    for (const auto& e : report.examples())
        named = named
            || (e.issue == core::Issue::FileError
                && e.message.find("PE " + std::to_string(pe)) != std::string::npos
                && e.message.find(std::string(why)) != std::string::npos);
    INFO("examples: " << report.examples().size());
    CHECK(named);
    for (std::size_t p = 0; p < fresh->pes.size(); ++p)
        if (p != pe)
            CHECK(t.pes[p].executions.begin == fresh->pes[p].executions.begin);
    const auto again = io::loadRunCached(c.run.string(), {}, c.cache);
    CHECK_FALSE(again.fromCache);
    CHECK(io::loadRunCached(c.run.string(), {}, c.cache).fromCache);
}

// Offset of PROCESSORS in the run section: version (8), machine (8 + length).
std::size_t processorsAt(const std::string& bytes, std::size_t start)
{
    return start + 16 + static_cast<std::size_t>(load<std::uint64_t>(bytes, start + 8));
}

} // namespace

TEST_CASE("a forged index whose PE directory names PE 1,000,000 is rebuilt, not trusted")
{
    CachedRun c;
    forgeIndex(c, [](std::string&, std::string& shard) {
        store<std::int32_t>(shard, forge::recordAt(0), 1'000'000);
    });
    requireRejected(c, "PE number");
}

TEST_CASE("a forged index claiming INT_MAX processors is rebuilt at once")
{
    CachedRun c;
    forgeIndex(c, [](std::string& manifest, std::string&) {
        store<std::int32_t>(
            manifest, processorsAt(manifest, sectionAt(manifest, ix::kRunSection)), INT_MAX);
    });
    requireRejected(c, "PROCESSORS");
}

TEST_CASE("a forged index with an SMP layout that overflows is rebuilt")
{
    CachedRun c;
    forgeIndex(c, [](std::string& manifest, std::string&) {
        const auto at = processorsAt(manifest, sectionAt(manifest, ix::kRunSection)) + 4;
        store<std::uint8_t>(manifest, at, 1); // smp
        store<std::int32_t>(manifest, at + 1, INT_MAX); // nodeSize
        store<std::int32_t>(manifest, at + 5, INT_MAX); // numNodes
    });
    requireRejected(c, "SMPMODE");
}

TEST_CASE("a forged index whose column counts run past the shard is rebuilt")
{
    CachedRun c;
    forgeIndex(c, [](std::string&, std::string& shard) {
        auto r = recordOf(shard, 1);
        r.counts[ix::kExecBegin] = 1ULL << 60;
        store(shard, forge::recordAt(1), r);
    });
    requireRejected(c, "column counts");
}

TEST_CASE("a forged index whose shards do not cover the run is rebuilt")
{
    CachedRun c;
    forgeIndex(c, [](std::string& manifest, std::string&) {
        const auto entries = forge::shardEntries(manifest);
        REQUIRE(entries.size() == 1);
        // The entry's peCount sits just before its fileBytes.
        store<std::uint64_t>(manifest, entries[0].fileBytesAt - 8, 1);
    });
    requireRejected(c, "belongs to another index");
}

TEST_CASE("a forged index with an execution that begins after it ends leaves that PE out")
{
    CachedRun c;
    forgeIndex(c, [](std::string&, std::string& shard) {
        const auto n = recordOf(shard, 0).counts[ix::kExecBegin];
        REQUIRE(n > 0);
        const auto end = load<core::TimeUs>(shard, columnAt(shard, 0, ix::kExecEnd));
        store<core::TimeUs>(shard, columnAt(shard, 0, ix::kExecBegin), end + 1000);
    });
    requireDroppedOnRead(c, 0, "execution times");
}

TEST_CASE("a forged index with a negative execution time leaves that PE out")
{
    CachedRun c;
    forgeIndex(c, [](std::string&, std::string& shard) {
        store<core::TimeUs>(shard, columnAt(shard, 1, ix::kExecBegin), -5);
    });
    requireDroppedOnRead(c, 1, "execution times");
}

TEST_CASE("a forged index with decreasing multicast offsets or a send to no execution leaves "
          "that PE out")
{
    CachedRun c;
    SECTION("a send naming an execution that does not exist")
    {
        forgeIndex(c, [](std::string&, std::string& shard) {
            REQUIRE(recordOf(shard, 0).counts[ix::kSendExecution] > 0);
            store<std::uint32_t>(shard, columnAt(shard, 0, ix::kSendExecution), 0x7FFFFFF0U);
        });
        requireDroppedOnRead(c, 0, "send execution");
    }
    SECTION("an entry of the object table longer than 6 values")
    {
        forgeIndex(c, [](std::string&, std::string& shard) {
            REQUIRE(recordOf(shard, 0).counts[ix::kObjectOffset] > 1);
            store<std::uint32_t>(shard, columnAt(shard, 0, ix::kObjectOffset) + 4, 200);
        });
        requireDroppedOnRead(c, 0, "object id length");
    }
}

TEST_CASE("a damaged PE is checked once however many threads read it at once")
{
    CachedRun c;
    forgeIndex(c, [](std::string&, std::string& shard) {
        store<core::TimeUs>(shard, columnAt(shard, 0, ix::kExecBegin), -5);
    });
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.fromCache);
    const auto& t = *result.trace;
    std::atomic<int> empty { 0 };
    std::vector<std::thread> readers;
    for (int k = 0; k < 8; ++k)
        readers.emplace_back([&] {
            if (t.pes[0].executions.begin.empty())
                ++empty;
        });
    for (auto& r : readers)
        r.join();
    CHECK(empty == 8);
    CHECK(t.lateIssues->snapshot().count(core::Issue::FileError) == 1);
}

TEST_CASE("a forged summary in an index leaves that summary's bins out")
{
    CachedRun c(realLog("gen-feat-smp"));
    const auto fresh = loadOk(c.run);
    REQUIRE(fresh->summaries.size() > 1);
    REQUIRE(fresh->summaries[1].has_value());
    REQUIRE_FALSE(fresh->summaries[1]->utilization.empty());
    forgeIndex(c, [](std::string&, std::string& shard) {
        const auto r = recordOf(shard, 1);
        REQUIRE(r.hasSummary == 1);
        // The blob begins with the PE number (4 bytes): name another PE.
        store<core::PeId>(shard, static_cast<std::size_t>(r.summaryOffset), 7);
    });
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.fromCache);
    const auto& t = *result.trace;
    CHECK(t.hasSummaries());
    REQUIRE(t.summaries[1].has_value());
    CHECK(t.summaries[1]->utilization.empty());
    CHECK(t.summaries[1]->intervalUs == fresh->summaries[1]->intervalUs);
    CHECK(t.summaries[0]->utilization == fresh->summaries[0]->utilization);
    CHECK(t.lateIssues->snapshot().count(core::Issue::FileError) == 1);
}

TEST_CASE("a FIFO in place of an index file does not block the load")
{
    CachedRun c;
    const auto which = GENERATE(as<std::string> {}, "manifest", "shard");
    const auto path = which == "manifest" ? c.manifest() : c.shard();
    fs::remove(path);
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    // Opening a FIFO for reading without O_NONBLOCK waits for a writer forever.
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.trace != nullptr);
    CHECK_FALSE(result.fromCache);
    INFO("note: " << result.cacheNote);
    CHECK(result.cacheNote.find("not a regular file") != std::string::npos);
    CHECK(fs::is_regular_file(path)); // replaced by a real index
    CHECK(io::loadRunCached(c.run.string(), {}, c.cache).fromCache);
}

TEST_CASE("two indexes of the same unchanged run are byte for byte the same")
{
    // A run with user-event brackets, object ids and stats (structs with padding bytes).
    for (const auto* name : { "pipit-hello1darray-v11", "pipit-pingpong-v11" }) {
        INFO(name);
        TempDir dir;
        const auto run = dir.path() / "run";
        copyFiles(realLog(name), run);
        ageFiles(run);
        std::vector<std::pair<std::string, std::string>> first;
        for (int k = 0; k < 2; ++k) {
            io::CacheOptions cache;
            cache.directory = (dir.path() / ("cache" + std::to_string(k))).string();
            const auto result = io::loadRunCached(run.string(), {}, cache);
            REQUIRE(result.trace != nullptr);
            REQUIRE(result.cacheNote.empty());
            std::vector<std::pair<std::string, std::string>> files;
            for (const auto& entry :
                fs::directory_iterator(io::cacheFilePath(run.string(), {}, cache)))
                files.emplace_back(entry.path().filename().string(), readFile(entry.path()));
            std::sort(files.begin(), files.end());
            REQUIRE(files.size() == 2);
            if (k == 0)
                first = files;
            else
                CHECK(files == first);
        }
    }
}

TEST_CASE("index validation accepts a fresh load and rejects what no reader produces")
{
    const auto fresh = loadOk(dataDir() / "runs" / "base");
    REQUIRE(fresh->pes.size() == 2);
    CHECK_NOTHROW(io::validateMetadata(fresh->metadata));
    CHECK_NOTHROW(io::validateRunTables(*fresh, io::indexRowsOf(*fresh)));
    for (std::size_t p = 0; p < fresh->pes.size(); ++p)
        CHECK_NOTHROW(io::validatePe(fresh->pes[p], p, fresh->metadata));
    auto rows = io::indexRowsOf(*fresh);
    rows.pes = 3; // more PEs than PROCESSORS
    CHECK_THROWS_AS(io::validateRunTables(*fresh, rows), io::CacheFormatError);

    auto pe = fresh->pes[0];
    REQUIRE(pe.sends.size() > 0);
    SECTION("decreasing multicast offsets")
    {
        pe.sends.kind[0] = core::SendKind::Multicast;
        pe.sends.multicastSend = { 0 };
        pe.sends.multicastOffset = { 2, 0 };
        pe.sends.multicastPes = { 1, 1 };
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
    SECTION("a multicast list that does not end at its column's end")
    {
        pe.sends.multicastSend = { 0 };
        pe.sends.multicastOffset = { 0, 1 };
        pe.sends.multicastPes = { 1, 1 };
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
    SECTION("a send naming an execution that does not exist")
    {
        pe.sends.execution[0] = static_cast<std::uint32_t>(pe.executions.size());
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
    SECTION("an unknown send kind")
    {
        pe.sends.kind[0] = static_cast<core::SendKind>(7);
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
    SECTION("overlapping idle intervals")
    {
        pe.idles.begin = { 10, 15 };
        pe.idles.end = { 20, 30 };
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
    SECTION("an object id longer than 6 values")
    {
        REQUIRE_FALSE(pe.objects.empty());
        pe.objects.offset[1] = 200;
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
}

TEST_CASE("index validation rejects .sumd runs and symbol tables no reader produces")
{
    core::RunMetadata meta;
    meta.version = 11.0;
    meta.processors = 1;
    meta.numNodes = 1;
    core::PeSummaryDetail d;
    d.pe = 0;
    d.intervalUs = 1000;
    d.intervalCount = 10;
    d.entryCount = 2;
    d.cells.push_back({ 3, 1, 5, 1, 7 }); // entry 1, intervals 3..9
    CHECK_NOTHROW(io::validateDetail(d, 0));

    SECTION("an entry id beyond the .sumd's entry count")
    {
        d.cells[0].entry = 2;
        CHECK_THROWS_AS(io::validateDetail(d, 0), io::CacheFormatError);
    }
    SECTION("a run past the last interval")
    {
        d.cells[0].length = 8;
        CHECK_THROWS_AS(io::validateDetail(d, 0), io::CacheFormatError);
    }
    SECTION("runs out of order")
    {
        d.cells.push_back({ 0, 1, 5, 1, 1 });
        CHECK_THROWS_AS(io::validateDetail(d, 0), io::CacheFormatError);
    }
    SECTION("a detail stored under another PE")
    {
        d.pe = 1'000'000;
        CHECK_THROWS_AS(io::validateDetail(d, 0), io::CacheFormatError);
    }
    SECTION("a NaN VERSION")
    {
        meta.version = std::nan("");
        CHECK_THROWS_AS(io::validateMetadata(meta), io::CacheFormatError);
    }
    SECTION("comm threads that do not follow from SMPMODE")
    {
        meta.processors = 6;
        meta.smp = true;
        meta.nodeSize = 2;
        meta.numNodes = 2;
        meta.commThreadsPerNode = 1000;
        CHECK_THROWS_AS(io::validateMetadata(meta), io::CacheFormatError);
        meta.commThreadsPerNode = 1;
        CHECK_NOTHROW(io::validateMetadata(meta));
    }
}
