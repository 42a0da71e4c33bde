#include "sample_series.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace parallax::core::analysis {

namespace {

constexpr std::array<std::string_view, kSampleAggregates> kNames { "sum", "mean", "min", "max",
    "count", "last" };

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

} // namespace

std::string_view sampleAggregateName(SampleAggregate aggregate)
{
    return kNames[static_cast<std::size_t>(aggregate)];
}

bool parseSampleAggregate(std::string_view name, SampleAggregate& aggregate)
{
    for (std::size_t k = 0; k < kNames.size(); ++k)
        if (kNames[k] == name) {
            aggregate = static_cast<SampleAggregate>(k);
            return true;
        }
    return false;
}

void SampleSummary::add(TimedValue sample)
{
    if (count == 0) {
        min = max = sample.value;
        last = sample.value;
        lastTime = sample.time;
    } else {
        min = std::min(min, sample.value);
        max = std::max(max, sample.value);
        if (sample.time >= lastTime) {
            last = sample.value;
            lastTime = sample.time;
        }
    }
    ++count;
    sum += sample.value;
}

void SampleSummary::merge(const SampleSummary& other)
{
    if (other.count == 0)
        return;
    if (count == 0) {
        *this = other;
        return;
    }
    min = std::min(min, other.min);
    max = std::max(max, other.max);
    if (other.lastTime >= lastTime) {
        last = other.last;
        lastTime = other.lastTime;
    }
    count += other.count;
    sum += other.sum;
}

double SampleSummary::value(SampleAggregate aggregate) const
{
    if (count == 0)
        return 0.0;
    switch (aggregate) {
    case SampleAggregate::Sum:
        return sum;
    case SampleAggregate::Mean:
        return sum / static_cast<double>(count);
    case SampleAggregate::Min:
        return min;
    case SampleAggregate::Max:
        return max;
    case SampleAggregate::Count:
        return static_cast<double>(count);
    case SampleAggregate::Last:
        return last;
    }
    return 0.0;
}

SampleGrid binSamples(const IntervalGrid& grid, std::vector<PeId> pes,
    const std::function<std::span<const TimedValue>(std::size_t)>& samplesOf,
    SampleAggregate aggregate, bool carryForward)
{
    SampleGrid g;
    g.grid = grid;
    g.pes = std::move(pes);
    g.aggregate = aggregate;
    g.carryForward = carryForward;
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(grid.count, 0));
    const auto cells = g.pes.size() * n;
    g.value.assign(cells, kNone);
    g.samples.assign(cells, 0);
    g.has.assign(cells, 0);
    std::vector<SampleSummary> combined(n);
    std::vector<SampleSummary> cell(n);
    for (std::size_t k = 0; k < g.pes.size(); ++k) {
        std::fill(cell.begin(), cell.end(), SampleSummary {});
        const auto samples = samplesOf(k);
        // The level at the grid's start: the latest sample before it.
        std::optional<double> level;
        for (const auto& s : samples) {
            if (s.time < grid.origin) {
                level = s.value;
                continue;
            }
            if (s.time >= grid.limit())
                break;
            const auto i = static_cast<std::size_t>((s.time - grid.origin) / grid.size);
            cell[i].add(s);
            combined[i].add(s);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const auto at = g.cell(k, static_cast<std::int64_t>(i));
            if (!cell[i].empty()) {
                g.value[at] = cell[i].value(aggregate);
                g.samples[at] = static_cast<std::uint32_t>(std::min<std::uint64_t>(
                    cell[i].count, std::numeric_limits<std::uint32_t>::max()));
                g.has[at] = 1;
                level = cell[i].last;
            } else if (carryForward && level) {
                g.value[at] = *level;
                g.has[at] = 1;
            }
        }
    }
    g.combined.assign(n, kNone);
    g.combinedSamples.assign(n, 0);
    g.low.assign(n, kNone);
    g.mean.assign(n, kNone);
    g.high.assign(n, kNone);
    g.lowPe.assign(n, kNoPe);
    g.highPe.assign(n, kNoPe);
    g.pesWithValue.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!combined[i].empty()) {
            g.combined[i] = combined[i].value(aggregate);
            g.combinedSamples[i] = combined[i].count;
        }
        double sum = 0.0;
        std::uint32_t count = 0;
        for (std::size_t k = 0; k < g.pes.size(); ++k) {
            const auto at = g.cell(k, static_cast<std::int64_t>(i));
            if (g.has[at] == 0)
                continue;
            const double v = g.value[at];
            if (count == 0 || v < g.low[i]) {
                g.low[i] = v;
                g.lowPe[i] = g.pes[k];
            }
            if (count == 0 || v > g.high[i]) {
                g.high[i] = v;
                g.highPe[i] = g.pes[k];
            }
            sum += v;
            ++count;
        }
        g.pesWithValue[i] = count;
        if (count > 0)
            g.mean[i] = sum / static_cast<double>(count);
    }
    return g;
}

} // namespace parallax::core::analysis
