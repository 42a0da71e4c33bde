#pragma once

#include "core/analysis/overview.h"
#include "core/run_metadata.h"
#include "views/overview/overview_rows.h"
#include "views/timeline/timeline_geometry.h"

#include <QColor>
#include <QImage>
#include <QRect>

#include <functional>
#include <optional>
#include <vector>

namespace parallax::views {

enum class OverviewColoring { DominantActivity, Utilization };

// Sizes of the overview's parts in pixels (the chart derives them from its font).
struct OverviewLayout {
    int margin = 8;
    int titleHeight = 24; // 0: no title line
    int labelWidth = 64; // row labels at the left of the plot
    int axisHeight = 34; // ticks and labels below the plot
    int legendHeight = 26; // 0: no legend
    int lineHeight = 14; // one line of label text (rows get a label every so many pixels)
    double minTickSpacing = 100.0;
};

// A heat-map cell: a PE row (index into Overview::pes) and a time column.
struct OverviewCell {
    std::size_t row = 0;
    std::int64_t column = 0;
    friend bool operator==(const OverviewCell&, const OverviewCell&) = default;
};

// Where the overview's parts go for one size. Rows and columns split the plot evenly; a pixel
// row y shows row floor(y·rows/height) (several rows when they are thinner than a pixel), a
// pixel column likewise, so cellAt() and the image agree pixel for pixel.
struct OverviewGeometry {
    QRect title;
    QRect plot; // the heat map
    QRect legend;
    std::size_t rows = 0;
    std::int64_t columns = 0;
    TimeMapping map; // the grid's time span over the plot width
    TimeAxis axis;
    std::vector<std::size_t> labelledRows; // rows that get a "PE n" label (thinned to fit)
    std::vector<int> nodeBoundaries; // y of each boundary between two SMP nodes

    // The cell under a point of the plot; nullopt outside.
    [[nodiscard]] std::optional<OverviewCell> cellAt(QPoint p) const;
    // The row under y (nullopt outside the plot's height).
    [[nodiscard]] std::optional<std::size_t> rowAt(int y) const;
    // A row's band across the plot / one cell, in widget coordinates (at least one pixel high).
    [[nodiscard]] QRect rowRect(std::size_t row) const;
    [[nodiscard]] QRect cellRect(OverviewCell cell) const;
    // The fractional column at x (clamped to the plot): 0 at the left edge, columns at the right.
    [[nodiscard]] double columnAt(int x) const;
};

// Lays out the overview of `overview` at `size`; `metadata` (may be null) gives SMP nodes.
// With `rows` (one per row of `overview`: groups, composeOverview), the boundaries are between
// groups and the labels go to the rows that have one, each group's first row before the others.
// Pure: no window or paint device needed.
OverviewGeometry buildOverviewGeometry(const core::analysis::Overview& overview,
    const core::RunMetadata* metadata, QSize size, const OverviewLayout& layout = {},
    const std::vector<OverviewRowInfo>& rows = {});

// The heat map at exactly `plotSize` pixels. Where cells are smaller than pixels, a pixel shows
// the mean utilization of its cells, or the activity that dominates most of them (no blending,
// so every colour means one activity). Cells without data (no utilization, no idle, outside
// the PE's traced span in `traced`, one span per row; empty = unknown) get noDataColor().
// Rows flagged in `utilizationRows` use the utilization ramp whatever the colouring.
QImage overviewImage(const core::analysis::Overview& overview, OverviewColoring coloring,
    QSize plotSize, const std::function<QColor(int column)>& activityColor,
    const std::vector<core::TimeRange>& traced = {}, const std::vector<bool>& utilizationRows = {});

// Whether a cell has data (as above).
bool overviewCellHasData(const core::analysis::Overview& overview, std::size_t row,
    std::int64_t column, const std::vector<core::TimeRange>& traced = {});

// How many cells each activity dominates (cells with data only), [activity column].
std::vector<std::int64_t> dominantCellCounts(
    const core::analysis::Overview& overview, const std::vector<core::TimeRange>& traced = {});

// The utilization ramp: perceptually uniform (viridis), dark violet at 0 % through teal to
// yellow at 100 %, so busier reads brighter and it stays readable in greyscale.
QColor utilizationColor(double percent);
QColor noDataColor();

} // namespace parallax::views
