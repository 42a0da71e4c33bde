#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <algorithm>
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
    // The PEs drawn from their summary files (no log in a reduced run; sorted).
    std::vector<PeId> fromSummary;

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

// One PE's time (or a sum of PEs' time) over a grid per activity, keeping only the cells that
// were touched: a PE runs a few entry methods per time column, so dense rows of 1,000 columns ×
// hundreds of entry methods would be nearly all zeros. Interval i holds
// activity[start[i]] .. activity[start[i + 1] - 1] (ascending) with their µs in `value`.
struct SparseActivityRows {
    std::vector<std::uint32_t> start; // grid.count + 1 offsets
    std::vector<std::int32_t> activity; // ActivityColumns index
    std::vector<double> value; // µs
    // From a PE's log; false: from its summaries, where the pack column carries the .sum
    // utilization and the entry methods the .sumd time.
    bool fromLogs = true;

    [[nodiscard]] std::int64_t intervals() const
    {
        return start.empty() ? 0 : static_cast<std::int64_t>(start.size()) - 1;
    }
};

// Sums cells into SparseActivityRows. One per thread, reused: it keeps a zeroed dense scratch of
// intervals × width cells and clears only the cells it touched.
class ActivityAccumulator {
public:
    // Starts empty rows of `intervals` × `width` cells.
    void reset(std::int64_t intervals, int width);
    void add(std::int64_t interval, int column, double us)
    {
        const auto at
            = static_cast<std::size_t>(interval) * m_width + static_cast<std::size_t>(column);
        if (m_touched[at] == 0) {
            m_touched[at] = 1;
            m_order.push_back(static_cast<std::uint32_t>(at));
            m_orderInterval.push_back(static_cast<std::uint32_t>(interval));
        }
        m_cells[at] += us;
    }
    // Adds every cell of `rows` times `sign` (1 or -1: a sign flip is exact), but those of the
    // activity `skip`.
    void add(const SparseActivityRows& rows, double sign = 1.0, int skip = -1);
    // The cells touched since reset, sorted; the accumulator is empty again afterwards.
    void take(SparseActivityRows& out, bool fromLogs);

private:
    std::size_t m_width = 0;
    std::int64_t m_intervals = 0;
    std::vector<double> m_cells;
    std::vector<std::uint8_t> m_touched;
    std::vector<std::uint32_t> m_order; // touched cells in the order of their first add
    std::vector<std::uint32_t> m_orderInterval; // and their intervals
    std::vector<std::uint32_t> m_next; // counting sort by interval
};

// Collects cells into SparseActivityRows: a list of what was added, sorted once at the end. A
// PE touches few cells, and their list stays in cache where a dense scratch of intervals ×
// activities would not. One per thread, reused.
class ActivityCollector {
public:
    // Starts empty rows of `intervals` intervals and activities 0 .. activities - 1.
    void reset(std::int64_t intervals, int activities)
    {
        m_intervals = std::max<std::int64_t>(intervals, 0);
        m_activities = static_cast<std::size_t>(std::max(activities, 0));
        m_cells.clear();
    }
    void add(std::int64_t interval, int activity, double us)
    {
        m_cells.push_back({ static_cast<std::uint32_t>(interval), activity, us });
    }
    // The cells added since reset, sorted, the amounts of one cell summed in the order they
    // were added (as a dense row would, bit for bit).
    void take(SparseActivityRows& out, bool fromLogs);

private:
    struct Cell {
        std::uint32_t interval;
        std::int32_t activity;
        double us;
    };
    std::int64_t m_intervals = 0;
    std::size_t m_activities = 0;
    std::vector<Cell> m_cells;
    std::vector<Cell> m_sorted;
    std::vector<std::uint32_t> m_next;
    // One interval's cells merged: per activity its sum and whether it was seen.
    std::vector<double> m_sum;
    std::vector<std::uint8_t> m_seen;
    std::vector<std::int32_t> m_order;
};

// One PE's time over the grid per activity column, from its log (`logs`) or else from its
// summaries, where the pack column carries the .sum utilization. (For a run with logs, `logs`
// is false for the PEs a summaryFallback request takes from their summaries.)
void overviewActivityRows(const Trace& trace, PeId pe, const IntervalGrid& grid,
    const ActivityColumns& columns, bool logs, ActivityCollector& scratch,
    SparseActivityRows& rows);

struct OverviewCell {
    float utilization = 0; // %
    float idle = 0; // %
    std::int32_t dominant = 0; // activity column
};
// The cell of one interval of overviewActivityRows (or of a sum of such rows, whose
// percentages are then sums over the PEs).
OverviewCell overviewCell(const SparseActivityRows& rows, const IntervalGrid& grid,
    std::int64_t interval, const ActivityColumns& columns);

// µs of interval `interval` as a percentage of its length (the part inside the grid's limit):
// a log's utilization and idle share.
float percentOfInterval(double us, const IntervalGrid& grid, std::int64_t interval);

// Entry-method time of rows over the whole grid (what KEY ranks PEs by: work, not idle or
// overhead); from summaries, the .sum utilization of the intervals without .sumd entry time.
double entryTime(const SparseActivityRows& rows, const ActivityColumns& columns);

std::optional<Overview> computeOverview(const Trace& trace, const AnalysisRequest& request,
    const OverviewOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
