#pragma once

// Durations as the views show them, in one spelling (core::formatDuration: "250 µs",
// "12.3 ms", "2.5 s"), as a QString.

#include "core/text_args.h"

#include <QString>

namespace parallax::views {

inline QString durationText(core::TimeUs us)
{
    return QString::fromStdString(core::formatDuration(us));
}

} // namespace parallax::views
