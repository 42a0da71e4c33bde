// Fuzz harness: the index reader (io::loadRunCached opening a cached index, docs/index.md).
//
// A fixed tiny run is laid out once in a fixed directory with fixed timestamps, so an index
// written for it stays valid from one process to the next (the seed corpus holds one). An input
// is a 4-byte little-endian length, that many bytes of manifest, then the shard: they are put in
// place of the run's cached index. Checksums only prove integrity, so to reach the validation of
// the fields themselves the harness first re-seals the input: every checksum is recomputed over
// the fuzzed bytes (tests/support/index_forge.h). Every PE and summary of an accepted index is
// then read, so that the checks made on first use run too.
//
// PARALLAX_FUZZ_CACHE_SEED=FILE: the first call also writes a fresh valid input to FILE.

#include "../support/index_forge.h"
#include "core/analysis/usage_profile.h"
#include "fuzz_support.h"
#include "io/index_cache.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
constexpr const char* kShardName = "shard-0-of-1.pxshard";

const fs::path& runDir()
{
    static const fs::path dir = [] {
        auto d = fs::temp_directory_path() / "parallax-fuzz-cache-run";
        fs::create_directories(d);
        parallax::fuzz::writeFile(d / "tiny.sts",
            "PROJECTIONS_ID \nVERSION 11.0\nTOTAL_PHASES 1\nMACHINE \"netlrts-linux-x86_64\"\n"
            "PROCESSORS 2\nTOTAL_CHARES 3\nTOTAL_EPS 4\nTOTAL_MSGS 1\nTOTAL_PSEUDOS 0\n"
            "TOTAL_EVENTS 1\nCHARE 0 \"dummy_thread_chare\" -1\nCHARE 1 \"Main\" -1\n"
            "CHARE 2 \"Worker\" 1\nENTRY CHARE 0 \"dummy_thread_ep\" 0 0\n"
            "ENTRY CHARE 1 \"Main(CkArgMsg* m)\" 1 0\nENTRY CHARE 2 \"compute(int n)\" 2 -1\n"
            "ENTRY CHARE 3 \"halo()\" 2 -1\nMESSAGE 0 64\nTOTAL_STATS 0\nEVENT 7 Iteration\nEND\n");
        parallax::fuzz::writeFile(d / "tiny.0.log",
            "PROJECTIONS-RECORD 8\n6 1000\n2 1 1 1100 0 0 64 0 0 0 0 0 500\n"
            "1 21 2 1150 1 0 80 0\n3 0 1 1200 0 0 0 510\n2 2 2 1300 1 0 80 0 0 0 0 0 520\n"
            "3 2 2 1400 1 0 0 530\n7 3100\n");
        parallax::fuzz::writeFile(d / "tiny.1.log",
            "PROJECTIONS-RECORD 6\n6 1000\n2 2 2 1250 1 0 80 0 0 0 0 0 600\n"
            "13 1200 1\n3 2 2 1500 1 0 0 610\n7 3100\n");
        // Fixed timestamps (2020-01-01, in the past so the cache is written), the directory's
        // last: the cache key holds them.
        const timespec fixed[2] = { { 1577836800, 0 }, { 1577836800, 0 } };
        for (const auto* name : { "tiny.sts", "tiny.0.log", "tiny.1.log" })
            ::utimensat(AT_FDCWD, (d / name).c_str(), fixed, 0);
        ::utimensat(AT_FDCWD, d.c_str(), fixed, 0);
        return d;
    }();
    return dir;
}

std::string readWhole(const fs::path& path)
{
    std::string bytes;
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        char buffer[65536];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
            bytes.append(buffer, n);
        std::fclose(f);
    }
    return bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto run = (runDir() / "tiny.sts").string();
    parallax::io::LoadOptions load;
    load.threads = 1;
    parallax::io::CacheOptions cache;
    cache.directory = (parallax::fuzz::scratchDir() / "cache").string();

    static bool seedWritten = false;
    if (const char* seed = std::getenv("PARALLAX_FUZZ_CACHE_SEED");
        seed != nullptr && !seedWritten) {
        seedWritten = true;
        (void)parallax::io::loadRunCached(run, load, cache); // writes the index
        const fs::path index = parallax::io::cacheFilePath(run, load, cache);
        const auto manifest = readWhole(index / "manifest");
        const auto shard = readWhole(index / kShardName);
        const auto length = static_cast<std::uint32_t>(manifest.size());
        std::string input(reinterpret_cast<const char*>(&length), 4);
        input += manifest + shard;
        parallax::fuzz::writeFile(seed, input);
    }

    const auto indexPath = parallax::io::cacheFilePath(run, load, cache);
    if (indexPath.empty() || size < 4)
        return 0;
    std::uint32_t length = 0;
    std::memcpy(&length, data, 4);
    if (length > size - 4)
        return 0;
    std::string manifest(reinterpret_cast<const char*>(data) + 4, length);
    std::string shard(reinterpret_cast<const char*>(data) + 4 + length, size - 4 - length);
    parallax::test::forge::resealShard(shard);
    parallax::test::forge::resealManifest(manifest, { { kShardName, shard } });
    const fs::path index(indexPath);
    fs::create_directories(index);
    if (!parallax::fuzz::writeFile(index / "manifest", manifest)
        || !parallax::fuzz::writeFile(index / kShardName, shard))
        return 0;
    // Never rewrite the index after a rejected one: the next input replaces it anyway.
    cache.deferWrite = [](const std::function<std::string()>&) {
    };
    const auto result = parallax::io::loadRunCached(run, load, cache);
    if (result.trace) {
        // Read everything that was accepted, then run an analysis over it, as every view does:
        // a field that passed validation but is inconsistent (a PE or entry id out of range)
        // shows up here.
        result.trace->pes.completeAll();
        result.trace->summaries.completeAll();
        result.trace->details.completeAll();
        parallax::core::analysis::AnalysisRequest request;
        request.threads = 1;
        (void)parallax::core::analysis::computeUsageProfile(*result.trace, request);
    }
    return 0;
}
