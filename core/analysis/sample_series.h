#pragma once

#include "core/types.h"
#include "interval_grid.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

// Values sampled at instants on each PE (user stats, memory usage), binned into time intervals.
// Shared by the User Stats and the Memory Usage analyses.

struct TimedValue {
    TimeUs time = 0;
    double value = 0.0;
};

// How the samples that fall into one cell (an interval of one PE, an interval of all PEs, or the
// whole range of one PE) become one number.
enum class SampleAggregate : std::uint8_t { Sum, Mean, Min, Max, Count, Last };
inline constexpr int kSampleAggregates = 6;

// "sum", "mean", "min", "max", "count", "last" (the CLI's --aggregate names).
std::string_view sampleAggregateName(SampleAggregate aggregate);
// The inverse; false when `name` is none of them.
bool parseSampleAggregate(std::string_view name, SampleAggregate& aggregate);

// Running totals of a set of samples, enough for every SampleAggregate.
struct SampleSummary {
    std::uint64_t count = 0;
    double sum = 0.0;
    double min = 0.0;
    double max = 0.0;
    double last = 0.0; // the value of the latest sample (by time; file order among equal times)
    TimeUs lastTime = 0;

    void add(TimedValue sample);
    void merge(const SampleSummary& other);
    [[nodiscard]] bool empty() const { return count == 0; }
    // The aggregate of the samples (0 for an empty summary; callers test empty() first).
    [[nodiscard]] double value(SampleAggregate aggregate) const;
};

// Per PE and interval, the aggregate of the samples in the cell; over the PEs per interval, the
// aggregate of all the interval's samples and the spread of the per-PE values (lowest, mean,
// highest, and which PEs hold the extremes). With `carryForward` (a level such as memory in
// use), an interval in which a PE has no sample takes the value of that PE's latest earlier
// sample (within or before the range); it then counts in the spread but has no samples.
struct SampleGrid {
    IntervalGrid grid;
    std::vector<PeId> pes;
    SampleAggregate aggregate = SampleAggregate::Mean;
    bool carryForward = false;

    // [peIndex * grid.count + interval]: the cell's value and its own sample count; `has` tells
    // whether the cell has a value (its own samples, or a carried level).
    std::vector<double> value;
    std::vector<std::uint32_t> samples;
    std::vector<std::uint8_t> has;

    // Per interval, over the PEs.
    std::vector<double> combined; // aggregate of all samples of the interval (NaN: none)
    std::vector<std::uint64_t> combinedSamples;
    std::vector<double> low; // spread of the per-PE values (NaN where no PE has a value)
    std::vector<double> mean;
    std::vector<double> high;
    std::vector<PeId> lowPe; // kNoPe where no PE has a value
    std::vector<PeId> highPe;
    std::vector<std::uint32_t> pesWithValue;

    [[nodiscard]] std::size_t cell(std::size_t peIndex, std::int64_t interval) const
    {
        return peIndex * static_cast<std::size_t>(grid.count) + static_cast<std::size_t>(interval);
    }
};

// Bins the samples of each PE (`samplesOf(k)` for pes[k], sorted by time) into `grid`; samples
// outside [grid.origin, grid.limit()) are left out, except that with carryForward the latest
// sample before the grid gives the level at its start. O(samples + PEs × intervals).
SampleGrid binSamples(const IntervalGrid& grid, std::vector<PeId> pes,
    const std::function<std::span<const TimedValue>(std::size_t)>& samplesOf,
    SampleAggregate aggregate, bool carryForward);

} // namespace parallax::core::analysis
