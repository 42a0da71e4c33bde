#pragma once

#include "core/types.h"
#include "views/common/chart_axes.h"

#include <QMarginsF>
#include <QRect>
#include <QSize>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace parallax::views {

// What the y values of a stacked bar chart are, for tick labels and tooltips.
enum class BarUnit : std::uint8_t {
    Percent, // 0..100, labelled "20 %"
    Time, // microseconds, labelled "1.5 ms", "2 s"
    Count, // plain counts, labelled "1.5 k", "2 M"
    Messages, // as Count
    Bytes // labelled "512 B", "1.5 kB", "2 MB" (decimal units)
};

// How the categories are laid out along x.
enum class BarAxis : std::uint8_t {
    Categorical, // equal slots, one label per category (PEs, bins, Extrema columns)
    Time // categories placed by their time span; time ticks in µs/ms/s
};

// One x position of the chart: a PE, an interval, a bin or an Extrema column.
struct StackedBarCategory {
    QString label; // tick label ("avg", "PE 7", "2 ms", "≥ 100 ms"); may be empty on time axes
    QString title; // tooltip heading; the label (or the time span) when empty
    std::optional<core::TimeRange> span; // [begin, end) in µs; required on time axes
    bool separatorBefore = false; // a gap and a thin line before this category
    QString note; // extra tooltip lines (e.g. the Extrema score), separated by '\n'
    // The value at the category's left edge (a histogram bin's lower bound): with edgeLabels,
    // labels then go to categories at round values (1 ms, 2 ms) rather than every k-th one.
    std::optional<double> value;
};

// One stacked series: an activity (entry method, overhead, idle, pack, unpack).
struct StackedBarSeries {
    int activity = -1; // activity column (core::analysis::ActivityColumns), for colour and names
    QString name; // short name for the legend
    QString fullName; // tooltip name (chare::entry(params)); `name` when empty
    int entry = -1; // entry method id whose colour the legend may change; -1 for others
    std::optional<std::uint32_t> color; // QRgb overriding the palette colour
};

// How far the members of a group spread around its bar (a PE group drawn in SET mode), in y
// values: a whisker from `low` to `high` and a band from `bandLow` to `bandHigh` (mean ± σ).
struct BarSpread {
    double low = 0.0;
    double high = 0.0;
    double bandLow = 0.0;
    double bandHigh = 0.0;
};

// Everything a stacked bar chart shows. Values are >= 0 and stacked bottom to top in series
// order, the same order for every category.
struct StackedBarData {
    std::vector<StackedBarCategory> categories;
    std::vector<StackedBarSeries> series;
    std::vector<double> values; // [category * series.size() + series]
    BarUnit unit = BarUnit::Count;
    QString yTitle; // "% of processor time", "messages per interval (1 ms)"
    QString xTitle; // "PE", "Time"; a time axis appends its unit: "Time (ms)"
    BarAxis axis = BarAxis::Categorical;
    bool contiguous = false; // bars touch (intervals, bins) instead of standing apart (PEs)
    bool edgeLabels = false; // categorical labels at a category's left edge (histogram bins)
    std::optional<double> yMaximum; // fixed top of the y axis (100 for %); grows if exceeded
    // A logarithmic y axis (decades); segment boundaries are the cumulative sums on that axis,
    // so a bar's top reads as its total.
    bool logScale = false;
    // An optional second number per cell for tooltips, same layout as `values` (the µs behind
    // a time-profile %, the total time behind a histogram count). Empty when unused.
    std::vector<double> secondary;
    BarUnit secondaryUnit = BarUnit::Time;
    QString secondaryLabel;
    // Per category, a short value drawn above its bar (Extrema's ranked criterion, "1.2 k msgs");
    // empty, or empty strings, for none. Not drawn where categories are merged per pixel.
    std::vector<QString> valueLabels;
    // Per category, a spread drawn over its bar; empty, or nullopt, for none. Not drawn where
    // categories are merged per pixel.
    std::vector<std::optional<BarSpread>> spreads;
    // The legend's shares come from this category (e.g. the "avg" bar) when set, else from the
    // sum over all categories.
    std::optional<std::size_t> legendReference;
    // Whether the legend shows each series' share (not for values that do not add up, such as
    // rates).
    bool legendShares = true;

    [[nodiscard]] std::size_t categoryCount() const { return categories.size(); }
    [[nodiscard]] std::size_t seriesCount() const { return series.size(); }
    [[nodiscard]] double value(std::size_t category, std::size_t s) const
    {
        return values[category * series.size() + s];
    }
    [[nodiscard]] double total(std::size_t category) const;
    // Sum over categories per series.
    [[nodiscard]] std::vector<double> seriesTotals() const;
    // values.size() == categories × series and time axes have spans.
    [[nodiscard]] bool valid() const;
};

// Space and text sizes the geometry needs. The widget derives them from its font; the
// defaults suit a 9-10 pt font and tests.
struct BarLayout {
    // Room around the plot and its axis labels (the widget adds its title and legend here).
    QMarginsF margins { 8.0, 8.0, 8.0, 8.0 };
    double lineHeight = 16.0; // height of a line of text
    // Width of a text in pixels; empty: 7 px per character.
    std::function<double(const QString&)> textWidth;
    double minYTickSpacing = 30.0; // pixels between y ticks, at least
    double labelGap = 10.0; // pixels between two x labels, at least
    double tickLength = 4.0;
    double barFill = 0.7; // categorical bars: bar width / slot width
    double maxBarWidth = 90.0; // categorical bars are at most this wide
    double separatorGap = 0.6; // extra space at a separator, in slots ...
    double maxSeparatorGap = 40.0; // ... but at most this many pixels
    double minBarPixels = 3.0; // slots narrower than this are merged per pixel column

    [[nodiscard]] double widthOf(const QString& text) const
    {
        return textWidth ? textWidth(text) : 7.0 * static_cast<double>(text.size());
    }
    // The plot's top and bottom in a widget `height` px high: half a line below the top margin
    // (room for the top y label); above the bottom margin, a line of x tick labels, a line for
    // the x title, the ticks and a small gap.
    // The plot's left edge: the margin, a line for the y title, the widest y label between two
    // half-line gaps, then the ticks.
    [[nodiscard]] double plotLeft(double widestLabel) const
    {
        const double gap = std::round(lineHeight * 0.5);
        return std::ceil(margins.left() + lineHeight + gap + widestLabel + gap + tickLength);
    }
    [[nodiscard]] double plotTop() const { return std::ceil(margins.top() + lineHeight / 2.0); }
    [[nodiscard]] double plotBottom(int height) const
    {
        return std::floor(
            static_cast<double>(height) - margins.bottom() - 2.0 * lineHeight - tickLength - 4.0);
    }
};

// One drawn column: one category, or (when categories are narrower than a pixel column)
// several consecutive categories whose values are averaged.
struct BarColumn {
    std::size_t firstCategory = 0; // [firstCategory, lastCategory)
    std::size_t lastCategory = 0;
    QRect slot; // x extent of the category slot(s), full plot height: the hit area
    QRect bar; // the stack, top to baseline; zero height when the total is 0
    double total = 0.0; // sum of the (averaged) values
    std::size_t firstSegment = 0; // [firstSegment, lastSegment) into segments
    std::size_t lastSegment = 0;

    [[nodiscard]] std::size_t categoryCount() const { return lastCategory - firstCategory; }
};

// One visible piece of a stack (at least one pixel high), bottom to top within its column.
struct BarSegment {
    std::size_t series = 0;
    QRect rect;
    double value = 0.0; // the (averaged) value
};

// A spread in pixels: the whisker's vertical line at x from `whisker.top()` to its bottom with
// caps `capWidth` wide, and the band's rectangle.
struct BarSpreadMark {
    std::size_t category = 0;
    int x = 0;
    QRect whisker; // zero width: x, top and bottom of the line
    int capWidth = 0;
    QRect band;
};

// Everything the chart draws, in widget pixels, for one data set and size. The plot holds
// yMaximum at plot.top() and 0 just below plot.bottom(); x labels never overlap.
struct StackedBarGeometry : ChartAxes {
    std::vector<BarColumn> columns; // left to right
    std::vector<BarSegment> segments;
    std::vector<std::vector<QRect>> seriesRects; // per series: its segments, to fill by colour
    std::vector<int> separators; // x of the separator lines
    std::vector<BarSpreadMark> spreads; // data.spreads of the unmerged columns
    double yMaximum = 0.0;
    double yStep = 0.0; // linear: between ticks; log: the factor between ticks
    bool yLog = false;
    double yMinimum = 0.0; // log: the value at the baseline
    bool merged = false; // some columns average several categories

    [[nodiscard]] bool empty() const { return columns.empty(); }
};

// Maps the data onto a widget of `size`. Pure (no window, no paint device); O(categories ×
// series + plot width). With more categories than about plot width / minBarPixels, one column
// per pixel column shows the mean of its categories, so any number of categories draws in at
// most ~plot width × series rectangles. Rectangles are whole pixels: stacks have no gaps and
// need no antialiasing.
StackedBarGeometry buildStackedBars(
    const StackedBarData& data, QSize size, const BarLayout& layout = {});

// What is under a widget point.
struct BarHit {
    std::size_t column = 0; // into geometry.columns
    std::size_t category = 0; // the category under x (the nearest one in a merged column)
    std::optional<std::size_t> series; // the segment's series; nullopt above the stack or in a gap
    std::optional<std::size_t> segment; // into geometry.segments
};
// nullopt outside the plot or between slots.
std::optional<BarHit> hitTestBars(const StackedBarGeometry& geometry, double x, double y);

// The column that shows `category` (nullopt when there is none).
std::optional<std::size_t> columnOfCategory(
    const StackedBarGeometry& geometry, std::size_t category);

// Time axes: the time at widget x (clamped to the axis) and the x of a time.
core::TimeUs timeAtX(const ChartAxes& axes, double x);
double xOfTime(const ChartAxes& axes, core::TimeUs time);

// A "nice" step (1, 2 or 5 × 10^k, any k) not smaller than `minimum` (> 0).
double niceStep(double minimum);

// Tick label of `value` on an axis of `unit` whose ticks are `step` apart and whose largest
// value is `top` (the unit prefix follows `top`: 0, 500 k, 1 M, 1.5 M).
QString formatAxisValue(double value, BarUnit unit, double step, double top);
// A value for a tooltip, with its unit and enough digits: "12.34 %", "1.25 ms", "1,234",
// "4.5 kB".
QString formatBarValue(double value, BarUnit unit);
// "1.25 ms – 2.5 ms".
QString formatTimeSpan(core::TimeRange span);
// A duration: "250 µs", "1.25 ms", "2.5 s".
QString formatTime(double us);

} // namespace parallax::views
