// Regression tests for the hostile inputs of the review (PARALLAX_SHARED_DIR/robustness-cases):
// each case gives a clear message, bounded memory and time, and the rest of the run usable.
// The run directories are read in place; the two generated cases are re-created here in C++
// (smaller, with the same shape).

#include "core/analysis/csv_export.h"
#include "io/run_loader.h"
#include "io/store_estimate.h"
#include "support/allocation_tracker.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {

std::uint64_t count(const core::Trace& trace, Issue issue)
{
    return std::as_const(trace.report).count(issue);
}

fs::path pingpongSts()
{
    return realLog("pipit-pingpong-v11") / "pingpong.prj.sts";
}

} // namespace

TEST_CASE("user-event brackets closed in reverse order are all matched, without a quadratic scan")
{
    // quadratic-brackets/gen.py: PE 0 opens N brackets (type 98) and closes them in reverse
    // order (99). With a linear search over the open brackets this size costs minutes of CPU.
    constexpr int n = 200'000;
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    std::string log = "PROJECTIONS-RECORD\n6 0\n";
    log.reserve(static_cast<std::size_t>(n) * 40);
    for (int i = 0; i < n; ++i)
        log += "98 " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i)
            + " 0 0\n";
    for (int i = n - 1; i >= 0; --i)
        log += "99 " + std::to_string(i) + " " + std::to_string(2 * n + i) + " " + std::to_string(i)
            + " 0 0\n";
    log += "7 " + std::to_string(4 * n) + "\n";
    writeFile(dir / "r.0.log", log);

    const auto trace = loadOk(dir.path());
    REQUIRE(trace->pes.size() >= 1);
    const auto& brackets = trace->pes[0].userBrackets;
    REQUIRE(brackets.size() == static_cast<std::size_t>(n));
    CHECK(count(*trace, Issue::UnmatchedUserEventPair) == 0);
    for (std::size_t k = 0; k < brackets.size(); k += 997) {
        const auto& b = brackets[k];
        CHECK(b.begin == b.id + 1);
        CHECK(b.end == 2 * n + b.id);
    }
}

TEST_CASE("brackets with the same id pair each END with the earliest open BEGIN")
{
    TempDir dir;
    fs::copy_file(pingpongSts(), dir / "r.sts");
    writeFile(dir / "r.0.log",
        "PROJECTIONS-RECORD\n6 0\n"
        "98 5 10 0 0 0\n"
        "98 5 20 0 0 0\n"
        "99 5 15 0 0 0\n" // closes the one begun at 10 (the one at 20 has not begun yet)
        "99 5 30 0 0 0\n"
        "99 5 40 0 0 0\n" // nothing left open: unmatched
        "7 50\n");
    const auto trace = loadOk(dir.path());
    const auto& brackets = trace->pes.at(0).userBrackets;
    REQUIRE(brackets.size() == 2);
    CHECK(brackets[0].begin == 10);
    CHECK(brackets[0].end == 15);
    CHECK(brackets[1].begin == 20);
    CHECK(brackets[1].end == 30);
    CHECK(count(*trace, Issue::UnmatchedUserEventPair) == 1);
}
