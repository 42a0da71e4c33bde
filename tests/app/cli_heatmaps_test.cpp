// The heat-map commands: `comm-matrix`, `msg-size-evolution` and `animation` on the hand-written
// SMP run (tests/data/runs/comm-smp, exact numbers) and real runs; one clear line and exit 2 for
// bad arguments, exit 1 for a run without the records.

#include "cli_support.h"

#include <filesystem>
#include <string>

using parallax::test::realLog;
using parallax::test::requireUsageError;
using parallax::test::runCliInProcess;

namespace {

std::string commRun()
{
    return (parallax::test::dataDir() / "runs" / "comm-smp").string();
}

// A copy of gen-feat-smp with its summaries and no logs, in `dir`.
std::string summaryOnlyCopy(const parallax::test::TempDir& dir)
{
    for (const auto& entry : std::filesystem::directory_iterator(realLog("gen-feat-smp"))) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum") || name.ends_with(".sumd"))
            std::filesystem::copy_file(entry.path(), dir.path() / name);
    }
    return (dir.path() / "feat.sts").string();
}

} // namespace

TEST_CASE("cli comm-matrix prints messages and bytes per pair of PEs, nodes or per PE")
{
    auto run = runCliInProcess({ "comm-matrix", commRun() });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "src_pe,dst_pe,messages,bytes\n0,1,1,100\n0,2,1,200\n1,1,1,50\n2,2,1,64\n2,3,1,64\n"
           "3,0,1,300\n");
    // What was left out is said on stderr.
    CHECK(run.err.find("1 message handed over by a comm thread") != std::string::npos);
    CHECK(run.err.find("1 received message names no PE of this run") != std::string::npos);

    run = runCliInProcess({ "comm-matrix", commRun(), "--by", "node" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "src_node,dst_node,messages,bytes\n0,0,2,150\n0,1,1,200\n1,0,1,300\n1,1,2,128\n");
    run = runCliInProcess({ "comm-matrix", commRun(), "--per-pe", "--external" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "pe,msgs_sent,bytes_sent,msgs_recv,bytes_recv\n0,1,200,1,300\n1,0,0,0,0\n"
           "2,0,0,1,200\n3,1,300,0,0\n");
    run = runCliInProcess({ "comm-matrix", commRun(), "--include-comm-threads", "--pes", "0,4" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out == "src_pe,dst_pe,messages,bytes\n4,0,1,300\n");
    run = runCliInProcess({ "comm-matrix", commRun(), "--range", "2ms:3ms" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out == "src_pe,dst_pe,messages,bytes\n");
    CHECK(run.err.find("no message was delivered") != std::string::npos);

    run = runCliInProcess({ "comm-matrix", "--help" });
    CHECK(run.exitCode == 0);
    CHECK(run.out.find("src_pe,dst_pe,messages,bytes") != std::string::npos);
    CHECK(run.out.find("--external") != std::string::npos);
}

TEST_CASE("cli comm-matrix rejects bad arguments and runs without logs")
{
    requireUsageError({ "comm-matrix", commRun(), "--by", "chare" }, "--by takes pe or node");
    requireUsageError({ "comm-matrix", commRun(), "--by", "node", "--per-pe" }, "not both");
    requireUsageError({ "comm-matrix", commRun(), "--pes", "9" }, "PE 9");
    requireUsageError({ "comm-matrix", commRun(), "--entries", "40" }, "entry 40");
    requireUsageError({ "comm-matrix", commRun(), "--frobnicate" });

    parallax::test::TempDir dir;
    auto run = runCliInProcess({ "comm-matrix", summaryOnlyCopy(dir), "--no-cache" });
    CHECK(run.exitCode == 1);
    CHECK(run.out.empty());
    CHECK(run.err.find("this run has no message records") != std::string::npos);
    CHECK(run.err.find("summary files only") != std::string::npos);
    run = runCliInProcess(
        { "comm-matrix", realLog("gen-feat-smp").string(), "--memory-budget", "1K", "--no-cache" });
    CHECK(run.exitCode == 1);
    CHECK(run.err.find("--memory-budget") != std::string::npos);
}

TEST_CASE("cli msg-size-evolution prints messages per interval and size bin")
{
    auto run = runCliInProcess({ "msg-size-evolution", commRun(), "--bins", "2" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n"
           "0,1000,2000,32,64,1,50\n0,1000,2000,64,128,3,228\n0,1000,2000,128,256,1,200\n"
           "0,1000,2000,256,512,1,300\n");
    run = runCliInProcess({ "msg-size-evolution", commRun(), "--bins", "1", "--event", "receive",
        "--sizes", "linear", "--size-bin", "100", "--size-bins", "2" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n"
           "0,1000,3000,0,100,5,298\n0,1000,3000,100,200,1,100\n0,1000,3000,200,inf,2,500\n");
    run = runCliInProcess(
        { "msg-size-evolution", commRun(), "--entries", "3", "--range", "0:1ms" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out == "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n");
    CHECK(run.err.find("no message was sent for these entry methods") != std::string::npos);

    requireUsageError({ "msg-size-evolution", commRun(), "--event", "both" }, "--event");
    requireUsageError({ "msg-size-evolution", commRun(), "--sizes", "sqrt" }, "--sizes");
    requireUsageError({ "msg-size-evolution", commRun(), "--size-bin", "10" }, "--sizes linear");
    requireUsageError(
        { "msg-size-evolution", commRun(), "--sizes", "linear", "--size-bin", "0" }, "--size-bin");
    requireUsageError({ "msg-size-evolution", commRun(), "--interval", "1ms", "--bins", "3" });
    requireUsageError({ "msg-size-evolution", commRun(), "--entries", "99" }, "entry 99");
    parallax::test::TempDir dir;
    run = runCliInProcess({ "msg-size-evolution", summaryOnlyCopy(dir), "--no-cache" });
    CHECK(run.exitCode == 1);
    CHECK(run.err.find("no message records") != std::string::npos);
    CHECK(runCliInProcess({ "msg-size-evolution", "--help" }).out.find("size_lo")
        != std::string::npos);
}

TEST_CASE("cli animation prints every PE's utilization per frame")
{
    auto run = runCliInProcess({ "animation", commRun(), "--frames", "2" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out
        == "frame,begin_us,end_us,pe,utilization_pct\n0,1000,2000,0,10\n0,1000,2000,1,4\n"
           "0,1000,2000,2,7\n0,1000,2000,3,2\n1,2000,3000,0,0\n1,2000,3000,1,0\n"
           "1,2000,3000,2,0\n1,2000,3000,3,0\n");
    run = runCliInProcess(
        { "animation", commRun(), "--interval", "1ms", "--range", "2ms:4ms", "--pes", "3" });
    REQUIRE(run.exitCode == 0);
    CHECK(run.out == "frame,begin_us,end_us,pe,utilization_pct\n0,2000,3000,3,0\n");
    requireUsageError({ "animation", commRun(), "--frames", "0" }, "--frames");
    requireUsageError({ "animation", commRun(), "--frames", "3", "--interval", "1ms" }, "not both");
    requireUsageError(
        { "animation", commRun(), "--interval", "1us", "--range", "0:3ms" }, "more than 2000");
    // From the summaries when there are no logs.
    parallax::test::TempDir dir;
    run = runCliInProcess({ "animation", summaryOnlyCopy(dir), "--no-cache", "--frames", "5" });
    CHECK(run.exitCode == 0);
    CHECK(run.outLines().size() > 5);
    CHECK(runCliInProcess({ "animation", "--help" }).out.find("render animation")
        != std::string::npos);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("cli render draws the heat-map views and rejects their bad options")
{
    using parallax::test::cliProcess;
    parallax::test::TempDir dir;
    const auto out = (dir.path() / "matrix.png").string();
    const auto r
        = cliProcess({ "render", "comm-matrix", parallax::test::sampleRun("heavy-sender").string(),
            "-o", out, "--width", "800", "--height", "500", "--metric", "bytes" });
    CHECK(r.exitCode == 0);
    const auto bytes = parallax::test::readFile(out);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.substr(1, 3) == "PNG");
    CHECK(bytes.size() > 10'000);
    const auto svg = (dir.path() / "matrix.svg").string();
    CHECK(cliProcess({ "render", "comm-matrix", commRun(), "-o", svg }).exitCode == 0);
    CHECK(parallax::test::readFile(svg).find("<svg") != std::string::npos);
    const auto evolution = (dir.path() / "evolution.png").string();
    CHECK(cliProcess({ "render", "msg-size-evolution", commRun(), "-o", evolution, "--event",
                         "receive", "--sizes", "linear", "--entries", "2" })
              .exitCode
        == 0);
    CHECK(parallax::test::readFile(evolution).substr(1, 3) == "PNG");
    // The animation: an animated PNG (an acTL chunk before the first frame) and, on request,
    // every frame as a numbered PNG.
    const auto animation = (dir.path() / "animation.png").string();
    const auto frames = dir.path() / "frames";
    CHECK(cliProcess({ "render", "animation", commRun(), "-o", animation, "--frames", "3",
                         "--frames-dir", frames.string(), "--width", "400", "--height", "300" })
              .exitCode
        == 0);
    const auto apng = parallax::test::readFile(animation);
    CHECK(apng.substr(1, 3) == "PNG");
    CHECK(apng.find("acTL") < apng.find("IDAT"));
    CHECK(apng.find("fdAT") != std::string::npos);
    CHECK(std::filesystem::exists(frames / "frame-0003.png"));
    CHECK_FALSE(std::filesystem::exists(frames / "frame-0004.png"));
    const auto noFrames = cliProcess({ "render", "comm-matrix", commRun(), "-o",
        (dir.path() / "x.png").string(), "--frames-dir", frames.string() });
    CHECK(noFrames.exitCode == 2);
    const auto bad = cliProcess({ "render", "comm-matrix", commRun(), "-o",
        (dir.path() / "bad.png").string(), "--by", "chare" });
    CHECK(bad.exitCode == 2);
    CHECK(bad.errLines().size() == 1);
    CHECK_FALSE(std::filesystem::exists(dir.path() / "bad.png"));
}
#endif
