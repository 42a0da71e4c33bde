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

std::optional<Overview> computeOverview(const Trace& trace, const AnalysisRequest& request,
    const OverviewOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
