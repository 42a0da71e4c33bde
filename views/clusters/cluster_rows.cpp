#include "views/clusters/cluster_rows.h"

#include "views/common/stacked_bar_geometry.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QLocale>
#include <QPainter>

#include <algorithm>

namespace parallax::views {

namespace {

QString rowsTr(const char* text)
{
    return QCoreApplication::translate("parallax::views::ClustersView", text);
}

// Draws `cells` as rows of columns at the given x offsets; returns the rows drawn.
int paintTable(QPainter& painter, QRect area, const std::vector<int>& columnX,
    const QStringList& header, const std::vector<QStringList>& cells, int boldRow)
{
    const QFontMetrics metrics(painter.font());
    const int line = metrics.height() + 4;
    const int capacity = std::max(area.height() / line - 1, 0);
    auto drawRow = [&](int y, const QStringList& row) {
        for (int c = 0; c < row.size() && c < static_cast<int>(columnX.size()); ++c) {
            const int x = area.left() + columnX[static_cast<std::size_t>(c)];
            const int right = c + 1 < static_cast<int>(columnX.size())
                ? area.left() + columnX[static_cast<std::size_t>(c) + 1] - 8
                : area.right();
            painter.drawText(QRect(x, y, std::max(right - x, 1), line),
                Qt::AlignLeft | Qt::AlignVCenter,
                metrics.elidedText(row[c], Qt::ElideRight, std::max(right - x, 1)));
        }
    };
    QFont bold = painter.font();
    bold.setBold(true);
    const QFont normal = painter.font();
    painter.setFont(bold);
    drawRow(area.top(), header);
    painter.setFont(normal);
    painter.drawLine(area.left(), area.top() + line, area.right(), area.top() + line);
    const int total = static_cast<int>(cells.size());
    const int rows = total > capacity ? std::max(capacity - 1, 0) : total;
    for (int r = 0; r < rows; ++r) {
        painter.setFont(r == boldRow ? bold : normal);
        drawRow(area.top() + (r + 1) * line + 2, cells[static_cast<std::size_t>(r)]);
    }
    painter.setFont(normal);
    if (rows < total)
        painter.drawText(QRect(area.left(), area.top() + (rows + 1) * line + 2, area.width(), line),
            Qt::AlignLeft | Qt::AlignVCenter, rowsTr("… %1 more").arg(total - rows));
    return rows;
}

} // namespace

std::vector<ClusterRow> clusterRows(const core::analysis::PeClustering& c)
{
    std::vector<ClusterRow> rows;
    std::vector<int> rowOf(static_cast<std::size_t>(std::max(c.k, 0)), -1);
    for (int j = 0; j < c.k; ++j) {
        const int size = c.sizes[static_cast<std::size_t>(j)];
        if (size == 0)
            continue;
        rowOf[static_cast<std::size_t>(j)] = static_cast<int>(rows.size());
        ClusterRow row;
        row.cluster = j;
        row.size = size;
        rows.push_back(row);
    }
    for (std::size_t i = 0; i < c.cluster.size(); ++i) {
        auto& row = rows[static_cast<std::size_t>(rowOf[static_cast<std::size_t>(c.cluster[i])])];
        row.meanDistance += c.distance[i];
        if (c.role[i] == core::analysis::ClusterRole::Exemplar) {
            row.exemplar = c.features.pes[i];
            row.exemplarDistance = c.distance[i];
        } else if (c.role[i] == core::analysis::ClusterRole::Outlier) {
            row.outliers.emplace_back(c.features.pes[i], c.distance[i]);
        }
    }
    for (auto& row : rows) {
        row.meanDistance /= row.size;
        std::stable_sort(row.outliers.begin(), row.outliers.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
    }
    return rows;
}

QString outliersText(const ClusterRow& row, std::size_t shown)
{
    if (row.outliers.empty())
        return rowsTr("none");
    QStringList pes;
    for (std::size_t k = 0; k < row.outliers.size() && k < shown; ++k)
        pes << QString::number(row.outliers[k].first);
    QString text = pes.join(QStringLiteral(", "));
    if (row.outliers.size() > shown)
        text += rowsTr(" … (%1 in all)").arg(row.outliers.size());
    return text;
}

void paintClusterTables(QPainter& painter, QRect area, const std::vector<ClusterRow>& rows,
    const core::analysis::PeClustering& clustering)
{
    const QFontMetrics metrics(painter.font());
    const int sweepWidth
        = std::min(area.width() / 3, metrics.horizontalAdvance(QLatin1Char('0')) * 40);
    const QRect left(area.left(), area.top(), area.width() - sweepWidth - 16, area.height());
    const QRect right(area.right() - sweepWidth, area.top(), sweepWidth, area.height());
    const int digit = metrics.horizontalAdvance(QLatin1Char('0'));
    std::vector<QStringList> cells;
    for (const auto& row : rows)
        cells.push_back({ rowsTr("C%1").arg(row.cluster), QLocale().toString(row.size),
            rowsTr("PE %1").arg(row.exemplar), formatTime(row.meanDistance),
            outliersText(row, 12) });
    paintTable(painter, left, { 0, digit * 7, digit * 16, digit * 27, digit * 42 },
        { rowsTr("Cluster"), rowsTr("PEs"), rowsTr("Exemplar"), rowsTr("Mean distance"),
            rowsTr("Outliers (farthest first)") },
        cells, -1);
    std::vector<QStringList> sweep;
    int chosen = -1;
    for (const auto& s : clustering.sweep) {
        if (s.chosen)
            chosen = static_cast<int>(sweep.size());
        sweep.push_back({ QString::number(s.k), QString::number(s.nonEmpty),
            QLocale().toString(s.wcss, 'g', 4), s.chosen ? rowsTr("✓ chosen") : QString() });
    }
    if (!sweep.empty())
        paintTable(painter, right, { 0, digit * 5, digit * 17, digit * 30 },
            { rowsTr("k"), rowsTr("Non-empty"), rowsTr("WCSS (µs²)"), QString() }, sweep, chosen);
}

} // namespace parallax::views
