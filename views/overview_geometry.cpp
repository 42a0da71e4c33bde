#include "overview_geometry.h"

#include <algorithm>

namespace parallax::views {

OverviewGeometry buildOverviewGeometry(
    std::size_t rows, std::int64_t columns, QSize size, const OverviewLayout& layout)
{
    OverviewGeometry g;
    g.rows = rows;
    g.columns = columns;
    const int top = layout.margin + layout.titleHeight;
    const int left = layout.margin + layout.labelWidth;
    const int width = std::max(size.width() - left - layout.margin, 1);
    const int height = std::max(
        size.height() - top - layout.axisHeight - layout.legendHeight - layout.margin, 1);
    g.plot = QRect(left, top, width, height);
    return g;
}

std::optional<std::pair<std::size_t, std::int64_t>> OverviewGeometry::cellAt(QPoint p) const
{
    if (!plot.contains(p) || rows == 0 || columns <= 0)
        return std::nullopt;
    const auto row = static_cast<std::size_t>(static_cast<double>(p.y() - plot.top())
        * static_cast<double>(rows) / static_cast<double>(plot.height()));
    const auto column = static_cast<std::int64_t>(static_cast<double>(p.x() - plot.left())
        * static_cast<double>(columns) / static_cast<double>(plot.width()));
    return std::make_pair(std::min(row, rows - 1), std::min(column, columns - 1));
}

QRect OverviewGeometry::rowRect(std::size_t row) const
{
    if (rows == 0)
        return {};
    const double h = static_cast<double>(plot.height()) / static_cast<double>(rows);
    const int y0 = plot.top() + static_cast<int>(static_cast<double>(row) * h);
    const int y1 = plot.top() + static_cast<int>(static_cast<double>(row + 1) * h);
    return QRect(plot.left(), y0, plot.width(), std::max(y1 - y0, 1));
}

double OverviewGeometry::columnAt(int x) const
{
    const int clamped = std::clamp(x, plot.left(), plot.right() + 1);
    return static_cast<double>(clamped - plot.left()) * static_cast<double>(columns)
        / static_cast<double>(plot.width());
}

QColor utilizationColor(double percent)
{
    const double p = std::clamp(percent, 0.0, 100.0);
    if (p <= 70.0) {
        const double f = p / 70.0;
        return QColor::fromRgbF(
            static_cast<float>(f), 0.0F, static_cast<float>(55.0 / 255.0 * (1.0 - f)));
    }
    const double f = (p - 70.0) / 30.0;
    return QColor::fromRgbF(1.0F, static_cast<float>(f), static_cast<float>(f));
}

QImage overviewImage(const core::analysis::Overview& o, OverviewColoring coloring,
    const std::function<QColor(int column)>& activityColor)
{
    const auto rows = static_cast<int>(o.pes.size());
    const auto columns = static_cast<int>(o.grid.count);
    QImage image(std::max(columns, 1), std::max(rows, 1), QImage::Format_RGB32);
    image.fill(Qt::white);
    for (int r = 0; r < rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < columns; ++c) {
            const auto index = o.index(static_cast<std::size_t>(r), c);
            QColor color;
            if (coloring == OverviewColoring::Utilization)
                color = utilizationColor(static_cast<double>(o.utilization[index]));
            else if (o.utilization[index] == 0.0F && o.idle[index] == 0.0F)
                color = QColor(0xf7, 0xf7, 0xf7); // nothing traced: background
            else
                color = activityColor(o.dominant[index]);
            line[c] = color.rgb();
        }
    }
    return image;
}

} // namespace parallax::views
