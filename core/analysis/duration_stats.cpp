#include "duration_stats.h"

#include "core/trace.h"
#include "run_span.h"

#include <algorithm>
#include <cmath>

namespace parallax::core::analysis {

void DurationStats::add(double value)
{
    if (count == 0) {
        min = value;
        max = value;
    } else {
        min = std::min(min, value);
        max = std::max(max, value);
    }
    ++count;
    total += value;
    const double delta = value - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (value - mean);
}

void DurationStats::merge(const DurationStats& other)
{
    if (other.count == 0)
        return;
    if (count == 0) {
        *this = other;
        return;
    }
    const double n = static_cast<double>(count);
    const double m = static_cast<double>(other.count);
    const double delta = other.mean - mean;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
    total += other.total;
    mean += delta * m / (n + m);
    m2 += other.m2 + delta * delta * n * m / (n + m);
    count += other.count;
}

double DurationStats::sd() const
{
    return count == 0 ? 0.0 : std::sqrt(std::max(0.0, m2 / static_cast<double>(count)));
}

IndexRange executionsBeginningIn(const PeTrace& pe, TimeRange range, bool includeEnd)
{
    const auto& begin = pe.executions.begin;
    const auto first = std::lower_bound(begin.begin(), begin.end(), range.begin);
    const auto last = includeEnd ? std::upper_bound(first, begin.end(), range.end)
                                 : std::lower_bound(first, begin.end(), range.end);
    return { static_cast<std::size_t>(first - begin.begin()),
        static_cast<std::size_t>(last - begin.begin()) };
}

bool rangeEndsWithRun(const Trace& trace, TimeRange range)
{
    return range.end >= tracedRunSpan(trace).end;
}

std::string missingLogsMessage(const Trace& trace, const std::string& why)
{
    if (trace.logsOnDemand())
        return "the logs of this run were left unread to stay within the memory budget (" + why
            + "): open it without --memory-budget, or with a larger one";
    return "this run has no logs (" + why + ")";
}

double medianOf(std::vector<double>& values)
{
    if (values.empty())
        return std::nan("");
    const auto middle = values.size() / 2;
    std::nth_element(
        values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1)
        return upper;
    const double lower
        = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
    return (lower + upper) / 2.0;
}

double medianAbsoluteDeviation(const std::vector<double>& values, double median)
{
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (const double v : values)
        deviations.push_back(std::abs(v - median));
    return medianOf(deviations);
}

} // namespace parallax::core::analysis
