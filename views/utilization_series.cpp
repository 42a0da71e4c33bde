#include "utilization_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax::views {

namespace {

// A corrupt .sum (a huge interval next to a tiny one) must not exhaust memory: bins past this
// are dropped. 2^26 bins of 1 ms are more than 18 hours.
constexpr std::size_t kMaxBins = std::size_t { 1 } << 26;

bool usable(const std::optional<core::PeSummary>& s)
{
    return s && s->intervalUs > 0 && !s->utilization.empty();
}

} // namespace

UtilizationSeries averageUtilization(const std::vector<std::optional<core::PeSummary>>& summaries)
{
    UtilizationSeries out;
    core::TimeUs smallest = 0;
    for (const auto& s : summaries)
        if (usable(s) && (smallest == 0 || s->intervalUs < smallest))
            smallest = s->intervalUs;
    if (smallest == 0)
        return out;

    // Resampling factor per PE and the resulting number of bins.
    std::vector<std::size_t> factors(summaries.size(), 0);
    std::size_t bins = 0;
    bool anyIdle = false;
    for (std::size_t p = 0; p < summaries.size(); ++p) {
        const auto& s = summaries[p];
        if (!usable(s))
            continue;
        const double ratio = static_cast<double>(s->intervalUs) / static_cast<double>(smallest);
        factors[p] = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(ratio)));
        if (factors[p] != 1)
            out.resampled = true;
        const std::size_t n = std::max(s->utilization.size(), s->idlePercent.size());
        bins = std::max(bins, std::min(kMaxBins, n * factors[p]));
        anyIdle = anyIdle || !s->idlePercent.empty();
        ++out.peTotal;
    }

    std::vector<double> busySum(bins, 0.0);
    std::vector<double> idleSum(anyIdle ? bins : 0, 0.0);
    std::vector<std::uint32_t> idleCount(anyIdle ? bins : 0, 0);
    out.peCount.assign(bins, 0);
    for (std::size_t p = 0; p < summaries.size(); ++p) {
        if (factors[p] == 0)
            continue;
        const auto& s = *summaries[p];
        const std::size_t f = factors[p];
        const std::size_t busyBins = std::min(bins, s.utilization.size() * f);
        for (std::size_t b = 0; b < busyBins; ++b) {
            busySum[b] += s.utilization[b / f];
            ++out.peCount[b];
        }
        const std::size_t idleBins = std::min(bins, s.idlePercent.size() * f);
        for (std::size_t b = 0; b < idleBins; ++b) {
            idleSum[b] += s.idlePercent[b / f];
            ++idleCount[b];
        }
    }

    out.intervalUs = smallest;
    out.utilization.resize(bins);
    for (std::size_t b = 0; b < bins; ++b)
        out.utilization[b] = out.peCount[b] == 0 ? 0.0 : busySum[b] / out.peCount[b];
    if (anyIdle) {
        out.idle.resize(bins);
        for (std::size_t b = 0; b < bins; ++b)
            out.idle[b] = idleCount[b] == 0 ? std::numeric_limits<double>::quiet_NaN()
                                            : idleSum[b] / idleCount[b];
    }
    return out;
}

} // namespace parallax::views
