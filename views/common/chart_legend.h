#pragma once

#include "views/common/stacked_bar_geometry.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

class QFontMetricsF;
class QPainter;

namespace parallax::views {

// One row of the legend: an activity of the chart, or the "N other entries" row that stands
// for the entry methods that did not fit.
struct LegendItem {
    std::size_t series = 0; // into StackedBarData::series (unused for the "others" row)
    QString label;
    QString toolTip;
    double share = 0.0; // of everything the chart shows (or of its reference bar), 0..1
    int entry = -1; // entry method whose colour a click may change; -1: not editable
    bool others = false;
    std::vector<std::size_t> hidden; // the "others" row: the series it stands for
};

struct LegendRow {
    LegendItem item;
    QRectF row; // the whole row (hit area)
    QRectF swatch;
};

// The legend beside a chart, laid out for a given area: the activities present, entry methods
// by decreasing share first, then (when they do not all fit) one "N other entries" row, then
// overhead, idle, pack and unpack (always listed, so the greys can be read). Pure layout and
// painting helpers; the chart widget caches the layout with its geometry.
struct LegendLayout {
    QRectF area;
    QString heading;
    double headingHeight = 0.0;
    std::vector<LegendRow> rows;

    [[nodiscard]] bool empty() const { return rows.empty(); }
    // The row at a point, or nullopt.
    [[nodiscard]] std::optional<std::size_t> rowAt(QPointF point) const;
};

// The rows for `data` (every series with a non-zero total, or with a non-zero value in the
// reference category when the data names one), ordered as described above.
std::vector<LegendItem> legendItems(const StackedBarData& data);

// The width the items want (swatch, name, share), for a font.
double legendPreferredWidth(const std::vector<LegendItem>& items, const QFontMetricsF& metrics);

// Fits the items into `area` (top-aligned): as many entry rows as fit, then the "others" row.
LegendLayout layoutLegend(std::vector<LegendItem> items, QRectF area, const QFontMetricsF& metrics,
    const QString& heading);

// Paints the legend; `colorOf(series)` gives the swatch colours, `hatchOf(series)` (may be
// empty) a colour for a diagonal hatch over the swatch (invalid: none); `highlighted` is a
// hovered row.
void paintLegend(QPainter& painter, const LegendLayout& legend, const QFontMetricsF& metrics,
    const std::function<QColor(std::size_t series)>& colorOf,
    const std::function<QColor(std::size_t series)>& hatchOf, QColor text, QColor muted,
    std::optional<std::size_t> highlighted);

} // namespace parallax::views
