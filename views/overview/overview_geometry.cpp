#include "views/overview/overview_geometry.h"

#include "views/common/heat_map_geometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace parallax::views {

namespace {

// floor(a * b / c) for non-negative integers without overflow for realistic sizes.
std::int64_t scaled(std::int64_t a, std::int64_t b, std::int64_t c)
{
    return c > 0 ? a * b / c : 0;
}

// ceil(a * b / c).
std::int64_t scaledUp(std::int64_t a, std::int64_t b, std::int64_t c)
{
    return c > 0 ? (a * b + c - 1) / c : 0;
}

} // namespace

namespace {

// Group rows: a boundary where one group's rows end; labels on the rows that have one, as many
// as fit without overlapping — every row's when they are tall enough, else each group's first
// row (and the PEs of an expanded group).
void placeGroupRows(OverviewGeometry& g, const std::vector<OverviewRowInfo>& rows, int lineHeight)
{
    for (std::size_t r = 1; r < g.rows; ++r)
        if (rows[r].group != rows[r - 1].group)
            g.nodeBoundaries.push_back(g.rowRect(r).top());
    const bool everyRow = g.plot.height() >= lineHeight * static_cast<int>(g.rows);
    int lastCentre = std::numeric_limits<int>::min() / 2;
    for (std::size_t r = 0; r < g.rows; ++r) {
        if (rows[r].label.isEmpty())
            continue;
        const bool groupStart = r == 0 || rows[r].group != rows[r - 1].group
            || (rows[r].member && !rows[r - 1].member);
        if (!everyRow && !groupStart && !rows[r].member)
            continue;
        const int centre = g.rowRect(r).center().y();
        if (centre - lastCentre < lineHeight)
            continue;
        g.labelledRows.push_back(r);
        lastCentre = centre;
    }
}

} // namespace

OverviewGeometry buildOverviewGeometry(const core::analysis::Overview& overview,
    const core::RunMetadata* metadata, QSize size, const OverviewLayout& layout,
    const std::vector<OverviewRowInfo>& rows)
{
    OverviewGeometry g;
    g.rows = overview.pes.size();
    g.columns = overview.grid.count;
    const int m = layout.margin;
    int top = m;
    if (layout.titleHeight > 0) {
        g.title = QRect(m, top, std::max(size.width() - 2 * m, 0), layout.titleHeight);
        top += layout.titleHeight + 4;
    }
    const int left = m + layout.labelWidth;
    const int width = std::max(size.width() - left - m - 8, 1);
    const int bottom = size.height() - m - layout.legendHeight - layout.axisHeight;
    g.plot = QRect(left, top, width, std::max(bottom - top, 1));
    if (layout.legendHeight > 0)
        g.legend = QRect(m, g.plot.bottom() + 1 + layout.axisHeight,
            std::max(size.width() - 2 * m, 0), layout.legendHeight);

    g.map.window = { overview.grid.origin, overview.grid.limit() };
    g.map.left = g.plot.left();
    g.map.width = g.plot.width();
    g.axis = buildTimeAxis(g.map, layout.minTickSpacing);

    if (!rows.empty() && rows.size() == g.rows) {
        placeGroupRows(g, rows, layout.lineHeight);
        return g;
    }
    // Row labels: every `step`-th row, step 1, 2, 5, 10, 20, … so that labels do not overlap.
    if (g.rows > 0) {
        const double rowHeight = static_cast<double>(g.plot.height()) / static_cast<double>(g.rows);
        std::size_t step = 1;
        std::size_t base = 1;
        while (rowHeight * static_cast<double>(step) < layout.lineHeight && step < g.rows) {
            // 1, 2, 5, 10, 20, 50, ...
            if (step == base)
                step = 2 * base;
            else if (step == 2 * base)
                step = 5 * base;
            else {
                base *= 10;
                step = base;
            }
        }
        for (std::size_t r = 0; r < g.rows; r += step)
            g.labelledRows.push_back(r);
    }
    if (metadata != nullptr && metadata->smp)
        for (std::size_t r = 1; r < g.rows; ++r)
            if (metadata->nodeOf(overview.pes[r]) != metadata->nodeOf(overview.pes[r - 1]))
                g.nodeBoundaries.push_back(g.rowRect(r).top());
    return g;
}

std::optional<OverviewCell> OverviewGeometry::cellAt(QPoint p) const
{
    if (!plot.contains(p) || rows == 0 || columns <= 0)
        return std::nullopt;
    const auto row = scaled(p.y() - plot.top(), static_cast<std::int64_t>(rows), plot.height());
    const auto column = scaled(p.x() - plot.left(), columns, plot.width());
    return OverviewCell { std::min(static_cast<std::size_t>(row), rows - 1),
        std::min(column, columns - 1) };
}

std::optional<std::size_t> OverviewGeometry::rowAt(int y) const
{
    if (y < plot.top() || y > plot.bottom() || rows == 0)
        return std::nullopt;
    return std::min(static_cast<std::size_t>(
                        scaled(y - plot.top(), static_cast<std::int64_t>(rows), plot.height())),
        rows - 1);
}

QRect OverviewGeometry::rowRect(std::size_t row) const
{
    if (rows == 0)
        return {};
    const auto n = static_cast<std::int64_t>(rows);
    const auto r = static_cast<std::int64_t>(row);
    const auto y0 = static_cast<int>(scaledUp(r, plot.height(), n));
    const auto y1 = static_cast<int>(scaledUp(r + 1, plot.height(), n));
    return QRect(plot.left(), plot.top() + y0, plot.width(), std::max(y1 - y0, 1));
}

QRect OverviewGeometry::cellRect(OverviewCell cell) const
{
    const QRect row = rowRect(cell.row);
    if (columns <= 0)
        return {};
    const auto x0 = static_cast<int>(scaledUp(cell.column, plot.width(), columns));
    const auto x1 = static_cast<int>(scaledUp(cell.column + 1, plot.width(), columns));
    return QRect(plot.left() + x0, row.top(), std::max(x1 - x0, 1), row.height());
}

double OverviewGeometry::columnAt(int x) const
{
    const int clamped = std::clamp(x, plot.left(), plot.right() + 1);
    return static_cast<double>(clamped - plot.left()) * static_cast<double>(columns)
        / static_cast<double>(plot.width());
}

bool overviewCellHasData(const core::analysis::Overview& o, std::size_t row, std::int64_t column,
    const std::vector<core::TimeRange>& traced)
{
    const auto index = o.index(row, column);
    if (o.utilization[index] > 0.0F || o.idle[index] > 0.0F)
        return true;
    if (row < traced.size())
        return traced[row].overlaps(o.grid.begin(column), o.grid.end(column));
    return false;
}

std::vector<std::int64_t> dominantCellCounts(
    const core::analysis::Overview& o, const std::vector<core::TimeRange>& traced)
{
    std::vector<std::int64_t> counts(static_cast<std::size_t>(o.columns.count()), 0);
    for (std::size_t r = 0; r < o.pes.size(); ++r)
        for (std::int64_t c = 0; c < o.grid.count; ++c) {
            const auto d = o.dominant[o.index(r, c)];
            if (d >= 0 && d < o.columns.count() && overviewCellHasData(o, r, c, traced))
                ++counts[static_cast<std::size_t>(d)];
        }
    return counts;
}

QColor noDataColor()
{
    return QColor(0xfb, 0xfb, 0xfb);
}

QColor utilizationColor(double percent)
{
    return viridisColor((std::isfinite(percent) ? percent : 0.0) / 100.0);
}

QImage overviewImage(const core::analysis::Overview& o, OverviewColoring coloring, QSize plotSize,
    const std::function<QColor(int column)>& activityColor,
    const std::vector<core::TimeRange>& traced, const std::vector<bool>& utilizationRows)
{
    const int width = std::max(plotSize.width(), 1);
    const int height = std::max(plotSize.height(), 1);
    // Opaque pixels in the format windows and exported images are painted in: drawing it is a
    // plain copy (an RGB32 image is converted first, by a thread pool when it is large, which
    // cost tens of milliseconds per frame at full-HD sizes).
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    const QRgb empty = noDataColor().rgb();
    image.fill(empty);
    const auto rows = static_cast<std::int64_t>(o.pes.size());
    const auto columns = o.grid.count;
    if (rows == 0 || columns <= 0)
        return image;

    std::vector<QRgb> activity(static_cast<std::size_t>(o.columns.count()));
    for (int c = 0; c < o.columns.count(); ++c)
        activity[static_cast<std::size_t>(c)] = activityColor(c).rgb();
    std::array<QRgb, 1001> ramp {};
    const bool anyRampRows
        = std::find(utilizationRows.begin(), utilizationRows.end(), true) != utilizationRows.end();
    if (coloring == OverviewColoring::Utilization || anyRampRows)
        for (std::size_t k = 0; k < ramp.size(); ++k)
            ramp[k] = utilizationColor(static_cast<double>(k) / 10.0).rgb();

    // The cells of each pixel column / row: [first, last).
    auto spans = [](int pixels, std::int64_t cells) {
        std::vector<std::pair<std::int64_t, std::int64_t>> out(static_cast<std::size_t>(pixels));
        for (int p = 0; p < pixels; ++p) {
            const auto first = scaled(p, cells, pixels);
            const auto last = std::max(first + 1, scaled(p + 1, cells, pixels));
            out[static_cast<std::size_t>(p)] = { first, std::min(last, cells) };
        }
        return out;
    };
    const auto xs = spans(width, columns);
    const auto ys = spans(height, rows);
    std::vector<std::pair<std::int32_t, std::int32_t>> votes;
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const auto [r0, r1] = ys[static_cast<std::size_t>(y)];
        // A pixel line over the same rows as the one above (rows taller than a pixel) is a copy.
        if (y > 0 && ys[static_cast<std::size_t>(y - 1)] == ys[static_cast<std::size_t>(y)]) {
            std::memcpy(
                line, image.constScanLine(y - 1), static_cast<std::size_t>(width) * sizeof(QRgb));
            continue;
        }
        const auto r0Index = static_cast<std::size_t>(r0);
        const OverviewColoring lineColoring
            = r0Index < utilizationRows.size() && utilizationRows[r0Index]
            ? OverviewColoring::Utilization
            : coloring;
        for (int x = 0; x < width; ++x) {
            const auto [c0, c1] = xs[static_cast<std::size_t>(x)];
            double sum = 0.0;
            std::int64_t n = 0;
            votes.clear();
            for (auto r = r0; r < r1; ++r)
                for (auto c = c0; c < c1; ++c) {
                    if (!overviewCellHasData(o, static_cast<std::size_t>(r), c, traced))
                        continue;
                    const auto index = o.index(static_cast<std::size_t>(r), c);
                    ++n;
                    if (lineColoring == OverviewColoring::Utilization) {
                        sum += static_cast<double>(o.utilization[index]);
                        continue;
                    }
                    const auto d = o.dominant[index];
                    auto it = std::find_if(
                        votes.begin(), votes.end(), [d](const auto& v) { return v.first == d; });
                    if (it == votes.end())
                        votes.emplace_back(d, 1);
                    else
                        ++it->second;
                }
            if (n == 0)
                continue;
            if (lineColoring == OverviewColoring::Utilization) {
                const double mean = std::clamp(sum / static_cast<double>(n), 0.0, 100.0);
                line[x] = ramp[static_cast<std::size_t>(std::lround(mean * 10.0))];
            } else {
                const auto best = std::max_element(votes.begin(), votes.end(),
                    [](const auto& a, const auto& b) { return a.second < b.second; });
                const auto d = best->first;
                line[x] = d >= 0 && d < o.columns.count() ? activity[static_cast<std::size_t>(d)]
                                                          : empty;
            }
        }
    }
    return image;
}

} // namespace parallax::views
