#include "views/summary/summary_graph_geometry.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace parallax::views {

namespace {

double toY(const QRectF& plot, double percent)
{
    const double v = std::clamp(percent, 0.0, 100.0);
    return plot.bottom() - v / 100.0 * plot.height();
}

struct TimeUnit {
    const char* name;
    double us; // microseconds per unit
};

// The unit the whole axis is labelled in: large enough that labels stay short.
TimeUnit unitFor(double durationUs)
{
    if (durationUs >= 2e6)
        return { "s", 1e6 };
    if (durationUs >= 2e3)
        return { "ms", 1e3 };
    return { "µs", 1.0 };
}

QString tickLabel(double valueInUnit, double stepInUnit)
{
    // Enough decimals to tell adjacent ticks apart: a step of 0.2 needs one, 0.05 two.
    const int decimals
        = stepInUnit >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(stepInUnit) - 1e-9));
    return QLocale().toString(valueInUnit, 'f', std::clamp(decimals, 0, 6));
}

void addTimeTicks(SummaryGraphGeometry& g, double durationUs, const SummaryGraphLayout& layout)
{
    const double width = g.plot.width();
    const auto maxTicks = std::max(1.0, std::floor(width / layout.minTimeTickSpacing));
    const double stepUs = niceTickStep(durationUs / maxTicks);
    const auto unit = unitFor(durationUs);
    g.timeUnit = QString::fromUtf8(unit.name);
    const auto count = static_cast<long long>(std::floor(durationUs / stepUs + 1e-9));
    for (long long i = 0; i <= count; ++i) {
        const double t = static_cast<double>(i) * stepUs;
        const double x = g.plot.left() + t / durationUs * width;
        g.timeTicks.push_back({ x, tickLabel(t / unit.us, stepUs / unit.us) });
    }
}

void addPercentTicks(SummaryGraphGeometry& g, const SummaryGraphLayout& layout)
{
    double step = 100.0;
    for (const double candidate : { 20.0, 25.0, 50.0 }) {
        if (g.plot.height() * candidate / 100.0 >= layout.minPercentTickSpacing) {
            step = candidate;
            break;
        }
    }
    for (double v = 0.0; v <= 100.0 + 1e-9; v += step)
        g.percentTicks.push_back(
            { toY(g.plot, v), QLocale().toString(static_cast<int>(v)) + QStringLiteral(" %") });
}

} // namespace

double niceTickStep(double minimum)
{
    if (!(minimum > 1.0))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(minimum)));
    for (const double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * magnitude >= minimum * (1.0 - 1e-12))
            return m * magnitude;
    return 10.0 * magnitude;
}

SummaryGraphGeometry buildSummaryGraphGeometry(
    const core::analysis::SummaryAverage& series, QSizeF size, const SummaryGraphLayout& layout)
{
    SummaryGraphGeometry g;
    const QRectF plot = QRectF(QPointF(0, 0), size).marginsRemoved(layout.margins);
    if (series.empty() || plot.width() < 2.0 || plot.height() < 2.0)
        return g;
    g.plot = plot;

    const std::size_t bins = series.binCount();
    const auto columns = static_cast<std::size_t>(std::floor(plot.width()));
    const std::size_t bucketCount = std::min(bins, columns);
    const double binWidth = plot.width() / static_cast<double>(bins);
    auto binX = [&](std::size_t bin) {
        return plot.left() + static_cast<double>(bin) * binWidth;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();

    g.buckets.reserve(bucketCount);
    for (std::size_t k = 0; k < bucketCount; ++k) {
        GraphBucket b;
        b.firstBin = k * bins / bucketCount;
        b.lastBin = (k + 1) * bins / bucketCount;
        b.left = binX(b.firstBin);
        b.right = binX(b.lastBin);
        double busy = 0.0;
        double idle = 0.0;
        std::size_t idleBins = 0;
        for (std::size_t i = b.firstBin; i < b.lastBin; ++i) {
            busy += series.utilization[i];
            if (series.hasIdle() && !std::isnan(series.idle[i])) {
                idle += series.idle[i];
                ++idleBins;
            }
        }
        b.utilization = busy / static_cast<double>(b.lastBin - b.firstBin);
        b.idle = idleBins == 0 ? nan : idle / static_cast<double>(idleBins);
        g.buckets.push_back(b);
    }

    g.utilizationLine.reserve(static_cast<qsizetype>(2 * g.buckets.size()));
    QPolygonF idleLine;
    for (const auto& b : g.buckets) {
        const double y = toY(plot, b.utilization);
        g.utilizationLine << QPointF(b.left, y) << QPointF(b.right, y);
        if (std::isnan(b.idle)) {
            if (!idleLine.isEmpty())
                g.idleLines.push_back(std::exchange(idleLine, {}));
        } else {
            const double iy = toY(plot, b.idle);
            idleLine << QPointF(b.left, iy) << QPointF(b.right, iy);
        }
    }
    if (!idleLine.isEmpty())
        g.idleLines.push_back(std::move(idleLine));
    g.utilizationArea.reserve(static_cast<qsizetype>(g.buckets.size()));
    const int bottom = static_cast<int>(std::lround(plot.bottom()));
    for (const auto& b : g.buckets) {
        const int left = static_cast<int>(std::lround(b.left));
        const int right = static_cast<int>(std::lround(b.right));
        const int top = static_cast<int>(std::lround(toY(plot, b.utilization)));
        if (right > left && bottom > top)
            g.utilizationArea.append(QRect(left, top, right - left, bottom - top));
    }

    addTimeTicks(g, static_cast<double>(series.duration()), layout);
    addPercentTicks(g, layout);
    return g;
}

std::optional<std::size_t> bucketAt(const SummaryGraphGeometry& geometry, double x)
{
    if (geometry.empty() || x < geometry.plot.left() || x >= geometry.plot.right())
        return std::nullopt;
    const auto& buckets = geometry.buckets;
    // Buckets are adjacent and sorted by left: the last one starting at or before x.
    const auto it = std::upper_bound(buckets.begin(), buckets.end(), x,
        [](double value, const GraphBucket& b) { return value < b.left; });
    if (it == buckets.begin())
        return std::nullopt;
    return static_cast<std::size_t>(std::distance(buckets.begin(), it) - 1);
}

std::optional<std::size_t> binAt(
    const SummaryGraphGeometry& geometry, const core::analysis::SummaryAverage& series, double x)
{
    if (geometry.empty() || x < geometry.plot.left() || x >= geometry.plot.right())
        return std::nullopt;
    const double fraction = (x - geometry.plot.left()) / geometry.plot.width();
    const auto bin = static_cast<std::size_t>(fraction * static_cast<double>(series.binCount()));
    return std::min(bin, series.binCount() - 1);
}

} // namespace parallax::views
