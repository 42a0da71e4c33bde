// parallax-cli critical-path and idle-blame: CSV on the hand-made runs (numbers in their
// READMEs), the modes, and clear errors.

#include "app/cli_support.h"

#include <catch2/catch.hpp>

using namespace parallax::test;

namespace {

std::string whyRunPath(const char* name)
{
    return (dataDir() / "runs" / name).string();
}

} // namespace

TEST_CASE("cli critical-path prints the chain across three PEs", "[cli][why]")
{
    const auto run = runCliInProcess({ "critical-path", whyRunPath("why-chain") });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.outLines()
        == std::vector<std::string> { "step,pe,kind,entry,begin_us,end_us",
            "0,0,exec,Main(CkArgMsg* m),1000,1050", "1,0,message,step(int k),1050,1200",
            "2,1,exec,step(int k),1200,1290", "3,1,message,step(int k),1290,1350",
            "4,2,exec,step(int k),1350,1450", "5,2,message,step(int k),1450,1500",
            "6,0,exec,step(int k),1500,1600", "7,0,wait,,1600,1700",
            "8,0,exec,step(int k),1700,1750" });
    const auto summary
        = runCliInProcess({ "critical-path", whyRunPath("why-serial"), "--summary" });
    REQUIRE(summary.exitCode == 0);
    CHECK(summary.outLines()
        == std::vector<std::string> { "range_us: 1000:2000", "steps: 6", "begin_us: 1000",
            "end_us: 1370", "length_us: 370", "exec_us: 350", "message_us: 20", "wait_us: 0",
            "pes: 0,3", "starts_because: the range begins", "unresolved_links: 0" });
    // Per entry method (hand-checked from the steps above): step ran 90 + 100 + 100 + 50 us of
    // the 750 us path, its messages flew 150 + 60 + 50 us; Main ran 50 us.
    const auto byEntry
        = runCliInProcess({ "critical-path", whyRunPath("why-chain"), "--by-entry" });
    REQUIRE(byEntry.exitCode == 0);
    CHECK(byEntry.outLines()
        == std::vector<std::string> { "entry,name,exec_us,message_us,executions,share_pct",
            "2,step(int k),340,260,4,45.33", "1,Main(CkArgMsg* m),50,0,1,6.67" });
    const auto both
        = runCliInProcess({ "critical-path", whyRunPath("why-chain"), "--by-entry", "--summary" });
    CHECK(both.exitCode == 2);
    CHECK(both.err.find("not both") != std::string::npos);
    const auto cut = runCliInProcess(
        { "critical-path", whyRunPath("why-chain"), "--range", "1250:2000", "--pes", "0-2" });
    REQUIRE(cut.exitCode == 0);
    CHECK(cut.outLines().at(1) == "0,1,exec,step(int k),1250,1290");
}

TEST_CASE("cli idle-blame: the blame matrix, per entry, detail and idle caused", "[cli][why]")
{
    const auto serial = whyRunPath("why-serial");
    const auto byPe = runCliInProcess({ "idle-blame", serial });
    INFO(byPe.err);
    REQUIRE(byPe.exitCode == 0);
    CHECK(byPe.outLines()
        == std::vector<std::string> { "producer_pe,producer_entry,consumer_pe,idle_us,count",
            "0,*,3,320,1", "0,*,2,220,1", "0,*,1,120,1" });
    const auto byEntry = runCliInProcess({ "idle-blame", serial, "--by", "entry" });
    REQUIRE(byEntry.exitCode == 0);
    CHECK(byEntry.outLines()
        == std::vector<std::string> {
            "producer_pe,producer_entry,consumer_pe,idle_us,count", "*,produce(int k),*,660,3" });
    const auto detail
        = runCliInProcess({ "idle-blame", whyRunPath("why-chain"), "--by", "detail" });
    REQUIRE(detail.exitCode == 0);
    CHECK(detail.outLines()
        == std::vector<std::string> { "producer_pe,producer_entry,consumer_pe,idle_us,count,"
                                      "producer_late,producer_late_pe,producer_late_entry",
            "2,step(int k),0,400,1,message,1,step(int k)", "0,Main(CkArgMsg* m),1,200,1,none,,",
            "0,Main(CkArgMsg* m),2,100,1,none,,",
            "1,step(int k),2,100,1,message,0,Main(CkArgMsg* m)" });
    const auto caused = runCliInProcess({ "idle-blame", whyRunPath("why-chain"), "--caused" });
    REQUIRE(caused.exitCode == 0);
    CHECK(caused.outLines()
        == std::vector<std::string> { "kind,producer,name,idle_us,count,share_pct",
            "pe,2,,400,1,16.88", "pe,0,,300,2,12.66", "pe,1,,100,1,4.22",
            "entry,2,step(int k),500,2,21.10", "entry,1,Main(CkArgMsg* m),300,2,12.66",
            "unblamed,unresolved-link,,100,1,4.22", "unblamed,nothing-after,,1470,4,62.03",
            "total,idle,,2370,9,100.00" });
}

TEST_CASE("cli critical-path and idle-blame: empty ranges and bad input", "[cli][why]")
{
    const auto chain = whyRunPath("why-chain");
    // A range without executions: the header only, and a note.
    const auto empty = runCliInProcess({ "critical-path", chain, "--range", "1760:1790" });
    CHECK(empty.exitCode == 0);
    CHECK(empty.outLines() == std::vector<std::string> { "step,pe,kind,entry,begin_us,end_us" });
    CHECK(empty.errLines().size() == 1);
    CHECK(empty.err.find("no execution") != std::string::npos);
    const auto noIdle
        = runCliInProcess({ "idle-blame", chain, "--range", "1200:1250", "--pes", "1" });
    CHECK(noIdle.exitCode == 0);
    CHECK(noIdle.outLines().size() == 1);

    requireUsageError({ "critical-path", chain, "--pes", "7" }, "PE 7");
    requireUsageError({ "critical-path", chain, "--range", "2000:1000" });
    requireUsageError({ "critical-path", chain, "--range", "abc" }, "--range");
    requireUsageError({ "critical-path", chain, "--entries", "1" }, "--entries");
    requireUsageError({ "idle-blame", chain, "--by", "chare" }, "--by");
    requireUsageError({ "idle-blame", chain, "--by", "pe", "--caused" }, "not both");
    requireUsageError({ "idle-blame", chain, "--pes", "0-9" }, "PE");
    const auto missing = runCliInProcess({ "idle-blame", "/nonexistent/run" });
    CHECK(missing.exitCode == 1);
    const auto help = runCliInProcess({ "idle-blame", "--help" });
    CHECK(help.exitCode == 0);
    CHECK(help.out.find("--by entry") != std::string::npos);
    CHECK(help.out.find("--caused") != std::string::npos);
}

TEST_CASE("cli critical-path and idle-blame on a real SMP run", "[cli][why]")
{
    const auto run = realLog("gen-leanmd-smp").string();
    const auto summary = runCliInProcess({ "critical-path", run, "--summary" });
    INFO(summary.err);
    REQUIRE(summary.exitCode == 0);
    CHECK(summary.outLines().at(0) == "range_us: 59722:7940491");
    const auto caused = runCliInProcess({ "idle-blame", run, "--caused" });
    REQUIRE(caused.exitCode == 0);
    const auto lines = caused.outLines();
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().rfind("total,idle,,", 0) == 0);
}

TEST_CASE("cli iterations: by hand, found from a user event, and clear errors", "[cli][why]")
{
    const auto chain = whyRunPath("why-chain");
    const auto byHand = runCliInProcess({ "iterations", chain, "--at", "1000us,1.4ms" });
    INFO(byHand.err);
    REQUIRE(byHand.exitCode == 0);
    CHECK(byHand.outLines()
        == std::vector<std::string> {
            "iteration,begin_us,end_us,duration_us,slowest_pe,slowest_busy_us,median_busy_us",
            "0,1000,1400,400,2,200,100", "1,1400,2000,600,0,150,60" });
    const auto none = runCliInProcess({ "iterations", chain });
    REQUIRE(none.exitCode == 0);
    CHECK(none.outLines().size() == 1);
    CHECK(none.err.find("nothing in the range marks iterations") != std::string::npos);

    const auto found = runCliInProcess({ "iterations", sampleRun("imbalance").string() });
    REQUIRE(found.exitCode == 0);
    CHECK(found.outLines().size() == 24);
    CHECK(found.err.find("from user event 40 (Iteration start)") != std::string::npos);

    for (const std::vector<std::string>& bad : { std::vector<std::string> { "--every", "0" },
             { "--every", "1ms", "--entry", "3" }, { "--event", "99" }, { "--at", "1ms,zz" },
             { "--entry", "999" }, { "--entries", "2" } }) {
        std::vector<std::string> args { "iterations", chain };
        args.insert(args.end(), bad.begin(), bad.end());
        const auto run = runCliInProcess(args);
        INFO(bad.front() << " -> " << run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("iterations") != std::string::npos);
    }
}

TEST_CASE("cli model: fits, groups, points and summary, bad options refused", "[cli][why]")
{
    const auto chain = whyRunPath("why-chain");
    const auto groups = runCliInProcess({ "model", chain, "--entry", "2", "--table", "groups" });
    INFO(groups.err);
    REQUIRE(groups.exitCode == 0);
    CHECK(groups.outLines()
        == std::vector<std::string> {
            "x,x_min,x_max,count,mean_us,sd_us,min_us,max_us", "80,80,80,5,102,31.8748,50,150" });
    const auto fits = runCliInProcess({ "model", chain, "--entry", "2" });
    REQUIRE(fits.exitCode == 0);
    CHECK(fits.outLines() == std::vector<std::string> { "fit,formula,a,b,c,r2,points" });
    const auto points
        = runCliInProcess({ "model", chain, "--entry", "2", "--table", "points", "--pes", "1" });
    REQUIRE(points.exitCode == 0);
    CHECK(points.outLines()
        == std::vector<std::string> { "pe,begin_us,x,duration_us", "1,1200,80,100" });
    const auto summary = runCliInProcess({ "model", sampleRun("imbalance").string(), "--entry",
        "13", "--x", "iteration", "--table", "summary" });
    REQUIRE(summary.exitCode == 0);
    const auto lines = summary.outLines();
    CHECK(std::find(lines.begin(), lines.end(), "points: 2208") != lines.end());
    CHECK(std::find(lines.begin(), lines.end(), "groups: 23") != lines.end());
    CHECK(std::find(lines.begin(), lines.end(), "multimodal: yes") != lines.end());
    const auto never = runCliInProcess({ "model", chain, "--entry", "0" });
    CHECK(never.exitCode == 0);
    CHECK(never.err.find("no execution of entry 0") != std::string::npos);

    for (const std::vector<std::string>& bad : { std::vector<std::string> {}, { "--entry", "99" },
             { "--entry", "2", "--x", "size" }, { "--entry", "2", "--table", "all" } }) {
        std::vector<std::string> args { "model", chain };
        args.insert(args.end(), bad.begin(), bad.end());
        const auto run = runCliInProcess(args);
        INFO(run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("model") != std::string::npos);
    }
}

TEST_CASE("cli compare --by iteration pairs the runs' iterations by index", "[cli][why]")
{
    const auto imbalance = sampleRun("imbalance").string();
    // A run against itself: every iteration the same, ratio 1 (numbers as `iterations` prints).
    const auto same = runCliInProcess({ "compare", imbalance, imbalance, "--by", "iteration" });
    INFO(same.err);
    REQUIRE(same.exitCode == 0);
    auto lines = same.outLines();
    REQUIRE(lines.size() == 24);
    CHECK(lines[0] == "iteration,duration_a_us,duration_b_us,ratio,slowest_pe_a,slowest_pe_b");
    CHECK(lines[1] == "0,5490,5490,1.0000,9,9");
    CHECK(lines[3] == "2,5727,5727,1.0000,3,3");
    CHECK(same.err.find("23 iterations from user event 40") != std::string::npos);
    CHECK(same.err.find("note:") == std::string::npos);

    // Two ranges of one run: B starts at the step that begins at 65,905 us (A's iteration 11),
    // so B has 12 iterations to A's 23; the count differs and is said.
    const auto cut = runCliInProcess(
        { "compare", imbalance, "--range-a", "0:", "--range-b", "60ms:", "--by", "iteration" });
    REQUIRE(cut.exitCode == 0);
    lines = cut.outLines();
    REQUIRE(lines.size() == 24);
    CHECK(lines[1] == "0,5490,6090,1.1093,9,9"); // 6090 / 5490
    CHECK(lines[12] == "11,6090,5801,0.9525,9,9");
    CHECK(lines[13] == "12,5919,,,3,");
    CHECK(lines[23] == "22,5801,,,9,");
    CHECK(cut.err.find("the runs have 23 and 12 iterations") != std::string::npos);
    CHECK(cut.err.find("the last 11 of imbalance[A] have no partner") != std::string::npos);

    // Steps by hand on the hand-made runs: ten steps of 100 us in both.
    const auto every = runCliInProcess({ "compare", whyRunPath("why-chain"),
        whyRunPath("why-serial"), "--by", "iteration", "--every", "100us" });
    REQUIRE(every.exitCode == 0);
    lines = every.outLines();
    REQUIRE(lines.size() == 11);
    CHECK(lines[1].rfind("0,100,100,1.0000,", 0) == 0);

    for (const std::vector<std::string>& bad :
        { std::vector<std::string> { "--by", "pe" }, { "--every", "1ms" },
            { "--by", "iteration", "--every", "0" }, { "--by", "iteration", "--profile" } }) {
        std::vector<std::string> args { "compare", imbalance, imbalance };
        args.insert(args.end(), bad.begin(), bad.end());
        const auto run = runCliInProcess(args);
        INFO(run.err);
        CHECK(run.exitCode == 2);
        CHECK(run.err.find("compare") != std::string::npos);
    }
    const auto three
        = runCliInProcess({ "compare", imbalance, imbalance, imbalance, "--by", "iteration" });
    CHECK(three.exitCode == 2);
    CHECK(three.err.find("two runs") != std::string::npos);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE(
    "cli render model --log-y draws durations on a log axis and refuses a bad value", "[cli][why]")
{
    TempDir dir;
    const auto run = whyRunPath("model-planted");
    const auto out = (dir.path() / "model.png").string();
    const auto r = cliProcess(
        { "render", "model", run, "--log-y", "-o", out, "--width", "800", "--height", "500" });
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto bytes = readFile(out);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.substr(1, 3) == "PNG");
    const auto bad = cliProcess(
        { "render", "model", run, "--log-y=maybe", "-o", (dir.path() / "bad.png").string() });
    CHECK(bad.exitCode == 2);
    CHECK(bad.errLines().size() == 1);
    CHECK(bad.err.find("--log-y takes on or off") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path() / "bad.png"));
    const auto help = cliProcess({ "render", "model", "--help" });
    CHECK(help.out.find("--log-y[=on|off]") != std::string::npos);
}
#endif
