#pragma once

#include <algorithm>
#include <cmath>

namespace parallax::views {

// A chart coordinate rounded to a whole pixel, clamped far outside any screen first so that a
// huge or infinite value cannot overflow the int.
inline int toPixel(double v)
{
    return static_cast<int>(std::lround(std::clamp(v, -1e9, 1e9)));
}

} // namespace parallax::views
