// The index cache (io/index_cache.h): a reopened run must equal a freshly parsed one in every
// column, and a damaged, foreign, stale or truncated index must be detected, reported and
// rebuilt, never trusted. Every test uses its own temporary cache directory.

#include "io/index_cache.h"
#include "io/index_format.h"
#include "io/run_loader.h"
#include "support/allocation_tracker.h"
#include "support/index_forge.h"
#include "support/io_support.h"
#include "support/test_support.h"
#include "trace_compare.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace parallax;
using namespace parallax::test;

namespace {

void requireSameMetadata(const core::RunMetadata& a, const core::RunMetadata& b)
{
    REQUIRE(a.version == b.version);
    REQUIRE(a.machine == b.machine);
    REQUIRE(a.processors == b.processors);
    REQUIRE(a.smp == b.smp);
    REQUIRE(a.nodeSize == b.nodeSize);
    REQUIRE(a.numNodes == b.numNodes);
    REQUIRE(a.commThreadsPerNode == b.commThreadsPerNode);
    REQUIRE(a.userName == b.userName);
    REQUIRE(a.hostName == b.hostName);
    REQUIRE(a.commandLine == b.commandLine);
    REQUIRE(a.timestamp == b.timestamp);
    REQUIRE(a.charmVersion == b.charmVersion);
    REQUIRE(a.totalPhases == b.totalPhases);
    REQUIRE(a.chares.size() == b.chares.size());
    for (std::size_t i = 0; i < a.chares.size(); ++i) {
        REQUIRE(a.chares[i].name == b.chares[i].name);
        REQUIRE(a.chares[i].ndims == b.chares[i].ndims);
    }
    REQUIRE(a.entries.size() == b.entries.size());
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        REQUIRE(a.entries[i].name == b.entries[i].name);
        REQUIRE(a.entries[i].chare == b.entries[i].chare);
        REQUIRE(a.entries[i].message == b.entries[i].message);
    }
    REQUIRE(a.messages.size() == b.messages.size());
    for (std::size_t i = 0; i < a.messages.size(); ++i)
        REQUIRE(a.messages[i].size == b.messages[i].size);
    REQUIRE(a.userEvents == b.userEvents);
    REQUIRE(a.stats == b.stats);
    REQUIRE(a.papiEvents == b.papiEvents);
    REQUIRE(a.projrcEndTime == b.projrcEndTime);
}

void requireSameSummary(const core::PeSummary& a, const core::PeSummary& b)
{
    REQUIRE(a.pe == b.pe);
    REQUIRE(a.version == b.version);
    REQUIRE(a.numPes == b.numPes);
    REQUIRE(a.intervalUs == b.intervalUs);
    REQUIRE(a.utilization == b.utilization);
    REQUIRE(a.idlePercent == b.idlePercent);
    REQUIRE(a.entryTime == b.entryTime);
    REQUIRE(a.entryCalls == b.entryCalls);
    REQUIRE(a.entryMaxTime == b.entryMaxTime);
    REQUIRE(a.marks.size() == b.marks.size());
    for (std::size_t i = 0; i < a.marks.size(); ++i) {
        REQUIRE(a.marks[i].type == b.marks[i].type);
        REQUIRE(a.marks[i].time == b.marks[i].time);
    }
    REQUIRE(a.phases.size() == b.phases.size());
    for (std::size_t i = 0; i < a.phases.size(); ++i) {
        REQUIRE(a.phases[i].entryCalls == b.phases[i].entryCalls);
        REQUIRE(a.phases[i].entryTime == b.phases[i].entryTime);
        REQUIRE(a.phases[i].entryMaxTime == b.phases[i].entryMaxTime);
    }
}

void requireSameDetail(const core::PeSummaryDetail& a, const core::PeSummaryDetail& b)
{
    REQUIRE(a.pe == b.pe);
    REQUIRE(a.version == b.version);
    REQUIRE(a.intervalUs == b.intervalUs);
    REQUIRE(a.intervalCount == b.intervalCount);
    REQUIRE(a.entryCount == b.entryCount);
    REQUIRE(a.cells.size() == b.cells.size());
    for (std::size_t i = 0; i < a.cells.size(); ++i) {
        REQUIRE(a.cells[i].interval == b.cells[i].interval);
        REQUIRE(a.cells[i].entry == b.cells[i].entry);
        REQUIRE(a.cells[i].timeUs == b.cells[i].timeUs);
        REQUIRE(a.cells[i].calls == b.cells[i].calls);
    }
}

// Everything a view or an analysis can read from a Trace.
void requireSameTrace(const core::Trace& a, const core::Trace& b)
{
    requireSameMetadata(a.metadata, b.metadata);

    REQUIRE(a.files.directory == b.files.directory);
    REQUIRE(a.files.baseName == b.files.baseName);
    REQUIRE(a.files.stsPath == b.files.stsPath);
    REQUIRE(a.files.projrcPath == b.files.projrcPath);
    REQUIRE(a.files.logPaths == b.files.logPaths);
    REQUIRE(a.files.sumPaths == b.files.sumPaths);
    REQUIRE(a.files.sumdPaths == b.files.sumdPaths);
    REQUIRE(a.files.logBytes == b.files.logBytes);
    REQUIRE(a.files.sumBytes == b.files.sumBytes);

    for (std::size_t k = 0; k < core::kIssueKinds; ++k)
        REQUIRE(a.report.count(static_cast<core::Issue>(k))
            == b.report.count(static_cast<core::Issue>(k)));
    REQUIRE(a.report.examples().size() == b.report.examples().size());
    for (std::size_t i = 0; i < a.report.examples().size(); ++i) {
        const auto& x = a.report.examples()[i];
        const auto& y = b.report.examples()[i];
        REQUIRE(x.issue == y.issue);
        REQUIRE(x.file == y.file);
        REQUIRE(x.line == y.line);
        REQUIRE(x.message == y.message);
    }

    REQUIRE(a.pes.size() == b.pes.size());
    for (std::size_t p = 0; p < a.pes.size(); ++p) {
        requireSamePeTrace(a.pes[p], b.pes[p]);
        REQUIRE(a.pes[p].lastIdleFlags == b.pes[p].lastIdleFlags);
        REQUIRE(a.pes[p].sends.execution == b.pes[p].sends.execution);
    }
    REQUIRE(a.summaries.size() == b.summaries.size());
    for (std::size_t p = 0; p < a.summaries.size(); ++p) {
        INFO("summary of PE " << p);
        REQUIRE(a.summaries[p].has_value() == b.summaries[p].has_value());
        if (a.summaries[p])
            requireSameSummary(*a.summaries[p], *b.summaries[p]);
    }
    REQUIRE(a.details.size() == b.details.size());
    for (std::size_t p = 0; p < a.details.size(); ++p) {
        INFO("summary detail of PE " << p);
        REQUIRE(a.details[p].has_value() == b.details[p].has_value());
        if (a.details[p])
            requireSameDetail(*a.details[p], *b.details[p]);
    }

    REQUIRE(a.beginTime() == b.beginTime());
    REQUIRE(a.endTime() == b.endTime());
    REQUIRE(a.eventCount() == b.eventCount());
    REQUIRE(a.storeBytes() == b.storeBytes());
}

io::CacheOptions cacheIn(const TempDir& dir)
{
    io::CacheOptions cache;
    cache.directory = (dir.path() / "cache").string();
    return cache;
}

io::LoadResult loadCached(
    const fs::path& run, const io::CacheOptions& cache, const io::LoadOptions& options = {})
{
    auto result = io::loadRunCached(run.string(), options, cache);
    INFO("loadRunCached(" << run.string() << ") error: " << result.error);
    REQUIRE(result.trace != nullptr);
    REQUIRE_FALSE(result.cancelled);
    return result;
}

// Every run under `root` (each .sts, .sum.sts included) that loads at all.
std::vector<fs::path> runsUnder(const fs::path& root)
{
    std::vector<fs::path> runs;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file() && endsWith(entry.path().filename().string(), ".sts"))
            runs.push_back(entry.path());
    std::sort(runs.begin(), runs.end());
    return runs;
}

// A copy of the tiny run in a temporary directory, aged so that it can be cached.
fs::path copyOfTinyRun(const TempDir& dir)
{
    const auto run = dir.path() / "run";
    copyFiles(dataDir() / "runs" / "tiny", run);
    ageFiles(run);
    return run;
}

std::vector<std::string> filesInCache(const io::CacheOptions& cache)
{
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(cache.directory))
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// The one index in the cache directory: a directory holding its manifest and one shard, and no
// temporary file.
fs::path onlyIndex(const io::CacheOptions& cache)
{
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(cache.directory))
        entries.push_back(entry.path());
    REQUIRE(entries.size() == 1);
    REQUIRE(fs::is_directory(entries[0]));
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(entries[0]))
        files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files == std::vector<std::string> { "manifest", "shard-0-of-1.pxshard" });
    return entries[0];
}

std::uint64_t bytesIn(const fs::path& dir)
{
    std::uint64_t total = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        total += fs::file_size(entry.path());
    return total;
}

void patchFile(const fs::path& path, std::uint64_t offset, const void* data, std::size_t size)
{
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    REQUIRE(f.good());
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    REQUIRE(f.good());
}

// Every PE, summary and detail of `t` read (so that each is checked), compared with `fresh`
// unless it was left out and reported.
void requireReadAll(const core::Trace& fresh, const core::Trace& t)
{
    REQUIRE(t.pes.size() == fresh.pes.size());
    for (std::size_t p = 0; p < t.pes.size(); ++p)
        if (!t.pes[p].executions.begin.empty() || fresh.pes[p].executions.begin.empty())
            requireSamePeTrace(fresh.pes[p], t.pes[p]);
    for (std::size_t p = 0; p < t.summaries.size(); ++p)
        (void)t.summaries[p];
    for (std::size_t p = 0; p < t.details.size(); ++p)
        (void)t.details[p];
}

// Loads the run with a broken cache: the load must succeed from the logs, say why, equal a
// fresh load, and leave a good cache behind.
void requireRebuilt(const fs::path& run, const io::CacheOptions& cache, const std::string& why)
{
    const auto fresh = loadOk(run);
    const auto rebuilt = loadCached(run, cache);
    REQUIRE_FALSE(rebuilt.fromCache);
    INFO("note: " << rebuilt.cacheNote);
    REQUIRE(rebuilt.cacheNote.find(why) != std::string::npos);
    requireSameTrace(*fresh, *rebuilt.trace);
    const auto again = loadCached(run, cache);
    REQUIRE(again.fromCache);
    REQUIRE(again.cacheNote.empty());
    requireSameTrace(*fresh, *again.trace);
}

} // namespace

TEST_CASE("every real dataset and test run reopens from the index cache equal to a fresh load",
    "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    std::vector<fs::path> runs = runsUnder(sharedDir() / "real-logs");
    const auto ours = runsUnder(dataDir());
    runs.insert(runs.end(), ours.begin(), ours.end());
    REQUIRE(runs.size() > 20);
    std::size_t cached = 0;
    for (const auto& run : runs) {
        INFO("run " << run.string());
        const auto fresh = io::loadRun(run.string());
        const auto first = io::loadRunCached(run.string(), {}, cache);
        REQUIRE((fresh.trace == nullptr) == (first.trace == nullptr));
        REQUIRE(first.error == fresh.error);
        if (!fresh.trace)
            continue; // a run that cannot be opened is not cached
        // NAME.sum.sts opens NAME.sts when it exists: the same run, the same cache.
        REQUIRE(first.fromCache == endsWith(run.string(), ".sum.sts"));
        requireSameTrace(*fresh.trace, *first.trace);
        const auto second = loadCached(run, cache);
        REQUIRE(second.fromCache);
        REQUIRE(second.cacheNote.empty());
        requireSameTrace(*fresh.trace, *second.trace);
        ++cached;
    }
    REQUIRE(cached > 20);
}

TEST_CASE("the index cache is read with other thread counts and load options", "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = realLog("gen-feat-smp");
    const auto fresh = loadOk(run);
    io::LoadOptions one;
    one.threads = 1;
    REQUIRE_FALSE(loadCached(run, cache, one).fromCache);
    io::LoadOptions four;
    four.threads = 4;
    const auto reopened = loadCached(run, cache, four);
    REQUIRE(reopened.fromCache);
    requireSameTrace(*fresh, *reopened.trace);

    // Without summaries the store differs, so it has a cache of its own.
    io::LoadOptions noSummaries;
    noSummaries.readSummaries = false;
    REQUIRE_FALSE(loadCached(run, cache, noSummaries).fromCache);
    const auto second = loadCached(run, cache, noSummaries);
    REQUIRE(second.fromCache);
    requireSameTrace(*loadOk(run, noSummaries), *second.trace);
    REQUIRE(loadCached(run, cache).fromCache);
}

TEST_CASE("the same run opened through another spelling of its path reads the same cache",
    "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = copyOfTinyRun(dir);
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    const auto other = run / "." / "";
    const auto reopened = loadCached(other, cache);
    REQUIRE(reopened.fromCache);
    requireSameTrace(*loadOk(other), *reopened.trace);
}

TEST_CASE(
    "the index cache is written only to the cache directory, never to the run's", "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = copyOfTinyRun(dir);
    std::vector<std::string> before;
    for (const auto& entry : fs::directory_iterator(run))
        before.push_back(entry.path().filename().string());
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    REQUIRE(loadCached(run, cache).fromCache);
    std::vector<std::string> after;
    for (const auto& entry : fs::directory_iterator(run))
        after.push_back(entry.path().filename().string());
    std::sort(before.begin(), before.end());
    std::sort(after.begin(), after.end());
    REQUIRE(after == before);
    // One finished index, no temporary left behind.
    const auto index = onlyIndex(cache);
    REQUIRE(endsWith(index.filename().string(), ".pxindex"));
    REQUIRE(io::cacheFilePath(run.string(), {}, cache) == index.string());
}

TEST_CASE("a log changed after caching invalidates the index cache", "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = copyOfTinyRun(dir);
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    REQUIRE(loadCached(run, cache).fromCache);

    fs::path log;
    for (const auto& entry : fs::directory_iterator(run))
        if (endsWith(entry.path().filename().string(), ".0.log"))
            log = entry.path();
    REQUIRE(!log.empty());

    SECTION("same size, new modification time")
    {
        fs::last_write_time(log, fs::last_write_time(log) + std::chrono::seconds(1));
        requireRebuilt(run, cache, "out of date (" + log.filename().string() + " changed)");
    }
    SECTION("new content")
    {
        auto text = readFile(log);
        text.insert(text.rfind('\n', text.size() - 2) + 1, "12 2\n");
        writeFile(log, text);
        const auto changed = loadCached(run, cache);
        REQUIRE_FALSE(changed.fromCache);
        REQUIRE(changed.cacheNote.find("out of date") != std::string::npos);
        requireSameTrace(*loadOk(run), *changed.trace);
        // Changed a moment ago: not cached yet (a change in the same clock tick could hide).
        REQUIRE_FALSE(loadCached(run, cache).fromCache);
        ageFiles(run);
        REQUIRE_FALSE(loadCached(run, cache).fromCache);
        REQUIRE(loadCached(run, cache).fromCache);
    }
    SECTION("a new file in the run's directory")
    {
        writeFile(run / "notes.txt", "x");
        ageFiles(run);
        requireRebuilt(run, cache, "out of date (");
    }
    SECTION("a log removed")
    {
        fs::remove(log);
        const auto changed = loadCached(run, cache);
        REQUIRE_FALSE(changed.fromCache);
        REQUIRE(changed.cacheNote.find("out of date") != std::string::npos);
        requireSameTrace(*loadOk(run), *changed.trace);
    }
}

TEST_CASE("a damaged, foreign or truncated index is reported and rebuilt", "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = copyOfTinyRun(dir);
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    const auto index = onlyIndex(cache);
    const auto manifest = index / "manifest";
    const auto shard = index / "shard-0-of-1.pxshard";
    const auto manifestSize = fs::file_size(manifest);
    const auto shardSize = fs::file_size(shard);
    REQUIRE(manifestSize > 200);
    const auto fresh = loadOk(run);

    SECTION("a flipped bit in a column: that PE is left out when read, the index rebuilt")
    {
        auto bytes = readFile(shard);
        const auto r = forge::load<io::index::PeRecord>(bytes, forge::recordAt(0));
        REQUIRE(r.counts[io::index::kExecBegin] > 0);
        const auto at = static_cast<std::size_t>(r.dataOffset);
        bytes[at] = static_cast<char>(bytes[at] ^ 0x10);
        writeFile(shard, bytes);
        const auto opened = loadCached(run, cache);
        REQUIRE(opened.fromCache); // the open reads no column
        CHECK(opened.trace->pes[0].executions.begin.empty());
        const auto report = opened.trace->fullReport();
        REQUIRE_FALSE(report.examples().empty());
        CHECK(report.examples().back().message.find("checksum mismatch") != std::string::npos);
        requireRebuilt(run, cache, "");
    }
    SECTION("a flipped byte in every position of the manifest's header and section table")
    {
        const auto good = readFile(manifest);
        for (std::size_t i = 0; i < 64 + 24 * 3; ++i) {
            INFO("byte " << i);
            auto bytes = good;
            bytes[i] = static_cast<char>(bytes[i] ^ 0x01);
            writeFile(manifest, bytes);
            const auto result = loadCached(run, cache);
            // Bytes 48..63 of the header are reserved (not read); everything else is checked.
            if (i >= 48 && i < 64) {
                REQUIRE(result.fromCache);
                continue;
            }
            REQUIRE_FALSE(result.fromCache);
            REQUIRE(result.cacheNote.find("rebuilt") != std::string::npos);
        }
    }
    SECTION("a flipped bit anywhere in the manifest")
    {
        const auto good = readFile(manifest);
        for (std::size_t i = 0; i < good.size(); i += 5) {
            INFO("byte " << i << " of " << good.size());
            auto bytes = good;
            bytes[i] = static_cast<char>(bytes[i] ^ 0x04);
            writeFile(manifest, bytes);
            const auto result = loadCached(run, cache);
            if (i >= 48 && i < 64) {
                REQUIRE(result.fromCache); // reserved header bytes
                continue;
            }
            REQUIRE_FALSE(result.fromCache);
            REQUIRE(result.cacheNote.find("rebuilt") != std::string::npos);
        }
    }
    SECTION("a flipped bit anywhere in the shard: refused at the open, or its PE left out when "
            "read, or in padding nothing reads")
    {
        const auto good = readFile(shard);
        std::size_t refused = 0;
        std::size_t leftOut = 0;
        for (std::size_t i = 0; i < good.size(); i += 7) {
            INFO("byte " << i << " of " << good.size());
            auto bytes = good;
            bytes[i] = static_cast<char>(bytes[i] ^ 0x04);
            writeFile(shard, bytes);
            const auto result = loadCached(run, cache);
            if (!result.fromCache) {
                ++refused;
                REQUIRE(result.cacheNote.find("rebuilt") != std::string::npos);
                continue;
            }
            requireReadAll(*fresh, *result.trace);
            if (!result.trace->fullReport().examples().empty()
                && result.trace->fullReport().count(core::Issue::FileError) > 0) {
                ++leftOut;
                REQUIRE_FALSE(loadCached(run, cache).fromCache); // dropped, rebuilt
            }
        }
        CHECK(refused > 0);
        CHECK(leftOut > 0);
    }
    SECTION("truncated")
    {
        for (const auto& [file, size] :
            { std::pair { manifest, manifestSize }, std::pair { shard, shardSize } }) {
            for (const auto keep : { std::uintmax_t { 0 }, std::uintmax_t { 10 },
                     std::uintmax_t { 100 }, size / 2, size - 1 }) {
                INFO(file.filename().string() << ": kept " << keep << " of " << size << " bytes");
                fs::resize_file(file, keep);
                const auto result = loadCached(run, cache);
                REQUIRE_FALSE(result.fromCache);
                REQUIRE(result.cacheNote.find("damaged") != std::string::npos);
                REQUIRE(loadCached(run, cache).fromCache);
                REQUIRE(fs::file_size(file) == size);
            }
        }
    }
    SECTION("a manifest naming a shard that is missing")
    {
        fs::remove(shard);
        requireRebuilt(run, cache, "which is missing");
    }
    SECTION("wrong magic")
    {
        patchFile(manifest, 0, "NOTMINE!", 8);
        requireRebuilt(run, cache, "wrong magic");
    }
    SECTION("a foreign file")
    {
        writeFile(manifest, std::string(4096, 'x'));
        requireRebuilt(run, cache, "wrong magic");
    }
    SECTION("a shard of another version")
    {
        const std::uint32_t version = 2;
        patchFile(shard, 8, &version, sizeof version);
        std::string why = "another version (format 2, expected ";
        why += std::to_string(io::index::kFormatVersion);
        why += ")";
        requireRebuilt(run, cache, why);
    }
    SECTION("written by another format version")
    {
        const std::uint32_t version = 999;
        patchFile(manifest, 8, &version, sizeof version);
        // Out of date, not "damaged": the user has done nothing wrong.
        requireRebuilt(
            run, cache, "index cache was out of date (the manifest was written by another version");
    }
    SECTION("an index cache file of an older Parallax in its place")
    {
        fs::remove_all(index);
        writeFile(index, "PLXINDEX" + std::string(200, '\0'));
        requireRebuilt(run, cache, "");
        REQUIRE(fs::is_directory(index));
    }
    SECTION("a huge length inside a section allocates nothing big")
    {
        // Lengths are checked before anything is allocated (here in the key section, resealed
        // so that its checksum matches).
        auto bytes = readFile(manifest);
        const auto key = forge::load<io::index::Section>(bytes, 64);
        forge::store<std::uint64_t>(
            bytes, static_cast<std::size_t>(key.offset) + 1, 0x0FFFFFFFFFFFFFFFULL);
        forge::resealManifest(bytes);
        writeFile(manifest, bytes);
        resetLargestAllocation();
        const auto result = loadCached(run, cache);
        REQUIRE(largestAllocation() < (1U << 22));
        REQUIRE_FALSE(result.fromCache);
        REQUIRE(result.cacheNote.find("past the end of its section") != std::string::npos);
    }
}

TEST_CASE("opening the index cache reports its stage and can be cancelled", "[index_cache]")
{
    TempDir dir;
    const auto cache = cacheIn(dir);
    const auto run = realLog("gen-feat-smp");
    std::vector<std::string> stages;
    io::LoadOptions options;
    options.threads = 1;
    options.progress = [&](const io::LoadProgress& p) {
        stages.push_back(p.stage);
    };
    REQUIRE_FALSE(loadCached(run, cache, options).fromCache);
    REQUIRE(std::find(stages.begin(), stages.end(), "writing index cache") != stages.end());
    stages.clear();
    REQUIRE(loadCached(run, cache, options).fromCache);
    REQUIRE(std::find(stages.begin(), stages.end(), "checking index cache") != stages.end());
    REQUIRE(std::find(stages.begin(), stages.end(), "reading symbol table") == stages.end());

    options.cancelled = [] {
        return true;
    };
    const auto cancelled = io::loadRunCached(run.string(), options, cache);
    REQUIRE(cancelled.cancelled);
    REQUIRE(cancelled.trace == nullptr);
    // The cache is still good afterwards.
    options.cancelled = {};
    REQUIRE(loadCached(run, cache, options).fromCache);
}

TEST_CASE("the index cache can be switched off and its directory chosen", "[index_cache]")
{
    TempDir dir;
    auto cache = cacheIn(dir);
    const auto run = copyOfTinyRun(dir);
    cache.enabled = false;
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    REQUIRE_FALSE(fs::exists(cache.directory));
    cache.enabled = true;
    REQUIRE_FALSE(loadCached(run, cache).fromCache);
    REQUIRE(loadCached(run, cache).fromCache);

    REQUIRE(io::cacheDirectory(cache) == cache.directory);
    // An unusable cache directory (a file) costs nothing but a note.
    io::CacheOptions blocked;
    blocked.directory = (dir.path() / "blocker").string();
    writeFile(blocked.directory, "not a directory");
    const auto result = loadCached(run, blocked);
    REQUIRE_FALSE(result.fromCache);
    REQUIRE(result.cacheNote.find("not written") != std::string::npos);
}

TEST_CASE("the cache directory keeps the most recently used indexes within its byte limit",
    "[index_cache]")
{
    TempDir dir;
    auto cache = cacheIn(dir);
    const auto tiny = copyOfTinyRun(dir);
    const auto smp = realLog("gen-feat-smp");
    const auto hello = realLog("projections-hello-v3");
    for (const auto& run : { tiny, smp, hello })
        REQUIRE_FALSE(loadCached(run, cache).fromCache);
    REQUIRE(filesInCache(cache).size() == 3);
    const auto tinyIndex = io::cacheFilePath(tiny.string(), {}, cache);
    const auto smpIndex = io::cacheFilePath(smp.string(), {}, cache);
    const auto helloIndex = io::cacheFilePath(hello.string(), {}, cache);
    const auto now = fs::file_time_type::clock::now();
    // An index's last use is its manifest's time.
    fs::last_write_time(fs::path(tinyIndex) / "manifest", now - std::chrono::hours(3));
    fs::last_write_time(fs::path(smpIndex) / "manifest", now - std::chrono::hours(2));
    fs::last_write_time(fs::path(helloIndex) / "manifest", now - std::chrono::hours(1));
    // A temporary file a crashed writer left behind long ago, and a cache file of an older
    // Parallax.
    const auto leftover = fs::path(smpIndex) / ".tmp-abcdef";
    writeFile(leftover, "partial");
    fs::last_write_time(leftover, now - std::chrono::hours(2));
    const auto older = fs::path(cache.directory) / "old-0123456789abcdef.pxindex";
    writeFile(older, "PLXINDEX");

    // Reading the tiny run's index makes it the most recently used one.
    REQUIRE(loadCached(tiny, cache).fromCache);
    // Room for a second copy of the tiny run's index and the tiny run's own, nothing more.
    cache.maxBytes = 2 * bytesIn(tinyIndex) + 100;
    TempDir other;
    const auto tiny2 = copyOfTinyRun(other);
    REQUIRE_FALSE(loadCached(tiny2, cache).fromCache);
    const auto tiny2Index = io::cacheFilePath(tiny2.string(), {}, cache);
    std::vector<std::string> expected { tinyIndex, tiny2Index };
    std::sort(expected.begin(), expected.end());
    REQUIRE(filesInCache(cache) == expected);
    REQUIRE(loadCached(tiny, cache).fromCache);
    REQUIRE(loadCached(tiny2, cache).fromCache);
}
