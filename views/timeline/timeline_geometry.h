#pragma once

#include "core/analysis/analysis_request.h"
#include "core/analysis/message_links.h"
#include "core/trace.h"

#include <QRect>
#include <QSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace parallax::views {

class TimelineSummaryCache;

// Time <-> widget x for a plot: the window [begin, end) spread linearly over the pixels
// [left, left + width). Pure arithmetic, shared by the timeline, its ruler and the overview.
struct TimeMapping {
    core::TimeRange window { 0, 1 };
    double left = 0.0;
    double width = 1.0;

    // The x of a time (outside the plot for times outside the window).
    [[nodiscard]] double xOf(core::TimeUs time) const;
    // The time at x, rounded to the nearest microsecond (not clamped).
    [[nodiscard]] core::TimeUs timeAt(double x) const;
    [[nodiscard]] double usPerPixel() const;
};

// A labelled tick of a time axis at widget x.
struct TimeTick {
    double x = 0.0;
    QString label;
};

// The ticks of a time axis: "nice" steps (1, 2, 5 × 10^k µs) at least `minSpacing` pixels
// apart, labelled with a unit that suits the step ("500 ms", "2.875 s", "120 µs"). When absolute
// labels would need more than six digits (deep zoom far into a run), the labels are offsets
// ("+20 µs") from the first tick, labelled "t₀"; `origin` names its absolute time.
// With a `reference` time the ticks are placed at the reference plus whole steps and labelled
// relative to it ("0", "+2 ms", "−4 ms"); originName is then "ref".
struct TimeAxis {
    std::vector<TimeTick> ticks;
    double step = 0.0; // µs between ticks
    QString origin; // empty: labels are absolute times
    QString originName; // "t₀" or "ref" (with origin)
};
TimeAxis buildTimeAxis(const TimeMapping& map, double minSpacing,
    std::optional<core::TimeUs> reference = std::nullopt);

// A time as an axis label for ticks `step` µs apart: the unit follows the step, with just
// enough decimals to tell neighbouring ticks apart ("2.87 s", "1,250 ms", "35 µs").
QString formatAxisTime(double us, double step);

// An exact time for read-outs and tooltips: "2.987873 s", "12.345 ms", "250 µs".
QString formatPreciseTime(core::TimeUs us);

// What a drawn rectangle of a timeline row stands for.
enum class TimelineBlockKind : std::uint8_t {
    Execution, // one entry-method execution (index into PeTrace::executions)
    Idle, // one idle interval (index into PeTrace::idles)
    Merged, // one pixel column holding several executions/idles narrower than a pixel
    Aggregate, // one pixel column of a collapsed row (several PEs): utilization, dominant entry
};

// One rectangle of a row's bar, in whole pixel columns [left, right) of the widget. Blocks of a
// row are sorted by left and do not overlap, so hit-testing is a binary search.
struct TimelineBlock {
    int left = 0;
    int right = 0;
    TimelineBlockKind kind = TimelineBlockKind::Execution;
    int activity = 0; // ActivityColumns column: the entry, or idle (Merged: the dominant one)
    std::uint32_t index = 0; // Execution/Idle: the interval; Merged: the first execution or idle
    std::uint32_t count = 1; // executions + idle intervals shown by this block
    std::uint32_t executions = 0; // executions among them
    core::TimeUs begin = 0; // Execution/Idle: the interval; Merged: the pixel's time span
    core::TimeUs end = 0;
    float dominantShare = 1.0F; // Merged: the dominant activity's share of the covered time
                                // Aggregate: the dominant entry's share of the busy time
    float utilization = 1.0F; // Aggregate: busy time / (pixel time × PEs of the row)
                              // Merged: the executions' share of the pixel's time
};

// A mark at one pixel column standing for `count` records starting at `index` (user events,
// message sends).
struct TimelineTick {
    int x = 0;
    std::uint32_t index = 0;
    std::uint32_t count = 1;
};

// A horizontal mark over the pixel columns [left, right) standing for `count` overlapping
// records, the first at `index` (bracketed user events).
struct TimelineSpan {
    int left = 0;
    int right = 0;
    std::uint32_t index = 0;
    std::uint32_t count = 1;
};

// What a row stands for: a PE, or one of the rows of a group of PEs in the chosen aggregation
// mode (core::analysis::AggregationMode: SUM, SET or KEY).
enum class TimelineRowRole : std::uint8_t {
    Pe, // one PE
    GroupSum, // a group: per pixel column the members' mean utilization and dominant entry (SUM)
    GroupSet, // a group: per pixel column the members' lowest, mean and highest utilization (SET)
    KeyFirst, // KEY: the group's first PE, from its own data
    KeyBusiest, // KEY: the busiest of the others (most entry-method time over the run)
    KeyLeastBusy, // KEY: the least busy of the others
    KeyRest, // KEY: the remaining members' mean (drawn as GroupSum)
    Member, // a PE of an expanded group, under the group's rows
};

// SET rows: per Aggregate block, the lowest and the highest utilization of a member in that
// pixel column and the members they belong to (ties: the first member).
struct TimelineSpread {
    float low = 0.0F;
    float high = 0.0F;
    core::PeId lowPe = core::kNoPe;
    core::PeId highPe = core::kNoPe;
};

// One PE's row: the bar with its blocks, pack/unpack marks along the bar's top edge, user events
// as ticks in a strip just above the bar, message sends as short ticks below it (the marks only
// on bars at least 10 pixels high).
struct TimelineRow {
    core::PeId pe = core::kNoPe; // kNoPe for a collapsed row
    std::vector<core::PeId> members; // a collapsed row: the PEs it aggregates
    int group = -1; // a group's row (any role but Pe): its index in the row sources' groups
    QString groupLabel; // a group's row: "node 3", "PEs 0-63"
    TimelineRowRole role = TimelineRowRole::Pe;
    bool groupExpanded = false; // a group's row: its PEs are shown under its rows
    int groupSize = 0; // a group's row: the PEs of the group
    std::size_t position = 0; // index into the row list
    QRect label; // the row's label area at the left
    QRect bar; // the bar across the plot
    QRect eventStrip; // above the bar
    bool commThread = false;
    int node = 0;
    bool firstOfNode = false; // a node boundary lies above this row (SMP runs)
    std::vector<TimelineBlock> blocks;
    std::vector<QRect> packs; // merged per pixel; empty when too dense to read
    std::vector<QRect> unpacks;
    std::vector<TimelineTick> userEvents; // into PeTrace::userEvents
    std::vector<TimelineSpan> brackets; // into PeTrace::userBrackets, overlapping the window
    std::vector<TimelineTick> notes; // into PeTrace::notes, beginning in the window
    std::vector<TimelineTick> sends; // into PeTrace::sends; empty when too dense to read
    core::TimeUs busyUs = 0; // execution time inside the window
    core::TimeUs idleUs = 0; // idle time inside the window
    core::TimeUs tracedUs = 0; // the part of the window inside the PE's traced span
    std::vector<TimelineSpread> spread; // GroupSet: one per block
    [[nodiscard]] bool collapsed() const { return !members.empty(); }
    // One of the rows standing for a group (not a PE of an expanded group).
    [[nodiscard]] bool groupRow() const
    {
        return role != TimelineRowRole::Pe && role != TimelineRowRole::Member;
    }
};

// What a timeline row shows: one PE, or several PEs collapsed into one aggregated row.
struct TimelineRowSource {
    core::PeId pe = core::kNoPe;
    std::vector<core::PeId> members; // non-empty: a collapsed row
    int group = -1;
    QString label;
    TimelineRowRole role = TimelineRowRole::Pe;
    bool expanded = false; // the group's PEs follow its rows
    int groupSize = 0;
};

// Sizes of the timeline's parts in pixels. Rows share the height left between ruler and legend:
// each gets a bar between minBarHeight and maxBarHeight; when they do not fit the rows scroll.
struct TimelineLayout {
    int margin = 8;
    int labelWidth = 92;
    int titleHeight = 0; // a title line above the ruler (exported images)
    int rulerHeight = 30;
    int legendHeight = 0; // a legend strip at the bottom
    int minBarHeight = 12;
    int maxBarHeight = 56;
    int eventStrip = 5;
    int rowGap = 7;
    double minTickSpacing = 110.0;
    int scrollY = 0; // content pixels scrolled away at the top
    int scrollBarWidth = 0; // room kept free at the right for a vertical scroll bar
    std::optional<core::TimeUs> reference; // the ruler's reference mark (relative labels)
    // Coarse per-PE summaries for collapsed rows zoomed far out (null: always exact).
    const TimelineSummaryCache* summaries = nullptr;
};

// Everything the timeline draws for a window and a size.
struct TimelineGeometry {
    QSize size;
    TimeMapping map;
    QRect ruler; // the time ruler above the rows
    QRect rowsArea; // where rows are drawn (clip)
    QRect legend; // bottom strip (empty without one)
    QRect title;
    TimeAxis axis;
    core::analysis::ActivityColumns columns;
    std::vector<TimelineRow> rows; // only the rows inside rowsArea, top to bottom
    int barHeight = 0;
    int rowPitch = 0; // eventStrip + barHeight + rowGap
    int contentHeight = 0; // all rows stacked (for the scroll bar)
    int scrollY = 0; // clamped
    // Execution time per entry and total idle time in the shown rows, for the legend:
    // [column] = µs (ActivityColumns layout).
    std::vector<core::TimeUs> activityTime;

    [[nodiscard]] const TimelineRow* rowOfPe(core::PeId pe) const;
    // The row whose band (event strip, bar and the gap below) holds y.
    [[nodiscard]] const TimelineRow* rowAt(int y) const;
    // The block of a row under widget x (blocks cover whole pixel columns).
    [[nodiscard]] const TimelineBlock* blockAt(const TimelineRow& row, int x) const;
    [[nodiscard]] QRect blockRect(const TimelineRow& row, const TimelineBlock& block) const;
};

// Builds the geometry of `pes` (rows top to bottom in that order) for `window` and `size`.
// Pure and deterministic; reads only the visible window of each visible row through the
// interval index (O(log n + k) per row for k intervals in the window). Executions and idle
// intervals narrower than a pixel share their pixel column: one block with the dominant
// activity (most covered time) and the count. A pixel only partly covered by the edges of
// wider intervals goes to the one covering most of it, so adjacent blocks meet without gaps.
TimelineGeometry buildTimelineGeometry(const core::Trace& trace, const std::vector<core::PeId>& pes,
    core::TimeRange window, QSize size, const TimelineLayout& layout = {});
// The same for rows that may be collapsed: a collapsed row gets one Aggregate block per pixel
// column where its PEs ran, with their utilization (busy time over the column's time times
// the number of PEs) and the dominant entry by executed time; a GroupSet row also the spread of
// its members (TimelineRow::spread). Reads every execution of its PEs in the window:
// O(members × (log n + k)); zoomed far out, the summaries of TimelineLayout::summaries instead.
TimelineGeometry buildTimelineGeometryForRows(const core::Trace& trace,
    const std::vector<TimelineRowSource>& rows, core::TimeRange window, QSize size,
    const TimelineLayout& layout = {});

// Message linking lives in core/analysis/message_links.h (shared with the CLI); the timeline
// uses it under these names.
using core::analysis::findMessagePath;
using core::analysis::findMessageSource;
using core::analysis::findMessageTargets;
using core::analysis::kMessageSkewTolerance;
using core::analysis::MessageLink;

} // namespace parallax::views
