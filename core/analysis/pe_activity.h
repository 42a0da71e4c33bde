#pragma once

#include "analysis_request.h"
#include "core/pe_trace.h"
#include "interval_grid.h"
#include "time_split.h"

#include <algorithm>
#include <vector>

namespace parallax::core::analysis {

// The span in which a PE was traced: [begin, end) minus the tracing gaps.
struct TracedSpan {
    TimeUs begin = 0;
    TimeUs end = 0;
};
std::vector<TracedSpan> tracedSpans(const PeTrace& pe);

// The correct-mode time accounting of one PE over a grid, as calls add(interval, column, µs):
// - entry methods: execution time split exactly at interval boundaries, minus the pack and
//   unpack time inside the execution (which goes to the pack/unpack columns: the only negative
//   amounts);
// - idle, pack, unpack: their intervals, split likewise;
// - overhead: last, once per interval, the rest of the time the PE was traced
//   (BEGIN_COMPUTATION to END_COMPUTATION or its last record, tracing gaps excluded); time the
//   PE was not traced is not counted at all.
// A cell may be named several times; its time is the sum. Every amount is a whole number of µs,
// so sums do not depend on their order.
template <typename Add>
void visitActivity(
    const PeTrace& pe, const IntervalGrid& grid, const ActivityColumns& columns, Add&& add)
{
    std::vector<double> used(static_cast<std::size_t>(std::max<std::int64_t>(grid.count, 0)), 0.0);
    const auto put = [&](std::int64_t i, int column, double us) {
        used[static_cast<std::size_t>(i)] += us;
        add(i, column, us);
    };
    const TimeUs t0 = grid.origin;
    const TimeUs t1 = grid.limit();
    const auto& ex = pe.executions;
    const auto execs = pe.executionsOverlapping(t0, t1);
    for (auto k = execs.first; k < execs.last; ++k) {
        const int column = ex.entry[k] < columns.entryCount ? ex.entry[k] : columns.overhead();
        splitOverGrid(grid, ex.begin[k], ex.end[k],
            [&](std::int64_t i, TimeUs us) { put(i, column, static_cast<double>(us)); });
    }
    const auto idles = pe.idlesOverlapping(t0, t1);
    for (auto k = idles.first; k < idles.last; ++k)
        splitOverGrid(grid, pe.idles.begin[k], pe.idles.end[k],
            [&](std::int64_t i, TimeUs us) { put(i, columns.idle(), static_cast<double>(us)); });
    // Pack and unpack: their own columns; when inside an execution, taken out of its entry.
    const IntervalColumns* kinds[] = { &pe.packs, &pe.unpacks };
    const int kindColumn[] = { columns.pack(), columns.unpack() };
    for (int kind = 0; kind < 2; ++kind) {
        const auto& c = *kinds[kind];
        const auto range = overlappingRange(c.begin, c.end, t0, t1);
        for (auto k = range.first; k < range.last; ++k) {
            const TimeUs b = c.begin[k];
            const TimeUs e = c.end[k];
            splitOverGrid(grid, b, e, [&](std::int64_t i, TimeUs us) {
                put(i, kindColumn[kind], static_cast<double>(us));
            });
            // The execution containing [b, e), if any: the last one beginning at or before b.
            const auto it = std::upper_bound(ex.begin.begin(), ex.begin.end(), b);
            if (it == ex.begin.begin())
                continue;
            const auto x = static_cast<std::size_t>(it - ex.begin.begin()) - 1;
            const TimeUs ob = std::max(b, ex.begin[x]);
            const TimeUs oe = std::min(e, ex.end[x]);
            if (oe <= ob || ex.entry[x] >= columns.entryCount)
                continue;
            const int column = ex.entry[x];
            splitOverGrid(grid, ob, oe,
                [&](std::int64_t i, TimeUs us) { put(i, column, -static_cast<double>(us)); });
        }
    }
    // Overhead: traced time not attributed to anything else.
    std::vector<double> traced(used.size(), 0.0);
    for (const auto& span : tracedSpans(pe))
        splitOverGrid(grid, span.begin, span.end, [&](std::int64_t i, TimeUs us) {
            traced[static_cast<std::size_t>(i)] += static_cast<double>(us);
        });
    for (std::size_t i = 0; i < used.size(); ++i) {
        const double rest = traced[i] - used[i];
        if (rest > 0)
            add(static_cast<std::int64_t>(i), columns.overhead(), rest);
    }
}

// visitActivity added into dense rows ([interval * columns.count() + column], µs; `rows` holds
// grid.count × columns.count() values and usually starts at zero).
void accumulateActivity(const PeTrace& pe, const IntervalGrid& grid, const ActivityColumns& columns,
    std::vector<double>& rows);

} // namespace parallax::core::analysis
