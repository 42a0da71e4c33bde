#pragma once

#include "analysis_request.h"
#include "result_table.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// The Noise Miner: executions that took much longer than their entry method usually takes,
// grouped into noise events that recur (OS-noise candidates: a daemon, an interrupt, paging).
//
// Typical duration: per entry method, the median duration of its executions in the range on
// the selected PEs, and its spread the median absolute deviation (MAD) scaled by 1.4826 (so
// that it estimates σ for normally distributed durations). Both ignore the outliers they are
// meant to find, unlike the mean and σ. An execution is noisy when
//     duration > median + max(k × 1.4826 × MAD, minExcess)
// and its lost time is duration − median. Entry methods with fewer than `minSamples`
// executions have no reliable typical duration and are skipped.
//
// Noise events: noisy executions whose lost time is of the same size (the same power-of-two
// band: 16–32 µs, 32–64 µs, ...) are one event, as one source of noise tends to cost the same
// each time. Each event says how it recurs: on how many PEs, its period (the median gap
// between its consecutive occurrences on one PE) and how many occurrences overlap in time one
// on another PE (noise that hits the PEs together). Events are ranked by the time lost.

struct NoiseOptions {
    double k = 5.0; // MADs (scaled) above the median
    double minExcessUs = 10.0; // at least this much longer than the median
    std::uint64_t minSamples = 8; // executions an entry method needs to have a baseline
};

struct NoiseBaseline {
    EntryId entry = kNoEntry;
    std::uint64_t executions = 0;
    double medianUs = 0;
    double madUs = 0; // scaled by 1.4826
    double thresholdUs = 0; // durations above are noisy
    std::uint64_t noisy = 0;
};

struct NoisyExecution {
    PeId pe = kNoPe;
    std::size_t execution = 0; // index into the PE's executions
    EntryId entry = kNoEntry;
    TimeUs begin = 0;
    TimeUs end = 0;
    double lostUs = 0; // duration − the entry's median
    int event = -1; // index into NoiseReport::events
};

struct NoiseEvent {
    int band = 0; // lost time in [2^band, 2^(band+1)) µs
    std::uint64_t occurrences = 0;
    std::vector<PeId> pes; // sorted
    double lostUs = 0;
    double medianLostUs = 0;
    double periodUs = 0; // median gap between consecutive occurrences on one PE; NaN if none
    std::uint64_t concurrent = 0; // occurrences overlapping one on another PE
    std::vector<EntryId> entries; // the entry methods hit, most occurrences first
    std::size_t worst = 0; // index into NoiseReport::noisy of the longest lost time
};

struct NoiseReport {
    TimeRange range;
    std::vector<PeId> pes; // the PEs mined
    std::vector<PeId> apart; // selected comm threads left out (AnalysisRequest)
    NoiseOptions options;
    std::vector<NoiseBaseline> baselines; // entry methods with a baseline, by id
    std::vector<NoisyExecution> noisy; // by lost time, longest first
    std::vector<NoiseEvent> events; // by lost time, most first
    double lostUs = 0; // over all noisy executions
    std::string error;
};

// Over the executions that begin in the range on the selected PEs (comm threads apart unless
// the request includes them), of the requested entry methods. Returns nullopt when cancelled.
std::optional<NoiseReport> computeNoise(const Trace& trace, const AnalysisRequest& request,
    const NoiseOptions& options = {}, const Progress& progress = {});

// rank,lost_us,occurrences,pes,pe_list,median_lost_us,period_us,concurrent,entries, then
// first_pe,worst_begin_us (the longest occurrence, which the row targets).
ResultTable noiseEventsTable(const NoiseReport& report, const RunMetadata& metadata);
// event,pe,entry,entry_name,begin_us,end_us,duration_us,median_us,lost_us (one row per noisy
// execution, longest lost time first; each row targets its execution).
ResultTable noisyExecutionsTable(const NoiseReport& report, const RunMetadata& metadata);
// entry,entry_name,executions,median_us,mad_us,threshold_us,noisy
ResultTable noiseBaselinesTable(const NoiseReport& report, const RunMetadata& metadata);

} // namespace parallax::core::analysis
