#pragma once

#include "analysis_request.h"
#include "core/run_metadata.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Two or more runs (or ranges of one run) side by side: the time of each entry method, matched
// by its name ("Chare::entry(params)", not its id, which differs between builds), and the busy
// share of the selected PEs over time, aligned on a common origin with one interval size.

// One side of a comparison: a run, the range and PEs to take from it, and a name for it.
struct CompareSide {
    const Trace* trace = nullptr;
    AnalysisRequest request;
    std::string label;
};

enum class CompareOrigin : std::uint8_t {
    RangeStart, // each side's range begins at offset 0
    UserEvent // each side's first occurrence of a user event (in its range) is offset 0
};

struct CompareOptions {
    CompareOrigin origin = CompareOrigin::RangeStart;
    UserEventId event = 0; // with UserEvent
    TimeUs intervalSize = 0; // > 0: this interval size
    std::int64_t bins = 0; // > 0: this many intervals over the longest side; default 200
};

struct EntryComparison {
    std::string name; // Chare::entry(params)
    std::vector<double> timeUs; // per side: execution time summed over its PEs
    std::vector<EntryId> ids; // per side: the entry's id there, kNoEntry when it has none
};

struct RunComparison {
    std::vector<std::string> labels;
    std::vector<TimeRange> ranges; // per side, resolved
    std::vector<std::size_t> peCounts; // per side: PEs summed (comm threads apart)
    std::vector<double> totalUs; // per side: all entry methods
    // Entry methods that ran on any side, the largest change (or, for more than two sides, the
    // largest time) first.
    std::vector<EntryComparison> entries;
    // Aligned time profiles: per side, the % of its PEs' time spent in entry methods per
    // interval of `intervalSize` from its origin (NaN after the side's range ends).
    TimeUs intervalSize = 1;
    std::vector<TimeUs> origins; // per side, absolute
    std::vector<std::vector<double>> busyPercent;
    // What makes the comparison doubtful: different programs, PE counts or range lengths.
    std::vector<std::string> warnings;
    std::size_t matchedEntries = 0; // entry names that ran on every side
    // The sides ran different programs: no entry method in common, or different command names
    // and fewer than half the entry methods in common.
    bool differentPrograms = false;
};

// Nullopt when cancelled. Sides whose origin cannot be found (the user event does not occur in
// the range) get no profile (all NaN) and a warning; callers that require it check
// eventTimes() first.
std::optional<RunComparison> compareRuns(const std::vector<CompareSide>& sides,
    const CompareOptions& options = {}, const Progress& progress = {});

// The first occurrence of user event `event` on the request's PEs in its range (an instant event
// or the begin of a bracketed one); nullopt when there is none.
std::optional<TimeUs> firstUserEvent(
    const Trace& trace, const AnalysisRequest& request, UserEventId event);

// The name entry methods are matched by: "Chare::entry(params)".
std::string entryKey(const RunMetadata& metadata, EntryId id);

// entry,a_us,b_us,delta_us,ratio for two sides (delta = b - a, ratio = b / a, empty when a is
// 0); for more sides entry,<label 1>_us,<label 2>_us,...
std::string comparisonCsv(const RunComparison* comparison);
// interval,offset_us,<label>_busy_pct per side (and delta_pct = b - a for two sides).
std::string comparisonProfileCsv(const RunComparison* comparison);

} // namespace parallax::core::analysis
