#pragma once

#include "core/analysis/summary_profiles.h"

#include <QMarginsF>
#include <QPolygonF>
#include <QRect>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QVector>

#include <cstddef>
#include <optional>
#include <vector>

namespace parallax::views {

// A labelled tick: `position` is a widget x (time axis) or y (percent axis) in pixels.
struct AxisTick {
    double position = 0.0;
    QString label;
};

// One drawn column of the graph: consecutive bins [firstBin, lastBin) that share a horizontal
// extent. With fewer bins than pixels a bucket is one bin; otherwise one pixel column holds
// several bins and shows their mean.
struct GraphBucket {
    double left = 0.0; // widget x of firstBin's begin
    double right = 0.0; // widget x of lastBin's begin (the end of the last bin)
    std::size_t firstBin = 0;
    std::size_t lastBin = 0;
    double utilization = 0.0; // mean busy % of the bins
    double idle = 0.0; // mean idle % of the bins with idle data; NaN when none has
};

// Everything the summary graph draws, in widget coordinates, for one series and widget size.
struct SummaryGraphGeometry {
    QRectF plot; // the data area (0 % at the bottom, 100 % at the top); empty when no room
    std::vector<GraphBucket> buckets; // left to right, adjacent, covering the plot width
    QPolygonF utilizationLine; // step line through the bucket values
    // The area under the step line: one whole-pixel rectangle per bucket, adjacent and never
    // overlapping (a translucent fill shows no seams; far faster than a polygon of many steps).
    QVector<QRect> utilizationArea;
    std::vector<QPolygonF> idleLines; // step lines, split where bins have no idle data
    std::vector<AxisTick> timeTicks; // along the bottom of the plot
    std::vector<AxisTick> percentTicks; // 0 % .. 100 %, bottom to top
    QString timeUnit; // unit of the time tick labels: "µs", "ms" or "s"

    [[nodiscard]] bool empty() const { return buckets.empty(); }
};

// Space around the plot and the density of the axis labels. The widget derives the margins from
// its font; the defaults suit a 9-10 pt font.
struct SummaryGraphLayout {
    QMarginsF margins { 52.0, 30.0, 18.0, 44.0 }; // left, top, right, bottom
    double minTimeTickSpacing = 90.0; // pixels between time labels, at least
    double minPercentTickSpacing = 26.0; // pixels between percent labels, at least
};

// Maps a series onto a widget of `size`: time 0 .. series.duration() left to right, 0 .. 100 %
// bottom to top (values above 100 % are drawn at 100 %). Pure: needs no window or paint device,
// O(bins + plot width).
SummaryGraphGeometry buildSummaryGraphGeometry(const core::analysis::SummaryAverage& series,
    QSizeF size, const SummaryGraphLayout& layout = {});

// Index into geometry.buckets of the bucket under widget x; nullopt outside the plot.
std::optional<std::size_t> bucketAt(const SummaryGraphGeometry& geometry, double x);

// The single bin under widget x (exact even where a bucket aggregates many); nullopt outside
// the plot.
std::optional<std::size_t> binAt(
    const SummaryGraphGeometry& geometry, const core::analysis::SummaryAverage& series, double x);

// A "nice" tick step (1, 2 or 5 x 10^k, at least 1) not smaller than `minimum`.
double niceTickStep(double minimum);

} // namespace parallax::views
