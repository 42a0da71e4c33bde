#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

// Time per activity (entry methods, overhead, idle, pack, unpack) per interval, summed over the
// selected PEs (comm threads apart unless the request includes them). An execution straddling
// interval boundaries is split exactly.
struct TimeProfile {
    IntervalGrid grid;
    ActivityColumns columns;
    std::size_t peCount = 0; // PEs summed
    std::vector<PeId> apart; // selected PEs left out of the sums (comm threads, by default)
    // µs summed over PEs, row-major [interval * columns.count() + column].
    std::vector<double> time;

    [[nodiscard]] double at(std::int64_t interval, int column) const
    {
        return time[static_cast<std::size_t>(interval) * static_cast<std::size_t>(columns.count())
            + static_cast<std::size_t>(column)];
    }
    // Percent of the interval's processor time (interval size × PEs); a column sums to 100
    // where every PE was traced for the whole interval.
    [[nodiscard]] double percent(std::int64_t interval, int column) const;
};

struct TimeProfileOptions {
    TimeUs intervalSize = 0; // > 0: this interval size
    std::int64_t bins = 0; // > 0: this many intervals; default 1000 (Java: length/1000)
};

// From the logs; from the .sumd files for summary-only runs. Returns nullopt when cancelled.
std::optional<TimeProfile> computeTimeProfile(const Trace& trace, const AnalysisRequest& request,
    const TimeProfileOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
