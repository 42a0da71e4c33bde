#include "reduction_quality.h"

#include "core/trace.h"
#include "extrema.h"
#include "histogram.h"
#include "pe_selection.h"
#include "run_span.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax::core::analysis {

namespace {

constexpr std::int64_t kRegularBins = 99; // + the overflow bin = the seed's n = 100 bars

// Executions per bar (every activity column but idle), bins + 1 bars.
std::vector<double> executionBars(const Histogram& h)
{
    std::vector<double> bars(static_cast<std::size_t>(h.bins + 1), 0.0);
    for (std::int64_t b = 0; b <= h.bins; ++b)
        for (int c = 0; c < h.columns.count(); ++c)
            if (c != h.columns.idle())
                bars[static_cast<std::size_t>(b)] += h.count(b, c);
    return bars;
}

// The longest execution that begins in the range (the histogram's rule for what it counts).
TimeUs longestExecution(const Trace& trace, const ResolvedRequest& r)
{
    const bool endsWithRun = r.range.end >= tracedRunSpan(trace).end;
    TimeUs longest = 0;
    for (auto pe : r.pes) {
        const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
        auto k = static_cast<std::size_t>(
            std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin) - ex.begin.begin());
        for (; k < ex.size()
             && (ex.begin[k] < r.range.end || (endsWithRun && ex.begin[k] == r.range.end));
             ++k)
            longest = std::max(longest, ex.end[k] - ex.begin[k]);
    }
    return longest;
}

std::uint64_t logBytesOf(const std::vector<PeId>& pes, const std::vector<std::uint64_t>& bytes)
{
    std::uint64_t sum = 0;
    for (auto pe : pes)
        if (static_cast<std::size_t>(pe) < bytes.size())
            sum += bytes[static_cast<std::size_t>(pe)];
    return sum;
}

} // namespace

Proportionality histogramProportionality(
    const std::vector<double>& original, const std::vector<double>& reduced)
{
    Proportionality p;
    std::vector<double> ratios;
    for (std::size_t i = 0; i < original.size(); ++i)
        if (original[i] != 0)
            ratios.push_back((i < reduced.size() ? reduced[i] : 0.0) / original[i]);
    p.bars = ratios.size();
    if (ratios.empty())
        return p;
    const double m = static_cast<double>(ratios.size());
    p.mean = std::accumulate(ratios.begin(), ratios.end(), 0.0) / m;
    double squares = 0;
    for (double x : ratios)
        squares += (x - p.mean) * (x - p.mean);
    p.sd = std::sqrt(squares / m);
    return p;
}

std::optional<ReductionQuality> computeReductionQuality(const Trace& trace,
    const AnalysisRequest& request, const std::vector<PeId>& kept,
    const std::vector<std::uint64_t>& peLogBytes, const QualityOptions& options,
    const Progress& progress)
{
    AnalysisRequest all = request;
    all.pes.clear();
    all.entries.clear();
    const auto r = resolve(trace, all);
    ReductionQuality q;
    q.range = r.range;
    q.originalPes = r.pes.size();
    std::vector<PeId> keptPes;
    for (auto pe : kept)
        if (std::binary_search(r.pes.begin(), r.pes.end(), pe))
            keptPes.push_back(pe);
    std::sort(keptPes.begin(), keptPes.end());
    keptPes.erase(std::unique(keptPes.begin(), keptPes.end()), keptPes.end());
    q.keptPes = keptPes.size();
    const int draws = std::max(options.controlDraws, 1);
    // Steps: the original, the kept PEs, the ranking, then each draw.
    const double steps = 3.0 + draws;
    double done = 0;
    auto step = [&]() {
        done += 1;
        if (progress.report)
            progress.report(done / steps);
        return !progress.isCancelled();
    };

    // The bars.
    q.binRule = options.bins;
    q.binCount = kRegularBins;
    q.longestExecutionUs = longestExecution(trace, r);
    if (options.bins == QualityBins::SeedRange) {
        q.minimumUs = 100;
        q.binWidthUs = 100; // 99 bins over [0.1 ms, 10 ms)
    } else {
        q.minimumUs = 0;
        q.binWidthUs = static_cast<double>(std::max<TimeUs>(q.longestExecutionUs, 1))
            / static_cast<double>(kRegularBins);
    }
    HistogramOptions bins;
    bins.metric = HistogramMetric::Duration;
    bins.bins = q.binCount;
    bins.binSize = q.binWidthUs;
    bins.minimum = q.minimumUs;
    bins.includeIdle = false;
    auto barsOf = [&](const std::vector<PeId>& pes) -> std::optional<std::vector<double>> {
        AnalysisRequest some = all;
        some.pes = pes;
        if (pes.empty())
            return std::vector<double>(static_cast<std::size_t>(q.binCount + 1), 0.0);
        const auto h = computeHistogram(trace, some, bins, { {}, progress.cancelled });
        if (!h)
            return std::nullopt;
        return executionBars(*h);
    };
    auto original = barsOf(r.pes);
    if (!original || !step())
        return std::nullopt;
    q.originalBars = std::move(*original);
    auto reduced = barsOf(keptPes);
    if (!reduced || !step())
        return std::nullopt;
    q.reducedBars = std::move(*reduced);

    // The least-idle ranking of the worker PEs (Extrema's idle share over the range).
    AnalysisRequest workers = all;
    workers.includeCommThreads = false;
    ExtremaOptions leastIdle;
    leastIdle.criterion = ExtremaCriterion::LeastIdle;
    leastIdle.count = 1;
    const auto extrema = computeExtrema(trace, workers, leastIdle, { {}, progress.cancelled });
    if (!extrema || !step())
        return std::nullopt;
    std::vector<std::size_t> order(extrema->pes.size());
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return extrema->scores[a] < extrema->scores[b]; });
    std::vector<PeId> ranked;
    ranked.reserve(order.size());
    for (auto k : order)
        ranked.push_back(extrema->pes[k]);
    for (std::size_t s = 0; s < kRetentionStrata.size(); ++s)
        q.strataSizes[s] = std::min(kRetentionStrata[s], ranked.size());
    q.leastIdle.assign(
        ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(q.strataSizes.back()));
    auto retention = [&](const std::vector<PeId>& pes) {
        std::array<double, 3> percent {};
        for (std::size_t s = 0; s < kRetentionStrata.size(); ++s) {
            const auto size = q.strataSizes[s];
            if (size == 0)
                continue;
            std::size_t in = 0;
            for (std::size_t k = 0; k < size; ++k)
                in += std::binary_search(pes.begin(), pes.end(), ranked[k]) ? 1U : 0U;
            percent[s] = 100.0 * static_cast<double>(in) / static_cast<double>(size);
        }
        return percent;
    };

    q.logBytesTotal = logBytesOf(r.pes, peLogBytes);
    q.logBytesKept = logBytesOf(keptPes, peLogBytes);
    auto byteFraction = [&](const std::vector<PeId>& pes) {
        return q.logBytesTotal == 0 ? 0.0
                                    : static_cast<double>(logBytesOf(pes, peLogBytes))
                / static_cast<double>(q.logBytesTotal);
    };
    q.kept.proportionality = histogramProportionality(q.originalBars, q.reducedBars);
    q.kept.retention = retention(keptPes);
    q.kept.logByteFraction = byteFraction(keptPes);

    // The control: random selections of the same size, averaged.
    q.controlDraws = draws;
    std::vector<double> means;
    for (int d = 0; d < draws; ++d) {
        const auto drawn = keptPeIds(selectRandomPes(
            r.pes, keptPes.size(), options.controlSeed + static_cast<std::uint64_t>(d)));
        const auto bars = barsOf(drawn);
        if (!bars || !step())
            return std::nullopt;
        const auto p = histogramProportionality(q.originalBars, *bars);
        means.push_back(p.mean);
        q.control.proportionality.mean += p.mean / draws;
        q.control.proportionality.sd += p.sd / draws;
        q.control.proportionality.bars = p.bars;
        const auto kept20 = retention(drawn);
        for (std::size_t s = 0; s < kept20.size(); ++s)
            q.control.retention[s] += kept20[s] / draws;
        q.control.logByteFraction += byteFraction(drawn) / draws;
    }
    double squares = 0;
    for (double m : means)
        squares += (m - q.control.proportionality.mean) * (m - q.control.proportionality.mean);
    q.controlSpread.mean = q.control.proportionality.mean;
    q.controlSpread.sd = std::sqrt(squares / draws);
    q.controlSpread.bars = means.size();
    return q;
}

} // namespace parallax::core::analysis
