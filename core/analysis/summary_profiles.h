#pragma once

#include "analysis_request.h"
#include "time_profile.h"

#include <cstdint>
#include <vector>

namespace parallax::core::analysis {

// Views computed from the summary files (.sum, .sumd) for runs without logs
// (docs/format.md §3, §4).

// Time profile from the .sumd files at their interval size (the finest when PEs differ);
// idle from the .sum IdlePercent lines, overhead the rest.
std::optional<TimeProfile> timeProfileFromSummaries(
    const Trace& trace, const ResolvedRequest& request, const TimeProfileOptions& options);

// Per-PE µs per activity column over the range from the summaries: entry time from the .sumd
// cells overlapping the range (prorated), else from the .sum per-entry totals (whole run, or
// scaled by the busy fraction of the range); idle from IdlePercent when present.
std::vector<double> usageFromSummaries(const Trace& trace, PeId pe, const ResolvedRequest& request);

// The whole-run utilization graph of the main window, from the .sum files: per bin of the
// finest .sum interval, the mean over PEs of busy % and idle %. Bins start at time 0 (the
// tracer's start). PEs with a coarser interval have each bin repeated interval/finest times.
//
// PEs stop writing bins at different times. Correct mode averages each bin over the PEs that
// cover it (a PE whose .sum has ended is not "0 % busy", it is not there); idle is NaN in a bin
// no PE has idle data for. Java (compat mode) divides every bin by the number of worker PEs
// (the header's count: comm-thread summaries are left out) and counts missing bins as 0.
struct SummaryAverage {
    TimeUs intervalUs = 0;
    std::vector<double> utilization; // %; may exceed 100 a little (the tracer truncates per bin)
    std::vector<double> idle; // %; empty when no .sum has IdlePercent
    std::vector<std::uint32_t> peCount; // PEs covering each bin
    std::size_t peTotal = 0; // PEs averaged
    std::size_t commThreadsApart = 0; // comm threads with a .sum left out (correct mode)
    bool resampled = false; // PEs had different intervals (coarser bins repeated)

    [[nodiscard]] bool empty() const { return utilization.empty() || intervalUs <= 0; }
    [[nodiscard]] std::size_t binCount() const { return utilization.size(); }
    [[nodiscard]] bool hasIdle() const { return !idle.empty(); }
    [[nodiscard]] TimeUs binBegin(std::size_t bin) const
    {
        return static_cast<TimeUs>(bin) * intervalUs;
    }
    [[nodiscard]] TimeUs duration() const { return binBegin(binCount()); }
};
// Correct mode leaves comm threads out (they have no idle data) unless includeCommThreads.
SummaryAverage summaryAverage(const Trace& trace, Mode mode, bool includeCommThreads = false);

} // namespace parallax::core::analysis
