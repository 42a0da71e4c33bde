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

void overviewActivityRows(const Trace& trace, PeId pe, const IntervalGrid& grid,
    const ActivityColumns& cols, bool logs, std::vector<double>& rows)
{
    const auto p = static_cast<std::size_t>(pe);
    const auto width = static_cast<std::size_t>(cols.count());
    rows.assign(static_cast<std::size_t>(grid.count) * width, 0.0);
    if (logs) {
        if (p < trace.pes.size())
            accumulateActivity(trace.pes[p], grid, cols, rows);
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
                rows[static_cast<std::size_t>(i) * width + c.entry]
                    += perUs * static_cast<double>(us);
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
                rows[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(cols.idle())]
                    += idle * static_cast<double>(us);
                rows[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(cols.pack())]
                    += busy * static_cast<double>(us);
            });
        }
    }
}

OverviewCell overviewCell(const double* row, const IntervalGrid& grid, std::int64_t interval,
    const ActivityColumns& cols, bool logs)
{
    const auto width = static_cast<std::ptrdiff_t>(cols.count());
    OverviewCell cell;
    if (logs) {
        const double length = static_cast<double>(
            std::min(grid.end(interval), grid.limit()) - grid.begin(interval));
        double busy = row[cols.pack()] + row[cols.unpack()];
        for (int x = 0; x < cols.entryCount; ++x)
            busy += row[x];
        const auto best = std::max_element(row, row + width) - row;
        cell.utilization = static_cast<float>(busy * 100.0 / length);
        cell.idle = static_cast<float>(row[cols.idle()] * 100.0 / length);
        cell.dominant = row[best] > 0 ? static_cast<std::int32_t>(best) : cols.overhead();
        return cell;
    }
    // Summaries: the pack column carries the .sum utilization (see overviewActivityRows).
    const double length = static_cast<double>(grid.size);
    double entries = 0;
    for (int x = 0; x < cols.entryCount; ++x)
        entries += row[x];
    // Utilization from the .sum bins (or the .sumd entry time when there is no .sum).
    const double busy = row[cols.pack()] > 0 ? row[cols.pack()] : entries;
    const auto best = std::max_element(row, row + cols.entryCount + 2) - row;
    cell.utilization = static_cast<float>(busy * 100.0 / length);
    cell.idle = static_cast<float>(row[cols.idle()] * 100.0 / length);
    cell.dominant = row[best] > 0 ? static_cast<std::int32_t>(best) : cols.overhead();
    return cell;
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
        thread_local std::vector<double> rows;
        overviewActivityRows(trace, pe, o.grid, r.columns, logs, rows);
        const auto width = static_cast<std::size_t>(r.columns.count());
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto cell = overviewCell(
                rows.data() + static_cast<std::size_t>(i) * width, o.grid, i, r.columns, logs);
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
