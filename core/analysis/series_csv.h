#pragma once

#include "core/types.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// The CSV of the series analyses (user stats, memory usage, hardware counters), the same for
// `parallax-cli` and the views' "Export Data" (quoting and numbers as csv_export.h). A null result
// gives the header alone. Empty cells are left out.

struct CounterRow;
struct CounterTable;
enum class CounterGrouping : std::uint8_t;
struct UserStats;
struct MemoryUsage;
struct StatSampleRow;

// interval,begin_us,end_us,stat,stat_name,samples,value,pe_min,pe_min_value,pe_max,pe_max_value
// (value = the aggregate of the interval's samples over the PEs; pe_min/pe_max = the PEs whose
// own aggregate is lowest/highest).
std::string userStatsTimeCsv(const UserStats* stats);
// pe,stat,stat_name,samples,value,sum,mean,min,max,last (value = the chosen aggregate)
std::string userStatsPeCsv(const UserStats* stats);
// pe,time_us,user_time,stat,stat_name,value
std::string userStatSamplesCsv(
    const std::vector<StatSampleRow>& rows, const std::map<std::int32_t, std::string>& names);

// interval,begin_us,end_us,pes,min_bytes,min_pe,mean_bytes,max_bytes,max_pe,total_bytes
std::string memoryCsv(const MemoryUsage* memory);
// interval,begin_us,end_us,pe,bytes,samples (samples 0: the level carried from an earlier one)
std::string memoryPerPeCsv(const MemoryUsage* memory);

// Hardware counters summed by summarizeCounters(), one row per (row, counter) with
// executions or a non-zero total; `entryNames` by entry id:
// Entry:   entry,entry_name,counter,calls,time_us,total,per_us
// Pe:      pe,counter,calls,time_us,total,per_us
// PeEntry: pe,entry,entry_name,counter,calls,time_us,total,per_us
std::string countersCsv(const CounterTable& table, const std::vector<CounterRow>& rows,
    CounterGrouping grouping, const std::vector<std::string>& entryNames);

} // namespace parallax::core::analysis
