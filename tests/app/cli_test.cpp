// parallax-cli driven in-process through runCli: output formats of info, entries and timeline
// (app/cli/commands.cpp), usage errors (exit 2, one line on stderr), fatal runs (exit 1).

#include "cli_support.h"
#include "core/import_report.h"
#include "io/run_loader.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace parallax;
using namespace parallax::test;

namespace {

// The commands listed by `parallax-cli --help` ("  NAME RUN ..." lines under "commands:").
std::vector<std::string> listedCommands()
{
    const auto run = runCliInProcess({ "--help" });
    std::vector<std::string> commands;
    bool inCommands = false;
    for (const auto& line : run.outLines()) {
        if (line == "commands:") {
            inCommands = true;
            continue;
        }
        if (inCommands && line.empty())
            break;
        if (inCommands && line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ')
            commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    return commands;
}

std::string realRun(const char* name)
{
    return realLog(name).string();
}

} // namespace

TEST_CASE("cli info prints the documented keys first and in order")
{
    const auto run = runCliInProcess({ "info", tinyRun() });
    REQUIRE(run.exitCode == 0);
    const auto kv = keyValues(run.out);
    const std::vector<std::string> documented { "version", "pes", "entries", "begin_us", "end_us",
        "events", "has_logs", "has_sum", "has_sumd", "missing_pes", "warnings" };
    REQUIRE(kv.size() > documented.size());
    std::vector<std::string> firstKeys;
    for (std::size_t i = 0; i < documented.size(); ++i)
        firstKeys.push_back(kv[i].first);
    CHECK(firstKeys == documented);
}

TEST_CASE("cli info prints one line per import-report counter after warnings")
{
    const auto run = runCliInProcess({ "info", tinyRun() });
    REQUIRE(run.exitCode == 0);
    const auto kv = keyValues(run.out);
    const auto warnings
        = std::find_if(kv.begin(), kv.end(), [](const auto& p) { return p.first == "warnings"; });
    REQUIRE(warnings != kv.end());
    auto it = warnings + 1;
    for (std::size_t k = 0; k < core::kIssueKinds; ++k, ++it) {
        REQUIRE(it != kv.end());
        CHECK(it->first == core::issueKey(static_cast<core::Issue>(k)));
        CHECK(it->second == "0");
    }
}

TEST_CASE("cli info values of the tiny run")
{
    const auto run = runCliInProcess({ "info", tinyRun() });
    REQUIRE(run.exitCode == 0);
    CHECK(run.err.empty());
    auto values = keyValueMap(run.out);
    CHECK(values["version"] == "11.0");
    CHECK(values["pes"] == "2");
    CHECK(values["entries"] == "5");
    CHECK(values["begin_us"] == "1000");
    CHECK(values["end_us"] == "3100");
    CHECK(values["events"] == "21");
    CHECK(values["has_logs"] == "true");
    CHECK(values["has_sum"] == "false");
    CHECK(values["has_sumd"] == "false");
    CHECK(values["missing_pes"] == "none");
    CHECK(values["warnings"] == "0");
}

TEST_CASE("cli info of real runs shows the end time rule missing PEs and the summary flags")
{
    auto smp = runCliInProcess({ "info", realRun("gen-feat-smp") });
    REQUIRE(smp.exitCode == 0);
    auto v = keyValueMap(smp.out);
    CHECK(v["version"] == "11.0");
    CHECK(v["pes"] == "6");
    CHECK(v["entries"] == "215");
    CHECK(v["end_us"] == "1311974");
    CHECK(v["has_sum"] == "true");
    CHECK(v["has_sumd"] == "true");
    CHECK(v["multicast_count_doubled"] == "12");

    auto partial = runCliInProcess({ "info", realRun("gen-feat-binshrink-partial") });
    REQUIRE(partial.exitCode == 0);
    v = keyValueMap(partial.out);
    CHECK(v["missing_pes"] == "5");
    CHECK(v["missing_files"] == "7");
    // The problems are listed on stderr with file names.
    CHECK(partial.err.find("feat.5.log") != std::string::npos);

    auto v3 = runCliInProcess({ "info", realRun("projections-hello-v3") + "/hello.sts" });
    REQUIRE(v3.exitCode == 0);
    v = keyValueMap(v3.out);
    CHECK(v["version"] == "3.0");
    CHECK(v["end_us"] == "30320");
}

TEST_CASE("cli info lists recoverable problems on stderr with file and line and exits 0")
{
    const auto run = runCliInProcess({ "info", brokenCase("garbage-log").string() });
    CHECK(run.exitCode == 0);
    std::map<std::string, std::string> values;
    for (const auto& [k, v] : keyValues(run.out))
        values[k] = v;
    CHECK(values["malformed_lines"] == "4");
    CHECK(values["warnings"] == "4");
    CHECK(run.err.find("warning: run.1.log:4: ") != std::string::npos);
    CHECK(run.err.find("warning: run.1.log:7: ") != std::string::npos);
}

TEST_CASE("cli entries prints CSV id name chare and quotes names with commas and quotes")
{
    const auto run = runCliInProcess({ "entries", tinyRun() });
    REQUIRE(run.exitCode == 0);
    CHECK(run.outLines()
        == std::vector<std::string> {
            "id,name,chare",
            "0,dummy_thread_ep,dummy_thread_chare",
            "1,Main(CkArgMsg* m),Main",
            "2,\"compute(int n, double x)\",Worker",
            "3,\"say\"\"hi\",Main",
            "4,\"halo(int a, int b)\",\"Grid, 2D\"",
        });
}

TEST_CASE("cli entries of a real run round-trips every name through CSV")
{
    const auto path = realRun("pipit-hello1darray-v11");
    const auto run = runCliInProcess({ "entries", path });
    REQUIRE(run.exitCode == 0);
    io::LoadOptions options;
    options.readLogs = false;
    const auto trace = io::loadRun(path, options).trace;
    REQUIRE(trace);
    const auto lines = run.outLines();
    REQUIRE(lines.size() == trace->metadata.entries.size() + 1);
    CHECK(lines[0] == "id,name,chare");
    for (std::size_t id = 0; id < trace->metadata.entries.size(); ++id) {
        const auto fields = csvSplit(lines[id + 1]);
        INFO(lines[id + 1]);
        REQUIRE(fields.size() == 3);
        CHECK(fields[0] == std::to_string(id));
        CHECK(fields[1] == trace->metadata.entries[id].name);
        CHECK(fields[2] == trace->metadata.chareNameOfEntry(static_cast<core::EntryId>(id)));
    }
    CHECK(lines[35]
        == "34,\"updateLocation(const CkArrayIndex &idx, const CkLocEntry &e)\",CkLocMgr");
}

TEST_CASE("cli timeline prints the header and the PE's intervals in time order")
{
    const auto run = runCliInProcess({ "timeline", tinyRun(), "--pe", "0" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.outLines()
        == std::vector<std::string> {
            "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes",
            "0,1100,1200,exec,1,Main(CkArgMsg* m),0,64",
            "0,1200,1500,idle,,,,",
            "0,1500,2000,exec,2,\"compute(int n, double x)\",0,80",
            "0,1600,1610,pack,,,,",
            "0,2000,2500,exec,4,\"halo(int a, int b)\",1,96",
            "0,2500,3000,idle,,,,",
        });
    const auto pe1 = runCliInProcess({ "timeline", tinyRun(), "--pe=1" });
    REQUIRE(pe1.exitCode == 0);
    CHECK(pe1.outLines()
        == std::vector<std::string> {
            "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes",
            "1,1200,1300,exec,3,\"say\"\"hi\",0,64" });
    // A list: PE by PE, the same rows as each PE alone.
    const auto both = runCliInProcess({ "timeline", tinyRun(), "--pe", "0-1" });
    REQUIRE(both.exitCode == 0);
    CHECK(both.outLines().size() == 1 + 6 + 1);
    CHECK(both.outLines().back() == pe1.outLines().back());
}

TEST_CASE("cli message-path follows a message back through the SMP comm thread")
{
    // gen-feat-smp: PE 1's recvHalo at 1202146 µs was relayed by comm thread 4 from PE 2
    // (checked by hand against the logs: the CREATION on PE 2 at 1195002 µs, the relay's
    // execution on PE 4 at 1199597 µs and its send at 1199598 µs).
    const auto run = runCliInProcess({ "message-path",
        parallax::test::realLog("gen-feat-smp").string(), "--pe", "1", "--at", "1200ms" });
    REQUIRE(run.exitCode == 0);
    const auto lines = run.outLines();
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "hop,pe,begin_us,end_us,entry_name,sender_pe,send_us,latency_us,link,reason");
    CHECK(lines[1] == "0,1,1202146,1202195,recvHalo(DataMsg* impl_msg),4,1199598,2548,linked,");
    CHECK(lines[2] == "1,4,1199597,1199599,recvHalo(DataMsg* impl_msg),2,1195002,4595,linked,");
    const auto bad = runCliInProcess({ "message-path", tinyRun(), "--pe", "0", "--at", "1h" });
    CHECK(bad.exitCode == 2);
}

TEST_CASE("cli timeline range with units equals the same range in microseconds")
{
    const auto withUnits
        = runCliInProcess({ "timeline", tinyRun(), "--pe", "0", "--range", "1ms:2ms" });
    const auto plain
        = runCliInProcess({ "timeline", tinyRun(), "--pe", "0", "--range", "1000:2000" });
    REQUIRE(withUnits.exitCode == 0);
    REQUIRE(plain.exitCode == 0);
    CHECK(withUnits.out == plain.out);
    // [1000, 2000): the execution beginning at 2000 is outside.
    CHECK(plain.outLines()
        == std::vector<std::string> {
            "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes",
            "0,1100,1200,exec,1,Main(CkArgMsg* m),0,64",
            "0,1200,1500,idle,,,,",
            "0,1500,2000,exec,2,\"compute(int n, double x)\",0,80",
            "0,1600,1610,pack,,,,",
        });
}

TEST_CASE("cli timeline rows match the raw log lines of a real run")
{
    // pipit-hello1darray-v11/hello.0.log.gz lines 56-67:
    //   2 4 152 1947 17 0 112 0 0 1108 ... 3 0 152 1952 ...   (SayHi on element 0)
    //   2 4 152 1954 18 0 112 0 1 1108 ... 3 0 152 1958 ...   (element 1)
    //   2 4 152 1959 19 0 112 0 2 1108 ... 3 0 152 1967 ...   (element 2)
    const auto run = runCliInProcess(
        { "timeline", realRun("pipit-hello1darray-v11"), "--pe", "0", "--range", "1950:1960" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.outLines()
        == std::vector<std::string> {
            "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes",
            "0,1947,1952,exec,152,SayHi(int hiNo),0,112",
            "0,1954,1958,exec,152,SayHi(int hiNo),0,112",
            "0,1959,1967,exec,152,SayHi(int hiNo),0,112",
        });
    // Lines 72-75: "2 5 34 1976 1 1 128 ..." "3 0 34 2000 ..." "14 2001 0" "15 2030 0"
    const auto later = runCliInProcess(
        { "timeline", realRun("pipit-hello1darray-v11"), "--pe", "0", "--range", "1975:2030" });
    REQUIRE(later.exitCode == 0);
    CHECK(later.outLines()
        == std::vector<std::string> {
            "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes",
            "0,1976,2000,exec,34,\"updateLocation(const CkArrayIndex &idx, const CkLocEntry "
            "&e)\",1,128",
            "0,2001,2030,idle,,,,",
        });
}

TEST_CASE("cli timeline rows are sorted and all overlap the requested range")
{
    const auto path = realRun("gen-feat-smp");
    const core::TimeUs t0 = 1'100'000;
    const core::TimeUs t1 = 1'200'000;
    const auto run = runCliInProcess({ "timeline", path, "--pe", "1", "--range", "1.1s:1.2s" });
    REQUIRE(run.exitCode == 0);
    const auto lines = run.outLines();
    REQUIRE(lines.size() > 10);
    core::TimeUs previous = 0;
    std::size_t execRows = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto fields = csvSplit(lines[i]);
        INFO(lines[i]);
        REQUIRE(fields.size() == 8);
        CHECK(fields[0] == "1");
        const auto begin = std::stoll(fields[1]);
        const auto end = std::stoll(fields[2]);
        CHECK(begin >= previous);
        previous = begin;
        CHECK(begin <= end);
        CHECK(begin < t1);
        CHECK((end > t0 || (begin == end && begin >= t0)));
        execRows += fields[3] == "exec" ? 1U : 0U;
    }
    // Same count as the interval index of the loaded trace.
    const auto trace = io::loadRun(path).trace;
    REQUIRE(trace);
    CHECK(execRows == trace->pes[1].executionsOverlapping(t0, t1).size());
}

TEST_CASE("cli bad arguments exit 2 with one line on stderr")
{
    const auto tiny = tinyRun();
    requireUsageError({ "frobnicate", tiny });
    requireUsageError({ "info", tiny, "--bogus" });
    requireUsageError({ "info", tiny, "-x" });
    requireUsageError({ "info" });
    requireUsageError({ "info", tiny, "extra" });
    requireUsageError({ "info", tiny, "--threads", "many" });
    requireUsageError({ "entries", tiny, "--pe", "0" });
    requireUsageError({ "timeline", tiny });
    requireUsageError({ "timeline", tiny, "--pe" });
    requireUsageError({ "timeline", tiny, "--pe", "99" });
    requireUsageError({ "timeline", tiny, "--pe", "-1" });
    requireUsageError({ "timeline", tiny, "--pe", "abc" });
    requireUsageError({ "timeline", tiny, "--pe", "0,x" });
    requireUsageError({ "timeline", tiny, "--pe", "0-9" }); // PEs 2-9 are not in the run
    requireUsageError({ "timeline", tiny, "--pe", "0", "--range", "5:1" });
    requireUsageError({ "timeline", tiny, "--pe", "0", "--range", "abc" });
    requireUsageError({ "timeline", tiny, "--pe", "0", "--range", "1ms:2parsecs" });
    requireUsageError({ "timeline", tiny, "--pe", "0", "--range", "-5:10" });
}

TEST_CASE("cli timeline of a PE without a log is a usage error naming the PEs that have one")
{
    const auto run
        = runCliInProcess({ "timeline", realRun("gen-feat-binshrink-partial"), "--pe", "5" });
    CHECK(run.exitCode == 2);
    REQUIRE(run.errLines().size() == 1);
    CHECK(run.err.find("0-4") != std::string::npos);
}

TEST_CASE("cli --help of every command exits 0 and prints its usage on stdout")
{
    const auto commands = listedCommands();
    CHECK(std::find(commands.begin(), commands.end(), "info") != commands.end());
    CHECK(std::find(commands.begin(), commands.end(), "entries") != commands.end());
    CHECK(std::find(commands.begin(), commands.end(), "timeline") != commands.end());
    for (const auto& command : commands) {
        INFO(command);
        for (const char* flag : { "--help", "-h" }) {
            const auto run = runCliInProcess({ command, flag });
            CHECK(run.exitCode == 0);
            CHECK(run.out.rfind("usage: parallax-cli " + command, 0) == 0);
            CHECK(run.err.empty());
        }
    }
}

TEST_CASE("cli without a command prints the usage on stderr and exits 2, --help exits 0")
{
    const auto none = runCliInProcess({});
    CHECK(none.exitCode == 2);
    CHECK(none.err.find("usage:") != std::string::npos);
    for (const char* help : { "--help", "-h", "help" }) {
        const auto run = runCliInProcess({ help });
        CHECK(run.exitCode == 0);
        CHECK(run.out.rfind("usage: parallax-cli", 0) == 0);
    }
}

TEST_CASE("cli on a missing run exits 1 naming the path")
{
    const std::string missing = "/nonexistent/parallax/run-dir";
    for (const auto& args : std::vector<std::vector<std::string>> {
             { "info", missing }, { "entries", missing }, { "timeline", missing, "--pe", "0" } }) {
        const auto run = runCliInProcess(args);
        INFO(args[0]);
        CHECK(run.exitCode == 1);
        CHECK(run.out.empty());
        CHECK(run.errLines().size() == 1);
        CHECK(run.err.find(missing) != std::string::npos);
    }
}

TEST_CASE("cli on fatally broken runs exits 1 naming the file and the line")
{
    struct Case {
        const char* name;
        std::string mustMention;
    };
    const auto missingSts = brokenCase("missing-sts");
    const auto version12 = brokenCase("version-12");
    const auto emptySts = brokenCase("empty-sts");
    for (const auto& c : { Case { "missing-sts", missingSts.string() },
             Case { "version-12", (version12 / "run.sts").string() + ":2:" },
             Case { "empty-sts", (emptySts / "run.sts").string() } }) {
        INFO(c.name);
        for (const char* command : { "info", "entries" }) {
            const auto run = runCliInProcess({ command, brokenCase(c.name).string() });
            INFO(command << " stderr: " << run.err);
            CHECK(run.exitCode == 1);
            CHECK(run.out.empty());
            CHECK(run.err.find(c.mustMention) != std::string::npos);
        }
    }
}

TEST_CASE("cli on the non-run real directories exits 1 instead of crashing")
{
    for (const char* name : { "golden-java", "projections-namd2-counters" }) {
        const auto run = runCliInProcess({ "info", realRun(name) });
        INFO(name);
        CHECK(run.exitCode == 1);
        CHECK(run.err.find(".sts") != std::string::npos);
    }
}

TEST_CASE("cli --memory-budget opens a run too big for it from its summaries and says so")
{
    const auto run = sampleRun("imbalance").string();
    const auto tight = runCliInProcess({ "info", run, "--memory-budget", "64K", "--no-cache" });
    CHECK(tight.exitCode == 0);
    CHECK(keyValueMap(tight.out)["logs_on_demand"] == "true");
    CHECK(keyValueMap(tight.out)["has_logs"] == "false");
    CHECK(tight.err.find("more than --memory-budget 64 KiB") != std::string::npos);
    const auto roomy = runCliInProcess({ "info", run, "--memory-budget", "1G", "--no-cache" });
    CHECK(keyValueMap(roomy.out)["logs_on_demand"] == "false");
    CHECK(keyValueMap(roomy.out)["events"] == "36021");
    // The planted PEs are found from the summaries alone.
    const auto extrema = runCliInProcess({ "extrema", run, "--memory-budget", "64K", "--no-cache",
        "--criterion", "least-idle", "--count", "2" });
    CHECK(extrema.exitCode == 0);
    CHECK(extrema.out.rfind("rank,pe,score\n1,3,", 0) == 0);
    CHECK(extrema.out.find("\n2,9,") != std::string::npos);
    const auto bad = runCliInProcess({ "info", run, "--memory-budget", "lots" });
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.find("--memory-budget") != std::string::npos);
}

TEST_CASE("cli histogram leaves idle periods out unless --idle on, and always with --entries")
{
    // pipit-hello1darray-v11: 17 executions (the last one begins at the run's end), 19 idle
    // periods; entry 173 (traceProjectionsParallelShutdown) ran twice.
    const auto total = [](const std::string& csv, bool idle) {
        double n = 0;
        std::size_t start = csv.find('\n') + 1; // after the header
        while (start < csv.size()) {
            const auto end = csv.find('\n', start);
            const std::string line = csv.substr(start, end - start);
            const auto count = line.rfind(',');
            const auto activity = line.rfind(',', count - 1);
            const bool isIdle = line.substr(activity + 1, count - activity - 1) == "idle";
            if (isIdle == idle)
                n += std::stod(line.substr(count + 1));
            start = end == std::string::npos ? csv.size() : end + 1;
        }
        return n;
    };
    const std::string run = realLog("pipit-hello1darray-v11").string();
    const auto plain = runCliInProcess({ "histogram", run });
    REQUIRE(plain.exitCode == 0);
    CHECK(total(plain.out, false) == 17);
    CHECK(total(plain.out, true) == 0);
    const auto withIdle = runCliInProcess({ "histogram", run, "--idle", "on" });
    REQUIRE(withIdle.exitCode == 0);
    CHECK(total(withIdle.out, false) == 17);
    CHECK(total(withIdle.out, true) == 19);
    const auto entries = runCliInProcess({ "histogram", run, "--idle", "on", "--entries", "173" });
    REQUIRE(entries.exitCode == 0);
    CHECK(total(entries.out, false) == 2);
    CHECK(total(entries.out, true) == 0);
    requireUsageError({ "histogram", run, "--idle", "maybe" });
}
