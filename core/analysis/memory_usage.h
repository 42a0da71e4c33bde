#pragma once

#include "analysis_request.h"
#include "sample_series.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

// Memory in use over time (MEMORY_USAGE records, `traceMemoryUsage()`), per PE and over the
// selected PEs. Per PE and interval the peak of the samples in the interval; an interval without
// a sample holds the PE's latest earlier sample (memory does not vanish between two samples);
// before a PE's first sample it has no value. Over the PEs per interval: the lowest, mean and
// highest per-PE value (with the PEs that hold the extremes) and their sum.
struct MemoryUsage {
    TimeRange range;
    std::vector<PeId> pes; // the selected PEs (comm threads included: memory is per process)
    SampleGrid overTime; // bytes; aggregate Max, carried forward
    std::vector<double> total; // per interval, the sum of the per-PE values (NaN: none)
    std::vector<SampleSummary> perPe; // per index of pes: the samples in the range
    std::vector<PeId> withSamples; // the selected PEs that have a sample in the range
};

struct MemoryUsageOptions {
    TimeUs intervalSize = 0; // > 0: this interval size
    std::int64_t bins = 0; // > 0: this many intervals; default 200
};

// From the logs; nullopt when cancelled.
std::optional<MemoryUsage> computeMemoryUsage(const Trace& trace, const AnalysisRequest& request,
    const MemoryUsageOptions& options = {}, const Progress& progress = {});

// Whether any log of the run holds a MEMORY_USAGE record.
bool hasMemoryRecords(const Trace& trace);

} // namespace parallax::core::analysis
