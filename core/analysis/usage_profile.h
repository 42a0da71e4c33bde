#pragma once

#include "analysis_request.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

// Per PE, the percentage of the range spent in each activity (entry methods, overhead, idle,
// pack, unpack), plus the average over the selected PEs (comm threads apart unless the request
// includes them).
struct UsageProfile {
    TimeRange range;
    ActivityColumns columns;
    std::vector<PeId> pes;
    // [peIndex * columns.count() + column], % of the range.
    std::vector<double> percent;
    // Java compat only: the per-entry message-send time row ("Message Send Time: <EP>"), %.
    std::vector<double> sendPercent;
    std::vector<double> average; // per column, mean over pes except `apart`
    std::vector<PeId> apart; // PEs left out of the average (comm threads, by default)
    std::vector<double> averageSend; // per column
    // The PEs profiled from their summary files (a reduced run's PEs without a log; sorted).
    std::vector<PeId> fromSummary;

    [[nodiscard]] double at(std::size_t peIndex, int column) const
    {
        return percent[peIndex * static_cast<std::size_t>(columns.count())
            + static_cast<std::size_t>(column)];
    }
};

// From the logs (Java: UsageCalc, docs/format.md §4.0.2), or the summaries for runs without logs.
std::optional<UsageProfile> computeUsageProfile(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

} // namespace parallax::core::analysis
