#include "memory_usage.h"

#include "core/trace.h"

#include <limits>

namespace parallax::core::analysis {

namespace {
constexpr std::int64_t kMemoryDefaultBins = 200;
} // namespace

bool hasMemoryRecords(const Trace& trace)
{
    for (const auto& pe : trace.pes)
        if (!pe.memory.empty())
            return true;
    return false;
}

std::optional<MemoryUsage> computeMemoryUsage(const Trace& trace, const AnalysisRequest& request,
    const MemoryUsageOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    MemoryUsage result;
    result.range = r.range;
    result.pes = r.pes;
    result.perPe.resize(r.pes.size());
    std::vector<std::vector<TimedValue>> samples(r.pes.size());
    for (std::size_t k = 0; k < r.pes.size(); ++k) {
        if (progress.isCancelled())
            return std::nullopt;
        const auto pe = static_cast<std::size_t>(r.pes[k]);
        if (pe >= trace.pes.size())
            continue;
        const auto& memory = trace.pes[pe].memory;
        samples[k].reserve(memory.size());
        for (const auto& m : memory) {
            const TimedValue v { m.time, static_cast<double>(m.bytes) };
            samples[k].push_back(v);
            if (m.time >= r.range.begin && m.time < r.range.end)
                result.perPe[k].add(v);
        }
        if (!result.perPe[k].empty())
            result.withSamples.push_back(r.pes[k]);
    }
    const auto grid = gridForRange(r.range, options.intervalSize,
        options.intervalSize > 0 ? 0 : (options.bins > 0 ? options.bins : kMemoryDefaultBins));
    result.overTime = binSamples(
        grid, r.pes, [&samples](std::size_t k) { return std::span<const TimedValue>(samples[k]); },
        SampleAggregate::Max, true);
    const auto& g = result.overTime;
    result.total.assign(g.mean.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < g.mean.size(); ++i) {
        if (g.pesWithValue[i] == 0)
            continue;
        double sum = 0.0;
        for (std::size_t k = 0; k < g.pes.size(); ++k)
            if (const auto at = g.cell(k, static_cast<std::int64_t>(i)); g.has[at] != 0)
                sum += g.value[at];
        result.total[i] = sum;
    }
    if (progress.report)
        progress.report(1.0);
    return result;
}

} // namespace parallax::core::analysis
