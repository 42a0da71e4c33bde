// The live utilization stream (docs/streaming.md): the payload decoder and the stream model
// with hand-checked numbers, the CCS client against a real TCP server inside the test (normal
// polling, empty replies, a connection closed without a reply, a truncated reply, a corrupt
// payload, a port that never answers, a refused port), and recordings (round trip, cut file).

#include "core/stream/utilization_stream.h"
#include "io/stream/ccs_client.h"
#include "io/stream/socket_io.h"
#include "io/stream/stream_recording.h"
#include "io/sts_reader.h"
#include "support/ccs_test_server.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace parallax;
using core::stream::kOtherEntry;
using core::stream::PayloadKind;
using core::stream::UtilizationStream;
using io::stream::CcsStatus;

namespace {

double shareOf(const core::stream::UtilizationPoint& point, std::uint16_t entry)
{
    for (const auto& share : point.shares)
        if (share.entry == entry)
            return share.percent;
    return 0.0;
}

io::stream::CcsEndpoint endpointOf(const test::CcsTestServer& server)
{
    return { "127.0.0.1", server.port() };
}

io::stream::CcsResult pollStream(
    const test::CcsTestServer& server, io::stream::CcsClientOptions options = {})
{
    return io::stream::ccsRequest(
        endpointOf(server), io::stream::kUtilizationHandler, 0, {}, options);
}

// The payload of a chunk: le32 bins, le32 PEs, per bin le16 count + 3-byte records.
std::vector<std::uint8_t> twoBinPayload()
{
    return { 2, 0, 0, 0, 4, 0, 0, 0, // 2 bins, 4 PEs
        1, 0, 3, 0, 200, // bin 0: entry 3 at 200
        2, 0, 3, 0, 50, 0x10, 0x27, 25 }; // bin 1: entry 3 at 50, Other (10000) at 25
}

} // namespace

TEST_CASE("stream: a payload decodes by hand, little-endian, Other last")
{
    const auto bytes = twoBinPayload();
    const auto decoded = core::stream::decodeUtilizationPayload(bytes);
    REQUIRE(decoded.kind == PayloadKind::Chunk);
    CHECK(decoded.chunk.pes == 4);
    REQUIRE(decoded.chunk.binCount() == 2);
    REQUIRE(decoded.chunk.bin(0).size() == 1);
    CHECK(decoded.chunk.bin(0)[0] == core::stream::UtilizationRecord { 3, 200 });
    REQUIRE(decoded.chunk.bin(1).size() == 2);
    CHECK(decoded.chunk.bin(1)[1] == core::stream::UtilizationRecord { kOtherEntry, 25 });
    // The encoder writes the very same bytes back.
    CHECK(core::stream::encodeUtilizationPayload(decoded.chunk) == bytes);
    CHECK(core::stream::decodeUtilizationPayload(core::stream::encodeEmptyUtilizationPayload()).kind
        == PayloadKind::Empty);
}

TEST_CASE("stream: corrupt payloads are refused with a message that says where")
{
    auto expectCorrupt = [](std::vector<std::uint8_t> bytes, const std::string& words) {
        const auto decoded = core::stream::decodeUtilizationPayload(bytes);
        INFO(decoded.error);
        CHECK(decoded.kind == PayloadKind::Corrupt);
        CHECK_THAT(decoded.error, Catch::Contains(words));
    };
    auto bytes = twoBinPayload();
    bytes.push_back(0);
    expectCorrupt(bytes, "1 trailing bytes");
    bytes = twoBinPayload();
    bytes.resize(bytes.size() - 2);
    expectCorrupt(bytes, "bin 1 claims 2 records");
    bytes = twoBinPayload();
    bytes[12] = 251; // bin 0's utilization
    expectCorrupt(bytes, "utilization 251");
    expectCorrupt({ 0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0 }, "bins (at most");
    expectCorrupt({ 3, 0, 0, 0, 1, 0, 0, 0, 0, 0 }, "too short for 3 bins");
    expectCorrupt({ 1, 0 }, "shorter than its 4-byte bin count");
    expectCorrupt({ 0, 0, 0, 0, 9 }, "empty utilization payload has 1 trailing");
    expectCorrupt({ 1, 0, 0, 0 }, "before its PE count");
}

TEST_CASE("stream: 100-ms and 1-ms averages, totals and names of a hand-made chunk")
{
    UtilizationStream stream;
    stream.appendChunk(test::handMadeChunk());
    stream.appendChunk(test::handMadeChunk());
    REQUIRE(stream.chunkCount() == 2);
    CHECK(stream.endMs() == 2000);
    CHECK(stream.chunkAtMs(999) == 0);
    CHECK(stream.chunkAtMs(1000) == 1);
    CHECK(stream.chunkAtMs(5000) == 1);

    const auto tenths = stream.points(1, 1, 100); // the second chunk: program time [1, 2) s
    REQUIRE(tenths.size() == 10);
    CHECK(tenths[0].beginMs == 1000);
    CHECK(tenths[0].bins == 100);
    CHECK(shareOf(tenths[0], 3) == Approx(75.0)); // (50 × 250 + 50 × 125) / 100 / 2.5
    CHECK(shareOf(tenths[0], kOtherEntry) == Approx(5.0)); // 50 × 25 / 100 / 2.5
    CHECK(tenths[0].totalPercent() == Approx(80.0));
    CHECK(shareOf(tenths[1], 7) == Approx(40.0));
    CHECK(tenths[1].shares.size() == 1);
    CHECK(tenths[2].shares.empty());

    const auto recent = stream.recentTenths(10);
    CHECK(recent.size() == 20); // only 2 s received
    CHECK(stream.recentTenths(1).front().beginMs == 1000);

    const auto detail = stream.points(0, 1, 1);
    REQUIRE(detail.size() == 1000);
    CHECK(shareOf(detail[10], 3) == Approx(100.0));
    CHECK(shareOf(detail[60], 3) == Approx(50.0));
    CHECK(shareOf(detail[60], kOtherEntry) == Approx(10.0));
    CHECK(detail[500].shares.empty());

    const auto totals = stream.entryTotals();
    REQUIRE(totals.size() == 3);
    CHECK(totals[0].entry == 3);
    CHECK(totals[0].percent == Approx(7.5));
    CHECK(totals[1].percent == Approx(4.0));
    CHECK(totals[2].entry == kOtherEntry);
    CHECK(totals[2].percent == Approx(0.5));

    CHECK(stream.entryName(kOtherEntry) == "Other");
    CHECK(stream.entryName(3) == "Entry 3");
    stream.setEntryNames({ "", "", "", "Worker::compute(int n)" });
    CHECK(stream.entryName(3) == "Worker::compute(int n)");
    CHECK(stream.entryName(7) == "Entry 7");
}

TEST_CASE("stream: with 1-ms bins kept for the newest seconds, older ones keep their tenths")
{
    UtilizationStream whole;
    UtilizationStream recent;
    recent.setDetailSeconds(2);
    for (std::uint64_t k = 0; k < 5; ++k) {
        auto chunk = core::stream::syntheticUtilizationChunk(k, 4);
        whole.appendChunk(chunk);
        recent.appendChunk(std::move(chunk));
    }
    CHECK_FALSE(recent.hasBins(2));
    CHECK(recent.hasBins(3));
    CHECK(recent.chunk(0).binCount() == 0);
    CHECK(recent.chunkCount() == 5);
    CHECK(recent.endMs() == whole.endMs());
    CHECK(recent.chunkAtMs(2500) == 2);
    // The 100-ms points of every second are unchanged, dropped bins or not.
    const auto all = whole.points(0, 5, 100);
    const auto kept = recent.points(0, 5, 100);
    REQUIRE(kept.size() == all.size());
    REQUIRE(kept.size() == 50);
    for (std::size_t i = 0; i < all.size(); ++i) {
        CHECK(kept[i].beginMs == all[i].beginMs);
        CHECK(kept[i].totalPercent() == Approx(all[i].totalPercent()));
        CHECK(kept[i].shares.size() == all[i].shares.size());
    }
    // 1-ms points only where the bins are kept.
    CHECK(recent.points(0, 3, 1).empty());
    CHECK(recent.points(3, 1, 1).size() == 1000);
    CHECK(recent.points(2, 2, 1).front().beginMs == 3000);
    const auto totals = recent.entryTotals();
    REQUIRE(totals.size() == whole.entryTotals().size());
    CHECK(totals.front().percent == Approx(whole.entryTotals().front().percent));
    // Asking for fewer seconds later lets go of more.
    recent.setDetailSeconds(1);
    CHECK_FALSE(recent.hasBins(3));
    CHECK(recent.points(0, 5, 100).size() == 50);
}

TEST_CASE("stream: a .util.sts names the entries")
{
    test::TempDir dir;
    test::writeFile(dir / "prog.util.sts",
        "MACHINE netlrts-linux-x86_64\nPROCESSORS 2\nTOTAL_CHARES 2\nTOTAL_EPS 2\n"
        "TOTAL_MSGS 0\nTOTAL_PSEUDOS 0\nTOTAL_EVENTS 0\nCHARE 0 Main 0\nCHARE 1 Worker 1\n"
        "ENTRY CHARE 0 Main(CkArgMsg* impl_msg) 0 1\nENTRY CHARE 1 compute() 1 -1\nEND\n");
    core::ImportReport report;
    const auto sts = io::readSts((dir / "prog.util.sts").string(), report);
    INFO(sts.error);
    REQUIRE(sts.ok);
    const auto names = core::stream::streamEntryNames(sts.metadata);
    REQUIRE(names.size() == 2);
    CHECK(names[1] == "Worker::compute()");
}

TEST_CASE("stream: polling a CCS server: chunks in order, then empty replies, ccs_getinfo")
{
    test::CcsTestServer server({ { 2, 2 } });
    server.queueChunk(test::handMadeChunk(4));
    server.queueChunk(core::stream::syntheticUtilizationChunk(1, 4));

    std::string error;
    const auto info = io::stream::ccsGetInfo(endpointOf(server), {}, error);
    INFO(error);
    REQUIRE(info);
    CHECK(info->pesPerNode.size() == 2);
    CHECK(info->pes() == 4);

    UtilizationStream stream;
    for (int poll = 0; poll < 3; ++poll) {
        const auto reply = pollStream(server);
        INFO(reply.error);
        REQUIRE(reply.ok());
        const auto outcome = stream.appendPayload(reply.payload);
        CHECK(outcome.kind == (poll < 2 ? PayloadKind::Chunk : PayloadKind::Empty));
    }
    CHECK(stream.chunkCount() == 2);
    CHECK(stream.pes() == 4);
    CHECK(shareOf(stream.points(0, 1, 100)[0], 3) == Approx(75.0));
    CHECK(server.streamRequests() == 3);

    // An unknown handler gets an empty reply, like a Charm++ program's.
    const auto unknown
        = io::stream::ccsRequest(endpointOf(server), "CkPerfSumDetail uchar", 0, {}, {});
    REQUIRE(unknown.ok());
    CHECK(unknown.payload.empty());
}

TEST_CASE("stream: closed without a reply, truncated and corrupt replies keep what was had")
{
    test::CcsTestServer server;
    server.queueChunk(test::handMadeChunk());
    server.queueAnswer(io::stream::CcsAnswer::closeSilently());
    auto cut
        = io::stream::encodeCcsReply(core::stream::encodeUtilizationPayload(test::handMadeChunk()));
    cut.resize(cut.size() / 2);
    server.queueAnswer({ cut, false });
    server.queueAnswer({ { 0, 0 }, false }); // half a length
    auto corrupt = core::stream::encodeUtilizationPayload(test::handMadeChunk());
    corrupt.push_back(7);
    server.queuePayload(corrupt);

    UtilizationStream stream;
    auto first = pollStream(server);
    REQUIRE(first.ok());
    REQUIRE(stream.appendPayload(first.payload).kind == PayloadKind::Chunk);

    const auto closed = pollStream(server);
    CHECK(closed.status == CcsStatus::ClosedWithoutReply);
    CHECK_THAT(closed.error, Catch::Contains("closed the connection without a reply"));

    const auto truncated = pollStream(server);
    CHECK(truncated.status == CcsStatus::Truncated);
    CHECK_THAT(truncated.error, Catch::Contains("cut after"));
    CHECK_THAT(truncated.error, Catch::Contains("of 2758 bytes")); // 8 + 2 × 1000 + 3 × 250 records

    const auto halfLength = pollStream(server);
    CHECK(halfLength.status == CcsStatus::Truncated);
    CHECK_THAT(halfLength.error, Catch::Contains("2 of its 4 length bytes"));

    const auto bad = pollStream(server);
    REQUIRE(bad.ok());
    const auto outcome = stream.appendPayload(bad.payload);
    CHECK(outcome.kind == PayloadKind::Corrupt);
    CHECK_THAT(outcome.error, Catch::Contains("trailing bytes"));
    CHECK(stream.chunkCount() == 1); // the first chunk stays
    CHECK(shareOf(stream.points(0, 1, 100)[1], 7) == Approx(40.0));
}

TEST_CASE("stream: an absurd reply length is refused unread")
{
    test::CcsTestServer server;
    server.queueAnswer({ { 0x7f, 0xff, 0xff, 0xff }, false });
    const auto reply = pollStream(server);
    CHECK(reply.status == CcsStatus::TooLarge);
    CHECK_THAT(reply.error, Catch::Contains("claims 2147483647 bytes"));
}

TEST_CASE("stream: a port that accepts but never answers times out")
{
    test::CcsTestServer server;
    server.queueAnswer({ {}, true }); // held open, unanswered
    io::stream::CcsClientOptions options;
    options.replyTimeoutMs = 150;
    const auto reply = pollStream(server, options);
    CHECK(reply.status == CcsStatus::Timeout);
    CHECK_THAT(reply.error, Catch::Contains("within 150 ms"));
}

TEST_CASE("stream: a raised cancel signal abandons a request that would wait for long")
{
    test::CcsTestServer server;
    server.queueAnswer({ {}, true }); // held open, unanswered
    io::stream::CancelSignal cancel;
    CHECK_FALSE(cancel.raised());
    io::stream::CcsClientOptions options;
    options.replyTimeoutMs = 600'000; // only the cancel can end it within the test
    options.cancelFd = cancel.fd();
    bool drained = false;
    std::thread raiser([&] {
        drained = server.waitUntilDrained(); // the request is taken, its reply never comes
        cancel.raise();
    });
    const auto reply = pollStream(server, options);
    raiser.join();
    CHECK(drained);
    CHECK(reply.status == CcsStatus::Cancelled);
    CHECK_THAT(reply.error, Catch::Contains("abandoned"));
    CHECK(cancel.raised());
    CHECK(io::stream::waitCancelled(cancel.fd(), 600'000)); // stays raised: returns at once
    // Raised before the request: it does not even connect.
    CHECK(pollStream(server, options).status == CcsStatus::Cancelled);
}

TEST_CASE("stream: a refused port and bad endpoints say so in one line")
{
    // A port nobody listens on: bound (so no one else takes it) but not listening.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    const io::stream::CcsEndpoint closed { "127.0.0.1", ntohs(address.sin_port) };
    const auto reply = io::stream::ccsRequest(closed, io::stream::kUtilizationHandler, 0, {}, {});
    ::close(fd);
    CHECK(reply.status == CcsStatus::Refused);
    CHECK_THAT(reply.error, Catch::Contains("refused"));
    CHECK(reply.error.find('\n') == std::string::npos);

    std::string error;
    CHECK_FALSE(io::stream::parseCcsEndpoint("localhost", error));
    CHECK_THAT(error, Catch::Contains("HOST:PORT"));
    CHECK_FALSE(io::stream::parseCcsEndpoint("localhost:99999", error));
    CHECK_THAT(error, Catch::Contains("1 to 65535"));
    const auto ok = io::stream::parseCcsEndpoint("node7:1234", error);
    REQUIRE(ok);
    CHECK(ok->host == "node7");
    CHECK(ok->port == 1234);
}

TEST_CASE("stream: a recording round trip replays through the same decoder")
{
    test::TempDir dir;
    const auto path = (dir / "run.plxstream").string();
    std::string error;
    {
        io::stream::StreamRecorder recorder;
        REQUIRE(recorder.open(path, "127.0.0.1:1234", error));
        // Nothing at `path` until the recording stops (a temporary sibling holds it).
        CHECK_FALSE(test::fs::exists(path));
        REQUIRE(recorder.append(
            core::stream::encodeUtilizationPayload(test::handMadeChunk()), 11, error));
        REQUIRE(recorder.append(twoBinPayload(), 22, error));
        CHECK(recorder.records() == 2);
        REQUIRE(recorder.finish(error));
    }
    REQUIRE(test::fs::exists(path));
    CHECK(std::distance(test::fs::directory_iterator(dir.path()), test::fs::directory_iterator {})
        == 1);

    const auto recording = io::stream::readStreamRecording(path);
    REQUIRE(recording.ok);
    CHECK(recording.cut.empty());
    CHECK(recording.source == "127.0.0.1:1234");
    REQUIRE(recording.replies.size() == 2);
    CHECK(recording.replies[1].receivedUs == 22);
    UtilizationStream stream;
    for (const auto& reply : recording.replies)
        CHECK(stream.appendPayload(reply.payload).kind == PayloadKind::Chunk);
    CHECK(shareOf(stream.points(0, 1, 100)[0], 3) == Approx(75.0));
    CHECK(stream.chunk(1).pes == 4);
}

TEST_CASE("stream: a recording cut in the middle gives every complete record and says where")
{
    test::TempDir dir;
    const auto path = (dir / "cut.plxstream").string();
    std::string error;
    io::stream::StreamRecorder recorder;
    REQUIRE(recorder.open(path, "sim", error));
    for (int k = 0; k < 3; ++k)
        REQUIRE(recorder.append(twoBinPayload(), 1, error));
    REQUIRE(recorder.finish(error));
    const auto whole = test::readFile(path);
    // header 16 + 3 ("sim"), 3 records of 12 + 21 bytes = 118; cut inside the third record.
    REQUIRE(whole.size() == 118);
    test::writeFile(path, whole.substr(0, 110));
    const auto recording = io::stream::readStreamRecording(path);
    REQUIRE(recording.ok);
    CHECK(recording.replies.size() == 2);
    CHECK_THAT(recording.cut, Catch::Contains("inside record 3"));
    CHECK_THAT(recording.cut, Catch::Contains("2 complete records"));

    test::writeFile(path, "not a recording at all");
    const auto bad = io::stream::readStreamRecording(path);
    CHECK_FALSE(bad.ok);
    CHECK_THAT(bad.error, Catch::Contains("not a Parallax stream recording"));
}

TEST_CASE("stream: a run's time profile becomes the chunks the module would have sent")
{
    // 1001 intervals of 1 ms, 2 PEs, 3 entries (+ overhead, idle, pack, unpack columns).
    core::analysis::TimeProfile profile;
    profile.grid.size = 1000;
    profile.grid.count = 1001;
    profile.columns.entryCount = 3;
    profile.peCount = 2;
    const auto width = static_cast<std::size_t>(profile.columns.count());
    profile.time.assign(1001 * width, 0.0);
    // Interval 0: entry 0 busy 1500 µs of 2000 (75 % → 187.5 → 187), entry 1 100 µs (5 % → 12,
    // under 25: Other), entry 2 150 µs (7.5 % → 18, Other); Other = 30.
    profile.time[0] = 1500;
    profile.time[1] = 100;
    profile.time[2] = 150;
    profile.time[static_cast<std::size_t>(profile.columns.idle())] = 250; // idle is never streamed
    // Interval 1000 (the second chunk's only bin): entry 2 all of both PEs.
    profile.time[1000 * width + 2] = 2000;
    const auto chunks = core::stream::chunksFromTimeProfile(profile);
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0].binCount() == 1000);
    CHECK(chunks[0].pes == 2);
    REQUIRE(chunks[0].bin(0).size() == 2);
    CHECK(chunks[0].bin(0)[0] == core::stream::UtilizationRecord { 0, 187 });
    CHECK(chunks[0].bin(0)[1] == core::stream::UtilizationRecord { kOtherEntry, 30 });
    CHECK(chunks[0].bin(1).empty());
    REQUIRE(chunks[1].binCount() == 1);
    CHECK(chunks[1].bin(0)[0] == core::stream::UtilizationRecord { 2, 250 });
}
