// parallax-cli stream and stream-serve (docs/streaming.md): the real binary polls a CCS server
// running inside the test, records and replays; the simulator serves the client; unreachable
// and silent ports end with one line and exit code 1; bad arguments with exit code 2.

#include "cli_support.h"
#include "support/ccs_test_server.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace parallax;

namespace {

// A socket that listens but never accepts: connects succeed, no reply ever comes.
struct SilentPort {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    std::uint16_t port = 0;
    SilentPort()
    {
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(fd, 4) == 0);
        socklen_t length = sizeof address;
        REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
        port = ntohs(address.sin_port);
    }
    ~SilentPort() { ::close(fd); }
    SilentPort(const SilentPort&) = delete;
    SilentPort& operator=(const SilentPort&) = delete;
};

bool hasLine(const std::vector<std::string>& lines, const std::string& line)
{
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// Starts `parallax-cli stream-serve --port 0 SERVE_ARGS` (the simulator ends by itself), polls it
// with `parallax-cli stream ENDPOINT --seconds SECONDS --poll-ms 2`, and checks that the server
// said where it serves and exited cleanly; the client's run is the result.
test::CliRun streamFromServedSimulator(const std::string& serveArgs, const std::string& seconds)
{
    const std::string command
        = test::shellQuote(PARALLAX_CLI_PATH) + " stream-serve --port 0 " + serveArgs;
    FILE* serve = ::popen(command.c_str(), "r");
    REQUIRE(serve != nullptr);
    char line[128] = {};
    REQUIRE(std::fgets(line, sizeof line, serve) != nullptr);
    const std::string serving(line);
    REQUIRE(serving.rfind("serving on 127.0.0.1:", 0) == 0);
    const auto endpoint = serving.substr(11, serving.size() - 12);
    const auto client
        = test::cliProcess({ "stream", endpoint, "--seconds", seconds, "--poll-ms", "2" });
    CHECK(::pclose(serve) == 0);
    return client;
}

} // namespace

TEST_CASE("cli stream: polls a program, writes 100-ms CSV, records, and replays the same")
{
    test::TempDir dir;
    test::writeFile(dir / "prog.util.sts",
        "MACHINE netlrts-linux-x86_64\nPROCESSORS 2\nTOTAL_CHARES 1\nTOTAL_EPS 8\n"
        "CHARE 0 Worker 1\nENTRY CHARE 3 compute() 0 -1\nENTRY CHARE 7 exchange() 0 -1\nEND\n");
    test::CcsTestServer server;
    server.queueChunk(test::handMadeChunk());
    auto corrupt = core::stream::encodeUtilizationPayload(test::handMadeChunk());
    corrupt.push_back(1);
    server.queuePayload(corrupt);
    server.queueChunk(test::handMadeChunk());
    const auto recording = (dir / "run.plxstream").string();

    const auto live = test::cliProcess({ "stream", server.endpoint(), "--seconds", "2", "--poll-ms",
        "5", "--record", recording, "--sts", (dir / "prog.util.sts").string() });
    INFO(live.err);
    REQUIRE(live.exitCode == 0);
    const auto lines = live.outLines();
    REQUIRE(!lines.empty());
    CHECK(lines[0] == "second,begin_ms,entry,ep,utilization_percent");
    // Hand-checked: [0, 100) ms entry 3 at 75 %, Other 5 %; [100, 200) ms entry 7 at 40 %.
    CHECK(hasLine(lines, "0,0,Worker::compute(),3,75"));
    CHECK(hasLine(lines, "0,0,Other,10000,5"));
    CHECK(hasLine(lines, "0,100,Worker::exchange(),7,40"));
    CHECK(hasLine(lines, "1,1000,Worker::compute(),3,75"));
    CHECK(lines.size() == 7); // header + 3 rows per second
    CHECK_THAT(live.err, Catch::Contains("connected to " + server.endpoint() + ": 1 nodes, 2 PEs"));
    CHECK_THAT(live.err, Catch::Contains("chunk refused"));

    // The recording holds the three non-empty replies; the replay refuses the corrupt one again.
    const auto replay = test::cliProcess(
        { "stream", "--replay", recording, "--sts", (dir / "prog.util.sts").string() });
    REQUIRE(replay.exitCode == 0);
    CHECK(replay.out == live.out);
    CHECK_THAT(replay.err, Catch::Contains("record 2: chunk refused"));

    // A recording cut short: the complete records, and a warning that says where.
    const auto whole = test::readFile(recording);
    test::writeFile(dir / "cut.plxstream", whole.substr(0, whole.size() - 100));
    const auto cut = test::cliProcess({ "stream", "--replay", (dir / "cut.plxstream").string() });
    CHECK(cut.exitCode == 0);
    CHECK(cut.outLines().size() == 4);
    CHECK_THAT(cut.err, Catch::Contains("inside record 3"));
}

TEST_CASE("cli stream: refused and silent ports end in one line, exit code 1")
{
    std::uint16_t closedPort = 0;
    {
        SilentPort bound; // its port is free again once closed
        closedPort = bound.port;
    }
    const auto refused = test::cliProcess({ "stream", "127.0.0.1:" + std::to_string(closedPort) });
    CHECK(refused.exitCode == 1);
    CHECK(refused.errLines().size() == 1);
    CHECK_THAT(refused.err, Catch::Contains("refused"));

    SilentPort silent;
    const auto timeout = test::cliProcess(
        { "stream", "127.0.0.1:" + std::to_string(silent.port), "--timeout-ms", "100" });
    CHECK(timeout.exitCode == 1);
    CHECK(timeout.errLines().size() == 1);
    CHECK_THAT(timeout.err, Catch::Contains("within 100 ms"));

    const auto missing = test::cliProcess({ "stream", "--replay", "/nonexistent/x.plxstream" });
    CHECK(missing.exitCode == 1);
    CHECK(missing.errLines().size() == 1);
}

TEST_CASE("cli stream: bad arguments are usage errors")
{
    test::requireUsageError({ "stream" }, "missing HOST:PORT");
    test::requireUsageError({ "stream", "localhost" }, "HOST:PORT");
    test::requireUsageError({ "stream", "localhost:0" }, "1 to 65535");
    test::requireUsageError({ "stream", "h:1", "--seconds", "0" }, "--seconds");
    test::requireUsageError({ "stream", "--replay", "x", "--record", "y" }, "does not apply");
    test::requireUsageError({ "stream", "h:1", "--bogus" });
    test::requireUsageError({ "stream-serve", "--pes", "0" }, "--pes");
}

TEST_CASE("cli stream-serve: the simulator serves the client over the same protocol")
{
    // Chunks every 1 ms of program time, 3 of them, then it stops by itself.
    const auto client = streamFromServedSimulator("--pes 3 --seconds 3 --interval-ms 1", "3");
    INFO(client.err);
    REQUIRE(client.exitCode == 0);
    CHECK_THAT(client.err, Catch::Contains("1 nodes, 3 PEs"));
    const auto lines = client.outLines();
    REQUIRE(lines.size() > 30);
    CHECK(lines.back().rfind("2,", 0) == 0); // the third second
}

#ifdef PARALLAX_WITH_RENDER
TEST_CASE("cli render live: a recording drawn offscreen as the app's Live Utilization view")
{
    test::TempDir dir;
    const auto recording = (dir / "r.plxstream").string();
    test::CcsTestServer server;
    server.queueChunk(test::handMadeChunk());
    REQUIRE(test::cliProcess({ "stream", server.endpoint(), "--seconds", "1", "--poll-ms", "5",
                                 "--record", recording })
                .exitCode
        == 0);
    const auto png = (dir / "live.png").string();
    const auto run = test::cliProcess({ "render", "live", "--replay", recording, "-o", png,
        "--width", "800", "--height", "500" });
    INFO(run.err);
    CHECK(run.exitCode == 0);
    CHECK(test::readFile(png).substr(1, 3) == "PNG");
    const auto usage = test::cliProcess({ "render", "live", "-o", png });
    CHECK(usage.exitCode == 2);
    CHECK_THAT(usage.err, Catch::Contains("missing --replay"));
}
#endif

TEST_CASE("cli stream-serve: --from RUN serves the chunks the run would have streamed")
{
    // The run lasts 134 ms: one chunk of 133 bins (its traced span at 1 ms), two 100-ms points.
    const auto client = streamFromServedSimulator(
        "--interval-ms 1 --from " + test::shellQuote(test::sampleRun("imbalance").string()), "1");
    INFO(client.err);
    REQUIRE(client.exitCode == 0);
    CHECK_THAT(client.err, Catch::Contains("1 nodes, 12 PEs"));
    const auto lines = client.outLines();
    REQUIRE(lines.size() > 2);
    CHECK(lines.back().rfind("0,100,", 0) == 0);
}
