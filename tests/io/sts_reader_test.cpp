// readSts: the symbol table's lexical rules (docs/format.md §1.1), records (§1.2), SMP
// arithmetic and the fatal/recoverable split for bad input.

#include "io/sts_reader.h"
#include "support/report_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {

struct Read {
    io::StsResult result;
    core::ImportReport report;
    std::string path;
};

Read readText(const std::string& text, const std::string& name = "run.sts")
{
    TempDir dir;
    Read r;
    r.path = (dir / name).string();
    writeFile(r.path, text);
    r.result = io::readSts(r.path, r.report);
    return r;
}

const char* const kHeader = "PROJECTIONS_ID \n"
                            "VERSION 11.0\n"
                            "TOTAL_PHASES 1\n"
                            "MACHINE \"netlrts-linux-x86_64\"\n";

std::string v11(const std::string& body, const std::string& processors = "PROCESSORS 2\n")
{
    return kHeader + processors + body + "END\n";
}

} // namespace

TEST_CASE("current sts with quoted names run metadata and user events")
{
    const auto r = readText(v11("USERNAME \"alex\"\n"
                                "HOSTNAME \"alex-ThinkPad-X1-Carbon-6th\"\n"
                                "COMMANDLINE \"./hello  +p2   ++ppn 2\"\n"
                                "TIMESTAMP 2022-10-14T05:54:49Z\n"
                                "CHARMVERSION v7.1.0-devel-178-g9c81b497a\n"
                                "TOTAL_CHARES 3\n"
                                "TOTAL_EPS 3\n"
                                "TOTAL_MSGS 1\n"
                                "TOTAL_PSEUDOS 0\n"
                                "TOTAL_EVENTS 3\n"
                                "CHARE 0 \"dummy_thread_chare\" -1\n"
                                "CHARE 1 \"My   Chare\" -1\n"
                                "CHARE 2 \"Hello\" 1\n"
                                "ENTRY CHARE 0 \"dummy_thread_ep\" 0 0\n"
                                "ENTRY CHARE 1 \"compute(int a, double b)\" 1 -1\n"
                                "ENTRY CHARE 2 \"Hello()\" 2 0\n"
                                "MESSAGE 0 96\n"
                                "TOTAL_STATS 1\n"
                                "EVENT 0 Time Step Begin \n"
                                "EVENT 200 For   Bracket Events\n"
                                "EVENT 1 Lone\n"
                                "EVENT 0 Duplicate is ignored\n"
                                "STAT 7 tracing user stat\n"));
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    CHECK(m.version == Approx(11.0));
    CHECK(m.machine == "netlrts-linux-x86_64");
    CHECK(m.processors == 2);
    CHECK(m.userName == "alex");
    CHECK(m.hostName == "alex-ThinkPad-X1-Carbon-6th");
    // Runs of whitespace inside quotes collapse to one space (Java's tokenizer).
    CHECK(m.commandLine == "./hello +p2 ++ppn 2");
    CHECK(m.timestamp == "2022-10-14T05:54:49Z");
    CHECK(m.charmVersion == "v7.1.0-devel-178-g9c81b497a");
    CHECK(m.totalPhases == 1);
    REQUIRE(m.chares.size() == 3);
    CHECK(m.chares[1].name == "My Chare");
    CHECK(m.chares[1].ndims == -1);
    CHECK(m.chares[2].ndims == 1);
    REQUIRE(m.entries.size() == 3);
    CHECK(m.entries[1].name == "compute(int a, double b)");
    CHECK(m.entries[1].chare == 1);
    CHECK(m.entries[1].message == -1);
    CHECK(m.entries[2].message == 0);
    REQUIRE(m.messages.size() == 1);
    CHECK(m.messages[0].size == 96);
    // EVENT names: the rest of the line, single-spaced, without Java's trailing space.
    CHECK(m.userEvents.size() == 3);
    CHECK(m.userEvents.at(0) == "Time Step Begin");
    CHECK(m.userEvents.at(200) == "For Bracket Events");
    CHECK(m.userEvents.at(1) == "Lone");
    CHECK(m.stats.at(7) == "tracing user stat");
    CHECK(r.report.empty());
}

TEST_CASE("old unquoted entry names with spaces are joined up to the closing parenthesis")
{
    const auto r = readText("VERSION 3.0\n"
                            "MACHINE net-linux\n"
                            "PROCESSORS 4\n"
                            "TOTAL_CHARES 27\n"
                            "TOTAL_EPS 14\n"
                            "CHARE 8 CkLocMgr\n"
                            "CHARE 26 Main\n"
                            "ENTRY CHARE 13 CkLocMgr(const CkGroupID &map, const CkGroupID &lbdb, "
                            "int numInitial) 8 6\n"
                            "ENTRY CHARE 12 done() 26 -1\n"
                            "END\n");
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    CHECK(m.machine == "net-linux");
    REQUIRE(m.entries.size() == 14);
    CHECK(m.entries[13].name
        == "CkLocMgr(const CkGroupID &map, const CkGroupID &lbdb, int numInitial)");
    CHECK(m.entries[13].chare == 8);
    CHECK(m.entries[13].message == 6);
    CHECK(m.entries[12].name == "done()");
    // Before 9.0 the CHARE line has no ndims.
    CHECK(m.chares[26].name == "Main");
    CHECK(m.chares[26].ndims == 0);
    CHECK(m.chareNameOfEntry(13) == "CkLocMgr");
}

TEST_CASE("a name with a missing closing quote is empty as in Java and reported")
{
    const auto r = readText(v11("TOTAL_CHARES 2\n"
                                "TOTAL_EPS 2\n"
                                "CHARE 0 \"Main\" -1\n"
                                "CHARE 1 \"Broken name -1\n"
                                "ENTRY CHARE 0 \"run()\" 0 -1\n"
                                "ENTRY CHARE 1 \"unterminated(int x) 1 -1\n"));
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    REQUIRE(m.chares.size() == 2);
    CHECK(m.chares[1].name.empty());
    REQUIRE(m.entries.size() == 2);
    CHECK(m.entries[1].name.empty());
    CHECK(m.entries[0].name == "run()");
    // The entry line lost its chare/message ids to the runaway quote.
    CHECK(std::as_const(r.report).count(Issue::StsProblem) >= 1);
}

TEST_CASE("SMPMODE with comm threads counts one comm-thread pseudo-PE per node")
{
    const auto r = readText(v11("SMPMODE 2 2\n", "PROCESSORS 6\n"));
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    CHECK(m.smp);
    CHECK(m.nodeSize == 2);
    CHECK(m.numNodes == 2);
    CHECK(m.commThreadsPerNode == 1);
    CHECK(m.workerPes() == 4);
    CHECK(m.isCommThread(4));
    CHECK(m.isCommThread(5));
    CHECK(m.nodeOf(5) == 1);
    CHECK(m.nodeOf(2) == 1);
    CHECK(r.report.empty());
}

TEST_CASE("SMPMODE without comm threads has worker PEs only")
{
    const auto r = readText(v11("SMPMODE 2 2\n", "PROCESSORS 4\n"));
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    CHECK(m.smp);
    CHECK(m.commThreadsPerNode == 0);
    CHECK_FALSE(m.isCommThread(3));
    CHECK(m.nodeOf(3) == 1);
}

TEST_CASE("SMPMODE 1 4 of a non-SMP build keeps every PE its own node")
{
    const auto r = readText(v11("SMPMODE 1 4\n", "PROCESSORS 4\n"));
    REQUIRE(r.result.ok);
    const auto& m = r.result.metadata;
    CHECK(m.commThreadsPerNode == 0);
    CHECK(m.workerPes() == 4);
    for (core::PeId pe = 0; pe < 4; ++pe) {
        CHECK(m.nodeOf(pe) == pe);
        CHECK_FALSE(m.isCommThread(pe));
    }
    CHECK(r.report.empty());
}

TEST_CASE("no SMPMODE means one PE per node")
{
    const auto r = readText(v11("", "PROCESSORS 3\n"));
    REQUIRE(r.result.ok);
    CHECK_FALSE(r.result.metadata.smp);
    CHECK(r.result.metadata.numNodes == 3);
    CHECK(r.result.metadata.nodeOf(2) == 2);
}

TEST_CASE("SMPMODE describing more PEs than PROCESSORS is a warning and ignored")
{
    const auto r = readText(v11("SMPMODE 2 2\n", "PROCESSORS 2\n"));
    REQUIRE(r.result.ok);
    CHECK_FALSE(r.result.metadata.smp);
    CHECK(r.result.metadata.nodeOf(1) == 1);
    CHECK(std::as_const(r.report).count(Issue::StsProblem) == 1);
}

TEST_CASE("PROCESSORS not matching whole comm threads per node is a warning")
{
    const auto r = readText(v11("SMPMODE 2 2\n", "PROCESSORS 5\n"));
    REQUIRE(r.result.ok);
    CHECK(std::as_const(r.report).count(Issue::StsProblem) == 1);
}

TEST_CASE("VERSION newer than 11.0 is fatal with the file line and version in the message")
{
    const auto r = readText("PROJECTIONS_ID \nVERSION 12.0\nPROCESSORS 2\nEND\n", "future.sts");
    CHECK_FALSE(r.result.ok);
    CHECK(r.result.error.find(r.path + ":2:") != std::string::npos);
    CHECK(r.result.error.find("12.0") != std::string::npos);
}

TEST_CASE("VERSION that is not a number is fatal")
{
    const auto r = readText("VERSION eleven\nPROCESSORS 2\nEND\n");
    CHECK_FALSE(r.result.ok);
    CHECK(r.result.error.find(r.path + ":1:") != std::string::npos);
}

TEST_CASE("an sts without VERSION reads as version 0 like a sum.sts")
{
    const auto r = readText("MACHINE \"netlrts-linux-x86_64\"\nPROCESSORS 6\nSMPMODE 2 2\n"
                            "TOTAL_CHARES 1\nTOTAL_EPS 1\nCHARE 0 \"Main\" -1\n"
                            "ENTRY CHARE 0 \"run()\" 0 -1\nEND\n",
        "feat.sum.sts");
    REQUIRE(r.result.ok);
    CHECK(r.result.metadata.version == Approx(0.0));
    // Without VERSION >= 9.0 the ndims field is not read.
    CHECK(r.result.metadata.chares[0].ndims == 0);
}

TEST_CASE("unknown keywords are skipped with a warning naming the line")
{
    const auto r = readText(v11("FROBNICATE 1 2 3\nTOTAL_FUNCTIONS 0 \n"));
    REQUIRE(r.result.ok);
    CHECK(std::as_const(r.report).count(Issue::StsProblem) == 1);
    const auto example = findExample(r.report, Issue::StsProblem);
    REQUIRE(example);
    CHECK(example->file == "run.sts");
    CHECK(example->line == 6);
    CHECK(example->message.find("FROBNICATE") != std::string::npos);
}

TEST_CASE("TOTAL_EPS and TOTAL_CHARES disagreeing with the lines are warnings and the lines win")
{
    const auto r = readText(v11("TOTAL_CHARES 5\n"
                                "TOTAL_EPS 10\n"
                                "CHARE 0 \"Main\" -1\n"
                                "CHARE 1 \"Worker\" -1\n"
                                "ENTRY CHARE 0 \"a()\" 0 -1\n"
                                "ENTRY CHARE 1 \"b()\" 1 -1\n"
                                "ENTRY CHARE 2 \"c()\" 1 -1\n"));
    REQUIRE(r.result.ok);
    CHECK(r.result.metadata.entries.size() == 3);
    CHECK(r.result.metadata.chares.size() == 2);
    CHECK(std::as_const(r.report).count(Issue::StsProblem) == 2);
    bool epsMentioned = false;
    for (const auto& e : r.report.examples())
        epsMentioned = epsMentioned || e.message.find("TOTAL_EPS") != std::string::npos;
    CHECK(epsMentioned);
}

TEST_CASE("blank lines and CRLF line ends are accepted")
{
    const auto r = readText("VERSION 11.0\r\n\r\nPROCESSORS 2\r\n   \r\nTOTAL_EPS 1\r\n\t\r\n"
                            "CHARE 0 \"Main\" -1\r\nENTRY CHARE 0 \"run()\" 0 -1\r\nEND\r\n");
    REQUIRE(r.result.ok);
    CHECK(r.result.metadata.processors == 2);
    REQUIRE(r.result.metadata.entries.size() == 1);
    CHECK(r.result.metadata.entries[0].name == "run()");
    CHECK(r.report.empty());
}

TEST_CASE("reading stops at END")
{
    const auto r = readText(
        v11("TOTAL_EPS 1\nENTRY CHARE 0 \"run()\" 0 -1\n") + "ENTRY CHARE 1 \"late()\" 0 -1\n");
    REQUIRE(r.result.ok);
    CHECK(r.result.metadata.entries.size() == 1);
}

TEST_CASE("PROCESSORS 0 or absurdly many is fatal and names the file and line")
{
    for (const char* processors : { "PROCESSORS 0\n", "PROCESSORS -4\n", "PROCESSORS 99999999999\n",
             "PROCESSORS 2000000000\n" }) {
        const auto r = readText(v11("", processors));
        INFO(processors);
        CHECK_FALSE(r.result.ok);
        CHECK(r.result.error.find(r.path + ":5:") != std::string::npos);
    }
}

TEST_CASE("an sts without PROCESSORS is fatal")
{
    const auto r = readText("VERSION 11.0\nTOTAL_EPS 0\nEND\n");
    CHECK_FALSE(r.result.ok);
    CHECK(r.result.error.find(r.path) != std::string::npos);
    CHECK(r.result.error.find("PROCESSORS") != std::string::npos);
}

TEST_CASE("an empty file is not a symbol table")
{
    const auto r = readText("");
    CHECK_FALSE(r.result.ok);
    CHECK(r.result.error.find(r.path) != std::string::npos);
    CHECK(r.result.error.find("not a Projections .sts") != std::string::npos);
}

TEST_CASE("a file that does not exist is fatal and named")
{
    core::ImportReport report;
    const auto result = io::readSts("/nonexistent/dir/run.sts", report);
    CHECK_FALSE(result.ok);
    CHECK(result.error.find("/nonexistent/dir/run.sts") != std::string::npos);
}

TEST_CASE("table ids out of range are skipped with a warning instead of allocating")
{
    const auto r = readText(v11("TOTAL_EPS 1\n"
                                "ENTRY CHARE 0 \"run()\" 0 -1\n"
                                "ENTRY CHARE 2000000000 \"huge()\" 0 -1\n"
                                "CHARE 70000 \"Huge\" -1\n"
                                "MESSAGE 99999999 8\n"));
    REQUIRE(r.result.ok);
    CHECK(r.result.metadata.entries.size() == 1);
    CHECK(r.result.metadata.chares.empty());
    CHECK(r.result.metadata.messages.empty());
    CHECK(std::as_const(r.report).count(Issue::StsProblem) == 3);
}

TEST_CASE("the real symbol tables read with the documented counts")
{
    struct Case {
        const char* path;
        double version;
        core::PeId processors;
        std::size_t entries;
    };
    for (const auto& c : { Case { "projections-hello-v3/hello.sts", 3.0, 4, 61 },
             Case { "charm-synth-v7/main.sts", 7.0, 4, 165 },
             Case { "pipit-hello1darray-v11/hello.sts", 11.0, 2, 189 },
             Case { "pipit-pingpong-v11/pingpong.prj.sts", 11.0, 2, 228 },
             Case { "gen-feat-smp/feat.sts", 11.0, 6, 215 },
             Case { "gen-feat-smp/feat.sum.sts", 0.0, 6, 215 },
             Case { "charmthesis-leanmd-sts-only/leanmd.sts", 11.0, 4, 273 } }) {
        core::ImportReport report;
        const auto path = (sharedDir() / "real-logs" / c.path).string();
        INFO(path);
        const auto result = io::readSts(path, report);
        REQUIRE(result.ok);
        CHECK(result.metadata.version == Approx(c.version));
        CHECK(result.metadata.processors == c.processors);
        CHECK(result.metadata.entries.size() == c.entries);
        CHECK(std::as_const(report).count(Issue::StsProblem) == 0);
    }
}

TEST_CASE("the real leanmd sts has 3-D Cell and 6-D Compute arrays and SDAG serial entries")
{
    core::ImportReport report;
    const auto result
        = io::readSts((realLog("charmthesis-leanmd-sts-only") / "leanmd.sts").string(), report);
    REQUIRE(result.ok);
    const auto& m = result.metadata;
    REQUIRE(m.chares.size() > 46);
    CHECK(m.chares[45].name == "Cell");
    CHECK(m.chares[45].ndims == 3);
    CHECK(m.chares[46].name == "Compute");
    CHECK(m.chares[46].ndims == 6);
    CHECK(m.entryName(163) == "Cell_serial_0");
    CHECK(m.objectIdLength(163) == 3);
    CHECK(m.entryName(174) == "Compute_serial_0");
    CHECK(m.objectIdLength(174) == 6);
    CHECK(m.entryName(31) == "CkLocMgr(const CkArrayOptions &opts)");
    CHECK(m.objectIdLength(31) == 4);
    // SMPMODE 1 4 on a non-SMP build: four nodes, no comm threads.
    CHECK(m.commThreadsPerNode == 0);
    CHECK(m.nodeOf(3) == 3);
}
