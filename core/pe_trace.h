#pragma once

#include "column.h"
#include "packed_column.h"
#include "types.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parallax::core {

// Half-open index range [first, last) into one of a PeTrace's columns.
struct IndexRange {
    std::size_t first = 0;
    std::size_t last = 0;
    [[nodiscard]] std::size_t size() const { return last - first; }
    [[nodiscard]] bool empty() const { return last <= first; }
};

// The object id of a BEGIN_PROCESSING: an array index (1..6 values) or the raw 4-int CmiObjId
// of a non-array chare. Interned per PE; executions refer to it by index.
struct ObjectId {
    std::array<std::int32_t, 6> values {};
    std::uint8_t length = 0;
    friend bool operator==(const ObjectId&, const ObjectId&) = default;
};

// Narrow forms of the store's integer columns (core/packed_column.h): each keeps the rare value
// that does not fit whole, so nothing is lost.
// Times: 32-bit offsets from the first of each block of 65,536 rows (71 minutes).
using ClockColumn = PackedColumn<TimeUs, std::uint32_t, 0, true>;
using SmallIntColumn = PackedColumn<std::int32_t, std::uint16_t>; // 0 .. 65,534 in 16 bits
using ObjectValueColumn = PackedColumn<std::int32_t, std::uint16_t, -1>; // -1 .. 65,533

// The interned object ids of one PE, packed (most are 1-D or 3-D array indices, so a fixed
// 6-value record would waste most of its 28 bytes): object k's values are
// values[offset[k] .. offset[k+1]), 0..6 of them; `offset` has size() + 1 entries, or none when
// the table is empty. objects[k] gives the id as an ObjectId (a copy).
struct ObjectTable {
    Column<std::uint32_t> offset;
    ObjectValueColumn values;

    [[nodiscard]] std::size_t size() const { return offset.empty() ? 0 : offset.size() - 1; }
    [[nodiscard]] bool empty() const { return size() == 0; }
    [[nodiscard]] ObjectId operator[](std::size_t k) const
    {
        ObjectId id;
        const auto first = offset[k];
        id.length = static_cast<std::uint8_t>(std::min<std::uint32_t>(offset[k + 1] - first, 6));
        for (std::size_t i = 0; i < id.length; ++i)
            id.values[i] = values[first + i];
        return id;
    }
    // objects[k] == id, without building the copy.
    [[nodiscard]] bool matches(std::size_t k, const ObjectId& id) const
    {
        const auto first = offset[k];
        if (offset[k + 1] - first != id.length)
            return false;
        for (std::size_t i = 0; i < id.length; ++i)
            if (values[first + i] != id.values[i])
                return false;
        return true;
    }
    void push_back(const ObjectId& id)
    {
        if (offset.empty())
            offset.push_back(0);
        for (std::size_t i = 0; i < id.length; ++i)
            values.push_back(id.values[i]);
        offset.push_back(static_cast<std::uint32_t>(values.size()));
    }
    void clear()
    {
        offset.clear();
        values.clear();
    }
    friend bool operator==(const ObjectTable&, const ObjectTable&) = default;
};

// How an execution ended when the log had no matching END_PROCESSING (bit flags).
enum ExecutionFlag : std::uint8_t {
    kEndedNormally = 0,
    kClosedByNextBegin = 1 << 0, // another BEGIN_PROCESSING came first (pretend end)
    kClosedByIdle = 1 << 1, // a BEGIN_IDLE came first
    kClosedAtEndComputation = 1 << 2, // still open at END_COMPUTATION (e.g. CkExit in an EP)
    kClosedAtTraceOff = 1 << 3, // still open at END_TRACE (tracing switched off)
    kClosedAtEof = 1 << 4, // still open when a truncated log ended
    kEndEntryMismatch = 1 << 5, // the END named another entry method
    kTimeClamped = 1 << 6, // a timestamp went backwards and was clamped
};

enum class SendKind : std::uint8_t { PointToPoint, Broadcast, Multicast };
inline constexpr std::uint32_t kNoExecution = 0xFFFFFFFFU;
inline constexpr std::uint32_t kSendAfterExecution = 0x80000000U;
enum class PackKind : std::uint8_t { Pack, Unpack };
enum class BracketKind : std::uint8_t { Pair, BeginEnd };

// Entry-method executions of one PE in columnar form. Invariant (enforced by the builder):
// sorted by begin, non-overlapping, begin <= end, so both begin and end are non-decreasing and
// the executions overlapping any window form one contiguous index range.
struct ExecutionColumns {
    ClockColumn begin;
    ClockColumn end;
    Column<std::uint16_t> entry;
    // PE that created the message (BEGIN's srcPE). Full width: on a run of more than 65,534 PEs
    // most sources of the high PEs would not fit 16 bits, and every escaped read is a search.
    Column<PeId> sourcePe;
    SmallIntColumn msgBytes; // message size incl. envelope (BEGIN's len)
    Column<std::int32_t> eventId; // (sourcePe, eventId) names the sender's CREATION
    Column<std::uint32_t> object; // index into PeTrace::objects
    ClockColumn cpuBegin; // process CPU time at begin (VERSION >= 6.5), else 0
    Column<std::uint32_t> cpuDuration; // cpuEnd - cpuBegin, saturated
    Column<std::uint8_t> flags; // ExecutionFlag bits
    // PAPI counters (VERSION >= 6.6 with TOTAL_PAPI_EVENTS > 0): for execution i the values at
    // begin are papi[i*2n .. i*2n+n) and at end papi[i*2n+n .. i*2n+2n). Empty otherwise.
    Column<std::int64_t> papi;

    [[nodiscard]] std::size_t size() const { return begin.size(); }
};

// Idle, pack or unpack intervals: sorted by begin, non-overlapping within one column set.
struct IntervalColumns {
    ClockColumn begin;
    ClockColumn end;
    [[nodiscard]] std::size_t size() const { return begin.size(); }
};

// Message sends (CREATION, CREATION_BCAST, CREATION_MULTICAST), sorted by time (stable).
struct SendColumns {
    ClockColumn time;
    Column<std::uint16_t> entry; // destination entry method
    Column<SendKind> kind;
    Column<std::uint8_t> messageType; // Charm++ envelope type (mtype)
    SmallIntColumn msgBytes;
    Column<std::int32_t> eventId;
    // 1 for point-to-point, nPEs otherwise: stored for broadcasts and multicasts only.
    SparseColumn<std::int32_t, 1> destinationCount;
    SmallIntColumn sendDuration; // sendT: duration of the send call in µs
    // The execution that most recently began before this send in file order (index into
    // ExecutionColumns), with kSendAfterExecution set when that execution had already ended
    // (a send between executions); kNoExecution when no execution had begun yet.
    Column<std::uint32_t> execution;
    // Multicast destination lists: multicastSend[k] is the send index whose PEs are
    // multicastPes[multicastOffset[k] .. multicastOffset[k+1]).
    Column<std::uint32_t> multicastSend;
    Column<std::uint32_t> multicastOffset; // size = multicastSend.size() + 1 (or 0)
    Column<PeId> multicastPes;

    [[nodiscard]] std::size_t size() const { return time.size(); }
};

struct UserEventPoint {
    TimeUs time = 0;
    UserEventId id = 0;
    std::int32_t eventId = 0;
};

struct UserEventBracket {
    TimeUs begin = 0;
    TimeUs end = 0;
    UserEventId id = 0;
    std::int32_t nestedId = 0;
    BracketKind kind = BracketKind::Pair;
};

struct Note {
    TimeUs begin = 0;
    TimeUs end = 0; // == begin for a plain note
    UserEventId id = -1; // user event id of a bracketed note, -1 otherwise
    std::string text;
};

struct StatSample {
    TimeUs time = 0;
    double userTime = -1.0;
    double value = 0.0;
    std::int32_t statId = 0;
};

struct MemorySample {
    TimeUs time = 0;
    std::uint64_t bytes = 0;
};

struct UserSuppliedValue {
    TimeUs time = 0;
    std::int64_t value = 0;
};

struct TraceGap {
    TimeUs begin = 0; // END_TRACE time
    TimeUs end = 0; // BEGIN_TRACE time (kTimeMax when tracing was never switched on again)
    EntryId openEntry = kNoEntry; // entry method that was open at END_TRACE
    TimeUs resumedEnd = -1; // time of the orphan END_PROCESSING after BEGIN_TRACE (for Java's view)
};

struct PhaseEnd {
    TimeUs time = 0;
    std::int32_t phase = 0;
};

// Everything recorded in one PE's log, in compact columns. Immutable once built.
class PeTrace {
public:
    PeId pe = kNoPe;
    bool hasLog = false;

    TimeUs beginComputation = -1; // BEGIN_COMPUTATION time, -1 if absent
    TimeUs endComputation = -1; // END_COMPUTATION time, -1 if the log was truncated
    TimeUs firstTime = -1; // earliest timestamp of any record, -1 if none
    TimeUs lastTime = -1; // latest timestamp of any record up to END_COMPUTATION
    std::uint64_t recordCount = 0; // log records read (header excluded)
    // How the last idle interval ended when it had no END_IDLE: kClosedAtEndComputation or
    // kClosedAtEof (ExecutionFlag bits), 0 otherwise. Java keeps such an idle open to the end.
    std::uint8_t lastIdleFlags = 0;

    ExecutionColumns executions;
    IntervalColumns idles;
    IntervalColumns packs; // BEGIN_PACK/END_PACK
    IntervalColumns unpacks; // BEGIN_UNPACK/END_UNPACK
    SendColumns sends;
    ObjectTable objects;
    Column<UserEventPoint> userEvents; // sorted by time
    Column<UserEventBracket> userBrackets; // sorted by begin
    std::vector<Note> notes; // sorted by begin
    Column<StatSample> stats; // sorted by time
    Column<MemorySample> memory; // sorted by time
    Column<UserSuppliedValue> userSupplied; // sorted by time
    IntervalColumns flushes; // BEGIN/END_INTERRUPT (buffer flushes)
    Column<TraceGap> traceGaps; // sorted by begin
    Column<PhaseEnd> phaseEnds;

    // Executions overlapping [t0, t1): begin < t1 and end > t0, plus zero-length executions
    // with t0 <= begin < t1. O(log n); the result is contiguous by the column invariant.
    [[nodiscard]] IndexRange executionsOverlapping(TimeUs t0, TimeUs t1) const;
    [[nodiscard]] IndexRange idlesOverlapping(TimeUs t0, TimeUs t1) const;
    [[nodiscard]] IndexRange packsOverlapping(TimeUs t0, TimeUs t1) const;
    [[nodiscard]] IndexRange unpacksOverlapping(TimeUs t0, TimeUs t1) const;
    // Sends with t0 <= time < t1.
    [[nodiscard]] IndexRange sendsIn(TimeUs t0, TimeUs t1) const;
    // Destination PEs of a multicast send (empty for other kinds).
    [[nodiscard]] std::vector<PeId> multicastDestinations(std::size_t sendIndex) const;

    // Approximate heap bytes held by the columns (for the bytes-per-event figure).
    [[nodiscard]] std::size_t memoryBytes() const;
};

// Overlap query on sorted, non-overlapping begin/end columns (shared by all interval kinds).
IndexRange overlappingRange(
    std::span<const TimeUs> begin, std::span<const TimeUs> end, TimeUs t0, TimeUs t1);
IndexRange overlappingRange(const ClockColumn& begin, const ClockColumn& end, TimeUs t0, TimeUs t1);

} // namespace parallax::core
