// The review's hostile runs (PARALLAX_SHARED_DIR/robustness-cases) through the real
// parallax-cli binary, with the commands the review ran: each exits normally with its output
// or a clear message, never an internal error, a crash or an allocation failure.

#include "cli_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <string>

using namespace parallax::test;

namespace {

fs::path robustnessCase(std::string_view name)
{
    const auto path = sharedDir() / "robustness-cases" / std::string(name);
    INFO("robustness case " << path.string() << " is missing");
    REQUIRE(fs::exists(path));
    return path;
}

void requireNoInternalError(const CliRun& run)
{
    INFO("stdout: " << run.out.substr(0, 2000));
    INFO("stderr: " << run.err);
    CHECK(run.err.find("internal error") == std::string::npos);
    CHECK(run.err.find("bad_alloc") == std::string::npos);
    CHECK(run.err.find("max_size") == std::string::npos);
}

} // namespace

TEST_CASE("parallax-cli time-profile, overview and comm on a .projrc end time of 2^63-1")
{
    const auto dir = robustnessCase("projrc-endtime").string();
    for (const std::string command : { "time-profile", "overview", "comm" }) {
        INFO(command);
        const auto run = cliProcess({ command, dir, "--no-cache" });
        requireNoInternalError(run);
        CHECK(run.exitCode == 0);
        CHECK_FALSE(run.out.empty());
    }
}

TEST_CASE("parallax-cli info on a NaN VERSION exits 1 naming VERSION")
{
    const auto run = cliProcess({ "info", robustnessCase("ub-version-nan").string() });
    requireNoInternalError(run);
    CHECK(run.exitCode == 1);
    CHECK(run.err.find("VERSION") != std::string::npos);
}

TEST_CASE("parallax-cli time-profile on a -2^63 .sumd value shows no negative time")
{
    const auto run = cliProcess(
        { "time-profile", robustnessCase("ub-csv-float-cast").string(), "--no-cache" });
    requireNoInternalError(run);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.find("-9.22") == std::string::npos);
    CHECK(run.out.find("-9223372036854775808") == std::string::npos);
}

TEST_CASE("parallax-cli time-profile on a .sumd claiming 4M intervals x 65536 entries")
{
    const auto run = cliProcess(
        { "time-profile", robustnessCase("sumd-1-timeprofile").string(), "--no-cache" });
    requireNoInternalError(run);
    CHECK(run.exitCode == 0);
}

TEST_CASE("parallax-cli info on the hostile summary and PE-count cases")
{
    for (const auto* name : { "procs-2e24", "sum-phases", "sumd-8" }) {
        INFO(name);
        const auto run = cliProcess({ "info", robustnessCase(name).string(), "--no-cache" });
        requireNoInternalError(run);
        CHECK(run.exitCode == 0);
    }
}

TEST_CASE("parallax-cli info with a memory budget on a gzip log whose trailer lies")
{
    const auto run = cliProcess({ "info", robustnessCase("budget-isize").string(),
        "--memory-budget", "16M", "--no-cache" });
    requireNoInternalError(run);
    CHECK(run.exitCode == 0);
    CHECK(run.out.find("logs_on_demand: true") != std::string::npos);
    CHECK(run.err.find("memory budget") != std::string::npos);
}
