#pragma once

#include "core/types.h"

#include <QRect>
#include <QString>

#include <cmath>
#include <vector>

namespace parallax::views {

// A labelled tick: `position` is a widget x (x axis) or y (y axis) in pixels.
struct BarTick {
    double position = 0.0;
    QString label;
};

// The plot and its axes, in widget pixels: what the geometries of the charts with two axes (stacked
// bars, lines, the Entry Model's scatter) share, and what paintChartAxes() (chart_frame.h) draws.
struct ChartAxes {
    QRect plot; // the data area
    std::vector<BarTick> xTicks; // left to right, position = x
    std::vector<BarTick> yTicks; // bottom to top, position = y
    QString xTitle; // a time axis appends its unit
    QString yTitle;
    double xTitleBaseline = 0.0; // y of the x title's centre line
    double yTitleCenterX = 0.0; // x of the rotated y title's centre line
    double yLabelRight = 0.0; // y tick labels are right-aligned to this x
    double xLabelTop = 0.0; // x tick labels start at this y
    core::TimeRange timeSpan; // time axes: the time at plot.left() .. plot.right() + 1

    // Places the tick labels and the titles around `plot` (laid out first): the y labels end half
    // a line left of the y ticks, the y title is centred on the first line inside the left
    // margin, the x labels start just below the x ticks and the x title is a line further down.
    void placeLabels(double lineHeight, double tickLength, double leftMargin)
    {
        yLabelRight = static_cast<double>(plot.left()) - tickLength - std::round(lineHeight * 0.5);
        yTitleCenterX = leftMargin + lineHeight / 2.0;
        xLabelTop = static_cast<double>(plot.top() + plot.height()) + tickLength + 2.0;
        xTitleBaseline = xLabelTop + lineHeight + lineHeight / 2.0 + 2.0;
    }
};

} // namespace parallax::views
