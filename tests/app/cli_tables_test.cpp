// The table commands (entry-profile, call-table, user-events, log, noise): their CSV on the
// hand-made run tests/data/runs/tables (numbers worked out in its README), bad input, and their
// pictures through `render`.

#include "cli_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace parallax::test;

namespace {

std::string tablesRun()
{
    return (dataDir() / "runs" / "tables").string();
}

} // namespace

TEST_CASE("cli entry-profile prints one row per entry method, most time first", "[tables]")
{
    const auto run = runCliInProcess({ "entry-profile", tablesRun() });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "entry,entry_name,chare,executions,total_us,mean_us,min_us,max_us,sd_us,share_pct\n"
           "2,work(int step),Worker,10,1880,188,100,520,161.357,15.6667\n"
           "1,Main(CkArgMsg* m),Main,1,200,200,200,200,0,1.66667\n"
           "3,done(int step),Main,10,200,20,20,20,0,1.66667\n");
    const auto narrow = runCliInProcess(
        { "entry-profile", tablesRun(), "--pes", "1", "--entries", "2", "--range", "2ms:5ms" });
    REQUIRE(narrow.exitCode == 0);
    CHECK(narrow.outLines().size() == 2);
    CHECK(narrow.outLines()[1] == "2,work(int step),Worker,3,300,100,100,100,0,10");
}

TEST_CASE("cli call-table names the callers behind comm-thread relays", "[tables]")
{
    const auto run = runCliInProcess({ "call-table", tablesRun() });
    REQUIRE(run.exitCode == 0);
    const auto lines = run.outLines();
    REQUIRE(lines.size() == 5);
    CHECK(lines[0]
        == "entry,caller_entry,caller_pe,count,bytes,min_us,mean_us,max_us,entry_name,"
           "caller_name");
    CHECK(lines[1] == "2,1,0,10,800,990,2970,4950,work(int step),Main(CkArgMsg* m)");
    CHECK(lines[3] == "3,2,1,5,360,550,550,550,done(int step),work(int step)");
    CHECK(lines[4] == "1,none,,1,64,,,,Main(CkArgMsg* m),(no sender recorded)");
}

TEST_CASE("cli user-events counts per event and PE, or lists each occurrence", "[tables]")
{
    const auto run = runCliInProcess({ "user-events", tablesRun() });
    REQUIRE(run.exitCode == 0);
    CHECK(
        run.outLines().front() == "event,event_name,pe,kind,count,total_us,min_us,mean_us,max_us");
    CHECK(run.out.find("6,Solve,all,bracket,3,470,30,156.667,390\n") != std::string::npos);
    const auto list = runCliInProcess(
        { "user-events", tablesRun(), "--occurrences", "--events", "6", "--pes", "0" });
    REQUIRE(list.exitCode == 0);
    CHECK(list.out
        == "event,event_name,pe,kind,begin_us,end_us,duration_us\n"
           "6,Solve,0,bracket,2010,2060,50\n"
           "6,Solve,0,bracket,6010,6400,390\n");
    // A declared event that never happened is no error: no rows.
    const auto never = runCliInProcess({ "user-events", tablesRun(), "--events", "7" });
    CHECK(never.exitCode == 0);
    CHECK(never.outLines().size() == 1);
}

TEST_CASE("cli log lists one PE's records with their line numbers", "[tables]")
{
    const auto run = runCliInProcess({ "log", tablesRun(), "--pe", "1", "--types",
        "BEGIN_USER_EVENT_PAIR,99", "--search", "solve" });
    INFO(run.err);
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "line,time_us,type,entry,entry_name,chare,pe,event,bytes,user_event,user_event_name,"
           "details\n"
           "5,2110,BEGIN_USER_EVENT_PAIR,,,,0,60,,6,Solve,\n"
           "6,2140,END_USER_EVENT_PAIR,,,,0,61,,6,Solve,\n");
    const auto limited = runCliInProcess({ "log", tablesRun(), "--pe", "0", "--limit", "3" });
    CHECK(limited.outLines().size() == 4);
    CHECK(limited.err.find("--limit 3") != std::string::npos);
}

TEST_CASE("cli noise ranks noise events and lists their executions and the baselines", "[tables]")
{
    const auto run = runCliInProcess({ "noise", tablesRun() });
    REQUIRE(run.exitCode == 0);
    CHECK(run.outLines().size() == 2);
    CHECK(run.outLines()[1] == "1,810,2,2,0-1,405,,2,work(int step),1,6100");
    const auto executions = runCliInProcess({ "noise", tablesRun(), "--list", "executions" });
    REQUIRE(executions.exitCode == 0);
    CHECK(executions.outLines()[1] == "1,1,2,work(int step),6100,6620,520,105,415");
    const auto baselines
        = runCliInProcess({ "noise", tablesRun(), "--list", "baselines", "--k", "2" });
    REQUIRE(baselines.exitCode == 0);
    CHECK(baselines.outLines()[1] == "2,work(int step),10,105,7.413,119.826,4");
    const auto strict = runCliInProcess({ "noise", tablesRun(), "--min-excess", "1ms" });
    CHECK(strict.outLines().size() == 1);
}

TEST_CASE("cli table commands reject bad input with one line and a clean exit code", "[tables]")
{
    const auto run = tablesRun();
    requireUsageError({ "entry-profile", run, "--entries", "99" }, "entry 99 is not in this run");
    requireUsageError({ "call-table", run, "--pes", "7" }, "PE 7 has no data");
    requireUsageError({ "user-events", run, "--events", "42" }, "user event 42 is not in this run");
    requireUsageError({ "user-events", run, "--events", "x" }, "--events");
    requireUsageError({ "log", run }, "missing --pe");
    requireUsageError({ "log", run, "--pe", "0", "--types", "BOGUS" }, "unknown record type");
    requireUsageError({ "log", run, "--pe", "0", "--range", "5ms:1ms" }, "--range");
    requireUsageError({ "noise", run, "--k", "0" }, "--k");
    requireUsageError({ "noise", run, "--list", "all" }, "--list");
    requireUsageError({ "noise", run, "--min-excess", "-3" }, "--min-excess");
    // A PE without a log, a run without user events: the run cannot give what was asked.
    const auto noLog = runCliInProcess({ "log", run, "--pe", "12" });
    CHECK(noLog.exitCode == 1);
    CHECK(noLog.errLines().size() == 1);
    CHECK(
        noLog.err.find("PE 12 has no log in this run (PEs with a log: 0-3)") != std::string::npos);
    const auto noEvents
        = runCliInProcess({ "user-events", realLog("pipit-pingpong-v11").string() });
    CHECK(noEvents.exitCode == 1);
    CHECK(noEvents.out.empty());
    CHECK(noEvents.err == "parallax-cli user-events: this run has no user events\n");
    const auto missing = runCliInProcess({ "entry-profile", (dataDir() / "no-such-run").string() });
    CHECK(missing.exitCode == 1);
}

TEST_CASE("cli table commands on a run without logs", "[tables]")
{
    TempDir dir;
    for (const auto& entry : fs::directory_iterator(realLog("gen-feat-smp"))) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum"))
            fs::copy_file(entry.path(), dir.path() / name);
    }
    const auto run = dir.path().string();
    // The entry profile falls back to the .sum files and says so.
    const auto profile = runCliInProcess({ "entry-profile", run, "--no-cache" });
    CHECK(profile.exitCode == 0);
    CHECK(profile.err.find("from the .sum files") != std::string::npos);
    for (const std::string command : { "call-table", "user-events", "noise" }) {
        INFO(command);
        const auto r = runCliInProcess({ command, run, "--no-cache" });
        CHECK(r.exitCode == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find("this run has no logs") != std::string::npos);
    }
    // Opened from its summaries for the memory budget, a run with logs says so; Log Files
    // still reads the one log asked for.
    const auto tables = tablesRun();
    const auto budget = runCliInProcess({ "noise", tables, "--memory-budget", "1K", "--no-cache" });
    CHECK(budget.exitCode == 1);
    CHECK(budget.err.find("left unread to stay within the memory budget") != std::string::npos);
    const auto budgetLog
        = runCliInProcess({ "log", tables, "--pe", "0", "--memory-budget", "1K", "--limit", "1" });
    CHECK(budgetLog.exitCode == 0);
    CHECK(budgetLog.outLines().size() == 2);
    const auto log = runCliInProcess({ "log", run, "--pe", "0" });
    CHECK(log.exitCode == 1);
    CHECK(log.err.find("this run has no logs") != std::string::npos);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("parallax-cli render draws the table views as PNG and SVG", "[tables]")
{
    TempDir dir;
    const auto run = realLog("gen-feat-smp").string();
    for (const std::string view :
        { "entry-profile", "call-table", "user-events", "log", "noise" }) {
        INFO(view);
        const auto out = (dir.path() / (view + ".png")).string();
        const auto r
            = cliProcess({ "render", view, run, "-o", out, "--width", "900", "--height", "600" });
        CHECK(r.exitCode == 0);
        CHECK(r.err.empty());
        const auto bytes = readFile(out);
        REQUIRE(bytes.size() > 8);
        CHECK(bytes.substr(1, 3) == "PNG");
        CHECK(bytes.size() > 10'000);
        const auto svgPath = (dir.path() / (view + ".svg")).string();
        const auto svg = cliProcess({ "render", view, run, "-o", svgPath });
        CHECK(svg.exitCode == 0);
        CHECK(readFile(svgPath).find("<svg") != std::string::npos);
    }
}
#endif
