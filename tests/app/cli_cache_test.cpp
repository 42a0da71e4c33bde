// parallax-cli and the index cache: --cache-dir chooses where it goes, --no-cache skips it, and
// a damaged cache costs a note on stderr, never a different answer.

#include "cli_support.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace parallax::test;

namespace {

// `info` output without the line that differs from run to run (the load time).
std::string infoWithoutTiming(const CliRun& run)
{
    std::string kept;
    for (const auto& line : run.outLines())
        if (line.rfind("load_seconds:", 0) != 0)
            kept += line + "\n";
    return kept;
}

std::vector<fs::path> filesIn(const fs::path& dir)
{
    std::vector<fs::path> files;
    if (fs::exists(dir))
        for (const auto& entry : fs::directory_iterator(dir))
            files.push_back(entry.path());
    return files;
}

} // namespace

TEST_CASE("info through the index cache prints what a full load prints", "[cli][index_cache]")
{
    TempDir dir;
    const auto cacheDir = (dir / "cache").string();
    const auto uncached = runCliInProcess({ "info", tinyRun(), "--no-cache" });
    REQUIRE(uncached.exitCode == 0);

    const auto first = runCliInProcess({ "info", tinyRun(), "--cache-dir", cacheDir });
    REQUIRE(first.exitCode == 0);
    REQUIRE(first.err == uncached.err);
    const auto files = filesIn(cacheDir);
    REQUIRE(files.size() == 1);

    const auto second = runCliInProcess({ "info", tinyRun(), "--cache-dir", cacheDir });
    REQUIRE(second.exitCode == 0);
    REQUIRE(second.err == uncached.err);
    REQUIRE(infoWithoutTiming(second) == infoWithoutTiming(uncached));

    // A damaged cache: the same answer, a note on stderr, a good cache again afterwards.
    writeFile(files[0] / "manifest", "garbage");
    const auto damaged = runCliInProcess({ "info", tinyRun(), "--cache-dir", cacheDir });
    REQUIRE(damaged.exitCode == 0);
    REQUIRE(damaged.err.find("note: index cache was damaged") != std::string::npos);
    REQUIRE(infoWithoutTiming(damaged) == infoWithoutTiming(uncached));
    REQUIRE(fs::file_size(files[0] / "manifest") > 100);
}

TEST_CASE("info with --no-cache neither reads nor writes the index cache", "[cli][index_cache]")
{
    TempDir dir;
    const auto cacheDir = dir / "cache";
    const auto run
        = runCliInProcess({ "info", tinyRun(), "--no-cache", "--cache-dir", cacheDir.string() });
    REQUIRE(run.exitCode == 0);
    REQUIRE_FALSE(fs::exists(cacheDir));
}
