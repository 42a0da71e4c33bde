#pragma once

#include <array>
#include <cstdint>

namespace parallax::gen {

// Times are integer microseconds since the start of the (simulated) Converse runtime, as in
// every Projections log. Signed so that differences never wrap.
using TimeUs = std::int64_t;
using PeId = std::int32_t;
using EntryId = std::int32_t;
// Per-PE event number (`ev` of docs/format.md §2.3): links a BEGIN_PROCESSING to its CREATION.
using EventId = std::int32_t;

// Record type numbers of a Projections log line (docs/format.md §2.2).
enum class RecordType : std::uint8_t {
    Creation = 1,
    BeginProcessing = 2,
    EndProcessing = 3,
    BeginComputation = 6,
    EndComputation = 7,
    BeginInterrupt = 8,
    EndInterrupt = 9,
    UserEvent = 13,
    BeginIdle = 14,
    EndIdle = 15,
    BeginPack = 16,
    EndPack = 17,
    BeginUnpack = 18,
    EndUnpack = 19,
    CreationBcast = 20,
    CreationMulticast = 21,
    MemoryUsage = 27,
    UserStat = 32,
    BeginUserEventPair = 98,
    EndUserEventPair = 99,
    UserEventPair = 100,
};

// Charm++ envelope message types used by the simulated program (docs/format.md §2.3, `mtype`).
namespace message_type {
inline constexpr std::uint16_t kNone = 0; // END_PROCESSING always carries 0
inline constexpr std::uint16_t kNewChare = 1;
inline constexpr std::uint16_t kBocInit = 3;
inline constexpr std::uint16_t kForChare = 4; // also what array-element BEGINs carry
inline constexpr std::uint16_t kForBoc = 5;
inline constexpr std::uint16_t kArrayEltInit = 20;
inline constexpr std::uint16_t kForArrayElt = 21;
inline constexpr std::uint16_t kBocBcast = 23;
} // namespace message_type

// Room for an object id (at most 4 ints here) or a multicast destination list.
inline constexpr std::size_t kMaxRecordValues = 8;

// One log record in memory. Which fields are meaningful depends on `type`; the log writer
// prints exactly the fields of docs/format.md Appendix A. Plain data, reused in buffers, so that
// simulating a PE allocates nothing per record.
struct TraceRecord {
    TimeUs time = 0;
    // CPU time (2, 3), send duration (1, 20, 21), bytes (27) or the statistic's value (32).
    std::int64_t value = 0;
    // Entry method (1, 2, 3, 20, 21), user event id (13, 98-100) or statistic id (32).
    std::int32_t entry = 0;
    EventId event = 0;
    // Creating PE (1, 20, 21), source PE (2, 3) or the writing PE (13-19, 32).
    PeId pe = 0;
    std::int32_t length = 0;
    // Number of object-id values (2) or of destination PEs (20, 21).
    std::int32_t count = 0;
    std::uint16_t messageType = 0;
    RecordType type = RecordType::BeginComputation;
    std::array<std::int32_t, kMaxRecordValues> values {};
};

// The fields a BEGIN_PROCESSING shares with the CREATION it names.
inline void setMessageFields(TraceRecord& record, std::uint16_t messageType, EntryId entry,
    EventId event, PeId source, std::int32_t length)
{
    record.messageType = messageType;
    record.entry = entry;
    record.event = event;
    record.pe = source;
    record.length = length;
}

} // namespace parallax::gen
