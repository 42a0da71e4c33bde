#include "views/common/line_chart_geometry.h"

#include "views/common/pixel_math.h"
#include "views/timeline/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace parallax::views {

namespace {

bool finite(double v)
{
    return std::isfinite(v);
}

struct YRange {
    double low = 0.0;
    double high = 1.0;
    double step = 1.0;
};

YRange yRangeFor(const LineChartData& data, double plotHeight, double spacing)
{
    double low = 0.0;
    double high = 0.0;
    bool any = false;
    auto take = [&](double v) {
        if (!finite(v))
            return;
        low = any ? std::min(low, v) : v;
        high = any ? std::max(high, v) : v;
        any = true;
    };
    for (const auto& s : data.series)
        for (const double v : s.values)
            take(v);
    for (const auto& b : data.bands) {
        for (const double v : b.low)
            take(v);
        for (const double v : b.high)
            take(v);
    }
    if (any && high > low) { // a little room above and below the extreme values
        const double pad = (high - low) * 0.03;
        high += pad;
        if (low != 0.0)
            low -= pad;
    }
    if (data.includeZero || data.zeroLine || !any) {
        low = std::min(low, 0.0);
        high = std::max(high, 0.0);
    }
    if (!(high > low)) { // one value: a band around it
        const double pad = std::abs(high) > 0 ? std::abs(high) * 0.5 : 1.0;
        high += pad;
        if (!(data.includeZero && low == 0.0))
            low -= pad;
    }
    const double maxTicks = std::max(2.0, std::floor(plotHeight / std::max(spacing, 1.0)));
    YRange r;
    r.step = niceStep((high - low) / maxTicks);
    const bool integral = data.unit == BarUnit::Count || data.unit == BarUnit::Messages
        || data.unit == BarUnit::Bytes;
    if (integral && high - low >= 1.0)
        r.step = std::max(r.step, 1.0);
    r.low = std::floor(low / r.step + 1e-9) * r.step;
    r.high = std::ceil(high / r.step - 1e-9) * r.step;
    if (!(r.high > r.low))
        r.high = r.low + r.step;
    return r;
}

std::vector<BarTick> yTickLabels(const LineChartData& data, const YRange& r)
{
    std::vector<BarTick> ticks;
    const double top = std::max(std::abs(r.low), std::abs(r.high));
    const auto count = static_cast<long long>(std::llround((r.high - r.low) / r.step));
    for (long long i = 0; i <= count && i <= 1000; ++i) {
        const double v = r.low + static_cast<double>(i) * r.step;
        ticks.push_back({ v, formatAxisValue(v, data.unit, r.step, top) });
    }
    return ticks;
}

// One point per value, or per pixel column the lowest and highest value in their order, when
// there are more values than columns; `valueAt(i)` is NaN for a missing value. Calls
// `addPoint(x, value)` for each point and `gap()` where a line must break.
void reduceToColumns(const std::vector<double>& xs,
    const std::function<double(std::size_t)>& valueAt, bool dense,
    const std::function<void(double, double)>& addPoint, const std::function<void()>& gap)
{
    const auto n = xs.size();
    if (!dense) {
        for (std::size_t i = 0; i < n; ++i) {
            const double v = valueAt(i);
            if (finite(v))
                addPoint(xs[i], v);
            else
                gap();
        }
        return;
    }
    std::size_t i = 0;
    while (i < n) {
        const auto column = static_cast<long long>(std::floor(xs[i]));
        std::size_t j = i;
        double lo = 0.0;
        double hi = 0.0;
        std::size_t loAt = 0;
        std::size_t hiAt = 0;
        bool any = false;
        while (j < n && static_cast<long long>(std::floor(xs[j])) == column) {
            const double v = valueAt(j);
            if (finite(v)) {
                if (!any || v < lo) {
                    lo = v;
                    loAt = j;
                }
                if (!any || v > hi) {
                    hi = v;
                    hiAt = j;
                }
                any = true;
            }
            ++j;
        }
        const double x = static_cast<double>(column) + 0.5;
        if (!any) {
            gap();
        } else if (lo == hi) {
            addPoint(x, lo);
        } else if (loAt < hiAt) {
            addPoint(x, lo);
            addPoint(x, hi);
        } else {
            addPoint(x, hi);
            addPoint(x, lo);
        }
        i = j;
    }
}

} // namespace

bool LineChartData::valid() const
{
    const auto n = size();
    if (axis == LineAxis::Time)
        for (const auto& s : spans)
            if (s.empty())
                return false;
    if (!pes.empty() && pes.size() != n)
        return false;
    for (const auto& s : series)
        if (s.values.size() != n)
            return false;
    for (const auto& b : bands)
        if (b.low.size() != n || b.high.size() != n)
            return false;
    return true;
}

double LineChartGeometry::yOf(double value) const
{
    const double span = yMaximum - yMinimum;
    const double f = span > 0 ? (value - yMinimum) / span : 0.0;
    return static_cast<double>(plot.top() + plot.height()) - f * plot.height();
}

LineChartGeometry buildLineChart(const LineChartData& data, QSize size, const BarLayout& layout)
{
    LineChartGeometry g;
    const auto n = data.size();
    if (n == 0 || (data.series.empty() && data.bands.empty()) || !data.valid())
        return g;
    const auto textWidth = [&layout](const QString& s) {
        return layout.widthOf(s);
    };
    const double line = layout.lineHeight;
    const double top = layout.plotTop();
    const double bottom = layout.plotBottom(size.height());
    const double plotHeight = bottom - top;
    if (plotHeight < 2.0 * line)
        return g;
    const YRange range = yRangeFor(data, plotHeight, layout.minYTickSpacing);
    const auto yTicks = yTickLabels(data, range);
    double widestLabel = 0.0;
    for (const auto& t : yTicks)
        widestLabel = std::max(widestLabel, textWidth(t.label));
    const double left = layout.plotLeft(widestLabel);
    const double right = std::ceil(layout.margins.right() + line);
    const double width = std::floor(static_cast<double>(size.width()) - left - right);
    if (width < 2.0 * line)
        return g;
    g.plot = QRect(toPixel(left), toPixel(top), toPixel(width), toPixel(plotHeight));
    g.yMinimum = range.low;
    g.yMaximum = range.high;
    const double plotLeft = g.plot.left();
    const double plotWidth = g.plot.width();

    // X positions.
    g.xs.resize(n);
    if (data.axis == LineAxis::Time) {
        core::TimeUs t0 = data.spans.front().begin;
        core::TimeUs t1 = t0 + 1;
        for (const auto& s : data.spans) {
            t0 = std::min(t0, s.begin);
            t1 = std::max(t1, s.end);
        }
        g.timeSpan = { t0, t1 };
        const TimeMapping map { g.timeSpan, plotLeft, plotWidth };
        for (std::size_t i = 0; i < n; ++i) {
            const auto& s = data.spans[i];
            g.xs[i] = (map.xOf(s.begin) + map.xOf(s.end)) / 2.0;
        }
        const double spacing = textWidth(QStringLiteral("00.000 ms")) + layout.labelGap;
        const auto axis = buildTimeAxis(map, spacing);
        for (const auto& t : axis.ticks)
            if (t.x >= plotLeft - 0.5 && t.x <= plotLeft + plotWidth + 0.5)
                g.xTicks.push_back({ t.x, t.label });
        g.xTitle = data.xTitle;
        if (!axis.origin.isEmpty())
            g.xTitle += QStringLiteral(" (%1 = %2)").arg(axis.originName, axis.origin);
    } else {
        const double slot = plotWidth / static_cast<double>(n);
        std::size_t longest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            g.xs[i] = plotLeft + (static_cast<double>(i) + 0.5) * slot;
            if (data.labels[i].size() > data.labels[longest].size())
                longest = i;
        }
        const double need = textWidth(data.labels[longest]) + layout.labelGap;
        std::size_t stride = 1;
        while (static_cast<double>(stride) * slot < need && stride < n)
            stride = static_cast<std::size_t>(niceStep(static_cast<double>(stride) + 0.5));
        for (std::size_t i = 0; i < n; i += stride)
            g.xTicks.push_back({ g.xs[i], data.labels[i] });
        g.xTitle = data.xTitle;
    }

    // Y ticks and titles.
    for (auto tick : yTicks) {
        tick.position = g.yOf(tick.position);
        g.yTicks.push_back(tick);
    }
    g.yTitle = data.yTitle;
    g.placeLabels(line, layout.tickLength, layout.margins.left());
    if (data.zeroLine && range.low < 0.0 && range.high > 0.0)
        g.zeroY = toPixel(g.yOf(0.0));

    // Lines, markers and bands. Steps go through both edges of each interval.
    const bool dense = static_cast<double>(n) > plotWidth;
    const bool steps = data.steps && data.axis == LineAxis::Time && !dense;
    std::vector<double> edgeLeft(n);
    std::vector<double> edgeRight(n);
    if (steps) {
        const TimeMapping map { g.timeSpan, plotLeft, plotWidth };
        for (std::size_t i = 0; i < n; ++i) {
            edgeLeft[i] = map.xOf(data.spans[i].begin);
            edgeRight[i] = map.xOf(data.spans[i].end);
        }
    }
    g.lines.resize(data.series.size());
    g.markers.resize(data.series.size());
    for (std::size_t s = 0; s < data.series.size(); ++s) {
        const auto& series = data.series[s];
        auto& polylines = g.lines[s];
        QPolygonF current;
        std::size_t at = 0; // the position reduceToColumns is at (steps only: never dense)
        reduceToColumns(
            g.xs,
            [&series, &at](std::size_t i) {
                at = i;
                return series.values[i];
            },
            dense,
            [&](double x, double v) {
                if (steps) {
                    current << QPointF(edgeLeft[at], g.yOf(v)) << QPointF(edgeRight[at], g.yOf(v));
                    return;
                }
                current << QPointF(x, g.yOf(v));
            },
            [&]() {
                if (series.joinGaps)
                    return;
                if (!current.isEmpty())
                    polylines.push_back(current);
                current.clear();
            });
        if (!current.isEmpty())
            polylines.push_back(current);
        if ((series.markers || series.dotsOnly) && !dense)
            for (std::size_t i = 0; i < n; ++i)
                if (finite(series.values[i]))
                    g.markers[s].emplace_back(g.xs[i], g.yOf(series.values[i]));
    }
    g.bands.resize(data.bands.size());
    for (std::size_t b = 0; b < data.bands.size(); ++b) {
        const auto& band = data.bands[b];
        // One polygon per run of positions with both bounds (one for all of them when the band
        // joins gaps): the upper edge left to right, the lower one back.
        auto bounded = [&band](std::size_t i) {
            return finite(band.low[i]) && finite(band.high[i]);
        };
        QPolygonF upper;
        QPolygonF lower;
        auto close = [&]() {
            if (upper.size() > 0) {
                for (auto it = lower.rbegin(); it != lower.rend(); ++it)
                    upper << *it;
                g.bands[b].push_back(upper);
            }
            upper.clear();
            lower.clear();
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (!bounded(i)) {
                if (!band.joinGaps)
                    close();
                continue;
            }
            if (steps) {
                upper << QPointF(edgeLeft[i], g.yOf(band.high[i]))
                      << QPointF(edgeRight[i], g.yOf(band.high[i]));
                lower << QPointF(edgeLeft[i], g.yOf(band.low[i]))
                      << QPointF(edgeRight[i], g.yOf(band.low[i]));
                continue;
            }
            upper << QPointF(g.xs[i], g.yOf(band.high[i]));
            lower << QPointF(g.xs[i], g.yOf(band.low[i]));
        }
        close();
    }
    return g;
}

std::optional<LineHit> hitTestLines(const LineChartGeometry& geometry, const LineChartData& data,
    double x, double y, double tolerance)
{
    const auto& g = geometry;
    if (g.empty() || x < g.plot.left() || x > g.plot.left() + g.plot.width() || y < g.plot.top()
        || y > g.plot.top() + g.plot.height())
        return std::nullopt;
    // The nearest x position: the first at or right of x, or the one before it when closer.
    const auto it = std::lower_bound(g.xs.begin(), g.xs.end(), x);
    auto index = static_cast<std::size_t>(it - g.xs.begin());
    if (it == g.xs.end() || (index > 0 && x - g.xs[index - 1] < g.xs[index] - x))
        --index;
    LineHit hit;
    hit.index = index;
    double best = tolerance;
    for (std::size_t s = 0; s < data.series.size(); ++s) {
        const double v = data.series[s].values[index];
        if (!finite(v))
            continue;
        const double d = std::abs(g.yOf(v) - y);
        if (d <= best) {
            best = d;
            hit.series = s;
        }
    }
    return hit;
}

} // namespace parallax::views
