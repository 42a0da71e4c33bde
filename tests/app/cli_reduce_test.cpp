// parallax-cli reduce (app/cli/reduce_commands.cpp): the summary it prints, the run it writes
// (which info and usage open), determinism of --seed, and bad input: one line on stderr,
// exit 2 (exit 1 for a run that cannot be opened).

#include "cli_support.h"

#include <catch2/catch.hpp>

#include <set>

using namespace parallax;
using namespace parallax::test;

namespace {

std::string sample(const char* name)
{
    return sampleRun(name).string();
}

} // namespace

TEST_CASE("cli reduce refuses bad --keep, --k, --select and missing options")
{
    TempDir tmp;
    const auto out = (tmp / "out").string();
    const auto run = sample("grainsize");
    requireUsageError({ "reduce", run, "--keep", "0%", "-o", out, "--select", "random" }, "0%");
    requireUsageError(
        { "reduce", run, "--keep", "200%", "-o", out, "--select", "random" }, "at most 100%");
    requireUsageError(
        { "reduce", run, "--keep", "0", "-o", out, "--select", "random" }, "at least 1");
    requireUsageError({ "reduce", run, "--keep", "9", "-o", out, "--select", "random" }, "8 PEs");
    requireUsageError({ "reduce", run, "--keep", "5%", "-o", out, "--k", "0" }, "--k");
    requireUsageError({ "reduce", run, "--keep", "5%", "-o", out, "--select", "best" }, "--select");
    requireUsageError({ "reduce", run, "-o", out }, "--keep");
    requireUsageError({ "reduce", run, "--keep", "5%" }, "-o OUT");
    requireUsageError(
        { "reduce", run, "--keep", "5%", "-o", out, "--control-draws", "3" }, "--control-draws");
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("cli reduce refuses an output in, over or around the run, or not empty")
{
    TempDir tmp;
    const auto run = tmp / "run";
    copyFiles(sampleRun("grainsize"), run);
    const std::vector<std::string> common { "--keep", "2", "--select", "random" };
    auto args = [&](const fs::path& out, bool force = false) {
        std::vector<std::string> a { "reduce", run.string(), "-o", out.string() };
        a.insert(a.end(), common.begin(), common.end());
        if (force)
            a.push_back("--force");
        return a;
    };
    requireUsageError(args(run), "run directory");
    requireUsageError(args(run / "reduced"), "inside the run directory");
    requireUsageError(args(tmp.path(), true), "contains the run");
    fs::create_directories(tmp / "full");
    writeFile(tmp / "full" / "x", "x");
    requireUsageError(args(tmp / "full"), "--force");
    CHECK(runCliInProcess(args(tmp / "full", true)).exitCode == 0);
    CHECK_FALSE(fs::exists(tmp / "full" / "x"));
    CHECK_FALSE(fs::exists(run / "reduced"));
}

TEST_CASE("cli reduce refuses a run with one PE, a run without summaries, and a missing run")
{
    TempDir tmp;
    const auto one = tmp / "one";
    copyFiles(dataDir() / "runs" / "tiny", one,
        [](const std::string& name) { return name != "tiny.1.log"; });
    requireUsageError({ "reduce", one.string(), "--keep", "1", "-o", (tmp / "o1").string(),
                          "--select", "random", "--allow-no-summaries" },
        "at least 2");
    requireUsageError(
        { "reduce", tinyRun(), "--keep", "1", "-o", (tmp / "o2").string(), "--select", "random" },
        "--allow-no-summaries");
    CHECK(runCliInProcess({ "reduce", tinyRun(), "--keep", "1", "-o", (tmp / "o3").string(),
                              "--select", "random", "--allow-no-summaries" })
              .exitCode
        == 0);
    const auto missing = runCliInProcess(
        { "reduce", (tmp / "nothing").string(), "--keep", "1", "-o", (tmp / "o4").string() });
    CHECK(missing.exitCode == 1);
    CHECK(missing.errLines().size() == 1);
}

TEST_CASE("cli reduce by clusters keeps exemplars and outliers, the planted class included")
{
    // sample-logs/imbalance: PEs 3 and 9 do twice the work of the other 10 (README). Keeping
    // 3 PEs: one exemplar per non-empty cluster, the remaining places to outliers.
    TempDir tmp;
    const auto out = tmp / "o";
    const auto run = runCliInProcess(
        { "reduce", sample("imbalance"), "--keep", "25%", "-o", out.string(), "--k", "2" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const auto figures = keyValueMap(run.out);
    CHECK(figures.at("select") == "clusters");
    CHECK(figures.at("asked") == "3");
    CHECK(figures.at("kept") == "3 of 12 PEs with logs");
    CHECK(figures.at("clusters") == "k 2, 2 non-empty");
    const auto kept = figures.at("kept_pes");
    CHECK((kept.find("3:exemplar") != std::string::npos
        || kept.find("9:exemplar") != std::string::npos));
    std::size_t exemplars = 0;
    for (std::size_t at = kept.find("exemplar"); at != std::string::npos;
         at = kept.find("exemplar", at + 1))
        ++exemplars;
    CHECK(exemplars == 2);
    CHECK(kept.find("outlier") != std::string::npos);
    const auto json = readFile(out / "reduction.json");
    CHECK(json.find("\"select\": \"clusters\"") != std::string::npos);
    CHECK(json.find("\"role\": \"exemplar\", \"cluster\": 0") != std::string::npos);
    CHECK(json.find("\"role\": \"exemplar\", \"cluster\": 1") != std::string::npos);

    // k larger than the PEs clustered: one line, exit 2.
    requireUsageError(
        { "reduce", sample("imbalance"), "--keep", "3", "-o", (tmp / "o2").string(), "--k", "50" },
        "more than");
    CHECK_FALSE(fs::exists(tmp / "o2"));
}

TEST_CASE("cli reduce writes a run that info and usage open, and prints its figures")
{
    TempDir tmp;
    const auto out = (tmp / "out").string();
    const auto run = cliProcess({ "reduce", realLog("gen-leanmd-smp").string(), "--keep", "50%",
        "-o", out, "--select", "random", "--seed", "5" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const auto figures = keyValueMap(run.out);
    for (const char* key : { "output", "kept", "kept_pes", "log_fraction", "written_fraction",
             "pe_fraction", "h_mean", "h_sd", "control_h_mean", "control_h_sd", "retention_top5",
             "control_retention_top5", "retention_top20", "report" })
        CHECK(figures.count(key) == 1);
    CHECK(figures.at("kept") == "3 of 6 PEs with logs");
    CHECK(figures.at("pe_fraction") == "0.5000");
    CHECK(figures.at("control_draws") == "20");
    CHECK(fs::exists(fs::path(out) / "REDUCTION.md"));
    CHECK(fs::exists(fs::path(out) / "reduction.json"));

    const auto info = cliProcess({ "info", out });
    REQUIRE(info.exitCode == 0);
    const auto keys = keyValueMap(info.out);
    CHECK(keys.at("pes") == "6");
    CHECK(keys.at("has_sum") == "true");
    CHECK(keys.at("missing_pes") != "none"); // the PEs whose logs were left out
    const auto usage = cliProcess({ "usage", out });
    REQUIRE(usage.exitCode == 0);
    std::set<std::string> pes;
    for (const auto& line : usage.outLines())
        pes.insert(line.substr(0, line.find(',')));
    CHECK(pes.size() == 3 + 2); // the kept PEs, "avg" and the header

    // The same seed picks the same PEs; another seed may not.
    const auto again = runCliInProcess({ "reduce", realLog("gen-leanmd-smp").string(), "--keep",
        "50%", "-o", (tmp / "again").string(), "--select", "random", "--seed", "5" });
    REQUIRE(again.exitCode == 0);
    CHECK(keyValueMap(again.out).at("kept_pes") == figures.at("kept_pes"));
    CHECK(keyValueMap(again.out).at("h_mean") == figures.at("h_mean"));
}
