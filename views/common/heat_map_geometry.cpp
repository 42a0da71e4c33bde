#include "views/common/heat_map_geometry.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace parallax::views {

QColor viridisColor(double fraction)
{
    // Viridis at 9 evenly spaced stops (matplotlib), interpolated linearly in sRGB.
    static constexpr std::array<std::array<int, 3>, 9> kStops { {
        { 68, 1, 84 },
        { 71, 45, 123 },
        { 59, 82, 139 },
        { 44, 114, 142 },
        { 33, 145, 140 },
        { 40, 174, 128 },
        { 94, 201, 98 },
        { 173, 220, 48 },
        { 253, 231, 37 },
    } };
    const double p = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    const double pos = p * static_cast<double>(kStops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(pos), kStops.size() - 2);
    const double f = pos - static_cast<double>(i);
    auto mix = [&](std::size_t c) {
        return static_cast<int>(std::lround(kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f));
    };
    return QColor(mix(0), mix(1), mix(2));
}

QColor emptyCellColor()
{
    return QColor(0xee, 0xee, 0xec);
}

QColor noDataCellColor()
{
    return QColor(0xd0, 0xd0, 0xd0);
}

double HeatScale::fraction(double value) const
{
    if (!std::isfinite(value))
        return 0.0;
    if (logarithmic) {
        const double lo = std::log10(std::max(minimum, 1e-300));
        const double hi = std::log10(std::max(maximum, minimum * 10.0));
        if (value <= 0)
            return 0.0;
        return std::clamp((std::log10(value) - lo) / std::max(hi - lo, 1e-12), 0.0, 1.0);
    }
    return std::clamp((value - minimum) / std::max(maximum - minimum, 1e-300), 0.0, 1.0);
}

QColor HeatScale::color(double value) const
{
    if (std::isnan(value))
        return noDataCellColor();
    if ((zeroIsEmpty && value == 0.0) || value == -std::numeric_limits<double>::infinity())
        return emptyCellColor();
    return viridisColor(fraction(value));
}

std::vector<double> HeatScale::ticks(int count) const
{
    std::vector<double> out;
    count = std::max(count, 2);
    if (logarithmic) {
        // Powers of ten inside the scale, thinned to `count`, plus both ends.
        const int lo = static_cast<int>(std::ceil(std::log10(std::max(minimum, 1e-300)) - 1e-9));
        const int hi = static_cast<int>(std::floor(std::log10(std::max(maximum, 1e-300)) + 1e-9));
        const int stride = std::max(1, (hi - lo + 1 + count - 1) / count);
        if (hi < lo || std::pow(10.0, lo) > minimum * 1.0001)
            out.push_back(minimum);
        for (int e = lo; e <= hi; e += stride)
            out.push_back(std::pow(10.0, e));
        if (out.back() < maximum * 0.9999)
            out.push_back(maximum);
        return out;
    }
    const double step = niceStep((maximum - minimum) / (count - 1));
    for (double v = std::ceil(minimum / step) * step; v <= maximum + step * 1e-9; v += step)
        out.push_back(v);
    if (out.empty() || out.back() < maximum - step * 0.25)
        out.push_back(maximum);
    return out;
}

HeatScale heatScaleFor(const std::vector<double>& values, bool zeroIsEmpty, bool allowLog,
    std::optional<double> fixedMaximum)
{
    HeatScale scale;
    scale.zeroIsEmpty = zeroIsEmpty;
    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0.0;
    for (const double v : values) {
        if (!std::isfinite(v) || v < 0 || (zeroIsEmpty && v == 0.0))
            continue;
        if (v > 0)
            smallest = std::min(smallest, v);
        largest = std::max(largest, v);
    }
    scale.minimum = 0.0;
    scale.maximum = fixedMaximum.value_or(largest > 0 ? largest : 1.0);
    if (allowLog && !fixedMaximum && std::isfinite(smallest) && largest > 100.0 * smallest) {
        scale.logarithmic = true;
        scale.minimum = smallest;
        scale.maximum = largest;
    }
    return scale;
}

QString heatValueText(double value, BarUnit unit)
{
    if (std::isnan(value))
        return QObject::tr("no data");
    if (unit == BarUnit::Bytes && value >= 1000.0)
        return QLocale().toString(static_cast<qlonglong>(std::llround(value)))
            + QStringLiteral(" B (") + formatBarValue(value, unit) + QLatin1Char(')');
    return formatBarValue(value, unit);
}

namespace {

// Band [first, last) of item k when `count` items split `length` pixels starting at `origin`:
// the pixels p with floor(p·count/length) == k (itemAt), at least one.
std::pair<int, int> band(int origin, int length, std::size_t count, std::size_t k)
{
    const auto n = static_cast<std::int64_t>(std::max<std::size_t>(count, 1));
    const auto edge = [&](std::size_t i) {
        return origin + static_cast<int>((static_cast<std::int64_t>(i) * length + n - 1) / n);
    };
    return { edge(k), std::max(edge(k + 1), edge(k) + 1) };
}

std::optional<std::size_t> itemAt(int origin, int length, std::size_t count, int pos)
{
    if (count == 0 || length <= 0 || pos < origin || pos >= origin + length)
        return std::nullopt;
    const auto k = static_cast<std::size_t>(
        static_cast<std::int64_t>(pos - origin) * static_cast<std::int64_t>(count) / length);
    return std::min(k, count - 1);
}

// Labels of items along an axis of `length` pixels, each needing `extent(k)` pixels: every item
// when they fit, else thinned so that no two overlap, the emphasized ones placed first.
std::vector<HeatMapLabel> placeLabels(const HeatMapAxis& axis, std::size_t count, int origin,
    int length, const std::function<int(std::size_t)>& extent)
{
    std::vector<HeatMapLabel> out;
    if (axis.labels.size() < count || count == 0)
        return out;
    std::vector<std::pair<int, int>> taken; // [from, to) of placed labels
    auto tryPlace = [&](std::size_t k, bool emphasized) {
        const auto [a, b] = band(origin, length, count, k);
        const int centre = (a + b) / 2;
        const int half = (extent(k) + 1) / 2 + 2;
        const std::pair<int, int> span { centre - half, centre + half };
        for (const auto& t : taken)
            if (span.first < t.second && t.first < span.second)
                return;
        taken.push_back(span);
        out.push_back({ k, centre, axis.labels[k], emphasized });
    };
    for (const auto k : axis.emphasized)
        if (k < count)
            tryPlace(k, true);
    for (std::size_t k = 0; k < count; ++k)
        if (std::find(axis.emphasized.begin(), axis.emphasized.end(), k) == axis.emphasized.end())
            tryPlace(k, false);
    std::sort(out.begin(), out.end(),
        [](const HeatMapLabel& x, const HeatMapLabel& y) { return x.item < y.item; });
    return out;
}

} // namespace

std::optional<HeatMapCell> HeatMapGeometry::cellAt(QPoint p) const
{
    const auto r = rowAt(p.y());
    const auto c = columnAt(p.x());
    if (!r || !c || !plot.contains(p))
        return std::nullopt;
    return HeatMapCell { *r, *c };
}

std::optional<std::size_t> HeatMapGeometry::rowAt(int y) const
{
    return itemAt(plot.top(), plot.height(), rows, y);
}

std::optional<std::size_t> HeatMapGeometry::columnAt(int x) const
{
    return itemAt(plot.left(), plot.width(), columns, x);
}

QRect HeatMapGeometry::cellRect(HeatMapCell cell) const
{
    const auto [top, bottom] = band(plot.top(), plot.height(), rows, cell.row);
    const auto [left, right] = band(plot.left(), plot.width(), columns, cell.column);
    return QRect(left, top, right - left, bottom - top);
}

QRect HeatMapGeometry::rowBand(std::size_t row) const
{
    const auto [top, bottom] = band(plot.top(), plot.height(), rows, row);
    return QRect(plot.left(), top, plot.width(), bottom - top);
}

QRect HeatMapGeometry::columnBand(std::size_t column) const
{
    const auto [left, right] = band(plot.left(), plot.width(), columns, column);
    return QRect(left, plot.top(), right - left, plot.height());
}

HeatMapGeometry buildHeatMapGeometry(const HeatMapData& data, QSize size, const HeatMapLayout& l)
{
    HeatMapGeometry g;
    g.rows = data.rows;
    g.columns = data.columns;
    const auto textWidth = l.textWidth ? l.textWidth : [](const QString& s) {
        return 7 * static_cast<int>(s.size());
    };
    const int width = std::max(size.width(), 1);
    const int height = std::max(size.height(), 1);
    g.title = QRect(l.margin, l.margin, width - 2 * l.margin, l.titleHeight);
    const int top = g.title.bottom() + 1 + (l.titleHeight > 0 ? l.margin / 2 : 0);

    // Row labels: as wide as the widest label (at most a third of the width), plus a title line.
    int labelWidth = 0;
    for (std::size_t k = 0; k < std::min(data.rows, data.rowAxis.labels.size()); ++k)
        labelWidth = std::max(labelWidth, textWidth(data.rowAxis.labels[k]));
    // The column bars' scale and title sit left of them, in the labels' column.
    if (!data.columnTotals.empty()) {
        const double largest
            = *std::max_element(data.columnTotals.begin(), data.columnTotals.end());
        labelWidth = std::max({ labelWidth, textWidth(formatBarValue(largest, data.unit)),
            textWidth(data.columnTotalsTitle) });
    }
    labelWidth = std::min(labelWidth + 8, width / 3);
    const int rowTitle = data.rowAxis.title.isEmpty() ? 0 : l.axisTitle;
    const bool rowBars = !data.rowTotals.empty();
    const bool columnBars = !data.columnTotals.empty();
    const int legendWidth = std::max(l.legendWidth, textWidth(data.legendTitle) + 8);
    int barSize = l.barSize;
    if (rowBars) {
        const double largest = *std::max_element(data.rowTotals.begin(), data.rowTotals.end());
        barSize = std::max(barSize, textWidth(formatBarValue(largest, data.unit)) + 10);
    }

    const int left = l.margin + rowTitle + labelWidth;
    const int right = width - l.margin - legendWidth - (rowBars ? barSize + l.margin : 0);
    const int plotTop = top + (columnBars ? l.barSize + l.margin / 2 : 0);
    const int bottom = height - l.margin - (data.columnAxis.title.isEmpty() ? 0 : l.axisTitle)
        - l.lineHeight - 6 - l.footnoteHeight;
    g.plot = QRect(left, plotTop, std::max(right - left, 1), std::max(bottom - plotTop, 1));
    g.rowLabels = QRect(l.margin, g.plot.top(), rowTitle + labelWidth - 4, g.plot.height());
    g.columnLabels = QRect(g.plot.left(), g.plot.bottom() + 1, g.plot.width(),
        height - l.margin - l.footnoteHeight - g.plot.bottom() - 1);
    if (l.footnoteHeight > 0)
        g.footnote = QRect(
            l.margin, height - l.margin - l.footnoteHeight, width - 2 * l.margin, l.footnoteHeight);
    if (rowBars)
        g.rowBars
            = QRect(g.plot.right() + 1 + l.margin / 2, g.plot.top(), barSize, g.plot.height());
    if (columnBars)
        g.columnBars = QRect(g.plot.left(), top, g.plot.width(), l.barSize);
    g.legend = QRect(width - l.margin - legendWidth + 8, g.plot.top(), legendWidth - 8,
        std::min(g.plot.height(), std::max(160, g.plot.height() / 2)));

    g.rowLabelItems = placeLabels(data.rowAxis, data.rows, g.plot.top(), g.plot.height(),
        [&](std::size_t) { return l.lineHeight; });
    if (data.columnAxis.span) {
        TimeMapping map;
        map.window = *data.columnAxis.span;
        map.left = g.plot.left();
        map.width = g.plot.width();
        g.timeAxis = buildTimeAxis(map, 90.0);
    } else {
        g.columnLabelItems = placeLabels(data.columnAxis, data.columns, g.plot.left(),
            g.plot.width(), [&](std::size_t k) { return textWidth(data.columnAxis.labels[k]); });
    }
    return g;
}

QImage heatMapImage(const HeatMapData& data, QSize plotSize)
{
    const int width = std::max(plotSize.width(), 1);
    const int height = std::max(plotSize.height(), 1);
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(noDataCellColor());
    if (data.rows == 0 || data.columns == 0 || data.values.size() < data.rows * data.columns)
        return image;
    // Per pixel column: the columns it covers; per pixel row likewise.
    auto cover = [](int pixel, int pixels, std::size_t items) {
        const auto n = static_cast<std::int64_t>(items);
        const auto first = static_cast<std::size_t>(pixel * n / pixels);
        const auto last = static_cast<std::size_t>(
            std::max<std::int64_t>((static_cast<std::int64_t>(pixel) + 1) * n / pixels,
                static_cast<std::int64_t>(first) + 1));
        return std::pair<std::size_t, std::size_t> { first, std::min(last, items) };
    };
    std::vector<std::pair<std::size_t, std::size_t>> columnCover(static_cast<std::size_t>(width));
    for (int x = 0; x < width; ++x)
        columnCover[static_cast<std::size_t>(x)] = cover(x, width, data.columns);
    if (data.rows <= static_cast<std::size_t>(height)
        && data.columns <= static_cast<std::size_t>(width)) {
        // Every pixel shows one cell: each cell's colour once, then copied to its pixels.
        std::vector<QRgb> colours(data.rows * data.columns);
        for (std::size_t i = 0; i < colours.size(); ++i)
            colours[i] = data.scale.color(data.values[i]).rgb();
        for (int y = 0; y < height; ++y) {
            const auto row = cover(y, height, data.rows).first;
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
            for (int x = 0; x < width; ++x)
                line[x]
                    = colours[row * data.columns + columnCover[static_cast<std::size_t>(x)].first];
        }
        return image;
    }
    for (int y = 0; y < height; ++y) {
        const auto [r0, r1] = cover(y, height, data.rows);
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const auto [c0, c1] = columnCover[static_cast<std::size_t>(x)];
            double best = std::numeric_limits<double>::quiet_NaN();
            for (auto r = r0; r < r1; ++r)
                for (auto c = c0; c < c1; ++c) {
                    const double v = data.values[r * data.columns + c];
                    if (!std::isnan(v) && (std::isnan(best) || v > best))
                        best = v;
                }
            line[x] = data.scale.color(best).rgb();
        }
    }
    return image;
}

} // namespace parallax::views
