#pragma once

#include "core/types.h"
#include "views/common/stacked_bar_geometry.h"

#include <QPolygonF>
#include <QRect>
#include <QSize>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace parallax::views {

// Several series of values over a common x axis: time intervals (user stats, memory, aligned
// time profiles) or categories such as PEs. A value may be missing (NaN): the line breaks there,
// or, for series of sparse samples, joins the neighbouring values.

enum class LineAxis : std::uint8_t {
    Time, // x positions are time intervals, each value drawn at its interval's centre
    Categorical // x positions are equal slots with labels (PEs, runs)
};

struct LineSeries {
    QString name; // legend
    QString fullName; // tooltip (name when empty)
    std::vector<double> values; // one per x position; NaN: no value
    std::optional<std::uint32_t> color; // QRgb; else the palette colour of the series' rank
    bool joinGaps = false; // draw across missing values (sparse samples) instead of breaking
    bool markers = false; // a dot at every value
    bool dotsOnly = false; // the dots without a line (values of separate PEs)
    bool dashed = false;
    bool emphasised = false; // drawn thicker (the main line over per-PE lines)
    core::PeId pe = core::kNoPe; // the PE the line stands for (click: its timeline)
};

// A band between two series of bounds (the min–max spread over PEs), drawn under the lines.
struct LineBand {
    QString name; // legend and tooltip ("min – max over PEs")
    std::vector<double> low; // per x position; NaN: no band there
    std::vector<double> high;
    std::vector<core::PeId> lowPe; // optional, per x position: who holds the bound
    std::vector<core::PeId> highPe;
    std::optional<std::uint32_t> color;
    bool joinGaps = false; // one band across missing positions (sparse samples)
};

struct LineChartData {
    LineAxis axis = LineAxis::Time;
    std::vector<core::TimeRange> spans; // Time: per x position, the interval it stands for
    std::vector<QString> labels; // Categorical: per x position
    std::vector<core::PeId> pes; // Categorical over PEs: per x position (else empty)
    std::vector<LineSeries> series;
    std::vector<LineBand> bands;
    BarUnit unit = BarUnit::Count;
    QString yTitle;
    QString xTitle; // a time axis appends its unit
    bool includeZero = true; // the y axis reaches 0 even when every value is far above it
    bool zeroLine = false; // a line at y = 0 (differences)
    // Time axis: each value is a level that holds over its whole interval (memory in use), drawn
    // as steps rather than as a line through the intervals' centres.
    bool steps = false;

    [[nodiscard]] std::size_t size() const
    {
        return axis == LineAxis::Time ? spans.size() : labels.size();
    }
    // Every series and band has size() values, time spans are not empty.
    [[nodiscard]] bool valid() const;
};

// Everything the chart draws, in widget pixels.
struct LineChartGeometry : ChartAxes {
    std::vector<double> xs; // per x position
    std::vector<std::vector<QPolygonF>> lines; // per series: its polylines (split at gaps)
    std::vector<std::vector<QPointF>> markers; // per series: its dots (when asked for)
    std::vector<std::vector<QPolygonF>> bands; // per band: closed polygons
    double yMinimum = 0.0; // the values at the plot's bottom and top
    double yMaximum = 1.0;
    std::optional<int> zeroY; // y of the zero line

    [[nodiscard]] bool empty() const { return xs.empty(); }
    [[nodiscard]] double yOf(double value) const;
};

// Maps the data onto a widget of `size` (margins, text sizes and tick spacing as for bar
// charts). Pure. A series with more values than the plot has pixel columns is reduced to the
// lowest and highest value of each column, so any number of values draws as at most ~2 points
// per pixel column.
LineChartGeometry buildLineChart(
    const LineChartData& data, QSize size, const BarLayout& layout = {});

// The x position nearest to widget x (inside the plot), and the series whose drawn value is
// nearest to widget y within `tolerance` pixels.
struct LineHit {
    std::size_t index = 0;
    std::optional<std::size_t> series;
};
std::optional<LineHit> hitTestLines(const LineChartGeometry& geometry, const LineChartData& data,
    double x, double y, double tolerance = 6.0);

} // namespace parallax::views
