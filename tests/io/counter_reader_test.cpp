// The old hardware-counter tracemode's files (NAME.count.sts, NAME.<pe>.count): the real NAMD
// runs of projections-namd2-counters, and damaged or incomplete copies made at test time.

#include "io/counter_reader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace parallax;
using parallax::test::realLog;
using parallax::test::TempDir;

namespace {

const char* const kSts = "MACHINE test\nPROCESSORS 2\nTOTAL_CHARES 1\nTOTAL_EPS 2\nTOTAL_MSGS 0\n"
                         "TOTAL_PSEUDOS 0\nTOTAL_EVENTS 0\nCHARE 0 Main\nENTRY CHARE 0 go 0 0\n"
                         "ENTRY CHARE 1 step 0 0\nEND\n";

// A valid file for 2 entries and one counter CYC: entry 0 called 4 times (mean 10, 20 µs).
std::string countFile(int pe, const std::string& values = "4 0")
{
    return "ver:1.0 " + std::to_string(pe) + "/2 ep:2 counters:1\n[CYC {Cycles}]\n[CYC num_called] "
        + values + "\n[CYC avg_count] 10.5 0\n[CYC total_time(us)] 20 0\n";
}

void writeRun(const TempDir& dir, const std::string& pe0, const std::string& pe1)
{
    test::writeFile(dir / "job.count.sts", kSts);
    test::writeFile(dir / "job.0.count", pe0);
    if (!pe1.empty())
        test::writeFile(dir / "job.1.count", pe1);
}

} // namespace

TEST_CASE("the NAMD counter files read as per-entry totals per PE", "[io][counters]")
{
    const auto dir = realLog("projections-namd2-counters") / "4";
    REQUIRE(io::isCounterRunPath((dir / "namd2.phase0.count.sts").string()));
    REQUIRE(io::isCounterRunPath((dir / "namd2.phase0.2.count").string()));
    const auto result = io::readCounterRun((dir / "namd2.phase0.2.count").string());
    INFO(result.error);
    REQUIRE(result.ok);
    const auto& run = result.run;
    CHECK(run.name == "namd2.phase0");
    CHECK(run.warnings.empty());
    CHECK(run.metadata.processors == 4);
    const auto& t = run.table;
    CHECK(t.entryCount == 158);
    CHECK(t.pes == std::vector<core::PeId> { 0, 1, 2, 3 });
    REQUIRE(t.names == std::vector<std::string> { "INSTR", "GR_FLOPS" });
    CHECK(t.descriptions[0] == "Issued instructions");
    CHECK(t.descriptions[1] == "Graduated floating point instructions");
    // PE 0, entry 0: 405 calls of 946062.560494 instructions on average, 2396115.999669 µs.
    const auto& cell = t.at(0, 0, 0);
    CHECK(cell.calls == 405.0);
    CHECK(std::abs(cell.total - 383155337.0) < 0.01);
    CHECK(std::abs(cell.timeUs - 2396115.999669) < 1e-6);
    CHECK(std::abs(t.at(1, 0, 0).total - 39904725.0) < 0.01);
    CHECK(t.at(0, 1, 0).calls == 395.0); // PE 1's file
}

TEST_CASE("a directory of several counter runs or of none is a clear error", "[io][counters]")
{
    for (const char* sub : { "4", "8" }) {
        const auto dir = realLog("projections-namd2-counters") / sub;
        CHECK(io::isCounterRunPath(dir.string()));
        const auto result = io::readCounterRun(dir.string());
        CHECK_FALSE(result.ok);
        CHECK(result.error.find("namd2.phase0.count.sts namd2.phase1.count.sts")
            != std::string::npos);
    }
    CHECK_FALSE(io::isCounterRunPath(realLog("pipit-hello1darray-v11").string()));
    CHECK_FALSE(io::isCounterRunPath(realLog("pipit-hello1darray-v11").string() + "/hello.sts"));
    const auto none = io::readCounterRun(realLog("pipit-hello1darray-v11").string());
    CHECK_FALSE(none.ok);
    CHECK(none.error.find("no counter run") != std::string::npos);
}

TEST_CASE(
    "damaged counter files are errors naming the line, a missing PE a warning", "[io][counters]")
{
    TempDir dir;
    SECTION("a good run")
    {
        writeRun(dir, countFile(0), countFile(1, "1 2"));
        const auto r = io::readCounterRun(dir.path().string());
        INFO(r.error);
        REQUIRE(r.ok);
        CHECK(r.run.table.at(0, 0, 0).total == 42.0);
        CHECK(r.run.table.at(0, 1, 1).calls == 2.0);
    }
    SECTION("a PE without its file")
    {
        writeRun(dir, countFile(0), "");
        const auto r = io::readCounterRun((dir / "job.count.sts").string());
        REQUIRE(r.ok);
        CHECK(r.run.table.pes == std::vector<core::PeId> { 0 });
        REQUIRE(r.run.warnings.size() == 1);
        CHECK(r.run.warnings[0].find("1 of 2 PEs") != std::string::npos);
    }
    struct Case {
        const char* what;
        std::string content;
        const char* expected;
    };
    const std::vector<Case> cases {
        { "too few values", countFile(0, "4"), "job.0.count:3: expected 2 values, found 1" },
        { "not a number", countFile(0, "4 x"), "job.0.count:3: 'x' is not a count" },
        { "a negative count", countFile(0, "4 -1"), "'-1' is not a count" },
        { "no header", "[CYC {Cycles}]\n", "job.0.count:1: expected 'ver:1.0" },
        { "a huge entry count", "ver:1.0 0/2 ep:99999999 counters:1\n", "job.0.count:1" },
        { "an unknown row", countFile(0) + "[CYC median] 1 2\n", "unknown row [CYC median]" },
        { "values before the counter", "ver:1.0 0/2 ep:2 counters:1\n[CYC num_called] 1 2\n",
            "before its [CYC {...}] line" },
        { "a missing row", "ver:1.0 0/2 ep:2 counters:1\n[CYC {Cycles}]\n[CYC num_called] 1 2\n",
            "lacks num_called, avg_count or total_time" },
        { "a wrong counter count", "ver:1.0 0/2 ep:2 counters:3\n",
            "the header says 3 counters, the file has 0" },
        { "the wrong number of entry methods", "ver:1.0 0/2 ep:3 counters:0\n",
            "has 3 entry methods, the symbol table 2" },
    };
    for (const auto& c : cases) {
        INFO(c.what);
        writeRun(dir, c.content, countFile(1));
        const auto r = io::readCounterRun(dir.path().string());
        INFO(r.error);
        CHECK_FALSE(r.ok);
        CHECK(r.error.find(c.expected) != std::string::npos);
    }
    const auto noSts = io::readCounterRun((dir / "other.0.count").string());
    CHECK_FALSE(noSts.ok);
    CHECK(noSts.error.find("other.count.sts") != std::string::npos);
}
