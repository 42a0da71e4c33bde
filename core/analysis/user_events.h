#pragma once

#include "analysis_request.h"
#include "result_table.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// User events (`traceUserEvent`: instants; `traceUserBracketEvent` and the begin/end pair:
// brackets with a duration) counted per event id and per PE, and listed one by one.

enum class UserEventKind : std::uint8_t { Instant, Bracket };

struct UserEventStats {
    UserEventId event = 0;
    PeId pe = kNoPe; // kNoPe: all the PEs counted
    UserEventKind kind = UserEventKind::Instant;
    std::uint64_t count = 0;
    // Brackets only (NaN for instants): total, min, mean and max duration, µs.
    double totalUs = 0;
    double minUs = 0;
    double meanUs = 0;
    double maxUs = 0;
    TimeUs first = 0; // the first occurrence's time
};

struct UserEventOccurrence {
    UserEventId event = 0;
    PeId pe = kNoPe;
    UserEventKind kind = UserEventKind::Instant;
    TimeUs begin = 0;
    TimeUs end = 0; // == begin for an instant
};

struct UserEventSummary {
    TimeRange range;
    std::vector<PeId> pes; // the PEs counted
    std::vector<PeId> apart; // selected comm threads left out (AnalysisRequest)
    // Per (event, kind): first the all-PE row, then one row per PE that has it; events by id,
    // instants before brackets.
    std::vector<UserEventStats> stats;
    std::vector<UserEventOccurrence> occurrences; // by time, then PE
    std::string error; // "this run has no user events", ...
};

struct UserEventOptions {
    std::vector<UserEventId> events; // empty = all
};

// Instants whose time, and brackets whose begin, lie in the range, on the selected PEs (comm
// threads apart unless the request includes them). Returns nullopt when cancelled.
std::optional<UserEventSummary> computeUserEvents(const Trace& trace,
    const AnalysisRequest& request, const UserEventOptions& options = {},
    const Progress& progress = {});

// The run's user events that appear in no .sts EVENT line are named "user event N".
std::string userEventName(const RunMetadata& metadata, UserEventId event);
// Ids in `events` that neither the .sts nor any log knows; empty when all are known.
std::vector<UserEventId> unknownUserEvents(
    const Trace& trace, const std::vector<UserEventId>& events);

// event,event_name,pe,kind,count,total_us,min_us,mean_us,max_us (pe "all" for the all-PE row;
// kind instant or bracket; durations empty for instants); each row targets its first occurrence.
ResultTable userEventStatsTable(const UserEventSummary& summary, const RunMetadata& metadata);
// event,event_name,pe,kind,begin_us,end_us,duration_us; each row targets its occurrence.
ResultTable userEventOccurrencesTable(const UserEventSummary& summary, const RunMetadata& metadata);

} // namespace parallax::core::analysis
