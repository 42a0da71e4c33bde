#pragma once

// What the files implementing TimelineWidget share and nothing else includes: the logging
// category, a few colours and constants of the drawing, small text helpers.

#include "core/types.h"
#include "views/common/chart_style.h"
#include "views/common/time_format.h"

#include <QColor>
#include <QLoggingCategory>
#include <QPoint>
#include <QString>
#include <QStringList>

#include <vector>

// Opt-in frame-time read-out: QT_LOGGING_RULES="parallax.timeline.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcTimeline)

namespace parallax::views {
struct TimelineGeometry;
struct TimelineRow;
struct TimelineTick;
} // namespace parallax::views

namespace parallax::views::timeline_internal {

inline QString peListText(const std::vector<core::PeId>& pes)
{
    QStringList parts;
    for (const auto pe : pes)
        parts << QString::number(pe);
    return parts.join(QStringLiteral(", "));
}

inline constexpr double kZoomStep = 0.8; // one wheel notch
inline constexpr double kArrowHead = 8.0; // message arrow heads, pixels
// The bracket in the left margin along an expanded group's rows (a click collapses it).
inline constexpr int kGroupBracketWidth = 6;

inline QColor referenceColour()
{
    return { 0xc6, 0x28, 0x28 };
}

inline QColor bracketColour()
{
    return { 0x4f, 0x7c, 0xac };
}

inline QColor noteColour()
{
    return { 0xe0, 0x8e, 0x0b };
}

// The instant user event nearest to `pos`: within kUserEventReach pixels sideways and a few
// pixels above or below the row's event strip, so that a one-pixel tick is easy to hit (the
// tooltips and a click use it). Null when none; `row` is then left alone.
inline constexpr int kUserEventReach = 5;
const TimelineTick* userEventNear(const TimelineGeometry& g, QPoint pos, const TimelineRow** row);

} // namespace parallax::views::timeline_internal
