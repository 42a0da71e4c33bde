// The real parallax-cli executable (path passed in by CMake): exit codes and streams as a
// shell or a CI script sees them.

#include "cli_support.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

TEST_CASE("parallax-cli binary exits 0 and prints the same as the in-process command")
{
    for (const auto& args : std::vector<std::vector<std::string>> { { "entries", tinyRun() },
             { "timeline", tinyRun(), "--pe", "0", "--range", "1ms:2ms" } }) {
        INFO(args[0]);
        const auto process = cliProcess(args);
        const auto inProcess = runCliInProcess(args);
        CHECK(process.exitCode == 0);
        CHECK(process.out == inProcess.out);
        CHECK(process.err.empty());
    }
    const auto info = cliProcess({ "info", tinyRun() });
    CHECK(info.exitCode == 0);
    CHECK(info.out.find("\nend_us: 3100\n") != std::string::npos);
}

TEST_CASE("parallax-cli binary exits 1 on a run that cannot be opened")
{
    const auto missing = cliProcess({ "info", "/nonexistent/parallax/run-dir" });
    CHECK(missing.exitCode == 1);
    CHECK(missing.err.find("/nonexistent/parallax/run-dir") != std::string::npos);
    const auto version12 = cliProcess({ "info", brokenCase("version-12").string() });
    CHECK(version12.exitCode == 1);
    CHECK(version12.err.find("12.0") != std::string::npos);
}

TEST_CASE("parallax-cli binary exits 2 on bad arguments and 0 on --help")
{
    const auto unknown = cliProcess({ "frobnicate" });
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.out.empty());
    CHECK(splitLines(unknown.err).size() == 1);
    const auto badRange = cliProcess({ "timeline", tinyRun(), "--pe", "0", "--range", "5:1" });
    CHECK(badRange.exitCode == 2);
    CHECK(splitLines(badRange.err).size() == 1);
    CHECK(cliProcess({}).exitCode == 2);
    CHECK(cliProcess({ "--help" }).exitCode == 0);
    CHECK(cliProcess({ "timeline", "--help" }).exitCode == 0);
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("parallax-cli render writes every view as PNG and the timeline as SVG too")
{
    TempDir dir;
    const auto run = sampleRun("imbalance").string();
    for (const std::string view :
        { "overview", "usage", "time-profile", "histogram", "comm", "extrema", "timeline" }) {
        INFO(view);
        const auto out = (dir.path() / (view + ".png")).string();
        const auto r
            = cliProcess({ "render", view, run, "-o", out, "--width", "800", "--height", "500" });
        CHECK(r.exitCode == 0);
        const auto bytes = readFile(out);
        REQUIRE(bytes.size() > 8);
        CHECK(bytes.substr(1, 3) == "PNG");
        CHECK(bytes.size() > 10'000); // a chart, not a blank picture (those compress to ~2 kB)
    }
    const auto svgPath = (dir.path() / "timeline.svg").string();
    const auto svg = cliProcess({ "render", "timeline", run, "-o", svgPath, "--pes", "3,9" });
    CHECK(svg.exitCode == 0);
    const auto text = readFile(svgPath);
    CHECK(text.find("<svg") != std::string::npos);
    CHECK(text.find("PE 3") != std::string::npos); // labels stay text
    // The bar charts have no vector export: a clear error, not a PNG under an .svg name.
    const auto noSvg
        = cliProcess({ "render", "usage", run, "-o", (dir.path() / "usage.svg").string() });
    CHECK(noSvg.exitCode == 1);
    CHECK(noSvg.err.find("PNG only") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path() / "usage.svg"));
}

TEST_CASE("parallax-cli render takes each view's own options only")
{
    TempDir dir;
    const auto run = sampleRun("imbalance").string();
    const auto out = (dir.path() / "x.png").string();
    // An option of another view: a one-line error naming the views that take it, no picture.
    const auto clustersOption = cliProcess({ "render", "usage", run, "-o", out, "--k", "3" });
    CHECK(clustersOption.exitCode == 2);
    CHECK(splitLines(clustersOption.err).size() == 1);
    CHECK(clustersOption.err.find("the usage view has no option --k (it goes with clusters, noise)")
        != std::string::npos);
    const auto entries = cliProcess({ "render", "timeline", run, "-o", out, "--entries", "1" });
    CHECK(entries.exitCode == 2);
    CHECK(entries.err.find("no option --entries") != std::string::npos);
    const auto frames = cliProcess({ "render", "overview", run, "-o", out, "--frames-dir", "f" });
    CHECK(frames.err.find("--frames-dir applies to the animation view only") != std::string::npos);
    const auto unknown = cliProcess({ "render", "usage", run, "-o", out, "--bogus", "1" });
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.find("unknown option --bogus") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    // The view's own help: the common options and its own, not the others'.
    const auto help = cliProcess({ "render", "histogram", "--help" });
    CHECK(help.exitCode == 0);
    CHECK(help.out.find("--bin-size X") != std::string::npos);
    CHECK(help.out.find("--width W") != std::string::npos);
    CHECK(help.out.find("--criterion") == std::string::npos);
    // render --help still lists every view and, in short, every view's options.
    const auto all = cliProcess({ "render", "--help" });
    CHECK(all.out.find("VIEW: overview, usage,") != std::string::npos);
    CHECK(all.out.find(" iterations,") != std::string::npos);
    CHECK(all.out.find(" live.\n") != std::string::npos);
    CHECK(all.out.find("--criterion") != std::string::npos);
}
#endif
