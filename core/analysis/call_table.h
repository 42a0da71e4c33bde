#pragma once

#include "analysis_request.h"
#include "result_table.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// The Call Table: for each entry method, who sent the messages that started its executions —
// the entry method that was running on the sending PE when the message was created, and that
// PE. Messages relayed by SMP comm threads are followed back to the worker that sent them
// (message_links.h), so a relay is neither a caller nor counted twice.

// What stands in the caller's place when it is not an entry method.
enum class CallerKind : std::uint8_t {
    Entry, // sent during an execution of `callerEntry`
    Outside, // sent on `callerPe` while no entry method ran (scheduler, runtime)
    NoSender, // the execution names no sender (SDAG serial blocks, the main chare, runtime)
    Unknown, // a sender is named but its send was not found (no log, stale event id, ...)
};

struct CallEdge {
    EntryId entry = kNoEntry; // the entry method started
    CallerKind kind = CallerKind::Entry;
    EntryId callerEntry = kNoEntry; // kind == Entry
    PeId callerPe = kNoPe; // kNoPe when unknown
    std::uint64_t count = 0; // executions started
    double bytes = 0; // message bytes received (the executions' BEGIN sizes)
    // Latency from the send (the first one, before any comm-thread relay) to the execution's
    // begin, µs, over the `linked` executions whose send was found; NaN when none was.
    std::uint64_t linked = 0;
    double minLatencyUs = 0;
    double meanLatencyUs = 0;
    double maxLatencyUs = 0;
};

struct CallTable {
    TimeRange range;
    std::vector<PeId> pes; // the receiving PEs counted
    std::vector<PeId> apart; // selected comm threads left out (AnalysisRequest)
    // By entry (most executions first, then id), within an entry by count (descending), then
    // caller entry and PE.
    std::vector<CallEdge> edges;
    std::string error;
};

// Every execution that begins in the range on the selected PEs (comm threads apart unless the
// request includes them) of the requested entry methods. Returns nullopt when cancelled.
std::optional<CallTable> computeCallTable(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// entry,caller_entry,caller_pe,count,bytes,min_us,mean_us,max_us, then entry_name and
// caller_name. caller_entry is an entry id, or "outside" (sent between entry methods), "none"
// (no sender recorded) or "unknown" (the send was not found); caller_pe is empty when unknown;
// min/mean/max are the send-to-begin latencies (empty when no send was found).
ResultTable callTableTable(const CallTable& table, const RunMetadata& metadata);

// "outside", "none", "unknown" or the entry id.
std::string callerKey(const CallEdge& edge);

} // namespace parallax::core::analysis
