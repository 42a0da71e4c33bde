#include "pe_activity.h"

#include "time_split.h"

#include <algorithm>

namespace parallax::core::analysis {

std::vector<TracedSpan> tracedSpans(const PeTrace& pe)
{
    std::vector<TracedSpan> spans;
    if (!pe.hasLog || pe.firstTime < 0)
        return spans;
    const TimeUs begin = pe.beginComputation >= 0 ? pe.beginComputation : pe.firstTime;
    const TimeUs end = pe.endComputation >= 0 ? pe.endComputation : pe.lastTime;
    TimeUs cursor = begin;
    for (const auto& gap : pe.traceGaps) {
        if (gap.begin > cursor)
            spans.push_back({ cursor, std::min(gap.begin, end) });
        cursor = std::max(cursor, gap.end);
    }
    if (cursor < end)
        spans.push_back({ cursor, end });
    return spans;
}

void accumulateActivity(const PeTrace& pe, const IntervalGrid& grid, const ActivityColumns& columns,
    std::vector<double>& rows)
{
    const auto width = static_cast<std::size_t>(columns.count());
    const auto cell = [&](std::int64_t i, int column) -> double& {
        return rows[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(column)];
    };
    const TimeUs t0 = grid.origin;
    const TimeUs t1 = grid.limit();
    const auto& ex = pe.executions;
    const auto execs = pe.executionsOverlapping(t0, t1);
    for (auto k = execs.first; k < execs.last; ++k) {
        const int column = ex.entry[k] < columns.entryCount ? ex.entry[k] : columns.overhead();
        splitOverGrid(grid, ex.begin[k], ex.end[k],
            [&](std::int64_t i, TimeUs us) { cell(i, column) += static_cast<double>(us); });
    }
    const auto idles = pe.idlesOverlapping(t0, t1);
    for (auto k = idles.first; k < idles.last; ++k)
        splitOverGrid(grid, pe.idles.begin[k], pe.idles.end[k],
            [&](std::int64_t i, TimeUs us) { cell(i, columns.idle()) += static_cast<double>(us); });
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
                cell(i, kindColumn[kind]) += static_cast<double>(us);
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
                [&](std::int64_t i, TimeUs us) { cell(i, column) -= static_cast<double>(us); });
        }
    }
    // Overhead: traced time not attributed to anything else.
    std::vector<double> traced(static_cast<std::size_t>(grid.count), 0.0);
    for (const auto& span : tracedSpans(pe))
        splitOverGrid(grid, span.begin, span.end, [&](std::int64_t i, TimeUs us) {
            traced[static_cast<std::size_t>(i)] += static_cast<double>(us);
        });
    for (std::int64_t i = 0; i < grid.count; ++i) {
        double used = 0;
        for (std::size_t c = 0; c < width; ++c)
            used += rows[static_cast<std::size_t>(i) * width + c];
        // `rows` may already hold other PEs' time: only this PE's additions count, so the
        // caller passes a per-PE buffer (see computeTimeProfile).
        cell(i, columns.overhead()) += std::max(0.0, traced[static_cast<std::size_t>(i)] - used);
    }
}

} // namespace parallax::core::analysis
