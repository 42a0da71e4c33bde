#pragma once

#include "core/analysis/analysis_request.h"
#include "core/analysis/critical_path.h"
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// Who made a PE idle (docs/why.md): each idle period of a selected PE is blamed on the message
// that ended it — the message that started the PE's first execution after the idle, when that
// execution began right after the idle and its message came from another PE through a verified
// link — and on that message's producer (PE and entry method of the execution that sent it),
// with the producer's own reason for sending late, one level up (its start cause).

struct BlamedIdle {
    enum class Kind : std::uint8_t {
        Message, // ended by a message from another PE: blamed on its producer
        SelfMessage, // ended by a message the PE sent itself
        NoSender, // the execution after it names no sender (SDAG, runtime messages)
        UnresolvedLink, // it names one, but the link is stale, missing or weak
        NothingAfter, // no execution began right after it (the run or the range ends)
    };
    Kind kind = Kind::NothingAfter;
    PeId consumerPe = kNoPe;
    TimeUs begin = 0; // the idle period, clipped to the range
    TimeUs end = 0;
    ExecutionRef ended; // the execution that followed (all kinds but NothingAfter)
    // Message: the producer and its execution that made the send (entry kNoEntry when the send
    // came between executions or before any), the destination entry and the send time.
    PeId producerPe = kNoPe;
    EntryId producerEntry = kNoEntry;
    EntryId messageEntry = kNoEntry;
    TimeUs sendTime = 0;
    // One level up: what determined when the producer's execution began (Kind::None when its
    // execution is unknown), with the PE and entry method of that predecessor.
    StartCause::Kind producerLate = StartCause::Kind::None;
    PeId producerLatePe = kNoPe;
    EntryId producerLateEntry = kNoEntry;

    [[nodiscard]] TimeUs idle() const { return end - begin; }
};
const char* blamedIdleKindName(BlamedIdle::Kind kind);
// "message", "busy" or "none": the producer's start cause as the CLI names it.
const char* producerLateName(StartCause::Kind kind);

struct IdleBlame {
    TimeRange range;
    std::vector<PeId> pes; // the consumer PEs looked at (comm threads only when requested)
    TimeUs totalIdle = 0; // idle of those PEs in the range
    std::vector<BlamedIdle> idles; // every idle period, PE by PE in time order
    [[nodiscard]] TimeUs blamedIdle() const; // the Message kind's sum
};

// PEs are looked at in parallel (request.threads); the result is the same in any case. A
// cancelled `progress` stops it early with a partial result, for the caller to drop.
IdleBlame findIdleBlame(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// Blame summed by key; a key part left out of the grouping is kNoPe / kNoEntry ("all").
struct BlameRow {
    PeId producerPe = kNoPe;
    EntryId producerEntry = kNoEntry;
    PeId consumerPe = kNoPe;
    StartCause::Kind producerLate = StartCause::Kind::None; // Detail only
    PeId producerLatePe = kNoPe; // Detail only
    EntryId producerLateEntry = kNoEntry; // Detail only
    TimeUs idle = 0;
    std::size_t count = 0;
};
enum class BlameGrouping : std::uint8_t {
    Pe, // producer PE x consumer PE (the blame matrix)
    Entry, // producer entry method, over every PE
    Detail, // producer PE, entry, consumer PE and the producer's own start cause
};
// Message-kind idles only, sorted by idle descending (then by key).
std::vector<BlameRow> aggregateBlame(const IdleBlame& blame, BlameGrouping grouping);

// "Idle caused": per producer PE and per producer entry method, the idle their messages ended,
// plus the idle that could not be blamed, by kind.
struct IdleCaused {
    enum class Kind : std::uint8_t { Pe, Entry, Unblamed };
    Kind kind = Kind::Pe;
    PeId pe = kNoPe; // Pe
    EntryId entry = kNoEntry; // Entry (kNoEntry: sends made between executions)
    BlamedIdle::Kind unblamed = BlamedIdle::Kind::NothingAfter; // Unblamed
    TimeUs idle = 0;
    std::size_t count = 0;
};
// Pe rows (by idle, descending), then Entry rows, then the Unblamed kinds.
std::vector<IdleCaused> idleCaused(const IdleBlame& blame);

} // namespace parallax::core::analysis
