// `parallax-cli render --session FILE VIEW`: draws a saved view headless with the session's run,
// selection, options and colours; `--version`; broken sessions and missing runs exit cleanly.

#include "cli_support.h"
#include "io/session_file.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

namespace {

// A session of the imbalance run with a Histogram and a Timeline in states of their own.
io::Session cliSessionFixture(const fs::path& run)
{
    io::Session s;
    s.runPath = run.string();
    s.views.push_back({ "histogram",
        { { "metric", "duration" }, { "bins", "25" }, { "bin-size", "40us" }, { "pes", "2-7" },
            { "log-scale", "off" } } });
    s.views.push_back({ "timeline",
        { { "range", "30000:42000" }, { "rows", "9,3,0" }, { "reference", "35000" } } });
    return s;
}

} // namespace

TEST_CASE("render --session draws the saved view as the same options given by hand do")
{
    TempDir dir;
    const auto run = sampleRun("imbalance");
    std::string error;
    REQUIRE(io::writeSession((dir / "s.parallax").string(), cliSessionFixture(run), &error));
    const auto fromSession = (dir / "session.png").string();
    const auto byHand = (dir / "hand.png").string();
    const auto a = cliProcess({ "render", "--session", (dir / "s.parallax").string(), "histogram",
        "-o", fromSession, "--width", "700", "--height", "400" });
    INFO(a.err);
    REQUIRE(a.exitCode == 0);
    const auto b = cliProcess(
        { "render", "histogram", run.string(), "-o", byHand, "--metric", "duration", "--bins", "25",
            "--bin-size", "40us", "--pes", "2-7", "--width", "700", "--height", "400" });
    REQUIRE(b.exitCode == 0);
    CHECK(readFile(fromSession) == readFile(byHand));

    // The timeline's rows keep their order; options on the command line win over the session.
    const auto c = cliProcess({ "render", "timeline", "--session", (dir / "s.parallax").string(),
        "-o", (dir / "t.png").string(), "--range", "31ms:33ms" });
    INFO(c.err);
    CHECK(c.exitCode == 0);
    CHECK(fs::file_size(dir / "t.png") > 1000);
}

TEST_CASE("render --session says what is wrong with the session, its run or its views")
{
    TempDir dir;
    writeFile(dir / "broken.parallax", "{\"format\": \"parallax-session\", \"version\": ");
    auto broken = cliProcess(
        { "render", "--session", (dir / "broken.parallax").string(), "usage", "-o", "x.png" });
    CHECK(broken.exitCode == 1);
    CHECK(broken.err.find("not valid JSON") != std::string::npos);

    auto session = cliSessionFixture(dir / "nowhere");
    std::string error;
    REQUIRE(io::writeSession((dir / "missing.parallax").string(), session, &error));
    auto missing = cliProcess(
        { "render", "--session", (dir / "missing.parallax").string(), "usage", "-o", "x.png" });
    CHECK(missing.exitCode == 1);
    CHECK(missing.err.find("is missing") != std::string::npos);

    session.runPath = sampleRun("imbalance").string();
    REQUIRE(io::writeSession((dir / "s.parallax").string(), session, &error));
    auto noView = cliProcess({ "render", "--session", (dir / "s.parallax").string(), "usage", "-o",
        (dir / "x.png").string() });
    CHECK(noView.exitCode == 2);
    CHECK(noView.err.find("no usage view (it has: histogram, timeline)") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "x.png"));
    auto noFile = cliProcess({ "render", "usage", "--session" });
    CHECK(noFile.exitCode == 2);
}

TEST_CASE("parallax-cli --version names the program and its version")
{
    const auto run = runCliInProcess({ "--version" });
    CHECK(run.exitCode == 0);
    CHECK(run.out.rfind("parallax-cli ", 0) == 0);
    CHECK(run.out.find('.') != std::string::npos);
}
