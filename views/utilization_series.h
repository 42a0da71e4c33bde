#pragma once

#include "core/summary_data.h"
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace parallax::views {

// Whole-run processor utilisation from the .sum files (-tracemode summary): per time bin, the
// mean over PEs of each PE's busy % (and idle % where the files have an IdlePercent line).
// Bins start at time 0 (the tracer's start), not at Trace::beginTime().
struct UtilizationSeries {
    core::TimeUs intervalUs = 0; // bin width: the smallest interval over the PEs
    // Busy % per bin, mean over the PEs that cover the bin. Usually 0..100, occasionally a
    // little above (the tracer truncates busy time per bin independently).
    std::vector<double> utilization;
    // Idle % per bin, mean over the PEs that have idle data for the bin; NaN where none has.
    // Empty when no PE's .sum has an IdlePercent line (format versions before 7.1).
    std::vector<double> idle;
    // Number of PEs that cover each bin (PEs stop writing bins at different times).
    std::vector<std::uint32_t> peCount;
    std::uint32_t peTotal = 0; // PEs with a .sum file
    bool resampled = false; // PEs had different intervals (the coarser ones were repeated)

    [[nodiscard]] bool empty() const { return utilization.empty() || intervalUs <= 0; }
    [[nodiscard]] std::size_t binCount() const { return utilization.size(); }
    [[nodiscard]] bool hasIdle() const { return !idle.empty(); }
    [[nodiscard]] core::TimeUs binBegin(std::size_t bin) const
    {
        return static_cast<core::TimeUs>(bin) * intervalUs;
    }
    [[nodiscard]] core::TimeUs duration() const { return binBegin(binCount()); }
};

// Averages the PEs' summaries (index = PE, nullopt for PEs without a .sum). PEs may use
// different bin sizes: each PE's bins are resampled to the smallest interval by repeating every
// value factor = round(intervalUs / smallest) times. Summaries with no bins or a non-positive
// interval are skipped. O(PEs x bins); no Qt, so it can move to core/analysis unchanged.
UtilizationSeries averageUtilization(const std::vector<std::optional<core::PeSummary>>& summaries);

} // namespace parallax::views
