// Same numbers from a mapped index: every analysis and every CSV of parallax-cli on a run opened
// through its index (the cache's, mapped) is byte for byte what a plain load (--no-cache) gives,
// on the real runs and the sample runs; and --index refuses what it cannot use with exit code 1.

#include "cli_support.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using namespace parallax::test;

namespace {

// Every command that prints a table, with the options that change what is computed.
const std::vector<std::vector<std::string>> kCommands = {
    { "info" },
    { "entries" },
    { "timeline", "--pe", "0" },
    { "usage" },
    { "usage", "--compat", "java" },
    { "time-profile" },
    { "time-profile", "--compat", "java" },
    { "overview" },
    { "overview", "--compat", "java" },
    { "histogram" },
    { "histogram", "--metric", "msg-size" },
    { "histogram", "--metric", "idle" },
    { "histogram", "--compat", "java" },
    { "comm" },
    { "comm", "--compat", "java" },
    { "extrema", "--criterion", "least-idle" },
    { "extrema", "--criterion", "most-idle" },
    { "extrema", "--criterion", "overhead" },
    { "extrema", "--criterion", "active-entries" },
    { "extrema", "--criterion", "grain-size" },
    { "extrema", "--criterion", "msgs-sent" },
    { "extrema", "--criterion", "bytes-sent" },
    { "extrema", "--criterion", "clustering" },
    { "clusters" },
    { "groups", "--by", "node" },
    { "groups", "--by", "signature", "--mode", "set" },
};

// `info`'s load time differs from one open to the next; everything else must not.
std::string withoutTiming(const std::string& text)
{
    std::string kept;
    for (const auto& line : splitLines(text))
        if (line.rfind("load_seconds:", 0) != 0)
            kept += line + "\n";
    return kept;
}

void requireSameThroughIndex(const fs::path& run)
{
    INFO("run " << run.string());
    TempDir dir;
    const auto cacheDir = (dir / "cache").string();
    // The first open parses the logs and writes the index; every later one maps it.
    const auto first = runCliInProcess({ "info", run.string(), "--cache-dir", cacheDir });
    REQUIRE(first.exitCode == 0);
    REQUIRE(fs::exists(cacheDir));
    for (const auto& command : kCommands) {
        auto args = command;
        args.insert(args.begin() + 1, run.string());
        std::string joined;
        for (const auto& a : args)
            joined += a + " ";
        INFO("parallax-cli " << joined);
        auto plainArgs = args;
        plainArgs.push_back("--no-cache");
        auto mappedArgs = args;
        mappedArgs.insert(mappedArgs.end(), { "--cache-dir", cacheDir });
        const auto plain = runCliInProcess(plainArgs);
        const auto mapped = runCliInProcess(mappedArgs);
        CHECK(mapped.exitCode == plain.exitCode);
        CHECK(withoutTiming(mapped.out) == withoutTiming(plain.out));
        CHECK(mapped.err == plain.err);
    }
}

} // namespace

TEST_CASE("every CSV of sample-logs/imbalance is the same from the mapped index as from the logs",
    "[cli][index]")
{
    requireSameThroughIndex(sampleRun("imbalance"));
}

TEST_CASE("every CSV of the other sample runs is the same from the mapped index as from the logs",
    "[cli][index]")
{
    for (const auto* name : { "grainsize", "heavy-sender" })
        requireSameThroughIndex(sampleRun(name));
}

TEST_CASE("every CSV of the small real runs is the same from the mapped index as from the logs",
    "[cli][index]")
{
    for (const auto* name : { "charm-synth-v7", "pipit-hello1darray-v11", "pipit-pingpong-v11",
             "projections-hello-v3" })
        requireSameThroughIndex(realLog(name));
}

TEST_CASE("every CSV of the generated real runs is the same from the mapped index as from the "
          "logs",
    "[cli][index]")
{
    for (const auto* name : { "gen-feat-binshrink-partial", "gen-feat-flush-plain",
             "gen-feat-notracenested", "gen-feat-smp" })
        requireSameThroughIndex(realLog(name));
}

TEST_CASE("parallax-cli --index opens a run through the given index only, and says why it cannot",
    "[cli][index]")
{
    TempDir dir;
    const auto cacheDir = dir / "cache";
    const auto run = realLog("gen-feat-smp").string();
    REQUIRE(runCliInProcess({ "info", run, "--cache-dir", cacheDir.string() }).exitCode == 0);
    std::vector<fs::path> indexes;
    for (const auto& entry : fs::directory_iterator(cacheDir))
        indexes.push_back(entry.path());
    REQUIRE(indexes.size() == 1);
    const auto index = indexes[0].string();

    const auto plain = runCliInProcess({ "usage", run, "--no-cache" });
    const auto through = runCliInProcess({ "usage", run, "--index", index });
    REQUIRE(through.exitCode == 0);
    CHECK(through.out == plain.out);

    // Another run's index, or none: exit code 1, one line.
    const auto other
        = runCliInProcess({ "usage", realLog("projections-hello-v3").string(), "--index", index });
    CHECK(other.exitCode == 1);
    CHECK(other.out.empty());
    REQUIRE(other.errLines().size() == 1);
    CHECK(other.err.find("an index of another run") != std::string::npos);
    const auto none = runCliInProcess({ "usage", run, "--index", (dir / "nothing").string() });
    CHECK(none.exitCode == 1);
    REQUIRE(none.errLines().size() == 1);
    CHECK(none.err.find("no manifest") != std::string::npos);
    // --index never writes: not into the index, not into the cache.
    CHECK_FALSE(fs::exists(dir / "nothing"));
}
