#pragma once

#include "analysis_request.h"
#include "result_table.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Per entry method: how often it ran and how long (the reference tool's Entry Method Profile,
// as a table rather than a pie).
struct EntryProfileRow {
    EntryId entry = kNoEntry;
    std::uint64_t executions = 0;
    double totalUs = 0;
    double meanUs = 0;
    double minUs = 0; // NaN from summaries (not recorded there)
    double maxUs = 0;
    double sdUs = 0; // population σ; NaN from summaries
    double sharePct = 0; // totalUs / peTimeUs × 100
    // The longest execution (the first of equals in PE order); kNoPe from summaries.
    PeId longestPe = kNoPe;
    TimeUs longestBegin = 0;
};

struct EntryProfile {
    TimeRange range;
    std::vector<PeId> pes; // the PEs counted
    std::vector<PeId> apart; // selected comm threads left out (AnalysisRequest)
    double peTimeUs = 0; // processor time of the counted PEs: range length × PEs
    double busyUs = 0; // sum of totalUs
    // From the .sum files (a run without logs): the whole run, no min or σ.
    bool fromSummaries = false;
    std::vector<EntryProfileRow> rows; // the entries that ran, most time first (ties by id)
    std::string error; // why there is nothing to show ("this run has no ...")
};

// From the logs: every execution that begins in the range on the selected PEs (comm threads
// apart unless the request includes them), with its whole duration, as the Histogram counts
// executions; when the request names entry methods, only those. Without logs, from the .sum
// files' per-entry counts, totals and maxima over the whole run (the range is ignored).
// Returns nullopt when cancelled.
std::optional<EntryProfile> computeEntryProfile(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// entry,entry_name,chare,executions,total_us,mean_us,min_us,max_us,sd_us,share_pct; each row
// targets the entry method's longest execution.
ResultTable entryProfileTable(const EntryProfile& profile, const RunMetadata& metadata);

} // namespace parallax::core::analysis
