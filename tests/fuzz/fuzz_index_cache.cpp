// Fuzz harness: the index cache reader (io::loadRunCached reading a .pxindex file).
//
// A fixed tiny run is laid out once in a fixed directory with fixed timestamps, so a cache file
// written for it stays valid from one process to the next (the seed corpus holds one). Each
// input is put in place of the run's cache file. Checksums only prove integrity, so to reach
// the validation of the fields themselves the harness first re-seals the input: every section
// checksum, the section-table checksum and the header checksum are recomputed over the fuzzed
// bytes (the layout is io/index_cache.cpp's FileHeader + CacheSection table).
//
// PARALLAX_FUZZ_CACHE_SEED=FILE: the first call also writes a fresh valid cache file to FILE.

#include "core/analysis/usage_profile.h"
#include "fuzz_support.h"
#include "io/cache_file.h"
#include "io/cache_hash.h"
#include "io/index_cache.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using parallax::io::CacheHash;
using parallax::io::CacheSection;

constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kSectionCountAt = 24;
constexpr std::size_t kTableHashAt = 32;
constexpr std::size_t kHeaderHashAt = 40;

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

std::uint64_t readU64(const std::vector<std::uint8_t>& bytes, std::size_t at)
{
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
}

void writeU64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t v)
{
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

// Recomputes every checksum the reader checks, over the (fuzzed) bytes as they are.
void reseal(std::vector<std::uint8_t>& bytes)
{
    if (bytes.size() < kHeaderBytes)
        return;
    const std::uint64_t count = readU64(bytes, kSectionCountAt);
    const std::size_t room = (bytes.size() - kHeaderBytes) / sizeof(CacheSection);
    if (count <= room) {
        const auto sections = static_cast<std::size_t>(count);
        for (std::size_t i = 0; i < sections; ++i) {
            const std::size_t at = kHeaderBytes + i * sizeof(CacheSection);
            CacheSection s;
            std::memcpy(&s, bytes.data() + at, sizeof s);
            if (s.offset <= bytes.size() && s.size <= bytes.size() - s.offset) {
                s.hash = CacheHash::of(bytes.data() + s.offset, static_cast<std::size_t>(s.size));
                std::memcpy(bytes.data() + at, &s, sizeof s);
            }
        }
        writeU64(bytes, kTableHashAt,
            CacheHash::of(bytes.data() + kHeaderBytes, sections * sizeof(CacheSection)));
    }
    writeU64(bytes, kHeaderHashAt, CacheHash::of(bytes.data(), kHeaderHashAt));
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
        const auto written = parallax::io::loadRunCached(run, load, cache); // writes the cache
        std::error_code ec;
        fs::copy_file(parallax::io::cacheFilePath(run, load, cache), seed,
            fs::copy_options::overwrite_existing, ec);
    }

    const auto cachePath = parallax::io::cacheFilePath(run, load, cache);
    if (cachePath.empty())
        return 0;
    fs::create_directories(fs::path(cachePath).parent_path());
    std::vector<std::uint8_t> bytes(data, data + size);
    reseal(bytes);
    if (!parallax::fuzz::writeFile(cachePath, bytes.data(), bytes.size()))
        return 0;
    // Never rewrite the cache after a rejected file: the next input replaces it anyway.
    cache.deferWrite = [](const std::function<std::string()>&) {
    };
    const auto result = parallax::io::loadRunCached(run, load, cache);
    if (result.trace) {
        // Run an analysis over what was accepted, as every view does: a field that passed
        // validation but is inconsistent (a PE or entry id out of range) shows up here.
        parallax::core::analysis::AnalysisRequest request;
        request.threads = 1;
        (void)parallax::core::analysis::computeUsageProfile(*result.trace, request);
    }
    return 0;
}
