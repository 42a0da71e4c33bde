#pragma once

// What the chart widgets (stacked bars, lines) paint the same way around their data: the title
// line, the message that stands in for an empty chart, the axes with their ticks and titles, the
// "Computing…" veil and the band of a drag along a time axis.

#include "views/common/chart_axes.h"
#include "views/common/chart_legend.h"
#include "views/common/chart_style.h"
#include "views/common/stacked_bar_geometry.h"

#include <QRect>
#include <QRectF>
#include <QString>

#include <functional>
#include <vector>

class QFontMetricsF;
class QPainter;

namespace parallax::views {

// How a chart with axes and a legend at its right (the line and the stacked bar charts) starts
// its layout: the title line at the top; a BarLayout with the font's line height and text widths,
// y ticks at least three lines apart, and margins that leave room for the title and the legend;
// the legend's width: its preferred width between 8 and `maxLegendLines` lines (or
// `maxLegendShare` of the chart's width), none for no items or a chart narrower than 460 px.
struct AxesFrame {
    QRectF titleBox;
    BarLayout layout;
    double legendWidth = 0.0;
};
AxesFrame layoutAxesFrame(QSize size, const QFontMetricsF& metrics,
    const std::vector<LegendItem>& legendItems, double maxLegendLines, double maxLegendShare);

// The legend `legendWidth` wide at the right of a chart of `size`, from the plot's top down.
LegendLayout layoutLegendBeside(std::vector<LegendItem> items, QSize size, double legendWidth,
    double plotTop, const QFontMetricsF& metrics, const QString& heading);

// A bold title, then the muted subtitle; on screen a usage hint (may be empty) at the right.
void paintChartTitle(QPainter& painter, QRectF box, const QString& title, const QString& subtitle,
    const QString& hint, const ChartStyle& style);

// A centred message in `area` ("No run loaded", "This run has no memory-usage records").
void paintChartMessage(
    QPainter& painter, QRectF area, const QString& text, const ChartStyle& style);

// Horizontal grid lines at the y ticks, except one on the plot's bottom edge (the axis).
void paintYGrid(
    QPainter& painter, QRect plot, const std::vector<BarTick>& yTicks, const ChartStyle& style);

// The x axis line, its ticks and labels, the y tick labels and both axis titles; `width` is the
// widget's width (labels are kept inside it).
void paintChartAxes(QPainter& painter, const ChartAxes& axes, const ChartStyle& style, int width);

// Veils the plot and says "Computing…" (shown while a new result is computed over the old one).
void paintBusyVeil(QPainter& painter, QRect plot, const ChartStyle& style);

// The band of a drag from x0 to x1 over the plot, labelled with the time span it selects.
void paintRangeDrag(QPainter& painter, QRect plot, int x0, int x1, core::TimeRange span,
    const QColor& highlight, const ChartStyle& style, int width);

// Writes the picture `paint` draws at `size` as an SVG file: writeSvgFile (chart_style.h) with
// the application's font and no description.
bool writeChartSvg(const QString& path, QSize size, const QString& title,
    const std::function<void(QPainter&)>& paint, QString* error);

} // namespace parallax::views
