// LogLineParser: every record type of docs/format.md §2.3 / Appendix A in the versions 3.0,
// 7.0 and 11.0, using the worked example lines of §2.6, plus damaged and hostile lines.

#include "io/integer_scan.h"
#include "io/log_line_parser.h"
#include "io/sts_reader.h"
#include "support/scan_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <utility>

using namespace parallax;
using core::LogRecord;
using core::RecordType;
using io::LogLineParser;
using io::ParseStatus;

namespace {

// Chares and entries with the ids used by the §2.6 examples (pipit-hello1darray-v11,
// gen-feat-smp, gen-leanmd-smp, pipit-pingpong-v11); other ids stay unnamed.
core::RunMetadata exampleMetadata(double version)
{
    core::RunMetadata m;
    m.version = version;
    m.processors = 6;
    m.chares.resize(60);
    m.entries.resize(220);
    auto chare = [&](int id, const char* name, int ndims) {
        m.chares[static_cast<std::size_t>(id)] = { name, ndims };
    };
    auto entry = [&](int id, int chareId) {
        m.entries[static_cast<std::size_t>(id)] = { "ep" + std::to_string(id), chareId, -1 };
    };
    chare(0, "dummy_thread_chare", -1);
    chare(3, "SDAG", -1);
    chare(11, "CkReductionMgr", -1);
    chare(45, "Hello", 1);
    chare(46, "Ping2", 2);
    chare(47, "Cell", 3);
    chare(48, "Compute", 6);
    chare(49, "Ping3", 3);
    entry(0, 0); // dummy_thread_ep
    entry(3, 3); // SDAG_RTS
    entry(17, 11); // group EP
    entry(151, 45); // 1-D array EP
    entry(157, 46); // 2-D
    entry(161, 49); // 3-D
    entry(163, 47); // Cell_serial_0 (3-D)
    entry(170, 48); // 6-D
    entry(183, 11); // nodegroup-like EP (ndims -1)
    return m;
}

struct Parsed {
    ParseStatus status;
    LogRecord record;
    std::string why;
    // Copies of the spans (they point into the parser's buffers).
    std::vector<std::int32_t> objectId;
    std::vector<core::PeId> destinations;
    std::vector<std::int64_t> papi;
    std::string text;
};

Parsed parseWith(LogLineParser& parser, std::string_view line)
{
    Parsed p;
    p.status = parser.parse(line, p.record, p.why);
    p.objectId.assign(p.record.objectId.begin(), p.record.objectId.end());
    p.destinations.assign(p.record.destinations.begin(), p.record.destinations.end());
    p.papi.assign(p.record.papi.begin(), p.record.papi.end());
    p.text = std::string(p.record.text);
    return p;
}

Parsed parse(double version, std::string_view line)
{
    const auto metadata = exampleMetadata(version);
    LogLineParser parser(metadata);
    return parseWith(parser, line);
}

Parsed ok(double version, std::string_view line)
{
    auto p = parse(version, line);
    INFO("line '" << line << "' at version " << version << ": " << p.why);
    REQUIRE(p.status == ParseStatus::Ok);
    return p;
}

void malformed(double version, std::string_view line)
{
    const auto p = parse(version, line);
    INFO("line '" << line << "' at version " << version);
    CHECK(p.status == ParseStatus::Malformed);
    CHECK_FALSE(p.why.empty());
}

} // namespace

TEST_CASE("v11 computation and interrupt records")
{
    auto p = ok(11.0, "6 1345");
    CHECK(p.record.type == RecordType::BeginComputation);
    CHECK(p.record.time == 1345);
    p = ok(11.0, "7 2045");
    CHECK(p.record.type == RecordType::EndComputation);
    CHECK(p.record.time == 2045);
    p = ok(11.0, "8 151266 0 0");
    CHECK(p.record.type == RecordType::BeginInterrupt);
    CHECK(p.record.time == 151266);
    p = ok(11.0, "9 151592 0 0");
    CHECK(p.record.type == RecordType::EndInterrupt);
    CHECK(p.record.time == 151592);
    p = ok(11.0, "12 1202432");
    CHECK(p.record.type == RecordType::EndTrace);
    CHECK(p.record.time == 1202432);
    p = ok(11.0, "11 1204433");
    CHECK(p.record.type == RecordType::BeginTrace);
    CHECK(p.record.time == 1204433);
}

TEST_CASE("v11 CREATION and CREATION_BCAST carry the send duration and the PE count")
{
    auto p = ok(11.0, "1 18 124 1595 6 0 80 2");
    CHECK(p.record.type == RecordType::Creation);
    CHECK(p.record.messageType == 18);
    CHECK(p.record.entry == 124);
    CHECK(p.record.time == 1595);
    CHECK(p.record.eventId == 6);
    CHECK(p.record.pe == 0);
    CHECK(p.record.msgBytes == 80);
    CHECK(p.record.sendDuration == 2);

    p = ok(11.0, "20 3 5 1496 0 0 96 7 2");
    CHECK(p.record.type == RecordType::CreationBcast);
    CHECK(p.record.messageType == 3);
    CHECK(p.record.entry == 5);
    CHECK(p.record.time == 1496);
    CHECK(p.record.msgBytes == 96);
    CHECK(p.record.sendDuration == 7);
    CHECK(p.record.destinationCount == 2);

    // Thread awaken: ep 0, len 0.
    p = ok(11.0, "1 4 0 1100135 16 0 0 0");
    CHECK(p.record.entry == 0);
    CHECK(p.record.msgBytes == 0);
}

TEST_CASE("v11 CREATION_MULTICAST with the doubled PE count yields the destination list")
{
    const auto metadata = exampleMetadata(11.0);
    LogLineParser parser(metadata);
    const auto p = parseWith(parser, "21 5 160 1100360 21 0 176 1 2 2 0 2");
    REQUIRE(p.status == ParseStatus::Ok);
    CHECK(p.record.type == RecordType::CreationMulticast);
    CHECK(p.record.entry == 160);
    CHECK(p.record.eventId == 21);
    CHECK(p.record.msgBytes == 176);
    CHECK(p.record.sendDuration == 1);
    CHECK(p.record.destinationCount == 2);
    CHECK(p.destinations == std::vector<core::PeId> { 0, 2 });
    CHECK(parser.doubledMulticasts() == 1);
}

TEST_CASE("multicast in the Charm++ 6.x form with a single PE count")
{
    const auto metadata = exampleMetadata(11.0);
    LogLineParser parser(metadata);
    const auto p = parseWith(parser, "21 5 40 2100 33 0 96 3 3 1 2 5");
    REQUIRE(p.status == ParseStatus::Ok);
    CHECK(p.record.destinationCount == 3);
    CHECK(p.destinations == std::vector<core::PeId> { 1, 2, 5 });
    CHECK(parser.doubledMulticasts() == 0);
}

TEST_CASE("multicast whose PE list does not match its count is malformed")
{
    malformed(11.0, "21 5 40 2100 33 0 96 3 3 1 2");
    malformed(11.0, "21 5 40 2100 33 0 96 3 3 3 1 2 5 7");
    malformed(11.0, "21 5 40 2100 33 0 96 3 2 3 1 5"); // second count differs from the first
    malformed(11.0, "21 5 40 2100 33 0 96 3 -1");
    malformed(11.0, "21 5 40 2100 33 0 96 3 2000000000 1 2 3");
}

TEST_CASE("v11 BEGIN_PROCESSING of a 1-D array entry has one index value")
{
    const auto p = ok(11.0, "2 4 151 1695 7 0 80 0 0 1108");
    CHECK(p.record.type == RecordType::BeginProcessing);
    CHECK(p.record.messageType == 4);
    CHECK(p.record.entry == 151);
    CHECK(p.record.time == 1695);
    CHECK(p.record.eventId == 7);
    CHECK(p.record.pe == 0);
    CHECK(p.record.msgBytes == 80);
    CHECK(p.objectId == std::vector<std::int32_t> { 0 });
    CHECK(p.record.hasCpuTime);
    CHECK(p.record.cpuTime == 1108);
}

TEST_CASE("v11 BEGIN_PROCESSING of a non-array entry has the 4-int object id")
{
    auto p = ok(11.0, "2 5 17 1930 0 1 208 0 0 0 0 0 1108");
    CHECK(p.record.entry == 17);
    CHECK(p.record.pe == 1);
    CHECK(p.record.msgBytes == 208);
    CHECK(p.objectId == std::vector<std::int32_t> { 0, 0, 0, 0 });
    CHECK(p.record.cpuTime == 1108);

    // Thread resumption: dummy_thread_ep, thread id as 4 ints.
    p = ok(11.0, "2 4 0 1100136 0 0 0 0 0 0 0 0 154096");
    CHECK(p.objectId.size() == 4);
    CHECK(p.record.cpuTime == 154096);

    // SDAG_RTS: raw object id of a 6-D element.
    p = ok(11.0, "2 65535 3 630744 -1 0 0 0 131076 327684 327683 0 206043");
    CHECK(p.record.messageType == 65535);
    CHECK(p.record.eventId == -1);
    CHECK(p.objectId == std::vector<std::int32_t> { 131076, 327684, 327683, 0 });
    CHECK(p.record.cpuTime == 206043);
}

TEST_CASE("v11 BEGIN_PROCESSING of 2-D 3-D and 6-D array entries has ndims index values")
{
    auto p = ok(11.0, "2 4 157 82030 0 0 64 0 0 1 81938");
    CHECK(p.objectId == std::vector<std::int32_t> { 0, 1 });
    CHECK(p.record.cpuTime == 81938);
    p = ok(11.0, "2 4 161 82039 0 0 64 0 0 0 1 81947");
    CHECK(p.objectId == std::vector<std::int32_t> { 0, 0, 1 });
    p = ok(11.0, "2 65535 163 628720 -1 0 0 0 0 2 0 204172");
    CHECK(p.objectId == std::vector<std::int32_t> { 0, 2, 0 });
    CHECK(p.record.cpuTime == 204172);
    p = ok(11.0, "2 4 170 700 3 0 64 0 4 2 4 5 3 5 9000");
    CHECK(p.objectId == std::vector<std::int32_t> { 4, 2, 4, 5, 3, 5 });
    CHECK(p.record.cpuTime == 9000);
    p = ok(11.0, "2 19 183 82012 10 0 160 0 0 0 0 0 81920");
    CHECK(p.objectId.size() == 4);
}

TEST_CASE("BEGIN_PROCESSING with an implausible number of fields is malformed")
{
    malformed(11.0, "2 4 151 1695 7 0 80"); // no recvT, no ids, no cpu
    malformed(11.0, "2 4 151 1695 7 0 80 0");
    malformed(11.0, "2 4 151 1695 7 0 80 0 1 2 3 4 5 6 7 1108"); // 7 ids
    malformed(11.0, "2 4 151 1695 7 0 80 0 x 1108");
}

TEST_CASE("v11 END_PROCESSING carries the CPU time")
{
    const auto p = ok(11.0, "3 0 151 1704 7 0 0 1108");
    CHECK(p.record.type == RecordType::EndProcessing);
    CHECK(p.record.messageType == 0);
    CHECK(p.record.entry == 151);
    CHECK(p.record.time == 1704);
    CHECK(p.record.eventId == 7);
    CHECK(p.record.msgBytes == 0);
    CHECK(p.record.hasCpuTime);
    CHECK(p.record.cpuTime == 1108);
    malformed(11.0, "3 0 151 1704 7 0 0");
    malformed(11.0, "3 0 151 1704 7 0 0 1108 5");
}

TEST_CASE("v11 idle pack and unpack records")
{
    const std::pair<const char*, RecordType> cases[] = {
        { "14 1968 0", RecordType::BeginIdle },
        { "15 1974 0", RecordType::EndIdle },
        { "16 1499 0", RecordType::BeginPack },
        { "17 1499 0", RecordType::EndPack },
        { "18 1501 0", RecordType::BeginUnpack },
        { "19 1501 0", RecordType::EndUnpack },
    };
    for (const auto& [line, type] : cases) {
        const auto p = ok(11.0, line);
        CHECK(p.record.type == type);
        CHECK(p.record.pe == 0);
    }
    CHECK(ok(11.0, "14 1968 0").record.time == 1968);
    malformed(11.0, "14 1968");
    malformed(11.0, "14 1968 0 0");
}

TEST_CASE("v11 user events user stats and bracketed user events")
{
    auto p = ok(11.0, "13 0 1604 8 0");
    CHECK(p.record.type == RecordType::UserEvent);
    CHECK(p.record.userEventId == 0);
    CHECK(p.record.time == 1604);
    CHECK(p.record.eventId == 8);

    p = ok(11.0, "32 1604 -1 0 0 200");
    CHECK(p.record.type == RecordType::UserStat);
    CHECK(p.record.time == 1604);
    CHECK(p.record.userTime == Approx(-1.0));
    CHECK(p.record.statValue == Approx(0.0));
    CHECK(p.record.statId == 200);
    p = ok(11.0, "32 1100356 -1 1e+20 0 7");
    CHECK(p.record.statValue == Approx(1e20));

    p = ok(11.0, "98 1 1605 9 0 0");
    CHECK(p.record.type == RecordType::BeginUserEventPair);
    CHECK(p.record.userEventId == 1);
    CHECK(p.record.time == 1605);
    CHECK(p.record.eventId == 9);
    CHECK(p.record.nestedId == 0);
    p = ok(11.0, "99 1 1767 14 0 3");
    CHECK(p.record.type == RecordType::EndUserEventPair);
    CHECK(p.record.nestedId == 3);
    p = ok(11.0, "100 20 1100255 19 0 0");
    CHECK(p.record.type == RecordType::UserEventPair);
    CHECK(p.record.userEventId == 20);
    CHECK(p.record.time == 1100255);
    CHECK(p.record.eventId == 19);
    // nestedId is absent before Charm++ 6.8.
    p = ok(11.0, "100 20 1100255 19 0");
    CHECK(p.record.nestedId == 0);
}

TEST_CASE("v11 user-supplied value memory usage and END_PHASE")
{
    auto p = ok(11.0, "26 -2 1605");
    CHECK(p.record.type == RecordType::UserSupplied);
    CHECK(p.record.value == -2);
    CHECK(p.record.time == 1605);
    p = ok(11.0, "27 752910336 1100255");
    CHECK(p.record.type == RecordType::MemoryUsage);
    CHECK(p.record.value == 752910336);
    CHECK(p.record.time == 1100255);
    p = ok(11.0, "30 0 1168146");
    CHECK(p.record.type == RecordType::EndPhase);
    CHECK(p.record.value == 0);
    CHECK(p.record.time == 1168146);
}

TEST_CASE("notes are read in the Charm++ 6.7 form with a space before the text")
{
    auto p = ok(11.0, "28 2300 11 iteration 5");
    CHECK(p.record.type == RecordType::UserSuppliedNote);
    CHECK(p.record.time == 2300);
    CHECK(p.text == "iteration 5");
    p = ok(11.0, "29 2400 2450 3 6 solver");
    CHECK(p.record.type == RecordType::UserSuppliedBracketedNote);
    CHECK(p.record.time == 2400);
    CHECK(p.record.endTime == 2450);
    CHECK(p.record.userEventId == 3);
    CHECK(p.text == "solver");
}

TEST_CASE("notes are read in the Charm++ 7 form without a space before the text")
{
    auto p = ok(11.0, "28 1605 5hello");
    CHECK(p.text == "hello");
    p = ok(11.0, "29 2400 2450 3 6solver");
    CHECK(p.text == "solver");
    // Text with spaces of exactly len characters.
    p = ok(11.0, "28 1605 9two words");
    CHECK(p.text == "two words");
}

TEST_CASE("notes shorter than their length or without a length are malformed")
{
    malformed(11.0, "28 2300 20 too short");
    malformed(11.0, "28 2300 x text");
    malformed(11.0, "28 2300");
    malformed(11.0, "29 2400 2450 3");
}

TEST_CASE("legacy ENQUEUE DEQUEUE and function records are read")
{
    auto p = ok(11.0, "4 4 2600 42 0");
    CHECK(p.record.type == RecordType::Enqueue);
    CHECK(p.record.time == 2600);
    CHECK(p.record.eventId == 42);
    p = ok(11.0, "5 4 2650 42 0");
    CHECK(p.record.type == RecordType::Dequeue);
    p = ok(11.0, "22 1200 3 57foo.c");
    CHECK(p.record.type == RecordType::BeginFunc);
    CHECK(p.record.time == 1200);
    p = ok(11.0, "23 1300 3");
    CHECK(p.record.type == RecordType::EndFunc);
}

TEST_CASE("MESSAGE_RECV is read in the writer's and in Java's field order")
{
    auto p = ok(11.0, "10 4 55 2700 43 1 104");
    CHECK(p.record.type == RecordType::MessageRecv);
    CHECK(p.record.entry == 55);
    CHECK(p.record.time == 2700);
    CHECK(p.record.eventId == 43);
    CHECK(p.record.pe == 1);
    CHECK(p.record.msgBytes == 104);
    p = ok(11.0, "10 4 2700 43 1 104");
    CHECK(p.record.time == 2700);
    CHECK(p.record.eventId == 43);
    CHECK(p.record.pe == 1);
    CHECK(p.record.msgBytes == 104);
    malformed(11.0, "10 4 2700 43");
}

TEST_CASE("v3.0 lines have no send time no receive time no object id and no CPU time")
{
    auto p = ok(3.0, "1 3 1 19521 0 0 112");
    CHECK(p.record.type == RecordType::Creation);
    CHECK(p.record.entry == 1);
    CHECK(p.record.time == 19521);
    CHECK(p.record.msgBytes == 112);
    CHECK(p.record.sendDuration == 0);
    p = ok(3.0, "2 4 55 22933 16 0 104");
    CHECK(p.record.type == RecordType::BeginProcessing);
    CHECK(p.record.entry == 55);
    CHECK(p.record.time == 22933);
    CHECK(p.record.eventId == 16);
    CHECK(p.record.msgBytes == 104);
    CHECK(p.objectId.empty());
    CHECK_FALSE(p.record.hasCpuTime);
    p = ok(3.0, "3 0 55 23034 16 0 0");
    CHECK(p.record.type == RecordType::EndProcessing);
    CHECK_FALSE(p.record.hasCpuTime);
    CHECK(ok(3.0, "14 24045 0").record.time == 24045);
    CHECK(ok(3.0, "6 19373").record.time == 19373);
}

TEST_CASE("v11 lines read with a VERSION 3.0 table are malformed")
{
    malformed(3.0, "2 4 151 1695 7 0 80 0 0 1108");
    malformed(3.0, "1 18 124 1595 6 0 80 2");
    malformed(3.0, "3 0 151 1704 7 0 0 1108");
}

TEST_CASE("v7.0 lines have the 4-int object id and the send time")
{
    auto p = ok(7.0, "20 3 135 48607 9 0 160 9959 4");
    CHECK(p.record.type == RecordType::CreationBcast);
    CHECK(p.record.sendDuration == 9959);
    CHECK(p.record.destinationCount == 4);
    // Entry 151 is a 1-D array in this table, but before 9.0 every id has 4 ints.
    p = ok(7.0, "2 5 151 89152 0 2 368 0 0 0 0 0 88486");
    CHECK(p.objectId == std::vector<std::int32_t> { 0, 0, 0, 0 });
    CHECK(p.record.cpuTime == 88486);
    CHECK(p.record.msgBytes == 368);
    p = ok(7.0, "3 0 17 89155 0 2 0 88490");
    CHECK(p.record.cpuTime == 88490);
    p = ok(7.0, "1 4 132 89222 11 0 368 5");
    CHECK(p.record.sendDuration == 5);
}

TEST_CASE("v5.0 BEGIN_PROCESSING has a 3-int object id and no CPU time")
{
    const auto p = ok(5.0, "2 4 55 22933 16 0 104 0 7 8 9");
    CHECK(p.objectId == std::vector<std::int32_t> { 7, 8, 9 });
    CHECK_FALSE(p.record.hasCpuTime);
}

TEST_CASE("PAPI counter values follow the CPU time when the sts declares them")
{
    test::TempDir dir;
    test::writeFile(dir / "papi.sts",
        "PROJECTIONS_ID \n"
        "VERSION 11.0\n"
        "TOTAL_PHASES 1\n"
        "TOTAL_PAPI_EVENTS 2\n"
        "PAPI_EVENT 0 PAPI_L1_DCM\n"
        "PAPI_EVENT 1 PAPI_TOT_CYC\n"
        "MACHINE \"netlrts-linux-x86_64\"\n"
        "PROCESSORS 1\n"
        "TOTAL_CHARES 1\n"
        "TOTAL_EPS 1\n"
        "TOTAL_MSGS 0\n"
        "CHARE 0 \"Main\" -1\n"
        "ENTRY CHARE 0 \"run()\" 0 -1\n"
        "END\n");
    core::ImportReport report;
    const auto sts = io::readSts((dir / "papi.sts").string(), report);
    REQUIRE(sts.ok);
    CHECK(sts.metadata.papiEvents == std::vector<std::string> { "PAPI_L1_DCM", "PAPI_TOT_CYC" });
    LogLineParser parser(sts.metadata);
    auto p = parseWith(parser, "2 4 0 100 1 0 64 0 0 0 0 0 50 1234 987654321");
    REQUIRE(p.status == ParseStatus::Ok);
    CHECK(p.record.cpuTime == 50);
    CHECK(p.papi == std::vector<std::int64_t> { 1234, 987654321 });
    p = parseWith(parser, "3 0 0 200 1 0 0 60 2234 1987654321");
    REQUIRE(p.status == ParseStatus::Ok);
    CHECK(p.record.cpuTime == 60);
    CHECK(p.papi == std::vector<std::int64_t> { 2234, 1987654321 });
    // Without the counters the line is short.
    CHECK(parseWith(parser, "3 0 0 200 1 0 0 60").status == ParseStatus::Malformed);
    CHECK(parseWith(parser, "3 0 0 200 1 0 0 60 1 x").status == ParseStatus::Malformed);
}

TEST_CASE("unknown record types are reported as unknown, not malformed")
{
    for (const char* line : { "0 5", "50 1 2 3", "97 1 2", "101 1", "255", "-1 3", "300 1" }) {
        const auto p = parse(11.0, line);
        INFO("line '" << line << "'");
        CHECK(p.status == ParseStatus::UnknownType);
        CHECK_FALSE(p.why.empty());
    }
}

TEST_CASE("wrong token counts are malformed for every fixed-layout type")
{
    for (const char* line : { "1 18 124 1595 6 0 80", "1 18 124 1595 6 0 80 2 9",
             "20 3 5 1496 0 0 96 7", "20 3 5 1496 0 0 96 7 2 2", "6", "6 1 2", "7", "8 151266 0",
             "12", "13 0 1604 8", "13 0 1604 8 0 1", "26", "27 752910336", "30 0", "32 1604 -1 0 0",
             "98 1 1605 9", "100 20 1100255", "4 4 2600 42", "" }) {
        const auto p = parse(11.0, line);
        INFO("line '" << line << "'");
        CHECK(p.status == ParseStatus::Malformed);
    }
}

TEST_CASE("absurd numbers are rejected instead of being wrapped or truncated")
{
    // PE 2^40, 20-digit and negative times, overflowing fields, entry id above 65535.
    malformed(11.0, "1 18 124 1595 6 1099511627776 80 2");
    malformed(11.0, "2 4 151 1695 7 1099511627776 80 0 0 1108");
    malformed(11.0, "6 99999999999999999999");
    malformed(11.0, "7 -5");
    malformed(11.0, "14 -1968 0");
    malformed(11.0, "1 18 124 18446744073709551616 6 0 80 2");
    malformed(11.0, "1 18 70000 1595 6 0 80 2");
    malformed(11.0, "2 4 70000 1695 7 0 80 0 0 0 0 0 1108");
    malformed(11.0, "1 18 -1 1595 6 0 80 2");
    malformed(11.0, "1 70000 124 1595 6 0 80 2"); // mtype beyond unsigned short
    malformed(11.0, "1 18 124 1595 6 0 3000000000 2"); // len beyond int
    malformed(11.0, "13 99999999999 1604 8 0");
    // The largest legal values still parse.
    const auto p = ok(11.0, "1 65535 65535 9223372036854775807 -1 0 2147483647 0");
    CHECK(p.record.entry == 65535);
    CHECK(p.record.time == 9223372036854775807LL);
}

TEST_CASE("non-numeric garbage is malformed and never crashes")
{
    for (const char* line : { "hello world", "2 4 x 1695", "1e3 4", "PROJECTIONS-RECORD 5", "2.5 1",
             "+6 100", "6 1.5", "6 0x10", "\x01\x02\x03", "6\t100x", "7 2045abc" }) {
        const auto p = parse(11.0, line);
        INFO("line '" << line << "'");
        CHECK(p.status != ParseStatus::Ok);
    }
}

TEST_CASE("fields separated by several spaces or tabs are accepted")
{
    const auto p = ok(11.0, "2  4\t151 1695   7 0 80 0 0 1108  ");
    CHECK(p.record.entry == 151);
    CHECK(p.record.cpuTime == 1108);
}

TEST_CASE("common records read the same whether the quick scan or the field checks take them")
{
    // The parser takes BEGIN/END_PROCESSING, CREATION(_BCAST) and idle lines in one scan and
    // leaves anything unusual (19-digit numbers, the receive time printed as an unsigned -1,
    // an unknown entry) to the field-by-field checks: both must give the same record.
    const auto metadata = exampleMetadata(11.0);
    LogLineParser parser(metadata);
    // A multicast first, so a field it sets would show if the next record kept it.
    REQUIRE(parseWith(parser, "21 3 5 1496 0 0 96 7 2 2 1 4").status == ParseStatus::Ok);
    const auto send = parseWith(parser, "1 18 124 1595 6 0 80 2");
    REQUIRE(send.status == ParseStatus::Ok);
    CHECK(send.destinations.empty());
    CHECK(send.record.destinationCount == 0);
    CHECK(send.record.sendDuration == 2);

    const auto quick = parseWith(parser, "2 4 151 1695 7 0 80 0 12 1108");
    const auto unsignedReceive
        = parseWith(parser, "2 4 151 1695 7 0 80 18446744073709551615 12 1108");
    for (const auto* p : { &quick, &unsignedReceive }) {
        REQUIRE(p->status == ParseStatus::Ok);
        CHECK(p->objectId == std::vector<std::int32_t> { 12 });
        CHECK(p->record.cpuTime == 1108);
        CHECK(p->record.msgBytes == 80);
        CHECK(p->destinations.empty());
    }
    CHECK(parseWith(parser, "2 4 151 1695 7 0 80 -1 12 1108").status == ParseStatus::Malformed);

    // 18 digits are scanned, 19 are checked; both are times.
    CHECK(parseWith(parser, "14 123456789012345678 0").record.time == 123456789012345678LL);
    CHECK(parseWith(parser, "15 1234567890123456789 0").record.time == 1234567890123456789LL);
    const auto end = parseWith(parser, "3 0 151 -0 7 0 80 1234567890123456789");
    REQUIRE(end.status == ParseStatus::Ok);
    CHECK(end.record.time == 0);
    CHECK(end.record.cpuTime == 1234567890123456789LL);
    CHECK(parseWith(parser, "3 0 151 - 7 0 80 1").status == ParseStatus::Malformed);
    // An entry beyond the .sts: its object id length comes from the line.
    const auto unknown = parseWith(parser, "2 4 219 1695 7 0 80 0 1 2 3 1108");
    REQUIRE(unknown.status == ParseStatus::Ok);
    CHECK(unknown.objectId == std::vector<std::int32_t> { 1, 2, 3 });
}

TEST_CASE("parseInPlace takes a common line from the text up to its newline as parse does")
{
    // The loader hands the rest of a mapped file to parseInPlace; it must decode exactly the
    // lines the quick scan takes (same record as parse) and leave every other line untouched.
    // Both integer scans: the portable one, and the AVX-512 one where the processor has it.
    test::WideScanSwitch scans;
    scans.allowWide(GENERATE(false, true));
    const auto metadata = exampleMetadata(11.0);
    LogLineParser parser(metadata);
    scans.allowWide(true);
    LogLineParser reference(metadata);
    const std::string text = "2 4 151 1695 7 0 80 0 12 1108\n"
                             "1 18 124 1595 6 0 80 2\n"
                             "14 1700 0\r\n" // CRLF: the reader strips the CR, parse decides
                             "\n"
                             "3 0 151 1234567890123456789 7 0 80 1\n" // 19 digits
                             "15 1800 0 x\n"
                             "13  7\t1900 3 0  \n"
                             "3 0 151 2000 7 0 80 1"; // no newline: the reader's last line
    const std::vector<bool> inPlace { true, true, false, false, false, false, true, false };
    const char* at = text.data();
    const char* end = text.data() + text.size();
    for (const bool expected : inPlace) {
        const char* nl
            = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
        const auto line = std::string_view(at, nl != nullptr ? nl : end);
        INFO("line '" << line << "'");
        LogRecord record;
        const char* newline = nullptr;
        REQUIRE(parser.parseInPlace(at, end, record, newline) == expected);
        if (expected) {
            CHECK(newline == nl);
            const auto p = parseWith(reference, line);
            REQUIRE(p.status == ParseStatus::Ok);
            CHECK(record.type == p.record.type);
            CHECK(record.time == p.record.time);
            CHECK(record.entry == p.record.entry);
            CHECK(record.pe == p.record.pe);
            CHECK(record.eventId == p.record.eventId);
            CHECK(record.msgBytes == p.record.msgBytes);
            CHECK(record.cpuTime == p.record.cpuTime);
            CHECK(record.sendDuration == p.record.sendDuration);
            CHECK(record.userEventId == p.record.userEventId);
            CHECK(std::vector<std::int32_t>(record.objectId.begin(), record.objectId.end())
                == p.objectId);
        }
        at = nl != nullptr ? nl + 1 : end;
    }
}

#if PARALLAX_HAVE_WIDE_SCAN
namespace {
PARALLAX_WIDE_SCAN_TARGET bool wideScan(
    const char*& p, const char* end, std::int64_t* out, int& count)
{
    return io::scan::integersToNewlineWide(p, end, out, count);
}
} // namespace
#endif

TEST_CASE("the vector integer scans read every line exactly as the byte loop does")
{
    // Random lines of integers, blanks, tabs, signs and the odd foreign character, each followed
    // by enough text that the vector scans run (they need io::scan::kVectorReach bytes); the SSE2
    // and (where the processor has it) the AVX-512 scan must agree with the byte loop on
    // acceptance, values, count and where the line ends. Seeded: the same lines every run.
    const test::WideScanSwitch scans;
    const bool wide = test::WideScanSwitch::available();
    test::SeededRandom random(0x9E3779B97F4A7C15ULL);
    auto next = [&](std::uint64_t bound) {
        return random.below(bound);
    };
    const std::string digits = "0123456789";
    std::size_t accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string line;
        const auto tokens = next(20);
        for (std::uint64_t t = 0; t < tokens; ++t) {
            const auto gap = 1 + next(3);
            for (std::uint64_t g = 0; g < gap; ++g)
                line += next(30) == 0 ? '\t' : ' ';
            if (next(25) == 0)
                line += '-';
            // Mostly short numbers, sometimes long ones up to 20 digits.
            const auto length = next(8) == 0 ? 1 + next(20) : 1 + next(6);
            for (std::uint64_t d = 0; d < length; ++d)
                line += digits[next(10)];
            if (next(200) == 0)
                line += "x\r-"[next(3)];
        }
        if (next(4) == 0)
            line.erase(0, line.find_first_not_of(" \t"));
        std::string text = line + "\n" + std::string(100, '7');
        std::int64_t fast[io::scan::kMaxIntegers] = {};
        std::int64_t slow[io::scan::kMaxIntegers] = {};
        int fastCount = -1;
        int slowCount = -1;
        const char* fastAt = text.data();
        const char* slowAt = text.data();
        const char* end = text.data() + text.size();
        INFO("line '" << line << "'");
        const bool fastOk = io::scan::integersToNewline(fastAt, end, fast, fastCount);
        const bool slowOk = io::scan::integersBytewise<true>(slowAt, end, slow, slowCount);
        REQUIRE(fastOk == slowOk);
        if (slowOk) {
            ++accepted;
            REQUIRE(fastCount == slowCount);
            REQUIRE(fastAt == slowAt);
            for (int i = 0; i < slowCount; ++i)
                REQUIRE(fast[i] == slow[i]);
        }
#if PARALLAX_HAVE_WIDE_SCAN
        if (wide) {
            std::int64_t values[io::scan::kMaxIntegers] = {};
            int count = -1;
            const char* at = text.data();
            REQUIRE(wideScan(at, end, values, count) == slowOk);
            if (slowOk) {
                REQUIRE(count == slowCount);
                REQUIRE(at == slowAt);
                for (int i = 0; i < slowCount; ++i)
                    REQUIRE(values[i] == slow[i]);
            }
        }
#endif
    }
    // Both outcomes were exercised.
    CHECK(accepted > 5000);
    CHECK(accepted < 19000);
}
