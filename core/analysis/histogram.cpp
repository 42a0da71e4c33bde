#include "histogram.h"

#include "core/trace.h"
#include "java_event_stream.h"
#include "pe_activity.h"
#include "run_span.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace parallax::core::analysis {

namespace {

struct Binner {
    std::int64_t bins;
    double size;
    double minimum;
    // Bin of a value, `bins` for overflow, -1 when below the minimum.
    [[nodiscard]] std::int64_t bin(double value) const
    {
        const double adjusted = value - minimum;
        if (adjusted < 0 || !std::isfinite(adjusted))
            return -1;
        const double b = std::floor(adjusted / size);
        return b >= static_cast<double>(bins) ? bins : static_cast<std::int64_t>(b);
    }
};

struct PeCounts {
    std::vector<double> counts;
    std::vector<double> accumulated;
};

void javaDurations(const PeTrace& pe, const ResolvedRequest& r, const Binner& binner, PeCounts& out)
{
    using Kind = JavaEvent::Kind;
    const auto width = static_cast<std::size_t>(r.columns.count());
    const TimeUs start = r.range.begin;
    const TimeUs end = r.range.end;
    auto add = [&](TimeUs duration, int column) {
        const auto b = binner.bin(static_cast<double>(duration));
        if (b < 0)
            return;
        const auto i = static_cast<std::size_t>(b) * width + static_cast<std::size_t>(column);
        out.counts[i] += 1.0;
        out.accumulated[i] += static_cast<double>(duration);
    };
    int level = 0;
    TimeUs outerBegin = 0;
    TimeUs idleBegin = -1;
    for (const auto& e : javaEventStream(pe)) {
        switch (e.kind) {
        case Kind::BeginProcessing:
            ++level;
            if (level == 1)
                outerBegin = e.time;
            break;
        case Kind::EndProcessing:
            --level;
            if (level < 0) {
                level = 0;
                break;
            }
            if (level == 0 && e.time >= start) {
                if (e.time > end) {
                    // Still running at the end: clipped to the end, counted, and the PE stops.
                    add(end - std::max(outerBegin, start),
                        e.entry < r.columns.entryCount ? e.entry : r.columns.overhead());
                    return;
                }
                add(e.time - std::max(outerBegin, start),
                    e.entry < r.columns.entryCount ? e.entry : r.columns.overhead());
            }
            break;
        case Kind::BeginIdle:
            idleBegin = e.time;
            break;
        case Kind::EndIdle:
            if (idleBegin >= 0 && e.time >= start && e.time <= end)
                add(e.time - std::max(idleBegin, start), r.columns.idle());
            idleBegin = -1;
            break;
        default:
            break;
        }
    }
}

// Correct mode: executions and idle periods that begin in [begin, end); when the range ends
// with the run (`last` is true), also those that begin exactly at its end (a PE's last
// execution, cut by END_COMPUTATION at the same microsecond, is still an execution: the
// logs and the Timeline have it).
void correctDurations(
    const PeTrace& pe, const ResolvedRequest& r, bool last, const Binner& binner, PeCounts& out)
{
    const auto inRange = [&](TimeUs begin) {
        return begin < r.range.end || (last && begin == r.range.end);
    };
    const auto width = static_cast<std::size_t>(r.columns.count());
    auto add = [&](TimeUs duration, int column) {
        const auto b = binner.bin(static_cast<double>(duration));
        if (b < 0)
            return;
        const auto i = static_cast<std::size_t>(b) * width + static_cast<std::size_t>(column);
        out.counts[i] += 1.0;
        out.accumulated[i] += static_cast<double>(duration);
    };
    const auto& ex = pe.executions;
    const auto first = static_cast<std::size_t>(
        std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin) - ex.begin.begin());
    for (auto k = first; k < ex.size() && inRange(ex.begin[k]); ++k)
        add(ex.end[k] - ex.begin[k],
            ex.entry[k] < r.columns.entryCount ? ex.entry[k] : r.columns.overhead());
    const auto& idle = pe.idles;
    const auto firstIdle = static_cast<std::size_t>(
        std::lower_bound(idle.begin.begin(), idle.begin.end(), r.range.begin) - idle.begin.begin());
    for (auto k = firstIdle; k < idle.size() && inRange(idle.begin[k]); ++k)
        add(idle.end[k] - idle.begin[k], r.columns.idle());
}

void messageSizes(const PeTrace& pe, const ResolvedRequest& r, const Binner& binner, PeCounts& out)
{
    const auto width = static_cast<std::size_t>(r.columns.count());
    const auto& s = pe.sends;
    const bool java = r.mode == Mode::JavaCompat;
    // Java: CREATION with time in [start, end], broadcasts and multicasts not counted.
    const auto range = pe.sendsIn(r.range.begin, java ? r.range.end + 1 : r.range.end);
    for (auto k = range.first; k < range.last; ++k) {
        if (java && s.kind[k] != SendKind::PointToPoint)
            continue;
        const auto b = binner.bin(static_cast<double>(s.msgBytes[k]));
        if (b < 0)
            continue;
        const int column = s.entry[k] < r.columns.entryCount ? s.entry[k] : r.columns.overhead();
        const double n = java ? 1.0 : static_cast<double>(std::max(s.destinationCount[k], 1));
        out.counts[static_cast<std::size_t>(b) * width + static_cast<std::size_t>(column)] += n;
    }
}

double idlePercent(const PeTrace& pe, const ResolvedRequest& r)
{
    const TimeUs B = r.range.begin;
    const TimeUs E = r.range.end;
    double idle = 0;
    const auto range = pe.idlesOverlapping(B, E);
    for (auto k = range.first; k < range.last; ++k)
        idle += static_cast<double>(std::min(pe.idles.end[k], E) - std::max(pe.idles.begin[k], B));
    double span = 0;
    if (r.mode == Mode::JavaCompat) {
        // Java: from the first record at or after the start to the last one read.
        span = static_cast<double>(std::min(pe.lastTime, E) - std::max(pe.firstTime, B));
    } else {
        for (const auto& t : tracedSpans(pe))
            span += static_cast<double>(
                std::max<TimeUs>(0, std::min(t.end, E) - std::max(t.begin, B)));
    }
    return span > 0 ? idle * 100.0 / span : 0.0;
}

} // namespace

std::optional<Histogram> computeHistogram(const Trace& trace, const AnalysisRequest& request,
    const HistogramOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    Histogram h;
    h.metric = options.metric;
    h.columns = r.columns;
    const bool sizes = options.metric == HistogramMetric::MessageSize;
    h.bins = options.bins > 0 ? options.bins : (sizes ? 200 : 100);
    h.binSize = options.binSize > 0
        ? options.binSize
        : (sizes                                                 ? 100.0
                : options.metric == HistogramMetric::IdlePercent ? 1.0
                                                                 : 1000.0);
    h.minimum = options.minimum;
    const Binner binner { h.bins, h.binSize, h.minimum };
    const auto width = static_cast<std::size_t>(r.columns.count());
    const auto cells = static_cast<std::size_t>(h.bins + 1) * width;
    h.counts.assign(cells, 0.0);
    if (options.metric == HistogramMetric::Duration)
        h.accumulated.assign(cells, 0.0);
    if (!trace.hasLogs())
        return h;
    // The run ends where its traced span does (comm-thread tails do not move the end).
    const bool endsWithRun = r.range.end >= tracedRunSpan(trace).end;
    std::mutex merge;
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        const auto& pe = trace.pes[static_cast<std::size_t>(r.pes[k])];
        PeCounts local { std::vector<double>(cells, 0.0), std::vector<double>(cells, 0.0) };
        switch (options.metric) {
        case HistogramMetric::Duration:
            if (r.mode == Mode::JavaCompat)
                javaDurations(pe, r, binner, local);
            else
                correctDurations(pe, r, endsWithRun, binner, local);
            break;
        case HistogramMetric::MessageSize:
            // A comm thread's sends relay messages a worker already sent (counted there), so
            // they are left out unless the request includes comm threads (docs/differences.md).
            if (r.isAggregated(k))
                messageSizes(pe, r, binner, local);
            break;
        case HistogramMetric::IdlePercent: {
            const auto b = binner.bin(idlePercent(pe, r));
            if (b >= 0)
                local.counts[static_cast<std::size_t>(b) * width
                    + static_cast<std::size_t>(r.columns.idle())]
                    += 1.0;
            break;
        }
        }
        std::lock_guard lock(merge);
        for (std::size_t i = 0; i < cells; ++i)
            h.counts[i] += local.counts[i];
        if (!h.accumulated.empty())
            for (std::size_t i = 0; i < cells; ++i)
                h.accumulated[i] += local.accumulated[i];
    });
    if (!ok)
        return std::nullopt;
    if (options.metric == HistogramMetric::Duration
        && (!options.includeIdle || !request.entries.empty()))
        for (std::int64_t b = 0; b <= h.bins; ++b) {
            const auto i
                = static_cast<std::size_t>(b) * width + static_cast<std::size_t>(r.columns.idle());
            h.counts[i] = 0;
            h.accumulated[i] = 0;
        }
    for (std::size_t e = 0; e < r.entrySelected.size(); ++e)
        if (!r.entrySelected[e])
            for (std::int64_t b = 0; b <= h.bins; ++b) {
                h.counts[static_cast<std::size_t>(b) * width + e] = 0;
                if (!h.accumulated.empty())
                    h.accumulated[static_cast<std::size_t>(b) * width + e] = 0;
            }
    return h;
}

} // namespace parallax::core::analysis
