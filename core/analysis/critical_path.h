#pragma once

#include "core/analysis/analysis_request.h"
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// The dependency graph of executions (docs/why.md): an execution can start once its message has
// come (the CREATION that sent it, found by message_links through comm-thread relays) and once
// its PE is free (the previous execution on that PE ended). Only verified links are used: a
// weak, stale or missing link is no edge.

struct ExecutionRef {
    PeId pe = kNoPe;
    std::size_t index = 0;
    friend bool operator==(const ExecutionRef&, const ExecutionRef&) = default;
};

// What determined when an execution began.
struct StartCause {
    enum class Kind : std::uint8_t {
        None, // neither: the first execution, or its predecessors are not usable
        Message, // it waited for its message (sent after the PE was free, or the PE was idle)
        ProgramOrder, // the PE was busy until the previous execution ended
    };
    Kind kind = Kind::None;
    // Message: the worker PE that sent it (comm-thread relays skipped), the send's time (at most
    // the begin: clock skew is clamped) and the sender's execution around the send;
    // `sentBetween` when the send came after that execution had ended (between executions),
    // `senderExecution` false when no execution of the sender preceded the send.
    PeId senderPe = kNoPe;
    TimeUs sendTime = 0;
    EntryId sentEntry = kNoEntry; // the entry method the message was sent to
    ExecutionRef sender;
    bool senderExecution = false;
    bool sentBetween = false;
    // ProgramOrder: the previous execution on the same PE.
    ExecutionRef previous;
    // The message link's state when no message is used although the execution names a sender:
    // "stale-event-id", "not-found", "weak", "outside-pes" or "" (docs/why.md).
    std::string unresolved;
};

// Which PEs the graph may use: executions on other PEs are not nodes (a message from one is
// still followed to its send, which ends the walk).
struct PeFilter {
    std::vector<bool> allowed; // index = PE
    [[nodiscard]] bool contains(PeId pe) const
    {
        return pe >= 0 && static_cast<std::size_t>(pe) < allowed.size()
            && allowed[static_cast<std::size_t>(pe)];
    }
};
PeFilter makePeFilter(const Trace& trace, const std::vector<PeId>& pes);

// How far (µs) after an idle period's end an execution may begin and still be the one the idle
// ended for (the scheduler's pick-up cost).
inline constexpr TimeUs kIdleEndSlack = 50;

// The start cause of `execution` on `pe`: the message decides when it was sent after the PE
// became free, or when the PE sat idle right before the begin (the idle ended because something
// arrived); otherwise program order decides when there is a previous execution.
StartCause findStartCause(const Trace& trace, PeId pe, std::size_t execution, const PeFilter& pes);

struct CriticalStep {
    enum class Kind : std::uint8_t { Exec, Message, Wait };
    Kind kind = Kind::Exec;
    PeId pe = kNoPe; // exec/wait: the PE; message: the sending PE
    PeId toPe = kNoPe; // message: the receiving PE (else == pe)
    EntryId entry = kNoEntry; // exec: its entry method; message: the destination entry method
    TimeUs begin = 0;
    TimeUs end = 0;
    ExecutionRef execution; // exec: the execution (possibly a part of it)
};
const char* criticalStepKindName(CriticalStep::Kind kind); // "exec", "message", "wait"

struct CriticalPath {
    TimeRange range; // the resolved range
    std::vector<CriticalStep> steps; // earliest first; consecutive steps meet end to begin
    // Why the walk stopped at the first step, in words ("no earlier dependency", "the range
    // begins", "PE 3 is not selected", ...).
    std::string startReason;
    // Executions on the walk whose message named a sender but could not be linked
    // (stale-event-id, not-found or weak; a sender outside the PEs does not count).
    std::size_t unresolvedLinks = 0;
    [[nodiscard]] bool empty() const { return steps.empty(); }
    [[nodiscard]] TimeUs length() const
    {
        return steps.empty() ? 0 : steps.back().end - steps.front().begin;
    }
    [[nodiscard]] TimeUs total(CriticalStep::Kind kind) const;
};

// One entry method's part of a critical path: the time its executions ran on it (the candidates
// whose speed-up would shorten the path) and the time messages sent to it were in flight.
struct CriticalEntryShare {
    EntryId entry = kNoEntry;
    TimeUs exec = 0;
    TimeUs message = 0;
    std::size_t executions = 0; // exec steps (an execution is on the path once, or in part)
    std::size_t longestStep = 0; // index in the path's steps of its longest exec step
};

// The path's exec and message time per entry method, most exec time first (then most message
// time, then entry id). Wait steps belong to no entry method. One pass over the steps.
std::vector<CriticalEntryShare> criticalPathByEntry(const CriticalPath& path);

// The critical path through the request's range and PEs: it ends with the execution that ends
// last in the range (clipped to the range) and walks back through each execution's start cause
// until the range begins or no dependency is known. Comm threads are nodes only when the request
// includes them (their relays are part of the messages either way). Empty when the range holds no
// execution of the selected PEs.
// `progress` hears how much of the range the walk has gone back over; once cancelled, the walk
// stops with a partial path, for the caller to drop.
CriticalPath findCriticalPath(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

} // namespace parallax::core::analysis
