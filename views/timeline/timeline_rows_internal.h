#pragma once

// What the two files building timeline rows share (timeline_geometry.cpp: a PE's row,
// timeline_group_rows.cpp: the rows of a group of PEs) and nothing else includes (but their
// tests).

#include "views/timeline/timeline_geometry.h"
#include "views/timeline/timeline_summary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace parallax::views::timeline_rows {

inline core::TimeUs clippedLength(core::TimeUs b, core::TimeUs e, core::TimeRange w)
{
    return std::max<core::TimeUs>(0, std::min(e, w.end) - std::max(b, w.begin));
}

// The part of the window inside a PE's traced span (its first to its last record).
inline core::TimeUs tracedInWindow(const core::PeTrace& p, core::TimeRange w)
{
    if (p.firstTime < 0)
        return 0;
    const auto end = p.endComputation >= 0 ? std::max(p.endComputation, p.lastTime) : p.lastTime;
    return clippedLength(p.beginComputation >= 0 ? p.beginComputation : p.firstTime, end, w);
}

// std::lower_bound over the first n values of the sorted column v, found by galloping out from
// index `guess`: a few probes near the guess instead of a binary search whose first probes all miss
// the cache.
template <typename Times>
std::size_t lowerBoundNear(const Times& v, std::size_t n, core::TimeUs value, std::size_t guess)
{
    guess = std::min(guess, n);
    std::size_t lo = guess; // v[lo - 1] < value (or lo == 0) once the gallop ends
    std::size_t hi = guess; // v[hi] >= value (or hi == n)
    std::size_t step = 1;
    if (guess < n && v[guess] < value) {
        lo = guess + 1;
        hi = lo;
        while (hi < n && v[hi] < value) {
            lo = hi + 1;
            hi = lo + step;
            step *= 2;
        }
        hi = std::min(hi, n);
    } else {
        while (lo > 0 && !(v[lo - 1] < value)) {
            hi = lo - 1;
            lo = hi > step ? hi - step : 0;
            step *= 2;
        }
    }
    const auto from = v.begin();
    return static_cast<std::size_t>(std::lower_bound(from + static_cast<std::ptrdiff_t>(lo),
                                        from + static_cast<std::ptrdiff_t>(hi), value)
        - from);
}

// Where time `t` falls among the executions `ex` (not empty), were they spread evenly over the
// PE's run: an index in [0, n].
inline std::size_t executionGuess(const core::ExecutionColumns& ex, core::TimeUs t)
{
    const std::size_t n = ex.size();
    const core::TimeUs first = ex.begin[0];
    const double span = static_cast<double>(ex.end[n - 1] - first);
    if (span <= 0.0 || t <= first)
        return 0;
    return static_cast<std::size_t>(std::min(
        static_cast<double>(t - first) / span * static_cast<double>(n), static_cast<double>(n)));
}

// PeTrace::executionsOverlapping(w.begin, w.end), the same range, searched from where the
// window lies in the PE's run (its executions spread evenly enough over it that the guesses
// land a few executions away). Per member and frame, the two searches over a whole column cost
// more than walking a short window's executions.
inline core::IndexRange executionsNear(const core::PeTrace& p, core::TimeRange w)
{
    const auto& ex = p.executions;
    const std::size_t n = ex.size();
    if (w.end <= w.begin || n == 0)
        return {};
    const auto& begin = ex.begin;
    const auto& end = ex.end;
    const auto guess = [&](core::TimeUs t) {
        return executionGuess(ex, t);
    };
    // As overlappingRange: the first execution ending at or after the window's begin (one
    // ending exactly there overlaps only with zero length), up to the first beginning at or
    // after its end.
    auto first = lowerBoundNear(end, n, w.begin, guess(w.begin));
    while (first < n && end[first] == w.begin && begin[first] < w.begin)
        ++first;
    const auto last = lowerBoundNear(begin, n, w.end, guess(w.end));
    if (last <= first)
        return {};
    return { first, last };
}

// Asks for the memory of `p`'s executions where the window begins (where executionsNear looks
// and a walk starts) ahead of use: issued for the next member of a group while the current one
// is walked, the next member's first reads do not wait on the memory one after another.
inline void prefetchExecutions(const core::PeTrace& p, core::TimeRange w)
{
    const auto& ex = p.executions;
    if (ex.size() == 0)
        return;
    const std::size_t last = ex.size() - 1;
    const std::size_t k = std::min(executionGuess(ex, w.begin), last);
    for (std::size_t ahead = 0; ahead < 32; ahead += 8) {
        const std::size_t i = std::min(k + ahead, last);
        __builtin_prefetch(ex.begin.narrow.data() + i);
        __builtin_prefetch(ex.end.narrow.data() + i);
    }
    __builtin_prefetch(ex.entry.data() + k);
    __builtin_prefetch(ex.entry.data() + std::min(k + 32, last));
}

// Walks the buckets (`count` of `bucketUs` from `origin`: a summary's) under pixel column `c`
// of `map`: visit(bucket, share, begins) per bucket overlapping the column, `share` being the
// fraction of the bucket inside the column and `begins` whether the bucket starts in it (its
// executions begun count there). Returns the column's time span [t0, t1).
template <typename Visit>
std::pair<double, double> forBucketsInColumn(core::TimeUs origin, core::TimeUs bucketUs,
    std::size_t count, const TimeMapping& map, double usPerPixel, int c, Visit&& visit)
{
    const double t0 = static_cast<double>(map.window.begin) + c * usPerPixel;
    const double t1 = std::min(t0 + usPerPixel, static_cast<double>(map.window.end));
    const double bucket = static_cast<double>(bucketUs);
    const double f0 = (t0 - static_cast<double>(origin)) / bucket;
    const double f1 = (t1 - static_cast<double>(origin)) / bucket;
    const auto b0 = std::max<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(std::floor(f0)), 0);
    const auto b1 = std::min<std::ptrdiff_t>(
        static_cast<std::ptrdiff_t>(std::ceil(f1)), static_cast<std::ptrdiff_t>(count));
    for (auto b = b0; b < b1; ++b) {
        const double share
            = std::min(f1, static_cast<double>(b + 1)) - std::max(f0, static_cast<double>(b));
        if (share > 0.0)
            visit(static_cast<std::size_t>(b), share,
                static_cast<double>(b) >= f0 && static_cast<double>(b) < f1);
    }
    return { t0, t1 };
}

// A row of several PEs (TimelineRow::collapsed()): one Aggregate block per pixel column where
// they ran (see buildTimelineGeometryForRows).
void buildGroupRow(const core::Trace& trace, TimelineRow& row, const TimeMapping& map,
    const core::analysis::ActivityColumns& columns, std::vector<core::TimeUs>& activityTime,
    const TimelineSummaryCache* summaries);

} // namespace parallax::views::timeline_rows
