#pragma once

#include "analysis_request.h"
#include "core/pe_trace.h"
#include "interval_grid.h"

#include <vector>

namespace parallax::core::analysis {

// The correct-mode time accounting of one PE over a grid, added into `rows`
// ([interval * columns.count() + column], µs):
// - entry methods: execution time split exactly at interval boundaries, minus the pack and
//   unpack time inside the execution (which goes to the pack/unpack columns);
// - idle, pack, unpack: their intervals, split likewise;
// - overhead: the rest of the time the PE was traced (BEGIN_COMPUTATION to END_COMPUTATION or its
//   last record, tracing gaps excluded); time the PE was not traced is not counted at all.
void accumulateActivity(const PeTrace& pe, const IntervalGrid& grid, const ActivityColumns& columns,
    std::vector<double>& rows);

// The span in which a PE was traced: [begin, end) minus the tracing gaps.
struct TracedSpan {
    TimeUs begin = 0;
    TimeUs end = 0;
};
std::vector<TracedSpan> tracedSpans(const PeTrace& pe);

} // namespace parallax::core::analysis
