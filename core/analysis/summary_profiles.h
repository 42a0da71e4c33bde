#pragma once

#include "analysis_request.h"
#include "time_profile.h"

#include <vector>

namespace parallax::core::analysis {

// Views computed from the summary files (.sum, .sumd) for runs without logs (FORMAT.md §3, §4).

// Time profile from the .sumd files at their interval size (the finest when PEs differ);
// idle from the .sum IdlePercent lines, overhead the rest.
std::optional<TimeProfile> timeProfileFromSummaries(
    const Trace& trace, const ResolvedRequest& request, const TimeProfileOptions& options);

// Per-PE µs per activity column over the range from the summaries: entry time from the .sumd
// cells overlapping the range (prorated), else from the .sum per-entry totals (whole run, or
// scaled by the busy fraction of the range); idle from IdlePercent when present.
std::vector<double> usageFromSummaries(const Trace& trace, PeId pe, const ResolvedRequest& request);

// The main-window graph: per bin of the finest .sum interval, the mean over PEs of utilization
// and idle %. Java averages over the header's worker-PE count only (comm threads ignored).
struct SummaryAverage {
    TimeUs intervalUs = 0;
    std::vector<double> utilization; // %
    std::vector<double> idle; // %; empty when no .sum has IdlePercent
    std::size_t peCount = 0;
};
SummaryAverage summaryAverage(const Trace& trace, Mode mode);

} // namespace parallax::core::analysis
