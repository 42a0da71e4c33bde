// `parallax-cli groups`: the CSV's shape per mode on a real SMP run (gen-feat-smp: workers 0-3
// on nodes 0 and 1, comm threads 4 and 5) and one clear line with exit 2 for bad arguments.

#include "cli_support.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

using parallax::test::realLog;
using parallax::test::runCliInProcess;
using parallax::test::splitLines;

namespace parallax_test_cli_groups_test {

const char* const kHeader
    = "group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,value_us,percent";

// The fields of a CSV line without quoted commas inside (activity names may have them: the
// fields from the end are taken apart from the right).
struct Row {
    std::string group, first, last, members, mode, role, pe, activity;
    double valueUs = 0, percent = 0;
};

std::vector<Row> rows(const std::string& csv)
{
    std::vector<Row> out;
    const auto lines = splitLines(csv);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> head;
        std::size_t pos = 0;
        for (int f = 0; f < 8; ++f) {
            const auto comma = lines[i].find(',', pos);
            head.push_back(lines[i].substr(pos, comma - pos));
            pos = comma + 1;
        }
        const auto lastComma = lines[i].rfind(',');
        const auto valueComma = lines[i].rfind(',', lastComma - 1);
        Row r { head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7],
            std::stod(lines[i].substr(valueComma + 1, lastComma - valueComma - 1)),
            std::stod(lines[i].substr(lastComma + 1)) };
        out.push_back(r);
    }
    return out;
}

TEST_CASE("cli groups by node in SUM mode: a row per node and per node's comm threads")
{
    const auto run
        = runCliInProcess({ "groups", realLog("gen-feat-smp").string(), "--by", "node" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    REQUIRE(splitLines(run.out).front() == kHeader);
    std::map<std::string, std::string> members;
    std::set<std::string> roles;
    for (const auto& r : rows(run.out)) {
        members[r.group] = r.first + "-" + r.last + "/" + r.members;
        roles.insert(r.role);
        CHECK(r.mode == "sum");
        CHECK(r.pe.empty());
        if (r.role == "sum")
            CHECK(r.percent >= 0.0);
    }
    CHECK(members
        == std::map<std::string, std::string> { { "node 0", "0-1/2" }, { "node 1", "2-3/2" },
            { "node 0 comm threads", "4-4/1" }, { "node 1 comm threads", "5-5/1" } });
    CHECK(roles == std::set<std::string> { "sum", "mean" });
}

TEST_CASE("cli groups in SET and KEY modes name their roles, and KEY its PEs")
{
    const auto run = realLog("gen-feat-smp").string();
    const auto set = runCliInProcess({ "groups", run, "--by", "block:4", "--mode", "set" });
    REQUIRE(set.exitCode == 0);
    std::set<std::string> roles;
    for (const auto& r : rows(set.out)) {
        roles.insert(r.role);
        CHECK(r.pe.empty());
    }
    CHECK(roles == std::set<std::string> { "min", "max", "mean", "sd" });

    const auto key = runCliInProcess(
        { "groups", run, "--by", "block:8", "--mode", "key", "--include-comm-threads" });
    REQUIRE(key.exitCode == 0);
    std::map<std::string, std::set<std::string>> pesOf;
    for (const auto& r : rows(key.out)) {
        CHECK(r.group == "PEs 0-7");
        CHECK(r.members == "6");
        pesOf[r.role].insert(r.pe);
    }
    CHECK(pesOf.at("first") == std::set<std::string> { "0" });
    REQUIRE(pesOf.at("slowest").size() == 1);
    REQUIRE(pesOf.at("fastest").size() == 1);
    CHECK(pesOf.at("rest") == std::set<std::string> { "" });
    CHECK(*pesOf.at("slowest").begin() != *pesOf.at("fastest").begin());
}

TEST_CASE("cli groups by signature sets PE 0 apart and honours --range and --pes")
{
    const auto run = runCliInProcess(
        { "groups", realLog("gen-feat-smp").string(), "--by", "signature", "--pes", "0-3" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    const auto r = rows(run.out);
    REQUIRE_FALSE(r.empty());
    CHECK(r.front().group == "signature 1");
    CHECK(r.front().first == "0");
    CHECK(r.front().last == "0");
    for (const auto& row : r)
        CHECK(row.group.find("comm threads") == std::string::npos);

    const auto windowed = runCliInProcess(
        { "groups", realLog("gen-feat-smp").string(), "--by", "node", "--range", "0:1ms" });
    REQUIRE(windowed.exitCode == 0);
    for (const auto& row : rows(windowed.out))
        CHECK(row.valueUs <= 1000.0 * std::stod(row.members) + 1e-6);
}

TEST_CASE("cli groups by a file of named PE lists keeps the user's names and order")
{
    parallax::test::TempDir dir;
    parallax::test::writeFile(dir / "groups.txt", "# saved\nevens: 0,2\nodds: 1,3\n");
    const auto run = runCliInProcess({ "groups", realLog("gen-feat-smp").string(), "--by",
        "list:" + (dir / "groups.txt").string(), "--mode", "key" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    std::map<std::string, std::string> firstOf;
    for (const auto& r : rows(run.out))
        if (r.role == "first")
            firstOf[r.group] = r.pe;
    CHECK(firstOf == std::map<std::string, std::string> { { "evens", "0" }, { "odds", "1" } });
    CHECK(rows(run.out).front().group == "evens");

    parallax::test::writeFile(dir / "bad.txt", "evens: 0,2\nno list here\n");
    const auto bad = runCliInProcess({ "groups", realLog("gen-feat-smp").string(), "--by",
        "list:" + (dir / "bad.txt").string() });
    CHECK(bad.exitCode == 2);
    CHECK(bad.errLines().size() == 1);
    CHECK(bad.err.find("line 2: expected 'name: PE list'") != std::string::npos);
    const auto missing = runCliInProcess({ "groups", realLog("gen-feat-smp").string(), "--by",
        "list:" + (dir / "absent.txt").string() });
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.find("cannot read") != std::string::npos);
}

TEST_CASE("cli groups rejects a bad --by or --mode with one line and exit 2")
{
    const auto run = realLog("gen-feat-smp").string();
    const std::vector<std::vector<std::string>> bad = {
        { "groups", run, "--by", "rack" },
        { "groups", run, "--by", "block:0" },
        { "groups", run, "--by", "block:x" },
        { "groups", run, "--by", "node", "--mode", "average" },
        { "groups", run, "--by", "node", "--k", "3" },
        { "groups", run, "--by", "cluster", "--k", "0" },
        { "groups", run, "--by", "list:/nonexistent/lists.txt" },
        { "groups", run },
        { "groups", run, "--by", "node", "--range", "5ms:1ms" },
    };
    for (const auto& args : bad) {
        std::string shown;
        for (std::size_t i = 2; i < args.size(); ++i)
            shown += args[i] + " ";
        INFO(shown);
        const auto r = runCliInProcess(args);
        CHECK(r.exitCode == 2);
        CHECK(r.out.empty());
        CHECK(r.errLines().size() == 1);
        CHECK(r.err.rfind("parallax-cli groups: ", 0) == 0);
    }
    const auto missing = runCliInProcess({ "groups", "/nonexistent/run", "--by", "node" });
    CHECK(missing.exitCode == 1);
}

TEST_CASE("cli groups by cluster finds the two overloaded PEs of sample-logs/imbalance")
{
    const auto run = (std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance").string();
    const auto clustered = runCliInProcess({ "groups", run, "--by", "cluster" });
    INFO(clustered.err);
    REQUIRE(clustered.exitCode == 0);
    std::map<std::string, std::string> members;
    for (const auto& r : rows(clustered.out))
        members[r.group] = r.first + "-" + r.last + "/" + r.members;
    REQUIRE(members.size() == 2);
    CHECK(members["cluster 0"] == "0-11/10");
    CHECK(members["cluster 1"] == "3-9/2");

    const auto fixed = runCliInProcess({ "groups", run, "--by", "cluster", "--k", "1" });
    REQUIRE(fixed.exitCode == 0);
    for (const auto& r : rows(fixed.out))
        CHECK(r.members == "12");
}

TEST_CASE("cli groups by a user's named lists, read from a file")
{
    const auto dir = std::filesystem::temp_directory_path() / "parallax-groups-lists-test";
    std::filesystem::create_directories(dir);
    const auto file = dir / "lists.txt";
    {
        std::ofstream out(file);
        out << "# hot and cold PEs\nhot: 3,9\ncold: 0-2,4-8\n";
    }
    const auto run = (std::filesystem::path(PARALLAX_SAMPLE_DIR) / "imbalance").string();
    const auto listed = runCliInProcess({ "groups", run, "--by", "list:" + file.string() });
    INFO(listed.err);
    REQUIRE(listed.exitCode == 0);
    std::map<std::string, std::string> members;
    for (const auto& r : rows(listed.out))
        members[r.group] = r.first + "-" + r.last + "/" + r.members;
    CHECK(members["hot"] == "3-9/2");
    CHECK(members["cold"] == "0-8/8");

    std::ofstream(file) << "hot 3,9\n"; // no ':'
    const auto bad = runCliInProcess({ "groups", run, "--by", "list:" + file.string() });
    CHECK(bad.exitCode == 2);
    CHECK(bad.errLines().size() == 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("cli groups --help explains the columns and the percent")
{
    const auto run = runCliInProcess({ "groups", "--help" });
    CHECK(run.exitCode == 0);
    CHECK(run.out.find(kHeader) != std::string::npos);
    CHECK(run.out.find("percent = % of the range per member") != std::string::npos);
    const auto all = runCliInProcess({ "--help" });
    CHECK(all.out.find("groups RUN --by") != std::string::npos);
}

} // namespace parallax_test_cli_groups_test
