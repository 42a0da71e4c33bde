#pragma once

#include "core/types.h"
#include "views/common/stacked_bar_geometry.h"
#include "views/timeline/timeline_geometry.h"

#include <QColor>
#include <QImage>
#include <QRect>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace parallax::views {

// The sequential ramp every heat map uses (viridis, 9 stops, interpolated in sRGB): dark violet
// at 0 through teal to yellow at 1, so larger reads brighter and stays readable in greyscale.
QColor viridisColor(double fraction);

// Values → colours: `minimum`..`maximum` spread over the ramp linearly, or logarithmically for
// counts that span orders of magnitude. With zeroIsEmpty (counts) a zero means "none" and gets
// emptyColor() rather than the bottom of the ramp; NaN means "no data" (noDataColor()).
struct HeatScale {
    bool logarithmic = false;
    double minimum = 0.0;
    double maximum = 1.0;
    bool zeroIsEmpty = true;

    // Position of a value on the ramp, clamped to 0..1.
    [[nodiscard]] double fraction(double value) const;
    [[nodiscard]] QColor color(double value) const;
    // "Nice" values for the legend's ticks, at most `count`, within the scale.
    [[nodiscard]] std::vector<double> ticks(int count) const;
};
QColor emptyCellColor();
QColor noDataCellColor();

// The scale for `values` (NaN and, for counts, zeros ignored): linear from 0 to the largest
// value, or to `fixedMaximum` (100 for percentages); logarithmic from the smallest non-zero
// value when `allowLog` and the values span more than two decades.
HeatScale heatScaleFor(const std::vector<double>& values, bool zeroIsEmpty, bool allowLog,
    std::optional<double> fixedMaximum = std::nullopt);

// One axis of a heat map: a list of items (PEs, nodes, size bins), each with a label, or a time
// axis whose items split `span` evenly (labels then come from the time ticks).
struct HeatMapAxis {
    QString title; // "Sender", "Message size", "Time"
    std::vector<QString> labels; // one per item (category axis)
    std::optional<core::TimeRange> span; // time axis
    std::vector<std::size_t> emphasized; // items outlined and labelled in bold (the heaviest)
};

// What a heat map shows: values[row * columns + column] (NaN: no data; -infinity: no cell there,
// drawn empty); optional marginal bars (the totals of each row, drawn right of the map, and of
// each column, drawn above it).
struct HeatMapData {
    std::size_t rows = 0;
    std::size_t columns = 0;
    std::vector<double> values;
    HeatMapAxis rowAxis;
    HeatMapAxis columnAxis;
    HeatScale scale;
    BarUnit unit = BarUnit::Count; // how values are written (legend, tooltips)
    QString legendTitle; // "messages", "bytes", "utilization"
    // Optional names written in each cell above its value where there is room (the PEs of the
    // Animation's grid); empty: none.
    std::vector<QString> cellLabels;
    std::vector<double> rowTotals; // empty: no bars
    std::vector<double> columnTotals;
    QString rowTotalsTitle; // "sent"
    QString columnTotalsTitle; // "received"

    [[nodiscard]] double value(std::size_t row, std::size_t column) const
    {
        return values[row * columns + column];
    }
};

// Sizes in pixels (the chart derives them from its font) and a text measure, so that the geometry
// stays a pure function that tests can call with fixed metrics.
struct HeatMapLayout {
    int margin = 8;
    int titleHeight = 24; // 0: no title line
    int lineHeight = 14; // one line of label text
    int legendWidth = 90; // the colour legend right of the map
    int barSize = 56; // depth of the marginal bars
    int axisTitle = 16; // height of an axis title line
    int footnoteHeight = 0; // a line of notes under everything (0: none)
    std::function<int(const QString&)> textWidth; // default: 7 px per character
};

struct HeatMapCell {
    std::size_t row = 0;
    std::size_t column = 0;
    friend bool operator==(const HeatMapCell&, const HeatMapCell&) = default;
};

// A label placed along an axis: the item it names, its centre (y for rows, x for columns).
struct HeatMapLabel {
    std::size_t item = 0;
    int position = 0;
    QString text;
    bool emphasized = false;
};

// Where the parts go for one size. Rows split the plot's height evenly (row r covers
// [top + r·h/rows, top + (r+1)·h/rows)), columns its width, so a point and a cell agree exactly;
// cells thinner than a pixel share pixels.
struct HeatMapGeometry {
    QRect title;
    QRect plot; // the cells
    QRect rowLabels; // left of the plot
    QRect columnLabels; // below the plot (items or time ticks)
    QRect rowBars; // right of the plot (row totals), empty without
    QRect columnBars; // above the plot (column totals), empty without
    QRect legend;
    QRect footnote; // empty without
    std::size_t rows = 0;
    std::size_t columns = 0;
    std::vector<HeatMapLabel> rowLabelItems; // thinned to fit, emphasized ones always
    std::vector<HeatMapLabel> columnLabelItems;
    TimeAxis timeAxis; // ticks of a time column axis

    [[nodiscard]] std::optional<HeatMapCell> cellAt(QPoint p) const;
    // The row (column) whose band holds y (x), inside the plot's height (width) — also for points
    // on the labels or the marginal bars.
    [[nodiscard]] std::optional<std::size_t> rowAt(int y) const;
    [[nodiscard]] std::optional<std::size_t> columnAt(int x) const;
    [[nodiscard]] QRect cellRect(HeatMapCell cell) const;
    [[nodiscard]] QRect rowBand(std::size_t row) const; // across the plot
    [[nodiscard]] QRect columnBand(std::size_t column) const;
};

HeatMapGeometry buildHeatMapGeometry(
    const HeatMapData& data, QSize size, const HeatMapLayout& layout = {});

// The cells at exactly `plotSize` pixels. A pixel that covers several cells (more cells than
// pixels) shows the largest of their values, so a hot cell never disappears.
QImage heatMapImage(const HeatMapData& data, QSize plotSize);

// A value as the heat map writes it: "1,234", "1.2 MB", "45.3 %".
QString heatValueText(double value, BarUnit unit);

} // namespace parallax::views
