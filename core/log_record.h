#pragma once

#include "types.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace parallax::core {

// Record type numbers of the .log format (docs/format.md §2.2; Charm++ trace-common.h).
enum class RecordType : std::int32_t {
    Creation = 1,
    BeginProcessing = 2,
    EndProcessing = 3,
    Enqueue = 4,
    Dequeue = 5,
    BeginComputation = 6,
    EndComputation = 7,
    BeginInterrupt = 8,
    EndInterrupt = 9,
    MessageRecv = 10,
    BeginTrace = 11,
    EndTrace = 12,
    UserEvent = 13,
    BeginIdle = 14,
    EndIdle = 15,
    BeginPack = 16,
    EndPack = 17,
    BeginUnpack = 18,
    EndUnpack = 19,
    CreationBcast = 20,
    CreationMulticast = 21,
    BeginFunc = 22,
    EndFunc = 23,
    MemoryMalloc = 24,
    MemoryFree = 25,
    UserSupplied = 26,
    MemoryUsage = 27,
    UserSuppliedNote = 28,
    UserSuppliedBracketedNote = 29,
    EndPhase = 30,
    SurrogateBlock = 31,
    UserStat = 32,
    BeginUserEventPair = 98,
    EndUserEventPair = 99,
    UserEventPair = 100,
};

// One decoded log line. Only the fields of its type are meaningful; spans point into the
// reader's buffers and are valid only during the PeTraceBuilder::add call.
struct LogRecord {
    RecordType type = RecordType::Creation;
    std::int32_t messageType = 0;
    EntryId entry = kNoEntry;
    TimeUs time = 0;
    TimeUs endTime = 0; // bracketed note end
    std::int32_t eventId = 0;
    PeId pe = kNoPe;
    std::int32_t msgBytes = -1;
    std::int64_t sendDuration = 0; // CREATION sendT
    TimeUs cpuTime = 0;
    bool hasCpuTime = false;
    std::span<const std::int32_t> objectId;
    std::span<const std::int64_t> papi;
    std::int32_t destinationCount = 0;
    std::span<const PeId> destinations; // multicast PE list
    std::int32_t userEventId = 0;
    std::int32_t nestedId = 0;
    std::int64_t value = 0; // USER_SUPPLIED value, MEMORY_USAGE bytes, END_PHASE phase id
    double userTime = 0.0; // USER_STAT
    double statValue = 0.0; // USER_STAT
    std::int32_t statId = 0;
    std::string_view text; // note text
};

} // namespace parallax::core
