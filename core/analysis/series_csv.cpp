#include "series_csv.h"

#include "counters.h"
#include "csv_export.h"
#include "memory_usage.h"
#include "user_stats.h"

#include <cmath>

namespace parallax::core::analysis {

namespace {

std::string num(double v)
{
    return formatCsvNumber(v);
}

std::string intervalFields(const IntervalGrid& grid, std::int64_t i)
{
    return std::to_string(i) + ',' + std::to_string(grid.begin(i)) + ','
        + std::to_string(grid.end(i));
}

} // namespace

std::string userStatsTimeCsv(const UserStats* stats)
{
    std::string out = "interval,begin_us,end_us,stat,stat_name,samples,value,pe_min,pe_min_value,"
                      "pe_max,pe_max_value\n";
    if (stats == nullptr)
        return out;
    for (const auto& s : stats->stats) {
        const auto& g = s.overTime;
        for (std::int64_t i = 0; i < g.grid.count; ++i) {
            const auto k = static_cast<std::size_t>(i);
            if (g.combinedSamples[k] == 0)
                continue;
            out += intervalFields(g.grid, i) + ',' + std::to_string(s.statId) + ','
                + csvField(s.name) + ',' + std::to_string(g.combinedSamples[k]) + ','
                + num(g.combined[k]) + ',' + std::to_string(g.lowPe[k]) + ',' + num(g.low[k]) + ','
                + std::to_string(g.highPe[k]) + ',' + num(g.high[k]) + '\n';
        }
    }
    return out;
}

std::string userStatsPeCsv(const UserStats* stats)
{
    std::string out = "pe,stat,stat_name,samples,value,sum,mean,min,max,last\n";
    if (stats == nullptr)
        return out;
    for (const auto& s : stats->stats)
        for (std::size_t k = 0; k < stats->pes.size() && k < s.perPe.size(); ++k) {
            const auto& p = s.perPe[k];
            if (p.empty())
                continue;
            out += std::to_string(stats->pes[k]) + ',' + std::to_string(s.statId) + ','
                + csvField(s.name) + ',' + std::to_string(p.count) + ','
                + num(p.value(stats->aggregate)) + ',' + num(p.sum) + ','
                + num(p.value(SampleAggregate::Mean)) + ',' + num(p.min) + ',' + num(p.max) + ','
                + num(p.last) + '\n';
        }
    return out;
}

std::string userStatSamplesCsv(
    const std::vector<StatSampleRow>& rows, const std::map<std::int32_t, std::string>& names)
{
    std::string out = "pe,time_us,user_time,stat,stat_name,value\n";
    for (const auto& r : rows) {
        const auto it = names.find(r.statId);
        out += std::to_string(r.pe) + ',' + std::to_string(r.time) + ',' + num(r.userTime) + ','
            + std::to_string(r.statId) + ',' + csvField(it == names.end() ? "" : it->second) + ','
            + num(r.value) + '\n';
    }
    return out;
}

std::string memoryCsv(const MemoryUsage* memory)
{
    std::string out
        = "interval,begin_us,end_us,pes,min_bytes,min_pe,mean_bytes,max_bytes,max_pe,total_bytes\n";
    if (memory == nullptr)
        return out;
    const auto& g = memory->overTime;
    for (std::int64_t i = 0; i < g.grid.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (g.pesWithValue[k] == 0)
            continue;
        out += intervalFields(g.grid, i) + ',' + std::to_string(g.pesWithValue[k]) + ','
            + num(g.low[k]) + ',' + std::to_string(g.lowPe[k]) + ',' + num(std::round(g.mean[k]))
            + ',' + num(g.high[k]) + ',' + std::to_string(g.highPe[k]) + ',' + num(memory->total[k])
            + '\n';
    }
    return out;
}

std::string memoryPerPeCsv(const MemoryUsage* memory)
{
    std::string out = "interval,begin_us,end_us,pe,bytes,samples\n";
    if (memory == nullptr)
        return out;
    const auto& g = memory->overTime;
    for (std::int64_t i = 0; i < g.grid.count; ++i)
        for (std::size_t k = 0; k < g.pes.size(); ++k) {
            const auto at = g.cell(k, i);
            if (g.has[at] == 0)
                continue;
            out += intervalFields(g.grid, i) + ',' + std::to_string(g.pes[k]) + ','
                + num(g.value[at]) + ',' + std::to_string(g.samples[at]) + '\n';
        }
    return out;
}

std::string countersCsv(const CounterTable& table, const std::vector<CounterRow>& rows,
    CounterGrouping grouping, const std::vector<std::string>& entryNames)
{
    std::string out;
    if (grouping != CounterGrouping::Entry)
        out += "pe,";
    if (grouping != CounterGrouping::Pe)
        out += "entry,entry_name,";
    out += "counter,calls,time_us,total,per_us\n";
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.counters.size() && c < table.names.size(); ++c) {
            const auto& cell = row.counters[c];
            if (cell.calls <= 0.0 && cell.total == 0.0)
                continue;
            if (grouping != CounterGrouping::Entry)
                out += std::to_string(row.pe) + ',';
            if (grouping != CounterGrouping::Pe) {
                const auto e = static_cast<std::size_t>(row.entry);
                out += std::to_string(row.entry) + ','
                    + csvField(e < entryNames.size() ? entryNames[e] : std::string()) + ',';
            }
            out += csvField(table.names[c]) + ',' + num(cell.calls) + ',' + num(cell.timeUs) + ','
                + num(cell.total) + ',' + (cell.timeUs > 0.0 ? num(perMicrosecond(cell)) : "")
                + '\n';
        }
    return out;
}

} // namespace parallax::core::analysis
