#include "views/common/chart_legend.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax::views {

namespace {

QString shareText(double share)
{
    if (share <= 0.0)
        return {};
    const double percent = share * 100.0;
    if (percent < 0.1)
        return QStringLiteral("<0.1 %");
    return QLocale().toString(percent, 'f', percent < 10.0 ? 1 : 0) + QStringLiteral(" %");
}

QString legendTr(const char* text)
{
    return QCoreApplication::translate("parallax::views::ChartLegend", text);
}

} // namespace

std::optional<std::size_t> LegendLayout::rowAt(QPointF point) const
{
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].row.contains(point))
            return i;
    return std::nullopt;
}

std::vector<LegendItem> legendItems(const StackedBarData& data)
{
    std::vector<LegendItem> entries;
    std::vector<LegendItem> specials;
    if (!data.valid())
        return {};
    std::vector<double> totals;
    if (data.legendReference && *data.legendReference < data.categories.size()) {
        const auto c = *data.legendReference;
        for (std::size_t s = 0; s < data.series.size(); ++s)
            totals.push_back(data.value(c, s));
    } else {
        totals = data.seriesTotals();
    }
    const double grand = std::accumulate(totals.begin(), totals.end(), 0.0);
    // A series drawn only outside the reference bar (untraced time of comm threads kept out of
    // the average) is still named, with no share of the reference.
    const auto drawn = data.seriesTotals();
    for (std::size_t s = 0; s < data.series.size(); ++s) {
        if (!(totals[s] > 0.0) && !(s < drawn.size() && drawn[s] > 0.0))
            continue;
        const auto& series = data.series[s];
        LegendItem item;
        item.series = s;
        item.label = series.name;
        item.toolTip = series.fullName.isEmpty() ? series.name : series.fullName;
        item.share = grand > 0 && data.legendShares ? totals[s] / grand : 0.0;
        item.entry = series.entry;
        (series.entry >= 0 ? entries : specials).push_back(item);
    }
    std::stable_sort(entries.begin(), entries.end(),
        [](const LegendItem& a, const LegendItem& b) { return a.share > b.share; });
    entries.insert(entries.end(), specials.begin(), specials.end());
    return entries;
}

double legendPreferredWidth(const std::vector<LegendItem>& items, const QFontMetricsF& metrics)
{
    const double swatch = std::round(metrics.height() * 0.9);
    const double gap = std::round(metrics.height() * 0.45);
    double widest = metrics.horizontalAdvance(legendTr("00 other entry methods"));
    for (const auto& item : items)
        widest = std::max(widest, metrics.horizontalAdvance(item.label));
    return swatch + gap + widest + gap + metrics.horizontalAdvance(QStringLiteral("00.0 %")) + gap;
}

LegendLayout layoutLegend(std::vector<LegendItem> items, QRectF area, const QFontMetricsF& metrics,
    const QString& heading)
{
    LegendLayout legend;
    legend.area = area;
    legend.heading = heading;
    legend.headingHeight = heading.isEmpty() ? 0.0 : std::round(metrics.height() * 1.5);
    const double rowHeight = std::round(metrics.height() * 1.35);
    const double swatch = std::round(metrics.height() * 0.9);
    const double available = area.height() - legend.headingHeight;
    const auto fit = static_cast<std::size_t>(std::max(0.0, std::floor(available / rowHeight)));
    if (fit == 0 || items.empty())
        return legend;

    std::size_t specials = 0;
    for (const auto& item : items)
        specials += item.entry < 0 ? 1U : 0U;
    const std::size_t entries = items.size() - specials;
    std::vector<LegendItem> shown;
    if (items.size() <= fit) {
        shown = std::move(items);
    } else {
        // Keep the specials; the entries that do not fit go into one "others" row.
        const std::size_t room = fit > specials + 1 ? fit - specials - 1 : 0;
        const std::size_t keep = std::min(room, entries);
        LegendItem others;
        others.others = true;
        double share = 0.0;
        QStringList names;
        for (std::size_t i = 0; i < entries; ++i) {
            if (i < keep) {
                shown.push_back(items[i]);
                continue;
            }
            others.hidden.push_back(items[i].series);
            share += items[i].share;
            if (names.size() < 25)
                names
                    << QStringLiteral("%1  (%2)").arg(items[i].toolTip, shareText(items[i].share));
        }
        others.share = share;
        const auto hiddenCount = static_cast<qlonglong>(others.hidden.size());
        others.label = hiddenCount == 1 ? legendTr("1 other entry method")
                                        : legendTr("%1 other entry methods").arg(hiddenCount);
        if (others.hidden.size() > static_cast<std::size_t>(names.size()))
            names << legendTr("… and %1 more").arg(hiddenCount - names.size());
        others.toolTip = names.join(QLatin1Char('\n'));
        if (!others.hidden.empty())
            shown.push_back(std::move(others));
        for (std::size_t i = entries; i < items.size() && shown.size() < fit; ++i)
            shown.push_back(items[i]);
    }
    double y = area.top() + legend.headingHeight;
    for (auto& item : shown) {
        LegendRow row;
        row.row = QRectF(area.left(), y, area.width(), rowHeight);
        row.swatch = QRectF(area.left() + 2.0, y + (rowHeight - swatch) / 2.0, swatch, swatch);
        row.item = std::move(item);
        legend.rows.push_back(std::move(row));
        y += rowHeight;
    }
    return legend;
}

void paintLegend(QPainter& painter, const LegendLayout& legend, const QFontMetricsF& metrics,
    const std::function<QColor(std::size_t series)>& colorOf,
    const std::function<QColor(std::size_t series)>& hatchOf, QColor text, QColor muted,
    std::optional<std::size_t> highlighted)
{
    if (legend.rows.empty())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const double gap = std::round(metrics.height() * 0.45);
    if (!legend.heading.isEmpty()) {
        painter.save();
        QFont bold = painter.font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(muted);
        painter.drawText(QRectF(legend.area.left() + 2.0, legend.area.top(), legend.area.width(),
                             legend.headingHeight),
            Qt::AlignLeft | Qt::AlignVCenter, legend.heading);
        painter.restore();
    }
    const double shareWidth = metrics.horizontalAdvance(QStringLiteral("00.0 %"));
    for (std::size_t i = 0; i < legend.rows.size(); ++i) {
        const auto& row = legend.rows[i];
        if (highlighted && *highlighted == i) {
            QColor band = text;
            band.setAlpha(22);
            painter.setPen(Qt::NoPen);
            painter.setBrush(band);
            painter.drawRoundedRect(row.row.adjusted(-2, 0, 0, 0), 3, 3);
        }
        if (row.item.others) {
            // A small stack of the first hidden colours stands for "the rest".
            const auto& hidden = row.item.hidden;
            const std::size_t stripes = std::min<std::size_t>(hidden.size(), 4);
            const double h
                = row.swatch.height() / static_cast<double>(std::max<std::size_t>(stripes, 1));
            painter.setPen(Qt::NoPen);
            for (std::size_t k = 0; k < stripes; ++k) {
                painter.setBrush(colorOf(hidden[k]));
                painter.drawRect(QRectF(row.swatch.left(),
                    row.swatch.top() + h * static_cast<double>(k), row.swatch.width(), h));
            }
        } else {
            painter.setPen(Qt::NoPen);
            painter.setBrush(colorOf(row.item.series));
            painter.drawRoundedRect(row.swatch, 2, 2);
            if (hatchOf) {
                const QColor hatch = hatchOf(row.item.series);
                if (hatch.isValid()) {
                    painter.setBrush(QBrush(hatch, Qt::BDiagPattern));
                    painter.drawRoundedRect(row.swatch, 2, 2);
                }
            }
        }
        QColor border = text;
        border.setAlpha(90);
        painter.setPen(QPen(border, 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(row.swatch.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);

        const double textLeft = row.swatch.right() + gap;
        const double nameWidth = std::max(0.0, row.row.right() - textLeft - shareWidth - gap);
        painter.setPen(row.item.others ? muted : text);
        painter.drawText(QRectF(textLeft, row.row.top(), nameWidth, row.row.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(row.item.label, Qt::ElideRight, nameWidth));
        painter.setPen(muted);
        painter.drawText(
            QRectF(row.row.right() - shareWidth, row.row.top(), shareWidth, row.row.height()),
            Qt::AlignRight | Qt::AlignVCenter, shareText(row.item.share));
    }
    painter.restore();
}

} // namespace parallax::views
