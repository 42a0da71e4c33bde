#pragma once

#include "core/types.h"

#include <cstdint>

namespace parallax::core::analysis {

// Equal time intervals: interval i covers [origin + i*size, origin + (i+1)*size).
// Java aligns intervals to multiples of the size (origin = first*size, docs/format.md §4.0);
// the correct mode starts them at the range's begin.
struct IntervalGrid {
    TimeUs origin = 0;
    TimeUs size = 1;
    std::int64_t count = 0;
    // Java's absolute index of interval 0 (origin / size), 0 in the correct mode.
    std::int64_t firstIndex = 0;

    [[nodiscard]] TimeUs begin(std::int64_t i) const { return origin + i * size; }
    [[nodiscard]] TimeUs end(std::int64_t i) const { return origin + (i + 1) * size; }
    [[nodiscard]] TimeUs limit() const { return origin + count * size; }
};

// Correct mode: `bins` intervals (or intervals of `size` when size > 0) exactly covering the
// range; the last interval may end past the range when the size does not divide it.
IntervalGrid gridForRange(TimeRange range, TimeUs size, std::int64_t bins);

// Java's Time Profile / Communication grid (IntervalChooserPanel): size = length/1000 by
// default (integer division, at least 1), intervals start/size .. end/size inclusive.
IntervalGrid javaGrid(TimeRange range, TimeUs size);

// Java's Overview grid (OverviewPanel.setRanges): 7000 columns rule, end/size - start/size
// columns; `forcedSize` > 0 (the .sumd interval) replaces the computed size.
IntervalGrid javaOverviewGrid(TimeRange range, TimeUs forcedSize);

} // namespace parallax::core::analysis
