#include "interval_grid.h"

#include <algorithm>

namespace parallax::core::analysis {

namespace {
// ceil(a / b) for a >= 0, b > 0 without the overflow of (a + b - 1) / b near 2^63.
std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return a / b + (a % b != 0 ? 1 : 0);
}
} // namespace

IntervalGrid gridForRange(TimeRange range, TimeUs size, std::int64_t bins)
{
    IntervalGrid g;
    g.origin = range.begin;
    const TimeUs length = std::max<TimeUs>(range.length(), 1);
    if (size <= 0) {
        const auto n = std::clamp<std::int64_t>(bins <= 0 ? 1000 : bins, 1, length);
        size = ceilDiv(length, n); // ceil, so n intervals cover the range
    }
    g.size = std::max<TimeUs>(size, 1);
    g.count = std::max<std::int64_t>(ceilDiv(length, g.size), 1);
    g.firstIndex = 0;
    return g;
}

IntervalGrid javaGrid(TimeRange range, TimeUs size)
{
    IntervalGrid g;
    g.size = size > 0 ? size : std::max<TimeUs>(range.length() / 1000, 1);
    const auto first = range.begin / g.size;
    const auto last = range.end / g.size;
    g.firstIndex = first;
    g.origin = first * g.size;
    g.count = last - first + 1;
    return g;
}

IntervalGrid javaOverviewGrid(TimeRange range, TimeUs forcedSize)
{
    IntervalGrid g;
    TimeUs size = forcedSize;
    if (size <= 0) {
        const TimeUs t = range.length();
        std::int64_t n = t < 7000 ? t - 1 : 7000;
        n = std::max<std::int64_t>(n, 1);
        size = t / n;
        if (size < 5) {
            n = std::max<std::int64_t>(n / 5, 1);
            size = t / n;
        }
    }
    g.size = std::max<TimeUs>(size, 1);
    const auto first = range.begin / g.size;
    const auto last = range.end / g.size;
    g.firstIndex = first;
    g.origin = first * g.size;
    g.count = std::max<std::int64_t>(last - first, 0);
    return g;
}

} // namespace parallax::core::analysis
