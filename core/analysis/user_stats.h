#pragma once

#include "analysis_request.h"
#include "sample_series.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// User statistics (USER_STAT records, `updateStat`/`updateStatPair`, STAT lines of the .sts):
// each stat over time (per interval, the aggregate of its samples over the selected PEs, with
// the spread of the per-PE values) and per PE (the aggregate of each PE's samples in the range).
// A sample belongs to the range when its time is in [begin, end).

struct UserStatSeries {
    std::int32_t statId = 0;
    std::string name; // from the .sts; empty for an id the .sts does not declare
    SampleGrid overTime; // value per PE and interval, combined and spread per interval
    std::vector<SampleSummary> perPe; // per index of UserStats::pes
    SampleSummary overall; // every sample of the selected PEs in the range
};

struct UserStats {
    TimeRange range;
    std::vector<PeId> pes;
    SampleAggregate aggregate = SampleAggregate::Mean;
    std::vector<UserStatSeries> stats; // by stat id
};

struct UserStatsOptions {
    std::vector<std::int32_t> stats; // empty: every stat that has a sample or a STAT line
    SampleAggregate aggregate = SampleAggregate::Mean;
    TimeUs intervalSize = 0; // > 0: this interval size
    std::int64_t bins = 0; // > 0: this many intervals; default 100
};

// From the logs; nullopt when cancelled. A run without logs (summaries only) has no stats.
std::optional<UserStats> computeUserStats(const Trace& trace, const AnalysisRequest& request,
    const UserStatsOptions& options = {}, const Progress& progress = {});

// Whether any log of the run holds a USER_STAT record, and the ids they use (sorted).
std::vector<std::int32_t> statIdsInLogs(const Trace& trace);

// One stat sample as recorded: for `parallax-cli user-stats --by sample`.
struct StatSampleRow {
    PeId pe = kNoPe;
    TimeUs time = 0;
    double userTime = -1.0;
    std::int32_t statId = 0;
    double value = 0.0;
};
// The samples of the selected stats on the selected PEs in the range, by PE then time.
std::vector<StatSampleRow> userStatSamples(
    const Trace& trace, const AnalysisRequest& request, const std::vector<std::int32_t>& stats);

} // namespace parallax::core::analysis
