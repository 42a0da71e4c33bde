// `parallax-cli clusters` (app/cli/cluster_commands.cpp): the CSV shapes, the planted classes of
// a generated run (from its logs and from its summaries alone), a real SMP run, and bad input
// (exit 2, one line on stderr).

#include "cli_support.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

using namespace parallax::test;

namespace {

struct Row {
    int cluster = -1;
    std::string role;
    double distance = -1;
};

// pe -> row of the `clusters` CSV; checks the header and the field count on the way.
std::map<int, Row> clusterRows(const CliRun& run)
{
    const auto lines = run.outLines();
    REQUIRE(!lines.empty());
    CHECK(lines[0] == "pe,cluster,role,distance");
    std::map<int, Row> rows;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto f = csvSplit(lines[i]);
        REQUIRE(f.size() == 4);
        rows[std::stoi(f[0])] = { std::stoi(f[1]), f[2], std::stod(f[3]) };
    }
    return rows;
}

std::set<int> pesOfCluster(const std::map<int, Row>& rows, int cluster)
{
    std::set<int> pes;
    for (const auto& [pe, row] : rows)
        if (row.cluster == cluster)
            pes.insert(pe);
    return pes;
}

} // namespace

TEST_CASE("cli clusters finds the overloaded PEs of the imbalance run as their own class")
{
    const auto run = runCliInProcess({ "clusters", sampleRun("imbalance").string() });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const auto rows = clusterRows(run);
    REQUIRE(rows.size() == 12);
    CHECK(pesOfCluster(rows, rows.at(3).cluster) == std::set<int> { 3, 9 });
    int exemplars = 0;
    for (const auto& [pe, row] : rows) {
        CHECK((row.role == "exemplar" || row.role == "member" || row.role == "outlier"));
        CHECK(row.distance >= 0);
        exemplars += row.role == "exemplar" ? 1 : 0;
    }
    CHECK(exemplars == 2);
}

TEST_CASE("cli clusters gives the same classes from the summaries alone")
{
    const auto run = runCliInProcess(
        { "clusters", sampleRun("imbalance").string(), "--memory-budget", "1K", "--no-cache" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find("results come from the summary files") != std::string::npos);
    const auto rows = clusterRows(run);
    REQUIRE(rows.size() == 12);
    CHECK(pesOfCluster(rows, rows.at(3).cluster) == std::set<int> { 3, 9 });
}

TEST_CASE("cli clusters --sweep prints k, non-empty clusters, WCSS and the one chosen")
{
    const auto run
        = runCliInProcess({ "clusters", sampleRun("imbalance").string(), "--sweep", "1:6" });
    REQUIRE(run.exitCode == 0);
    const auto lines = run.outLines();
    REQUIRE(lines.size() == 7);
    CHECK(lines[0] == "k,nonempty,wcss,chosen");
    int chosen = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto f = csvSplit(lines[i]);
        REQUIRE(f.size() == 4);
        CHECK(std::stoi(f[0]) == static_cast<int>(i));
        CHECK(std::stoi(f[1]) >= 1);
        CHECK(std::stoi(f[1]) <= std::stoi(f[0]));
        CHECK(std::stod(f[2]) >= 0);
        if (f[3] == "1") {
            ++chosen;
            CHECK(f[0] == "2"); // the elbow: the light PEs and the two overloaded ones
        }
    }
    CHECK(chosen == 1);
    // With --k the sweep marks that k.
    const auto given = runCliInProcess(
        { "clusters", sampleRun("imbalance").string(), "--sweep", "2:4", "--k", "3" });
    REQUIRE(given.exitCode == 0);
    const auto row = csvSplit(given.outLines().at(2));
    CHECK(row.front() == "3");
    CHECK(row.back() == "1");
}

TEST_CASE("cli clusters --k and --outliers set the clusters and the outliers")
{
    const auto run = runCliInProcess(
        { "clusters", sampleRun("imbalance").string(), "--k", "2", "--outliers", "3" });
    REQUIRE(run.exitCode == 0);
    const auto rows = clusterRows(run);
    int outliers = 0;
    for (const auto& [pe, row] : rows)
        outliers += row.role == "outlier" ? 1 : 0;
    // 3 outliers shared 10:2 -> 2.5 and 0.5: equal remainders, so the lower cluster (the ten
    // light PEs) takes the third.
    int light = 0;
    for (const auto& [pe, row] : rows)
        light += row.role == "outlier" && row.cluster == rows.at(0).cluster ? 1 : 0;
    CHECK(rows.at(0).cluster == 0);
    CHECK(light == 3);
    CHECK(outliers == 3);
}

TEST_CASE("cli clusters on a real SMP run keeps the comm threads apart unless asked")
{
    const auto path = realLog("gen-leanmd-smp").string();
    const auto run = runCliInProcess({ "clusters", path, "--k", "2" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.find("2 comm-thread PEs kept apart") != std::string::npos);
    auto rows = clusterRows(run);
    CHECK(rows.size() == 4);
    CHECK(rows.count(4) == 0);
    const auto all = runCliInProcess({ "clusters", path, "--k", "2", "--include-comm-threads" });
    REQUIRE(all.exitCode == 0);
    CHECK(clusterRows(all).size() == 6);
}

TEST_CASE("cli clusters on a time window clusters that phase only")
{
    const auto run = runCliInProcess(
        { "clusters", (dataDir() / "runs" / "tiny").string(), "--k", "2", "--range", "1100:1600" });
    REQUIRE(run.exitCode == 0);
    const auto rows = clusterRows(run);
    REQUIRE(rows.size() == 2);
    CHECK(rows.at(0).cluster != rows.at(1).cluster);
}

TEST_CASE("cli clusters rejects bad input with one line and exit 2")
{
    const auto imbalance = sampleRun("imbalance").string();
    requireUsageError({ "clusters", imbalance, "--k", "0" });
    requireUsageError({ "clusters", imbalance, "--k", "many" });
    requireUsageError({ "clusters", imbalance, "--k", "13" }); // 12 PEs
    requireUsageError({ "clusters", imbalance, "--sweep", "5" });
    requireUsageError({ "clusters", imbalance, "--sweep", "4:2" });
    requireUsageError({ "clusters", imbalance, "--sweep", "0:3" });
    requireUsageError({ "clusters", imbalance, "--sweep", "13:20" });
    requireUsageError({ "clusters", imbalance, "--outliers", "-1" });
    requireUsageError({ "clusters", imbalance, "--pes", "3" }); // one PE
    requireUsageError({ "clusters" });
    const auto missing = runCliInProcess({ "clusters", "/nonexistent/run" });
    CHECK(missing.exitCode == 1);
    CHECK(missing.errLines().size() == 1);
}

TEST_CASE("cli clusters --help and the command list name it")
{
    const auto help = runCliInProcess({ "clusters", "--help" });
    CHECK(help.exitCode == 0);
    CHECK(help.out.find("pe,cluster,role,distance") != std::string::npos);
    CHECK(help.out.find("k,nonempty,wcss,chosen") != std::string::npos);
    const auto all = runCliInProcess({ "--help" });
    CHECK(all.out.find("  clusters RUN") != std::string::npos);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("cli render clusters draws the view with a given k and rejects k 0")
{
    TempDir dir;
    const auto run = sampleRun("imbalance").string();
    const auto out = (dir.path() / "clusters.png").string();
    const auto r = cliProcess(
        { "render", "clusters", run, "-o", out, "--k", "3", "--width", "800", "--height", "600" });
    CHECK(r.exitCode == 0);
    const auto bytes = readFile(out);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.substr(1, 3) == "PNG");
    CHECK(bytes.size() > 10'000); // bars and tables, not a blank picture
    const auto bad = cliProcess(
        { "render", "clusters", run, "-o", (dir.path() / "bad.png").string(), "--k", "0" });
    CHECK(bad.exitCode == 2);
    CHECK(bad.errLines().size() == 1);
    CHECK_FALSE(fs::exists(dir.path() / "bad.png"));
}
#endif
