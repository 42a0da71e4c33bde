#pragma once

#include "core/pe_trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// Count, total, min, max, mean and standard deviation of durations (µs), accumulated one value
// at a time (Welford's update, so the deviation of long runs keeps its precision) and mergeable
// across PEs. The deviation is the population one (σ over the values, not an estimate).
struct DurationStats {
    std::uint64_t count = 0;
    double total = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double m2 = 0; // sum of squared deviations from the mean

    void add(double value);
    void merge(const DurationStats& other);
    [[nodiscard]] double sd() const;
};

// The executions of `pe` that begin in `range` (whole durations, as the Histogram counts them);
// when `includeEnd` (the range ends with the run) also those that begin exactly at its end.
IndexRange executionsBeginningIn(const PeTrace& pe, TimeRange range, bool includeEnd);
// Whether a resolved range ends with the run's traced span (for includeEnd above).
bool rangeEndsWithRun(const Trace& trace, TimeRange range);

// Why a tool that needs the logs cannot run: "this run has no logs (`why`)", or, for a run
// opened from its summaries because of the memory budget, that its logs were left unread.
std::string missingLogsMessage(const Trace& trace, const std::string& why);

// The median of `values` (reordered); NaN when empty.
double medianOf(std::vector<double>& values);
// The median absolute deviation from `median` (the values are left as they were given); NaN
// when empty.
double medianAbsoluteDeviation(const std::vector<double>& values, double median);

} // namespace parallax::core::analysis
