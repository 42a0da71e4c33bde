// The timeline's rows of groups of PEs: a collapsed row's aggregated pixel columns.

#include "core/analysis/overview.h"
#include "views/timeline/timeline_rows_internal.h"

#include <algorithm>
#include <cmath>

namespace parallax::views::timeline_rows {

namespace {

// Adds a group's coarse summary to a collapsed row's columns (pixel units, as the exact path):
// busy time per column and, per (column, entry), the time of each bucket's dominant entry.
void addSummary(const PeSummary& sum, const TimeMapping& map, int width, std::size_t entries,
    std::vector<double>& busy, core::analysis::ActivityCollector& byEntry,
    std::vector<std::uint32_t>& started, double& busyUs, std::vector<double>& entryUs)
{
    const double usPerPixel = static_cast<double>(map.window.length()) / map.width;
    for (int c = 0; c < width; ++c) {
        const auto cc = static_cast<std::size_t>(c);
        forBucketsInColumn(sum, map, usPerPixel, c, [&](std::size_t bi, double share, bool begins) {
            const double us = static_cast<double>(sum.busy[bi]) * share;
            busyUs += us;
            busy[cc] += us / usPerPixel;
            if (sum.dominant[bi] < entries) {
                const double dominant = static_cast<double>(sum.dominantUs[bi]) * share;
                byEntry.add(c, sum.dominant[bi], dominant / usPerPixel);
                entryUs[sum.dominant[bi]] += dominant;
            }
            if (begins)
                started[cc] += sum.started[bi];
        });
    }
}

} // namespace

void buildGroupRow(const core::Trace& trace, TimelineRow& row, const TimeMapping& map,
    const core::analysis::ActivityColumns& columns, std::vector<core::TimeUs>& activityTime,
    const TimelineSummaryCache* summaries)
{
    const auto w = map.window;
    const int width = std::max(static_cast<int>(std::ceil(map.width)), 1);
    const double scale = map.width / static_cast<double>(w.length());
    const auto entries = static_cast<std::size_t>(std::max(columns.entryCount, 1));
    // Busy pixel-time per column; a fully busy PE adds 1 per column. Per (column, entry) the
    // same, kept sparse: a column holds a few of the run's entry methods.
    std::vector<double> busy(static_cast<std::size_t>(width), 0.0);
    thread_local core::analysis::ActivityCollector byEntry;
    thread_local core::analysis::SparseActivityRows entryRows;
    byEntry.reset(width, static_cast<int>(entries));
    std::vector<std::uint32_t> started(static_cast<std::size_t>(width), 0);
    std::size_t members = 0;
    // Zoomed far out (several summary buckets per pixel): the group's summary.
    std::shared_ptr<const PeSummary> group;
    if (summaries != nullptr && summaries->trace().get() == &trace
        && static_cast<double>(w.length()) / map.width
            >= 4.0 * static_cast<double>(summaries->bucketWidth()))
        group = summaries->of(row.members);
    if (group) {
        double busyUs = 0.0;
        std::vector<double> entryUs(entries, 0.0);
        addSummary(*group, map, width, entries, busy, byEntry, started, busyUs, entryUs);
        for (std::size_t entry = 0;
             entry < entries && entry < static_cast<std::size_t>(columns.entryCount); ++entry)
            activityTime[entry] += static_cast<core::TimeUs>(std::llround(entryUs[entry]));
        row.busyUs = static_cast<core::TimeUs>(std::llround(busyUs));
    }
    for (const auto pe : row.members) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        ++members;
        row.tracedUs += tracedInWindow(p, w);
        if (group) {
            // Busy time came from the group's summary; idle is the rest of the traced time.
            continue;
        }
        const auto& ex = p.executions;
        const auto range = p.executionsOverlapping(w.begin, w.end);
        for (auto k = range.first; k < range.last; ++k) {
            const auto b = std::max(ex.begin[k], w.begin);
            const auto e = std::min(ex.end[k], w.end);
            const int entry = ex.entry[k];
            const auto d = std::max<core::TimeUs>(e - b, 0);
            row.busyUs += d;
            if (entry < columns.entryCount)
                activityTime[static_cast<std::size_t>(entry)] += d;
            const double u0 = static_cast<double>(b - w.begin) * scale;
            const double u1 = static_cast<double>(e - w.begin) * scale;
            const int c0 = std::clamp(static_cast<int>(std::floor(u0)), 0, width - 1);
            const int c1 = std::clamp(static_cast<int>(std::ceil(u1)), c0 + 1, width);
            ++started[static_cast<std::size_t>(c0)];
            for (int c = c0; c < c1; ++c) {
                const double cover = std::min(u1, static_cast<double>(c + 1))
                    - std::max(u0, static_cast<double>(c));
                if (cover <= 0.0)
                    continue;
                busy[static_cast<std::size_t>(c)] += cover;
                if (entry < columns.entryCount)
                    byEntry.add(c, entry, cover);
            }
        }
        const auto idles = p.idlesOverlapping(w.begin, w.end);
        for (auto i = idles.first; i < idles.last; ++i) {
            const auto d = clippedLength(p.idles.begin[i], p.idles.end[i], w);
            row.idleUs += d;
            activityTime[static_cast<std::size_t>(columns.idle())] += d;
        }
    }
    if (group) {
        row.idleUs = std::max<core::TimeUs>(row.tracedUs - row.busyUs, 0);
        activityTime[static_cast<std::size_t>(columns.idle())] += row.idleUs;
    }
    byEntry.take(entryRows, true);
    const int left = static_cast<int>(std::lround(map.left));
    for (int c = 0; c < width; ++c) {
        const auto cc = static_cast<std::size_t>(c);
        if (busy[cc] <= 0.0)
            continue;
        // The dominant entry: the first of the most time (entry 0 when none ran).
        int best = 0;
        double bestTime = 0.0;
        for (auto k = entryRows.start[cc]; k < entryRows.start[cc + 1]; ++k)
            if (entryRows.value[k] > bestTime) {
                bestTime = entryRows.value[k];
                best = entryRows.activity[k];
            }
        TimelineBlock block;
        block.kind = TimelineBlockKind::Aggregate;
        block.left = left + c;
        block.right = block.left + 1;
        block.activity = best;
        block.dominantShare = static_cast<float>(bestTime / busy[cc]);
        block.utilization = static_cast<float>(
            std::min(busy[cc] / static_cast<double>(std::max<std::size_t>(members, 1)), 1.0));
        block.count = started[cc];
        block.executions = started[cc];
        block.begin = map.timeAt(left + c);
        block.end = std::max(map.timeAt(left + c + 1), block.begin + 1);
        row.blocks.push_back(block);
    }
}

} // namespace parallax::views::timeline_rows
