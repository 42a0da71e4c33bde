// Index cache files that are intact (every checksum recomputed) but describe no possible run:
// the cache validates every field it reads as the readers would, reports the file as damaged
// and rebuilds it from the logs. Also: a FIFO in place of the cache file, and byte-identical
// cache files for the same run.

#include "io/cache_file.h"
#include "io/cache_hash.h"
#include "io/cache_validation.h"
#include "io/index_cache.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <sys/stat.h>
#include <sys/types.h>

using namespace parallax;
using namespace parallax::test;

namespace {

// The on-disk layout the forger needs (io/index_cache.cpp): a 64-byte header, then the section
// table (offset, size, checksum per section); section 0 is the key, 1 the run, 2+p PE p.
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kSectionCountAt = 24;
constexpr std::size_t kTableHashAt = 32;
constexpr std::size_t kHeaderHashAt = 40;

template <typename T> T load(const std::string& bytes, std::size_t at)
{
    T value {};
    REQUIRE(at + sizeof value <= bytes.size());
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

template <typename T> void store(std::string& bytes, std::size_t at, T value)
{
    REQUIRE(at + sizeof value <= bytes.size());
    std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Lets `edit` change section `section` of a cache file in place (offsets relative to the
// section), then makes every checksum match again.
void forge(const fs::path& file, std::size_t section,
    const std::function<void(std::string& bytes, std::size_t sectionStart)>& edit)
{
    auto bytes = readFile(file);
    const auto sections = load<std::uint64_t>(bytes, kSectionCountAt);
    REQUIRE(section < sections);
    const auto entry = kHeaderBytes + section * 24;
    const auto offset = static_cast<std::size_t>(load<std::uint64_t>(bytes, entry));
    const auto size = static_cast<std::size_t>(load<std::uint64_t>(bytes, entry + 8));
    edit(bytes, offset);
    store(bytes, entry + 16, io::CacheHash::of(bytes.data() + offset, size));
    store(bytes, kTableHashAt,
        io::CacheHash::of(bytes.data() + kHeaderBytes, static_cast<std::size_t>(sections) * 24));
    store(bytes, kHeaderHashAt, io::CacheHash::of(bytes.data(), kHeaderHashAt));
    writeFile(file, bytes);
}

struct CachedRun {
    TempDir dir;
    fs::path run;
    io::CacheOptions cache;
    fs::path file;

    CachedRun()
    {
        run = dir.path() / "run";
        copyFiles(dataDir() / "runs" / "base", run);
        ageFiles(run);
        cache.directory = (dir.path() / "cache").string();
        const auto first = io::loadRunCached(run.string(), {}, cache);
        REQUIRE(first.trace != nullptr);
        REQUIRE(first.cacheNote.empty());
        file = io::cacheFilePath(run.string(), {}, cache);
        REQUIRE(fs::is_regular_file(file));
        REQUIRE(io::loadRunCached(run.string(), {}, cache).fromCache);
    }
};

// The forged cache is not used: the run is read from its logs, equal to a fresh load, the
// note says why, and the next open uses the rewritten cache.
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

// Offset of PROCESSORS in the run section: version (8), machine (8 + length).
std::size_t processorsAt(const std::string& bytes, std::size_t start)
{
    return start + 16 + static_cast<std::size_t>(load<std::uint64_t>(bytes, start + 8));
}

// PE section: pe (4), hasLog (1), four times (32), recordCount (8), lastIdleFlags (1), then
// the execution begin column (count, values) and end column.
constexpr std::size_t kBeginColumnAt = 46;

} // namespace

TEST_CASE("a forged cache whose PE section names PE 1,000,000 is rebuilt, not trusted")
{
    CachedRun c;
    forge(c.file, 2, [](std::string& bytes, std::size_t start) {
        store<std::int32_t>(bytes, start, 1'000'000);
    });
    requireRejected(c, "PE number");
}

TEST_CASE("a forged cache claiming INT_MAX processors is rebuilt at once")
{
    CachedRun c;
    forge(c.file, 1, [](std::string& bytes, std::size_t start) {
        store<std::int32_t>(bytes, processorsAt(bytes, start), INT_MAX);
    });
    requireRejected(c, "PROCESSORS");
}

TEST_CASE("a forged cache with an SMP layout that overflows is rebuilt")
{
    CachedRun c;
    forge(c.file, 1, [](std::string& bytes, std::size_t start) {
        const auto at = processorsAt(bytes, start) + 4;
        store<std::uint8_t>(bytes, at, 1); // smp
        store<std::int32_t>(bytes, at + 1, INT_MAX); // nodeSize
        store<std::int32_t>(bytes, at + 5, INT_MAX); // numNodes
    });
    requireRejected(c, "SMPMODE");
}

TEST_CASE("a forged cache with an execution that begins after it ends is rebuilt")
{
    CachedRun c;
    forge(c.file, 2, [](std::string& bytes, std::size_t start) {
        const auto n = static_cast<std::size_t>(load<std::uint64_t>(bytes, start + kBeginColumnAt));
        REQUIRE(n > 0);
        const auto beginAt = start + kBeginColumnAt + 8;
        const auto endAt = beginAt + 8 * n + 8;
        REQUIRE(load<std::uint64_t>(bytes, beginAt + 8 * n) == n);
        store<core::TimeUs>(bytes, beginAt, load<core::TimeUs>(bytes, endAt) + 1000);
    });
    requireRejected(c, "execution times");
}

TEST_CASE("a forged cache with a negative execution time is rebuilt")
{
    CachedRun c;
    forge(c.file, 2, [](std::string& bytes, std::size_t start) {
        store<core::TimeUs>(bytes, start + kBeginColumnAt + 8, -5);
    });
    requireRejected(c, "execution times");
}

TEST_CASE("a FIFO in place of the cache file does not block the load")
{
    CachedRun c;
    fs::remove(c.file);
    REQUIRE(::mkfifo(c.file.c_str(), 0600) == 0);
    // Opening a FIFO for reading without O_NONBLOCK waits for a writer forever.
    const auto result = io::loadRunCached(c.run.string(), {}, c.cache);
    REQUIRE(result.trace != nullptr);
    CHECK_FALSE(result.fromCache);
    INFO("note: " << result.cacheNote);
    CHECK(result.cacheNote.find("not a regular file") != std::string::npos);
    CHECK(fs::is_regular_file(c.file)); // replaced by a real cache
    CHECK(io::loadRunCached(c.run.string(), {}, c.cache).fromCache);
}

TEST_CASE("two cache files of the same unchanged run are byte for byte the same")
{
    // A run with user-event brackets, object ids and stats (structs with padding bytes).
    for (const auto* name : { "pipit-hello1darray-v11", "pipit-pingpong-v11" }) {
        INFO(name);
        TempDir dir;
        const auto run = dir.path() / "run";
        copyFiles(realLog(name), run);
        ageFiles(run);
        std::string first;
        for (int k = 0; k < 2; ++k) {
            io::CacheOptions cache;
            cache.directory = (dir.path() / ("cache" + std::to_string(k))).string();
            const auto result = io::loadRunCached(run.string(), {}, cache);
            REQUIRE(result.trace != nullptr);
            REQUIRE(result.cacheNote.empty());
            const auto bytes = readFile(io::cacheFilePath(run.string(), {}, cache));
            if (k == 0)
                first = bytes;
            else
                CHECK(bytes == first);
        }
    }
}

TEST_CASE("cache validation accepts a fresh load and rejects what no reader produces")
{
    const auto fresh = loadOk(dataDir() / "runs" / "base");
    REQUIRE(fresh->pes.size() == 2);
    CHECK_NOTHROW(io::validateMetadata(fresh->metadata));
    CHECK_NOTHROW(io::validateRun(*fresh, fresh->pes.size()));
    for (std::size_t p = 0; p < fresh->pes.size(); ++p)
        CHECK_NOTHROW(io::validatePe(fresh->pes[p], p, fresh->metadata));
    CHECK_THROWS_AS(io::validateRun(*fresh, 3), io::CacheFormatError); // more PEs than PROCESSORS

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
        pe.objects[0].length = 200;
        CHECK_THROWS_AS(io::validatePe(pe, 0, fresh->metadata), io::CacheFormatError);
    }
}

TEST_CASE("cache validation rejects .sumd runs and symbol tables no reader produces")
{
    core::Trace trace;
    trace.metadata.version = 11.0;
    trace.metadata.processors = 1;
    trace.metadata.numNodes = 1;
    trace.files.logPaths.assign(1, {});
    trace.files.sumPaths.assign(1, {});
    trace.files.sumdPaths.assign(1, {});
    core::PeSummaryDetail d;
    d.pe = 0;
    d.intervalUs = 1000;
    d.intervalCount = 10;
    d.entryCount = 2;
    d.cells.push_back({ 3, 1, 5, 1, 7 }); // entry 1, intervals 3..9
    trace.details.resize(1);
    trace.details[0] = d;
    CHECK_NOTHROW(io::validateRun(trace, 0));

    SECTION("an entry id beyond the .sumd's entry count")
    {
        trace.details[0]->cells[0].entry = 2;
        CHECK_THROWS_AS(io::validateRun(trace, 0), io::CacheFormatError);
    }
    SECTION("a run past the last interval")
    {
        trace.details[0]->cells[0].length = 8;
        CHECK_THROWS_AS(io::validateRun(trace, 0), io::CacheFormatError);
    }
    SECTION("runs out of order")
    {
        trace.details[0]->cells.push_back({ 0, 1, 5, 1, 1 });
        CHECK_THROWS_AS(io::validateRun(trace, 0), io::CacheFormatError);
    }
    SECTION("a detail stored under another PE")
    {
        trace.details[0]->pe = 1'000'000;
        CHECK_THROWS_AS(io::validateRun(trace, 0), io::CacheFormatError);
    }
    SECTION("a NaN VERSION")
    {
        trace.metadata.version = std::nan("");
        CHECK_THROWS_AS(io::validateMetadata(trace.metadata), io::CacheFormatError);
    }
    SECTION("comm threads that do not follow from SMPMODE")
    {
        trace.metadata.processors = 6;
        trace.metadata.smp = true;
        trace.metadata.nodeSize = 2;
        trace.metadata.numNodes = 2;
        trace.metadata.commThreadsPerNode = 1000;
        CHECK_THROWS_AS(io::validateMetadata(trace.metadata), io::CacheFormatError);
        trace.metadata.commThreadsPerNode = 1;
        CHECK_NOTHROW(io::validateMetadata(trace.metadata));
    }
}
