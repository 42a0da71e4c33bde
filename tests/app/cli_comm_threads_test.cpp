// The CLI's defaults on an SMP run: comm threads kept apart from averages and rankings, and
// --include-comm-threads to count them (gen-leanmd-smp: workers 0-3, comm threads 4 and 5).

#include "cli_support.h"

#include <cctype>
#include <map>
#include <set>
#include <string>

using parallax::test::realLog;
using parallax::test::runCliInProcess;

namespace {

// pe -> idle % from `usage` CSV rows "pe,activity,activity_name,percent".
std::map<std::string, double> idleByPe(const std::string& csv)
{
    std::map<std::string, double> idle;
    for (const auto& line : parallax::test::splitLines(csv)) {
        const auto a = line.find(',');
        const auto b = line.find(',', a + 1);
        if (a == std::string::npos || b == std::string::npos)
            continue;
        if (line.substr(a + 1, b - a - 1) == "idle")
            idle[line.substr(0, a)] = std::stod(line.substr(line.rfind(',') + 1));
    }
    return idle;
}

} // namespace

TEST_CASE("cli usage averages worker PEs only unless --include-comm-threads")
{
    const auto run = realLog("gen-leanmd-smp").string();
    const auto workers = runCliInProcess({ "usage", run });
    REQUIRE(workers.exitCode == 0);
    const auto idle = idleByPe(workers.out);
    REQUIRE(idle.count("avg") == 1);
    double sum = 0;
    for (const char* pe : { "0", "1", "2", "3" }) {
        REQUIRE(idle.count(pe) == 1);
        sum += idle.at(pe);
    }
    CHECK(idle.count("4") == 0); // comm threads have no idle records
    CHECK(idle.at("avg") == Approx(sum / 4.0).epsilon(1e-5));

    const auto all = runCliInProcess({ "usage", run, "--include-comm-threads" });
    REQUIRE(all.exitCode == 0);
    const auto allIdle = idleByPe(all.out);
    CHECK(allIdle.at("avg") == Approx(sum / 6.0).epsilon(1e-5));
}

TEST_CASE("cli extrema ranks worker PEs only unless --include-comm-threads")
{
    const auto run = realLog("gen-leanmd-smp").string();
    auto extremes = [](const std::string& csv) {
        std::set<std::string> pes;
        for (const auto& line : parallax::test::splitLines(csv)) {
            const auto a = line.find(',');
            const auto b = line.find(',', a + 1);
            if (a != std::string::npos && b != std::string::npos && line.rfind("rank", 0) != 0
                && std::isdigit(static_cast<unsigned char>(line[0])))
                pes.insert(line.substr(a + 1, b - a - 1));
        }
        return pes;
    };
    const auto workers
        = runCliInProcess({ "extrema", run, "--criterion", "least-idle", "--count", "2" });
    REQUIRE(workers.exitCode == 0);
    const auto ranked = extremes(workers.out);
    CHECK(ranked.size() == 2);
    CHECK(ranked.count("4") == 0);
    CHECK(ranked.count("5") == 0);
    // Included, the comm threads (no idle at all) are the "least idle" PEs.
    const auto all = runCliInProcess(
        { "extrema", run, "--criterion", "least-idle", "--count", "2", "--include-comm-threads" });
    REQUIRE(all.exitCode == 0);
    CHECK(extremes(all.out) == std::set<std::string> { "4", "5" });
}
