#pragma once

#include "core/analysis/overview.h"

#include <QColor>
#include <QImage>
#include <QRect>

#include <functional>
#include <optional>

namespace parallax::views {

enum class OverviewColoring { DominantActivity, Utilization };

// Where the overview's parts go for a widget size: the heat map, the row labels at its left,
// the time axis below. Pure: data + size in, rectangles out (tested without a window).
struct OverviewLayout {
    int labelWidth = 56;
    int axisHeight = 34;
    int titleHeight = 26;
    int legendHeight = 22;
    int margin = 8;
};

struct OverviewGeometry {
    QRect plot; // the heat map, one row per PE, one column per time interval
    std::size_t rows = 0;
    std::int64_t columns = 0;

    // Row (PE index) and column under a point of the plot, or nullopt outside.
    [[nodiscard]] std::optional<std::pair<std::size_t, std::int64_t>> cellAt(QPoint p) const;
    // The rectangle of a row in widget coordinates.
    [[nodiscard]] QRect rowRect(std::size_t row) const;
    // Time at a plot x (clamped to the plot).
    [[nodiscard]] double columnAt(int x) const;
};

OverviewGeometry buildOverviewGeometry(
    std::size_t rows, std::int64_t columns, QSize size, const OverviewLayout& layout);

// The heat map as an image of exactly rows × columns pixels (scaled when painted).
QImage overviewImage(const core::analysis::Overview& overview, OverviewColoring coloring,
    const std::function<QColor(int column)>& activityColor);

// The utilization ramp: dark blue (0 %) -> red (70 %) -> white (100 %), as Projections.
QColor utilizationColor(double percent);

} // namespace parallax::views
