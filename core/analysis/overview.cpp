#include "overview.h"

#include "core/trace.h"
#include "java_interval_engine.h"
#include "pe_activity.h"
#include "time_split.h"

#include <algorithm>

namespace parallax::core::analysis {

namespace {

TimeUs detailIntervalSize(const Trace& trace)
{
    for (const auto& d : trace.details)
        if (d && d->intervalUs > 0)
            return d->intervalUs;
    return 0;
}

// Java's OverviewPanel/ThreadedFileReader arithmetic (see docs/format.md §4.3), float included.
void javaOverviewPe(
    const PeTrace& pe, const IntervalGrid& grid, int entries, Overview& out, std::size_t k)
{
    IntervalGrid engineGrid = grid;
    engineGrid.count = grid.count + 1; // the engine reads start..end inclusive
    const auto t = runJavaIntervalEngine(pe, engineGrid, entries);
    const double size = static_cast<double>(grid.size);
    const auto e = static_cast<std::size_t>(entries);
    for (std::int64_t i = 0; i < grid.count; ++i) {
        const auto row = static_cast<std::size_t>(i);
        double work = 0;
        std::int32_t best = 0;
        double bestValue = static_cast<double>(t.entryTime[row * e]);
        for (std::size_t x = 0; x < e; ++x) {
            const auto v = static_cast<double>(t.entryTime[row * e + x]);
            work += v;
            if (v > bestValue) {
                bestValue = v;
                best = static_cast<std::int32_t>(x);
            }
        }
        const auto idlePct = t.idleTime[row] * 100 / grid.size;
        const double idle = static_cast<double>(idlePct) * 0.01 * size;
        const double overhead = size - work - idle;
        if (overhead > bestValue) {
            bestValue = overhead;
            best = entries;
        }
        if (idle > bestValue)
            best = entries + 1;
        const auto util = static_cast<float>(1.0 - (overhead + idle) / size);
        const auto index = out.index(k, i);
        out.utilization[index] = static_cast<float>(static_cast<int>(100.0F * util));
        // Java shows the idle share as a float fraction times 100, truncated.
        const auto idleFraction = static_cast<float>(idle / size);
        out.idle[index] = static_cast<float>(static_cast<int>(100.0F * idleFraction));
        // Java's overhead/idle indices are entries and entries+1; ours are the same two
        // (ActivityColumns puts Overhead then Idle right after the entries).
        out.dominant[index] = best;
    }
}

} // namespace

void ActivityAccumulator::reset(std::int64_t intervals, int width)
{
    const auto w = static_cast<std::size_t>(std::max(width, 0));
    const auto cells = static_cast<std::size_t>(std::max<std::int64_t>(intervals, 0)) * w;
    if (w != m_width || intervals != m_intervals || m_cells.size() != cells) {
        m_width = w;
        m_intervals = std::max<std::int64_t>(intervals, 0);
        m_cells.assign(cells, 0.0);
        m_touched.assign(cells, 0);
        m_order.clear();
        m_orderInterval.clear();
        return;
    }
    for (const auto at : m_order) {
        m_cells[at] = 0.0;
        m_touched[at] = 0;
    }
    m_order.clear();
    m_orderInterval.clear();
}

void ActivityAccumulator::add(const SparseActivityRows& rows, double sign, int skip)
{
    const auto n = std::min(rows.intervals(), m_intervals);
    for (std::int64_t i = 0; i < n; ++i)
        for (auto k = rows.start[static_cast<std::size_t>(i)];
             k < rows.start[static_cast<std::size_t>(i) + 1]; ++k)
            if (rows.activity[k] != skip)
                add(i, rows.activity[k], rows.value[k] * sign);
}

void ActivityAccumulator::take(SparseActivityRows& out, bool fromLogs)
{
    out.fromLogs = fromLogs;
    const auto intervals = static_cast<std::size_t>(m_intervals);
    out.start.assign(intervals + 1, 0);
    for (const auto i : m_orderInterval)
        ++out.start[i + 1];
    for (std::size_t i = 0; i < intervals; ++i)
        out.start[i + 1] += out.start[i];
    m_next.assign(out.start.begin(), out.start.end() - 1);
    out.activity.resize(m_order.size());
    out.value.resize(m_order.size());
    for (std::size_t k = 0; k < m_order.size(); ++k) {
        const auto i = m_orderInterval[k];
        out.activity[m_next[i]++] = static_cast<std::int32_t>(m_order[k] - i * m_width);
    }
    for (std::size_t i = 0; i < intervals; ++i) {
        const auto first = out.activity.begin() + out.start[i];
        const auto last = out.activity.begin() + out.start[i + 1];
        if (last - first > 1)
            std::sort(first, last);
        for (auto k = out.start[i]; k < out.start[i + 1]; ++k) {
            const auto at = i * m_width + static_cast<std::size_t>(out.activity[k]);
            out.value[k] = m_cells[at];
            m_cells[at] = 0.0;
            m_touched[at] = 0;
        }
    }
    m_order.clear();
    m_orderInterval.clear();
}

void ActivityCollector::take(SparseActivityRows& out, bool fromLogs)
{
    out.fromLogs = fromLogs;
    const auto intervals = static_cast<std::size_t>(m_intervals);
    out.start.assign(intervals + 1, 0);
    // Counting sort by interval (stable), then each interval's cells merged by activity.
    m_next.assign(intervals + 1, 0);
    for (const auto& c : m_cells)
        ++m_next[c.interval + 1];
    for (std::size_t i = 0; i < intervals; ++i)
        m_next[i + 1] += m_next[i];
    m_sorted.resize(m_cells.size());
    for (const auto& c : m_cells)
        m_sorted[m_next[c.interval]++] = c;
    if (m_sum.size() != m_activities) {
        m_sum.assign(m_activities, 0.0);
        m_seen.assign(m_activities, 0);
    }
    out.activity.clear();
    out.value.clear();
    std::size_t k = 0;
    for (std::size_t i = 0; i < intervals; ++i) {
        m_order.clear();
        for (; k < m_next[i]; ++k) {
            const auto& c = m_sorted[k];
            const auto a = static_cast<std::size_t>(c.activity);
            if (m_seen[a] == 0) {
                m_seen[a] = 1;
                m_order.push_back(c.activity);
            }
            m_sum[a] += c.us; // from 0.0, in the order added
        }
        if (m_order.size() > 1)
            std::sort(m_order.begin(), m_order.end());
        for (const auto a : m_order) {
            const auto at = static_cast<std::size_t>(a);
            out.activity.push_back(a);
            out.value.push_back(m_sum[at]);
            m_sum[at] = 0.0;
            m_seen[at] = 0;
        }
        out.start[i + 1] = static_cast<std::uint32_t>(out.activity.size());
    }
    m_cells.clear();
}

void overviewActivityRows(const Trace& trace, PeId pe, const IntervalGrid& grid,
    const ActivityColumns& cols, bool logs, ActivityCollector& scratch, SparseActivityRows& rows)
{
    const auto p = static_cast<std::size_t>(pe);
    scratch.reset(grid.count, cols.count());
    const auto add = [&](std::int64_t i, int column, double us) {
        scratch.add(i, column, us);
    };
    if (logs) {
        if (p < trace.pes.size())
            visitActivity(trace.pes[p], grid, cols, add);
        scratch.take(rows, true);
        return;
    }
    if (p < trace.details.size() && trace.details[p]) {
        const auto& d = *trace.details[p];
        for (const auto& c : d.cells) {
            if (static_cast<int>(c.entry) >= cols.entryCount)
                continue;
            const TimeUs b = static_cast<TimeUs>(c.interval) * d.intervalUs;
            const double perUs = static_cast<double>(c.timeUs) / static_cast<double>(d.intervalUs);
            splitOverGrid(grid, b, b + d.intervalUs, [&](std::int64_t i, TimeUs us) {
                add(i, static_cast<int>(c.entry), perUs * static_cast<double>(us));
            });
        }
    }
    if (p < trace.summaries.size() && trace.summaries[p]) {
        const auto& s = *trace.summaries[p];
        for (std::size_t b = 0; b < s.utilization.size(); ++b) {
            const TimeUs begin = static_cast<TimeUs>(b) * s.intervalUs;
            const double idle = b < s.idlePercent.size() ? s.idlePercent[b] * 0.01 : 0.0;
            const double busy = s.utilization[b] * 0.01;
            splitOverGrid(grid, begin, begin + s.intervalUs, [&](std::int64_t i, TimeUs us) {
                add(i, cols.idle(), idle * static_cast<double>(us));
                add(i, cols.pack(), busy * static_cast<double>(us));
            });
        }
    }
    scratch.take(rows, false);
}

OverviewCell overviewCell(const SparseActivityRows& rows, const IntervalGrid& grid,
    std::int64_t interval, const ActivityColumns& cols)
{
    OverviewCell cell;
    const auto first = rows.start[static_cast<std::size_t>(interval)];
    const auto last = rows.start[static_cast<std::size_t>(interval) + 1];
    // The sums add the activities in column order, as dense rows would (bit for bit).
    double entries = 0;
    double pack = 0;
    double unpack = 0;
    double idle = 0;
    // The dominant activity: the first of the largest time (untouched cells are zero); the
    // summaries' pack and unpack columns do not compete (pack carries the utilization).
    const int candidates = rows.fromLogs ? cols.count() : cols.entryCount + 2;
    double best = 0;
    std::int32_t dominant = cols.overhead();
    for (auto k = first; k < last; ++k) {
        const int a = rows.activity[k];
        const double v = rows.value[k];
        if (a < cols.entryCount)
            entries += v;
        else if (a == cols.pack())
            pack = v;
        else if (a == cols.unpack())
            unpack = v;
        else if (a == cols.idle())
            idle = v;
        if (a < candidates && v > best) {
            best = v;
            dominant = a;
        }
    }
    cell.dominant = dominant;
    if (rows.fromLogs) {
        double busy = pack + unpack;
        for (auto k = first; k < last && rows.activity[k] < cols.entryCount; ++k)
            busy += rows.value[k];
        cell.utilization = percentOfInterval(busy, grid, interval);
        cell.idle = percentOfInterval(idle, grid, interval);
        return cell;
    }
    // Summaries: utilization from the .sum bins (or the .sumd entry time when there is no .sum).
    const double length = static_cast<double>(grid.size);
    const double busy = pack > 0 ? pack : entries;
    cell.utilization = static_cast<float>(busy * 100.0 / length);
    cell.idle = static_cast<float>(idle * 100.0 / length);
    return cell;
}

float percentOfInterval(double us, const IntervalGrid& grid, std::int64_t interval)
{
    const double length
        = static_cast<double>(std::min(grid.end(interval), grid.limit()) - grid.begin(interval));
    return static_cast<float>(us * 100.0 / length);
}

double entryTime(const SparseActivityRows& rows, const ActivityColumns& cols)
{
    double sum = 0;
    for (std::int64_t i = 0; i < rows.intervals(); ++i) {
        double entries = 0;
        double pack = 0;
        for (auto k = rows.start[static_cast<std::size_t>(i)];
             k < rows.start[static_cast<std::size_t>(i) + 1]; ++k) {
            if (rows.activity[k] < cols.entryCount)
                entries += rows.value[k];
            else if (rows.activity[k] == cols.pack())
                pack = rows.value[k];
        }
        // Summaries: the .sum utilization when there is no .sumd entry time.
        sum += (!rows.fromLogs && entries <= 0) ? pack : entries;
    }
    return sum;
}

IntervalGrid overviewGrid(
    const Trace& trace, const ResolvedRequest& request, const OverviewOptions& options)
{
    if (request.mode == Mode::JavaCompat)
        return javaOverviewGrid(request.range, detailIntervalSize(trace));
    IntervalGrid grid
        = gridForRange(request.range, 0, options.columns > 0 ? options.columns : 1000);
    if (trace.hasLogs())
        return grid;
    // Summary bins cannot be split; do not make columns finer than the .sum bins of any PE (of
    // the run, so that every subset of PEs and every group gets the same grid).
    TimeUs finest = 0;
    for (const auto& s : trace.summaries)
        if (s && s->intervalUs > 0)
            finest = finest == 0 ? s->intervalUs : std::min(finest, s->intervalUs);
    if (finest > grid.size)
        grid = gridForRange(request.range, finest, 0);
    return grid;
}

std::optional<Overview> computeOverview(const Trace& trace, const AnalysisRequest& request,
    const OverviewOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    Overview o;
    o.columns = r.columns;
    o.pes = r.pes;
    o.fromSummary = r.fromSummary;
    const bool java = r.mode == Mode::JavaCompat;
    const bool logs = trace.hasLogs();
    o.grid = overviewGrid(trace, r, options);
    const auto cells = r.pes.size() * static_cast<std::size_t>(o.grid.count);
    o.utilization.assign(cells, 0.0F);
    o.idle.assign(cells, 0.0F);
    o.dominant.assign(cells, r.columns.overhead());
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        const auto pe = r.pes[k];
        if (java && logs) {
            javaOverviewPe(
                trace.pes[static_cast<std::size_t>(pe)], o.grid, r.columns.entryCount, o, k);
            return;
        }
        thread_local ActivityCollector scratch;
        thread_local SparseActivityRows rows;
        overviewActivityRows(
            trace, pe, o.grid, r.columns, logs && !r.isFromSummary(pe), scratch, rows);
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto cell = overviewCell(rows, o.grid, i, r.columns);
            const auto index = o.index(k, i);
            o.utilization[index] = cell.utilization;
            o.idle[index] = cell.idle;
            o.dominant[index] = cell.dominant;
        }
    });
    if (!ok)
        return std::nullopt;
    return o;
}

} // namespace parallax::core::analysis
