#include "user_stats.h"

#include "core/trace.h"

#include <algorithm>
#include <set>

namespace parallax::core::analysis {

namespace {

constexpr std::int64_t kStatDefaultBins = 100;

bool wanted(const std::vector<std::int32_t>& stats, std::int32_t id)
{
    return stats.empty() || std::find(stats.begin(), stats.end(), id) != stats.end();
}

} // namespace

std::vector<std::int32_t> statIdsInLogs(const Trace& trace)
{
    std::set<std::int32_t> ids;
    for (const auto& pe : trace.pes)
        for (const auto& s : pe.stats)
            ids.insert(s.statId);
    return { ids.begin(), ids.end() };
}

std::optional<UserStats> computeUserStats(const Trace& trace, const AnalysisRequest& request,
    const UserStatsOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    UserStats result;
    result.range = r.range;
    result.pes = r.pes;
    result.aggregate = options.aggregate;

    std::set<std::int32_t> ids;
    if (options.stats.empty()) {
        for (const auto& [id, name] : trace.metadata.stats)
            ids.insert(id);
        for (const auto id : statIdsInLogs(trace))
            ids.insert(id);
    } else {
        ids.insert(options.stats.begin(), options.stats.end());
    }
    const auto grid = gridForRange(r.range, options.intervalSize,
        options.intervalSize > 0 ? 0 : (options.bins > 0 ? options.bins : kStatDefaultBins));

    std::vector<std::vector<TimedValue>> perPe(r.pes.size());
    std::size_t done = 0;
    for (const auto id : ids) {
        if (progress.isCancelled())
            return std::nullopt;
        UserStatSeries series;
        series.statId = id;
        if (const auto it = trace.metadata.stats.find(id); it != trace.metadata.stats.end())
            series.name = it->second;
        series.perPe.resize(r.pes.size());
        for (std::size_t k = 0; k < r.pes.size(); ++k) {
            auto& values = perPe[k];
            values.clear();
            const auto pe = static_cast<std::size_t>(r.pes[k]);
            if (pe >= trace.pes.size())
                continue;
            for (const auto& s : trace.pes[pe].stats) {
                if (s.statId != id)
                    continue;
                values.push_back({ s.time, s.value });
                if (s.time >= r.range.begin && s.time < r.range.end)
                    series.perPe[k].add({ s.time, s.value });
            }
            series.overall.merge(series.perPe[k]);
        }
        series.overTime = binSamples(
            grid, r.pes, [&perPe](std::size_t k) { return std::span<const TimedValue>(perPe[k]); },
            options.aggregate, false);
        result.stats.push_back(std::move(series));
        if (progress.report)
            progress.report(static_cast<double>(++done) / static_cast<double>(ids.size()));
    }
    return result;
}

std::vector<StatSampleRow> userStatSamples(
    const Trace& trace, const AnalysisRequest& request, const std::vector<std::int32_t>& stats)
{
    const auto r = resolve(trace, request);
    std::vector<StatSampleRow> rows;
    for (const auto pe : r.pes) {
        if (static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        for (const auto& s : trace.pes[static_cast<std::size_t>(pe)].stats)
            if (wanted(stats, s.statId) && s.time >= r.range.begin && s.time < r.range.end)
                rows.push_back({ pe, s.time, s.userTime, s.statId, s.value });
    }
    return rows;
}

} // namespace parallax::core::analysis
