// PeTraceBuilder on small hand-written record sequences: the regular cases and every
// irregularity of docs/format.md §5.1 (each handled as recommended there and counted).

#include "builder_fixture.h"
#include "core/column_placer.h"
#include "support/report_support.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

using namespace parallax;
using namespace parallax::test;
using core::Issue;
using core::RecordType;

TEST_CASE("matched BEGIN and END make one execution with the BEGIN's fields")
{
    auto b = rec::begin(100, 3, 42, 1);
    b.msgBytes = 208;
    b.cpuTime = 500;
    b.hasCpuTime = true;
    auto e = rec::end(150, 3);
    e.cpuTime = 530;
    e.hasCpuTime = true;
    const auto built = build({ rec::beginComputation(10), b, e, rec::endComputation(200) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 1);
    CHECK(x.begin[0] == 100);
    CHECK(x.end[0] == 150);
    CHECK(x.entry[0] == 3);
    CHECK(x.sourcePe[0] == 1);
    CHECK(x.eventId[0] == 42);
    CHECK(x.msgBytes[0] == 208);
    CHECK(x.cpuBegin[0] == 500);
    CHECK(x.cpuDuration[0] == 30);
    CHECK(x.flags[0] == core::kEndedNormally);
    CHECK(built.trace.beginComputation == 10);
    CHECK(built.trace.endComputation == 200);
    CHECK(built.trace.firstTime == 10);
    CHECK(built.trace.lastTime == 200);
    CHECK(built.trace.recordCount == 4);
    CHECK(built.report.empty());
}

TEST_CASE("nested BEGIN closes the outer execution at the inner BEGIN and is counted")
{
    // +notracenested: BEGIN(1) BEGIN(2) END(2) END(1)
    const auto built = build({ rec::begin(10, 1), rec::begin(20, 2), rec::end(30, 2),
        rec::end(40, 1), rec::endComputation(50) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 2);
    CHECK(x.begin[0] == 10);
    CHECK(x.end[0] == 20);
    CHECK(x.entry[0] == 1);
    CHECK((x.flags[0] & core::kClosedByNextBegin) != 0);
    CHECK(x.begin[1] == 20);
    CHECK(x.end[1] == 30);
    CHECK(x.entry[1] == 2);
    CHECK(x.flags[1] == core::kEndedNormally);
    CHECK(built.report.count(Issue::NestedBegin) == 1);
    // The outer END has nothing open any more.
    CHECK(built.report.count(Issue::UnmatchedEnd) == 1);
    const auto example = findExample(built.report, Issue::NestedBegin);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    CHECK(example->line == 3);
}

TEST_CASE("END without BEGIN is ignored and counted with its line")
{
    const auto built
        = build({ rec::end(5, 1), rec::begin(10, 2), rec::end(20, 2), rec::endComputation(30) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 1);
    CHECK(x.begin[0] == 10);
    CHECK(x.entry[0] == 2);
    CHECK(built.report.count(Issue::UnmatchedEnd) == 1);
    const auto example = findExample(built.report, Issue::UnmatchedEnd);
    REQUIRE(example);
    CHECK(example->line == 2);
}

TEST_CASE("END naming another entry closes the open execution keeping the BEGIN's entry")
{
    const auto built = build({ rec::begin(10, 1), rec::end(20, 7), rec::endComputation(30) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 1);
    CHECK(x.entry[0] == 1);
    CHECK(x.end[0] == 20);
    CHECK((x.flags[0] & core::kEndEntryMismatch) != 0);
    CHECK(built.report.count(Issue::EntryMismatch) == 1);
}

TEST_CASE("execution open at END_COMPUTATION is closed there and flagged")
{
    const auto built = build({ rec::begin(10, 1), rec::endComputation(50) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 1);
    CHECK(x.begin[0] == 10);
    CHECK(x.end[0] == 50);
    CHECK(x.flags[0] == core::kClosedAtEndComputation);
    CHECK(built.report.count(Issue::OpenAtEndComputation) == 1);
    CHECK(built.report.count(Issue::TruncatedLog) == 0);
    CHECK(built.trace.endComputation == 50);
}

TEST_CASE("idle open at END_COMPUTATION is closed there")
{
    const auto built = build({ rec::beginIdle(10), rec::endComputation(50) });
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 10);
    CHECK(built.trace.idles.end[0] == 50);
}

TEST_CASE("records after END_COMPUTATION are ignored and counted one by one")
{
    core::ImportReport report;
    const auto metadata = smallMetadata();
    core::PeTraceBuilder builder(0, metadata, "run.0.log", report);
    builder.add(rec::begin(10, 1), 2);
    builder.add(rec::end(20, 1), 3);
    builder.add(rec::endComputation(50), 4);
    CHECK(builder.ended());
    builder.add(rec::begin(60, 2), 5);
    builder.add(rec::end(70, 2), 6);
    builder.add(rec::send(80, 2), 7);
    const auto trace = builder.finish();
    CHECK(trace.executions.size() == 1);
    CHECK(trace.sends.size() == 0);
    CHECK(trace.lastTime == 50);
    CHECK(trace.recordCount == 3);
    CHECK(std::as_const(report).count(Issue::RecordsAfterEnd) == 3);
    const auto example = findExample(report, Issue::RecordsAfterEnd);
    REQUIRE(example);
    CHECK(example->line == 5);
}

TEST_CASE("log without END_COMPUTATION closes open activities at its last time and is flagged")
{
    const auto built
        = build({ rec::beginComputation(5), rec::begin(10, 1), rec::send(15, 2), rec::end(20, 1),
            rec::beginIdle(30), rec::endIdle(35), rec::begin(40, 3), rec::send(45, 4) });
    const auto& t = built.trace;
    CHECK(t.endComputation == -1);
    REQUIRE(t.executions.size() == 2);
    CHECK(t.executions.begin[1] == 40);
    CHECK(t.executions.end[1] == 45);
    CHECK(t.executions.flags[1] == core::kClosedAtEof);
    CHECK(built.report.count(Issue::TruncatedLog) == 1);
    REQUIRE(findExample(built.report, Issue::TruncatedLog));
    CHECK(findExample(built.report, Issue::TruncatedLog)->file == "run.0.log");
}

TEST_CASE("idle open at the end of a truncated log is closed at the last time")
{
    const auto built = build({ rec::beginIdle(30), rec::send(45, 4) });
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 30);
    CHECK(built.trace.idles.end[0] == 45);
    CHECK(built.report.count(Issue::TruncatedLog) == 1);
}

TEST_CASE("an empty log is not reported as truncated")
{
    const auto built = build({});
    CHECK(built.trace.hasLog);
    CHECK(built.trace.recordCount == 0);
    CHECK(built.trace.firstTime == -1);
    CHECK(built.report.empty());
}

TEST_CASE("time going backwards is clamped so begin and end columns stay non-decreasing")
{
    const auto built = build({ rec::begin(100, 1), rec::end(90, 1), rec::beginIdle(95),
        rec::endIdle(97), rec::begin(120, 2), rec::end(130, 2), rec::endComputation(200) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 2);
    CHECK(x.begin[0] == 100);
    CHECK(x.end[0] == 100);
    CHECK((x.flags[0] & core::kTimeClamped) != 0);
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 100);
    CHECK(built.trace.idles.end[0] == 100);
    CHECK(built.report.count(Issue::TimeWentBackwards) == 3);
    requireSortedNonOverlapping(x.begin, x.end);
    requireSortedNonOverlapping(built.trace.idles.begin, built.trace.idles.end);
}

TEST_CASE("an execution whose BEGIN time was clamped is flagged as clamped")
{
    // The second BEGIN (95) is before the previous END (100): the execution is moved to 100
    // and must carry kTimeClamped so views can mark it; the first one was regular.
    const auto built
        = build({ rec::begin(50, 1), rec::end(100, 1), rec::begin(95, 2), rec::end(120, 2) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 2);
    CHECK(x.flags[0] == core::kEndedNormally);
    CHECK(x.begin[1] == 100);
    CHECK((x.flags[1] & core::kTimeClamped) != 0);
    CHECK(built.report.count(Issue::TimeWentBackwards) == 1);
}

TEST_CASE("BEGIN_IDLE inside an entry closes the entry there and is counted")
{
    const auto built = build(
        { rec::begin(10, 1), rec::beginIdle(20), rec::endIdle(30), rec::endComputation(40) });
    const auto& x = built.trace.executions;
    REQUIRE(x.size() == 1);
    CHECK(x.end[0] == 20);
    CHECK((x.flags[0] & core::kClosedByIdle) != 0);
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 20);
    CHECK(built.trace.idles.end[0] == 30);
    CHECK(built.report.count(Issue::IdleInsideEntry) == 1);
}

TEST_CASE("BEGIN_PROCESSING while idle closes the idle at the BEGIN with a warning")
{
    const auto built = build(
        { rec::beginIdle(10), rec::begin(20, 1), rec::end(30, 1), rec::endComputation(40) });
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.end[0] == 20);
    REQUIRE(built.trace.executions.size() == 1);
    CHECK(built.trace.executions.begin[0] == 20);
    CHECK(built.report.total(core::Severity::Warning) == 1);
}

TEST_CASE("END_IDLE without BEGIN_IDLE is ignored and counted")
{
    const auto built = build({ rec::endIdle(5), rec::beginIdle(10), rec::endIdle(20),
        rec::endIdle(25), rec::endComputation(30) });
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 10);
    CHECK(built.trace.idles.end[0] == 20);
    CHECK(built.report.count(Issue::UnmatchedEndIdle) == 2);
}

TEST_CASE("BEGIN_IDLE while idle keeps the first idle and is counted")
{
    const auto built = build(
        { rec::beginIdle(10), rec::beginIdle(15), rec::endIdle(20), rec::endComputation(30) });
    REQUIRE(built.trace.idles.size() == 1);
    CHECK(built.trace.idles.begin[0] == 10);
    CHECK(built.report.count(Issue::NestedIdle) == 1);
}

TEST_CASE("pack and unpack intervals are recorded and unmatched ones counted")
{
    const auto built = build({ rec::begin(10, 1), rec::at(RecordType::BeginPack, 12),
        rec::at(RecordType::EndPack, 14), rec::end(20, 1), rec::at(RecordType::EndUnpack, 22),
        rec::at(RecordType::BeginUnpack, 25), rec::at(RecordType::EndUnpack, 28),
        rec::endComputation(30) });
    REQUIRE(built.trace.packs.size() == 1);
    CHECK(built.trace.packs.begin[0] == 12);
    CHECK(built.trace.packs.end[0] == 14);
    REQUIRE(built.trace.unpacks.size() == 1);
    CHECK(built.trace.unpacks.begin[0] == 25);
    CHECK(built.trace.unpacks.end[0] == 28);
    CHECK(built.report.count(Issue::UnmatchedPack) == 1);
    // A pack inside an entry does not end the entry.
    REQUIRE(built.trace.executions.size() == 1);
    CHECK(built.trace.executions.end[0] == 20);
}

TEST_CASE("END_TRACE and BEGIN_TRACE record the gap with the open entry and the resumed END")
{
    // docs/format.md §2.4: BEGIN ... END_TRACE (no END) ... gap ... BEGIN_TRACE ... END
    // (no BEGIN).
    const auto built = build(
        { rec::begin(10, 4), rec::at(RecordType::EndTrace, 20), rec::at(RecordType::BeginTrace, 50),
            rec::end(60, 4), rec::begin(70, 5), rec::end(80, 5), rec::endComputation(90) });
    const auto& t = built.trace;
    REQUIRE(t.traceGaps.size() == 1);
    CHECK(t.traceGaps[0].begin == 20);
    CHECK(t.traceGaps[0].end == 50);
    CHECK(t.traceGaps[0].openEntry == 4);
    CHECK(t.traceGaps[0].resumedEnd == 60);
    REQUIRE(t.executions.size() == 2);
    CHECK(t.executions.begin[0] == 10);
    CHECK(t.executions.end[0] == 20);
    CHECK((t.executions.flags[0] & core::kClosedAtTraceOff) != 0);
    CHECK(t.executions.entry[1] == 5);
    // The resumed END belongs to the gap: not an unmatched END.
    CHECK(built.report.count(Issue::UnmatchedEnd) == 0);
    CHECK(built.report.count(Issue::TracingGap) == 1);
}

TEST_CASE("tracing gap with nothing open has no open entry and no resumed END")
{
    const auto built = build(
        { rec::beginIdle(5), rec::at(RecordType::EndTrace, 20), rec::at(RecordType::BeginTrace, 50),
            rec::begin(60, 1), rec::end(70, 1), rec::endComputation(90) });
    const auto& t = built.trace;
    REQUIRE(t.traceGaps.size() == 1);
    CHECK(t.traceGaps[0].openEntry == core::kNoEntry);
    CHECK(t.traceGaps[0].resumedEnd == -1);
    // The idle open at END_TRACE stops there.
    REQUIRE(t.idles.size() == 1);
    CHECK(t.idles.end[0] == 20);
}

TEST_CASE("tracing switched off until the end leaves the gap open-ended")
{
    const auto built = build({ rec::at(RecordType::EndTrace, 20), rec::endComputation(90) });
    REQUIRE(built.trace.traceGaps.size() == 1);
    CHECK(built.trace.traceGaps[0].end == core::kTimeMax);
}

TEST_CASE("USER_EVENT_PAIR lines pair up by event number and an unpaired one is dropped")
{
    const auto built = build({ rec::userPair(RecordType::UserEventPair, 10, 5, 3, 0),
        rec::userPair(RecordType::UserEventPair, 20, 5, 3, 0),
        rec::userPair(RecordType::UserEventPair, 30, 6, 4, 0), rec::send(35, 1),
        rec::userPair(RecordType::UserEventPair, 40, 6, 9, 0),
        rec::userPair(RecordType::UserEventPair, 50, 6, 9, 0), rec::endComputation(60) });
    const auto& brackets = built.trace.userBrackets;
    REQUIRE(brackets.size() == 2);
    CHECK(brackets[0].begin == 10);
    CHECK(brackets[0].end == 20);
    CHECK(brackets[0].id == 5);
    CHECK(brackets[0].kind == core::BracketKind::Pair);
    CHECK(brackets[1].begin == 40);
    CHECK(brackets[1].end == 50);
    CHECK(built.report.count(Issue::UnmatchedUserEventPair) == 1);
}

TEST_CASE("USER_EVENT_PAIR without a partner at the end of the log is counted")
{
    const auto built = build({ rec::userPair(RecordType::UserEventPair, 10, 5, 3, 0) });
    CHECK(built.trace.userBrackets.empty());
    CHECK(built.report.count(Issue::UnmatchedUserEventPair) == 1);
}

TEST_CASE("BEGIN and END_USER_EVENT_PAIR match by id and nested id")
{
    const auto built = build({ rec::userPair(RecordType::BeginUserEventPair, 10, 1, 1, 0),
        rec::userPair(RecordType::BeginUserEventPair, 12, 1, 2, 7),
        rec::userPair(RecordType::BeginUserEventPair, 14, 2, 3, 0),
        rec::userPair(RecordType::EndUserEventPair, 20, 1, 4, 7),
        rec::userPair(RecordType::EndUserEventPair, 25, 1, 5, 0),
        rec::userPair(RecordType::EndUserEventPair, 27, 6, 6, 0), rec::endComputation(30) });
    const auto& brackets = built.trace.userBrackets;
    REQUIRE(brackets.size() == 2);
    // Sorted by begin.
    CHECK(brackets[0].begin == 10);
    CHECK(brackets[0].end == 25);
    CHECK(brackets[0].id == 1);
    CHECK(brackets[0].nestedId == 0);
    CHECK(brackets[0].kind == core::BracketKind::BeginEnd);
    CHECK(brackets[1].begin == 12);
    CHECK(brackets[1].end == 20);
    CHECK(brackets[1].nestedId == 7);
    // END of id 6 has no BEGIN; BEGIN of id 2 never ends.
    CHECK(built.report.count(Issue::UnmatchedUserEventPair) == 2);
}

TEST_CASE("buffer flush inside an entry is recorded and does not end the entry")
{
    auto flushBegin = rec::at(RecordType::BeginInterrupt, 15);
    auto flushEnd = rec::at(RecordType::EndInterrupt, 40);
    const auto built = build(
        { rec::begin(10, 1), flushBegin, flushEnd, rec::end(45, 1), rec::endComputation(50) });
    REQUIRE(built.trace.flushes.size() == 1);
    CHECK(built.trace.flushes.begin[0] == 15);
    CHECK(built.trace.flushes.end[0] == 40);
    REQUIRE(built.trace.executions.size() == 1);
    CHECK(built.trace.executions.end[0] == 45);
    CHECK(built.report.count(Issue::BufferFlush) == 1);
}

TEST_CASE("sends out of time order are sorted and keep their multicast destination lists")
{
    std::vector<core::PeId> listA { 1, 2 };
    std::vector<core::PeId> listB { 3, 4, 5 };
    auto a = rec::send(30, 1, 1);
    a.type = RecordType::CreationMulticast;
    a.destinationCount = 2;
    a.destinations = listA;
    auto b = rec::send(10, 2, 2);
    b.type = RecordType::CreationMulticast;
    b.destinationCount = 3;
    b.destinations = listB;
    auto c = rec::send(20, 3, 3);
    c.type = RecordType::CreationBcast;
    c.destinationCount = 4;
    const auto built = build({ a, b, c, rec::endComputation(40) });
    const auto& s = built.trace.sends;
    REQUIRE(s.size() == 3);
    CHECK(s.time == std::vector<core::TimeUs> { 10, 20, 30 });
    CHECK(s.eventId == std::vector<std::int32_t> { 2, 3, 1 });
    CHECK(s.kind[0] == core::SendKind::Multicast);
    CHECK(s.kind[1] == core::SendKind::Broadcast);
    CHECK(s.destinationCount.toVector() == std::vector<std::int32_t> { 3, 4, 2 });
    CHECK(built.trace.multicastDestinations(0) == listB);
    CHECK(built.trace.multicastDestinations(1).empty());
    CHECK(built.trace.multicastDestinations(2) == listA);
}

TEST_CASE("object ids are interned per PE")
{
    std::vector<std::int32_t> idA { 1, 2 };
    std::vector<std::int32_t> idB { 2, 1 };
    auto b1 = rec::begin(10, 1);
    b1.objectId = idA;
    auto b2 = rec::begin(30, 1);
    b2.objectId = idB;
    auto b3 = rec::begin(50, 1);
    b3.objectId = idA;
    const auto built = build(
        { b1, rec::end(20, 1), b2, rec::end(40, 1), b3, rec::end(60, 1), rec::endComputation(70) });
    const auto& t = built.trace;
    REQUIRE(t.executions.size() == 3);
    CHECK(t.objects.size() == 2);
    CHECK(t.executions.object[0] == t.executions.object[2]);
    CHECK(t.executions.object[0] != t.executions.object[1]);
    const auto& o = t.objects[t.executions.object[1]];
    CHECK(o.length == 2);
    CHECK(o.values[0] == 2);
    CHECK(o.values[1] == 1);
}

TEST_CASE("entry and user event ids missing from the symbol table are kept and counted")
{
    auto event = rec::at(RecordType::UserEvent, 15);
    event.userEventId = 99;
    const auto built = build({ rec::begin(10, 42), event, rec::end(20, 42), rec::send(25, 77),
        rec::endComputation(30) });
    REQUIRE(built.trace.executions.size() == 1);
    CHECK(built.trace.executions.entry[0] == 42);
    REQUIRE(built.trace.userEvents.size() == 1);
    CHECK(built.trace.userEvents[0].id == 99);
    CHECK(built.report.count(Issue::UnknownEntry) == 2);
    CHECK(built.report.count(Issue::UnknownUserEvent) == 1);
}

TEST_CASE("point records are kept sorted by time")
{
    auto stat = [](core::TimeUs t) {
        auto r = rec::at(RecordType::UserStat, t);
        r.statValue = static_cast<double>(t);
        return r;
    };
    auto memory = [](core::TimeUs t, std::int64_t bytes) {
        auto r = rec::at(RecordType::MemoryUsage, t);
        r.value = bytes;
        return r;
    };
    const auto built
        = build({ stat(30), stat(10), memory(25, 100), memory(5, 50), rec::endComputation(40) });
    REQUIRE(built.trace.stats.size() == 2);
    CHECK(built.trace.stats[0].time == 10);
    CHECK(built.trace.stats[1].time == 30);
    REQUIRE(built.trace.memory.size() == 2);
    CHECK(built.trace.memory[0].time == 5);
    CHECK(built.trace.memory[0].bytes == 50);
}

namespace {

// The parts of a column packed by ColumnPlacer (with and without an arena) are those that
// PackedColumn::push_back, value after value, and widenIfMostlyEscaped leave.
template <typename Packed>
void checkPlacedLikePushed(const std::vector<typename Packed::value_type>& values)
{
    Packed pushed;
    for (const auto v : values)
        pushed.push_back(v);
    pushed.widenIfMostlyEscaped();
    core::StoreArena arena;
    for (auto* a : { static_cast<core::StoreArena*>(nullptr), &arena }) {
        core::ColumnPlacer placer { a };
        Packed placed;
        placer.place(placed, values.data(), values.size());
        CHECK(placed.wide() == pushed.wide());
        CHECK(placed.narrow == pushed.narrow);
        CHECK(placed.escapeRow == pushed.escapeRow);
        CHECK(placed.escapeValue == pushed.escapeValue);
        CHECK(placed.base == pushed.base);
        CHECK(placed == pushed);
    }
}

} // namespace

TEST_CASE("placed columns are packed exactly as pushed ones, across blocks and escapes")
{
    // A clock over three blocks of rows: steps forward, a few readings before their block's
    // first one or more than 2^32 us after it (escaped).
    std::vector<core::TimeUs> clock;
    core::TimeUs t = 1000;
    for (std::size_t i = 0; i < 150000; ++i) {
        t += static_cast<core::TimeUs>(i % 7);
        clock.push_back(
            i % 9973 == 5 ? t - 5000 : (i % 30011 == 7 ? t + (core::TimeUs { 1 } << 33) : t));
    }
    checkPlacedLikePushed<core::ClockColumn>(clock);
    checkPlacedLikePushed<core::ClockColumn>({});
    checkPlacedLikePushed<core::ClockColumn>({ -5 });
    // Message sizes: one in ten escaped stays narrow, one in five makes the column wide.
    for (const std::size_t every : { 10U, 5U, 1U }) {
        std::vector<std::int32_t> sizes;
        for (std::size_t i = 0; i < 1000; ++i)
            sizes.push_back(i % every == 0 ? 70000 + static_cast<std::int32_t>(i)
                                           : static_cast<std::int32_t>(i % 500));
        sizes.push_back(-1);
        sizes.push_back(65534);
        sizes.push_back(65535);
        checkPlacedLikePushed<core::SmallIntColumn>(sizes);
    }
    checkPlacedLikePushed<core::ObjectValueColumn>({ -1, 0, 65533, 65534, -2, 7 });
}
