#pragma once

#include "analysis_request.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

enum class HistogramMetric : std::uint8_t {
    Duration, // executions by duration (µs), stacked by entry method; idle periods in "idle"
    MessageSize, // messages by size (bytes), stacked by destination entry method
    IdlePercent // PEs by their idle % over the range (one count per PE)
};

struct HistogramOptions {
    HistogramMetric metric = HistogramMetric::Duration;
    std::int64_t bins = 0; // 0: 100 (duration, idle) or 200 (message size)
    double binSize = 0; // 0: 1000 µs, 100 bytes or 1 %
    double minimum = 0; // values below are dropped
    // Duration: idle periods binned in the idle column. Idle periods are not executions, so
    // the views and the CLI leave them out unless asked; never counted when the request names
    // entry methods.
    bool includeIdle = true;
};

// Counts per bin and activity; the last bin (index `bins`) is the overflow bin.
struct Histogram {
    HistogramMetric metric = HistogramMetric::Duration;
    std::int64_t bins = 0;
    double binSize = 1;
    double minimum = 0;
    ActivityColumns columns;
    std::vector<double> counts; // [bin * columns.count() + column], bins + 1 rows
    std::vector<double> accumulated; // Duration only: summed durations (µs), same layout

    [[nodiscard]] double count(std::int64_t bin, int column) const
    {
        return counts[static_cast<std::size_t>(bin) * static_cast<std::size_t>(columns.count())
            + static_cast<std::size_t>(column)];
    }
    [[nodiscard]] double binLow(std::int64_t bin) const
    {
        return minimum + static_cast<double>(bin) * binSize;
    }
};

// From the logs (docs/format.md §4.4). The correct mode counts every execution that begins in the
// range with its whole duration (when the range ends with the run, also one that begins exactly
// at its end), counts a broadcast or multicast once per destination, and measures a PE's idle %
// over the time it was traced within the range.
std::optional<Histogram> computeHistogram(const Trace& trace, const AnalysisRequest& request,
    const HistogramOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
