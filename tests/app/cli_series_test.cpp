// parallax-cli user-stats, memory and counters: CSV, options and clear errors.

#include "app/cli_support.h"

#include <catch2/catch.hpp>

using namespace parallax::test;

namespace {

std::string seriesRun()
{
    return (dataDir() / "runs" / "series").string();
}

} // namespace

TEST_CASE("cli user-stats prints stats over time, per PE and as samples", "[cli][series]")
{
    const auto time = runCliInProcess({ "user-stats", seriesRun(), "--bins", "4", "--stats", "3",
        "--aggregate", "sum", "--no-cache" });
    INFO(time.err);
    REQUIRE(time.exitCode == 0);
    CHECK(time.outLines()
        == std::vector<std::string> { "interval,begin_us,end_us,stat,stat_name,samples,value,"
                                      "pe_min,pe_min_value,pe_max,pe_max_value",
            "0,1000,2000,3,Residual,2,10,0,4,1,6", "1,2000,3000,3,Residual,2,5,0,2,1,3",
            "3,4000,5000,3,Residual,1,1,0,1,0,1" });
    const auto pe = runCliInProcess(
        { "user-stats", seriesRun(), "--by", "pe", "--pes", "1", "--aggregate", "max" });
    REQUIRE(pe.exitCode == 0);
    CHECK(pe.outLines()
        == std::vector<std::string> { "pe,stat,stat_name,samples,value,sum,mean,min,max,last",
            "1,3,Residual,2,6,9,4.5,3,6,3", "1,9,Particles,2,70,120,60,50,70,70" });
    const auto samples
        = runCliInProcess({ "user-stats", seriesRun(), "--by", "sample", "--range", "3ms:" });
    REQUIRE(samples.exitCode == 0);
    CHECK(samples.outLines()
        == std::vector<std::string> { "pe,time_us,user_time,stat,stat_name,value",
            "0,4100,-1,3,Residual,1", "1,3250,-1,9,Particles,70" });
    const auto real = runCliInProcess(
        { "user-stats", realLog("gen-feat-smp").string(), "--by", "pe", "--aggregate", "count" });
    REQUIRE(real.exitCode == 0);
    CHECK(real.outLines()
        == std::vector<std::string> { "pe,stat,stat_name,samples,value,sum,mean,min,max,last",
            "0,7,Iteration number,12,12,66,5.5,0,11,11" });
}

TEST_CASE("cli memory prints the spread over PEs and each PE's level", "[cli][series]")
{
    const auto time = runCliInProcess({ "memory", seriesRun(), "--interval", "2ms" });
    REQUIRE(time.exitCode == 0);
    CHECK(time.outLines()
        == std::vector<std::string> { "interval,begin_us,end_us,pes,min_bytes,min_pe,mean_bytes,"
                                      "max_bytes,max_pe,total_bytes",
            "0,1000,3000,2,3000000,0,3500000,4000000,1,7000000",
            "1,3000,5000,2,2000000,0,3000000,4000000,1,6000000" });
    const auto pe = runCliInProcess({ "memory", seriesRun(), "--by", "pe", "--bins", "2" });
    REQUIRE(pe.exitCode == 0);
    CHECK(pe.outLines()
        == std::vector<std::string> { "interval,begin_us,end_us,pe,bytes,samples",
            "0,1000,3000,0,3000000,3", "0,1000,3000,1,4000000,1", "1,3000,5000,0,2000000,0",
            "1,3000,5000,1,4000000,0" });
}

TEST_CASE(
    "cli counters prints totals and rates from the logs and from .count files", "[cli][series]")
{
    const auto pe = runCliInProcess({ "counters", seriesRun(), "--by", "pe" });
    INFO(pe.err);
    REQUIRE(pe.exitCode == 0);
    CHECK(pe.outLines()
        == std::vector<std::string> { "pe,counter,calls,time_us,total,per_us",
            "0,PAPI_TOT_INS,3,1200,7000,5.83333", "0,PAPI_FP_OPS,3,1200,2200,1.83333",
            "1,PAPI_TOT_INS,2,300,1300,4.33333", "1,PAPI_FP_OPS,2,300,450,1.5" });
    const auto entry = runCliInProcess(
        { "counters", seriesRun(), "--counters", "PAPI_FP_OPS", "--entries", "1" });
    REQUIRE(entry.exitCode == 0);
    CHECK(entry.outLines()
        == std::vector<std::string> { "entry,entry_name,counter,calls,time_us,total,per_us",
            "1,compute(int n),PAPI_FP_OPS,3,1200,2400,2" });

    const auto phase
        = (realLog("projections-namd2-counters") / "8" / "namd2.phase1.count.sts").string();
    const auto namd = runCliInProcess({ "counters", phase, "--by", "pe", "--pes", "7" });
    INFO(namd.err);
    REQUIRE(namd.exitCode == 0);
    REQUIRE(namd.outLines().size() == 3);
    CHECK(namd.outLines()[1].rfind("7,STORE,", 0) == 0);
    CHECK(namd.outLines()[2].rfind("7,L1_DMISS,", 0) == 0);
    requireUsageError({ "counters", phase, "--range", "1ms:2ms" }, "--range does not apply");
    requireUsageError({ "counters", phase, "--pes", "9" }, "PE 9 has no .count file");
    requireUsageError({ "counters", phase, "--counters", "CYCLES" },
        "no counter 'CYCLES' in this run (counters: STORE, L1_DMISS)");
    const auto several
        = runCliInProcess({ "counters", (realLog("projections-namd2-counters") / "8").string() });
    CHECK(several.exitCode == 1);
    CHECK(several.err.find("holds 2 counter runs") != std::string::npos);
    const auto noPapi = runCliInProcess({ "counters", tinyRun() });
    CHECK(noPapi.exitCode == 1);
    CHECK(noPapi.out.empty());
    CHECK(noPapi.err.find("no hardware-counter (PAPI) values") != std::string::npos);
}

TEST_CASE("cli series commands explain what they cannot do", "[cli][series]")
{
    for (const char* command : { "user-stats", "memory", "counters" }) {
        const auto help = runCliInProcess({ command, "--help" });
        CHECK(help.exitCode == 0);
        CHECK(help.out.find("usage: parallax-cli") == 0);
        requireUsageError({ command, seriesRun(), "--pes", "7" }, "PE 7");
        requireUsageError({ command, seriesRun(), "--by", "stat" }, "--by");
    }
    for (const char* command : { "user-stats", "memory" }) {
        requireUsageError({ command, seriesRun(), "--entries", "1" }, "--entries does not apply");
        requireUsageError({ command, seriesRun(), "--bins", "2", "--interval", "1ms" }, "not both");
    }
    requireUsageError({ "user-stats", seriesRun(), "--stats", "4" },
        "stat 4 is not in this run (stats: 3 Residual, 9 Particles)");
    requireUsageError({ "user-stats", seriesRun(), "--aggregate", "median" }, "--aggregate");

    // Runs without the records: one line, exit 1, nothing on stdout.
    const auto noStats = runCliInProcess({ "user-stats", tinyRun() });
    CHECK(noStats.exitCode == 1);
    CHECK(noStats.out.empty());
    CHECK(noStats.err.find("no user-stat") != std::string::npos);
    const auto noMemory = runCliInProcess({ "memory", realLog("pipit-hello1darray-v11").string() });
    CHECK(noMemory.exitCode == 1);
    CHECK(noMemory.out.empty());
    CHECK(noMemory.err.find("this run has no memory-usage") != std::string::npos);
    CHECK(noMemory.errLines().size() == 1);
    const auto missing = runCliInProcess({ "memory", "/nonexistent/run" });
    CHECK(missing.exitCode == 1);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("parallax-cli render draws the series views as PNG and SVG", "[cli][series]")
{
    TempDir dir;
    for (const std::string view : { "user-stats", "memory", "counters" }) {
        INFO(view);
        const auto out = (dir.path() / (view + ".png")).string();
        std::vector<std::string> args { "render", view, seriesRun(), "-o", out, "--width", "800",
            "--height", "500" };
        if (view != "counters")
            args.insert(args.end(), { "--bins", "4" });
        const auto r = cliProcess(args);
        CHECK(r.exitCode == 0);
        const auto bytes = readFile(out);
        REQUIRE(bytes.size() > 8);
        CHECK(bytes.substr(1, 3) == "PNG");
        CHECK(bytes.size() > 10'000);
    }
    const auto svgPath = (dir.path() / "memory.svg").string();
    const auto svg = cliProcess({ "render", "memory", seriesRun(), "-o", svgPath, "--by", "pe" });
    CHECK(svg.exitCode == 0);
    CHECK(readFile(svgPath).find("<svg") != std::string::npos);
    const auto counters = (dir.path() / "counters.png").string();
    const auto phase
        = (realLog("projections-namd2-counters") / "4" / "namd2.phase2.count.sts").string();
    CHECK(cliProcess({ "render", "counters", phase, "-o", counters, "--metric", "rate" }).exitCode
        == 0);
    CHECK(readFile(counters).size() > 10'000);
    const auto countersRange = cliProcess({ "render", "counters", phase, "-o",
        (dir.path() / "range.png").string(), "--range", "1ms:2ms" });
    CHECK(countersRange.exitCode == 2);
    CHECK(countersRange.err.find("--range does not apply") != std::string::npos);
    const auto badStat = cliProcess({ "render", "user-stats", seriesRun(), "-o",
        (dir.path() / "bad.png").string(), "--stat", "4" });
    CHECK(badStat.exitCode == 2);
    CHECK(badStat.err.find("3 · Residual") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path() / "bad.png"));
}
#endif

TEST_CASE(
    "cli compare puts runs or ranges side by side and refuses other programs", "[cli][compare]")
{
    const auto feat = realLog("gen-feat-smp").string();
    const auto self = runCliInProcess({ "compare", feat, feat });
    INFO(self.err);
    REQUIRE(self.exitCode == 0);
    CHECK(self.err.empty());
    const auto lines = self.outLines();
    REQUIRE(lines.size() > 5);
    CHECK(lines[0] == "entry,a_us,b_us,delta_us,ratio");
    for (std::size_t k = 1; k < lines.size(); ++k) {
        const auto fields = csvSplit(lines[k]);
        REQUIRE(fields.size() == 5);
        CHECK(fields[1] == fields[2]);
        CHECK(fields[3] == "0");
        CHECK(fields[4] == "1");
    }

    const auto ranges = runCliInProcess(
        { "compare", seriesRun(), "--range-a", "1ms:3ms", "--range-b", "3ms:5ms" });
    REQUIRE(ranges.exitCode == 0);
    CHECK(ranges.outLines()
        == std::vector<std::string> { "entry,a_us,b_us,delta_us,ratio",
            "Main::Main(CkArgMsg* m),200,0,-200,0", "Worker::compute(int n),700,500,-200,0.714286",
            "Worker::reduce(),100,0,-100,0" });
    const auto profile = runCliInProcess({ "compare", seriesRun(), "--range-a", "1ms:3ms",
        "--range-b", "3ms:5ms", "--profile", "--interval", "1ms" });
    REQUIRE(profile.exitCode == 0);
    CHECK(profile.outLines()
        == std::vector<std::string> { "interval,offset_us,a_busy_pct,b_busy_pct,delta_pct",
            "0,0,45,25,-20", "1,1000,5,0,-5" });
    const auto aligned = runCliInProcess({ "compare", seriesRun(), seriesRun(), "--align",
        "event:5", "--profile", "--interval", "500" });
    REQUIRE(aligned.exitCode == 0);
    CHECK(aligned.outLines()[1] == "0,0,50,50,0");

    const auto three = runCliInProcess({ "compare", feat, seriesRun(), feat, "--force" });
    REQUIRE(three.exitCode == 0);
    CHECK(three.outLines()[0] == "entry,gen-feat-smp_us,series_us,gen-feat-smp#2_us");
    const auto other = runCliInProcess({ "compare", seriesRun(), tinyRun() });
    CHECK(other.exitCode == 1);
    CHECK(other.out.empty());
    CHECK(other.err.find("different programs") != std::string::npos);
    CHECK(other.err.find("--force") != std::string::npos);
    CHECK(runCliInProcess({ "compare", seriesRun(), tinyRun(), "--force" }).exitCode == 0);

    requireUsageError({ "compare", seriesRun() }, "give a second RUN");
    requireUsageError({ "compare", seriesRun(), "--align", "event:x" }, "--align");
    requireUsageError({ "compare", seriesRun(), seriesRun(), "--align", "event:6" },
        "user event 6 does not occur in the range of series");
    requireUsageError({ "compare", seriesRun(), seriesRun(), seriesRun(), "--range-a", "1:2",
                          "--range-b", "2:3" },
        "two runs or two ranges");
    requireUsageError({ "compare", seriesRun(), "--range-a", "3:1", "--range-b", "1:2" },
        "ends before it begins");
    const auto missing = runCliInProcess({ "compare", seriesRun(), "/nonexistent/run" });
    CHECK(missing.exitCode == 1);
}
