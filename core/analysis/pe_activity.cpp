#include "pe_activity.h"

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
    visitActivity(pe, grid, columns, [&](std::int64_t i, int column, double us) {
        rows[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(column)] += us;
    });
}

} // namespace parallax::core::analysis
