#pragma once

#include "interval_grid.h"

#include <algorithm>

namespace parallax::core::analysis {

// Calls add(interval, µs) for every part of [begin, end) that falls into the grid, splitting
// exactly at interval boundaries.
template <typename Add>
void splitOverGrid(const IntervalGrid& grid, TimeUs begin, TimeUs end, Add&& add)
{
    begin = std::max(begin, grid.origin);
    end = std::min(end, grid.limit());
    if (end <= begin)
        return;
    auto i = (begin - grid.origin) / grid.size;
    while (begin < end) {
        const TimeUs boundary = std::min(end, grid.end(i));
        add(i, boundary - begin);
        begin = boundary;
        ++i;
    }
}

} // namespace parallax::core::analysis
