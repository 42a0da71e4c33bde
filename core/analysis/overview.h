#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

// Processors × time: per PE and column, the utilization, the idle share and the dominant
// activity (the column index of ActivityColumns with the most time).
struct Overview {
    IntervalGrid grid;
    ActivityColumns columns;
    std::vector<PeId> pes;
    // [peIndex * grid.count + column]
    std::vector<float> utilization; // % busy in entry methods (+ pack/unpack in the correct mode)
    std::vector<float> idle; // % idle (Java: truncated integer)
    std::vector<std::int32_t> dominant;

    [[nodiscard]] std::size_t index(std::size_t peIndex, std::int64_t column) const
    {
        return peIndex * static_cast<std::size_t>(grid.count) + static_cast<std::size_t>(column);
    }
};

struct OverviewOptions {
    std::int64_t columns = 0; // 0: 1000 (Java compat: the 7000-column rule)
};

// The time columns of the Overview for a resolved request: `options.columns` equal intervals (1000
// by default), never finer than the .sum bins when the run has no logs; Java's grid in compat
// mode.
IntervalGrid overviewGrid(
    const Trace& trace, const ResolvedRequest& request, const OverviewOptions& options);

// One PE's time over the grid per activity column ([interval * columns.count() + column], µs),
// from its log (`logs`) or else from its summaries, where the pack column carries the .sum
// utilization. `rows` is resized and overwritten.
void overviewActivityRows(const Trace& trace, PeId pe, const IntervalGrid& grid,
    const ActivityColumns& columns, bool logs, std::vector<double>& rows);

struct OverviewCell {
    float utilization = 0; // %
    float idle = 0; // %
    std::int32_t dominant = 0; // activity column
};
// The cell of one interval from its row of overviewActivityRows (or a sum of such rows, whose
// percentages are then sums over the PEs).
OverviewCell overviewCell(const double* row, const IntervalGrid& grid, std::int64_t interval,
    const ActivityColumns& columns, bool logs);

std::optional<Overview> computeOverview(const Trace& trace, const AnalysisRequest& request,
    const OverviewOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
