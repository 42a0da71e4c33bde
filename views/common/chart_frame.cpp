#include "views/common/chart_frame.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("parallax::views::ChartFrame", text);
}
} // namespace

AxesFrame layoutAxesFrame(QSize size, const QFontMetricsF& metrics,
    const std::vector<LegendItem>& legendItems, double maxLegendLines, double maxLegendShare)
{
    constexpr int kMinChartWidthForLegend = 460;
    AxesFrame f;
    const double line = std::ceil(metrics.height());
    const double titleHeight = std::round(line * 2.0);
    f.titleBox = QRectF(8.0, 0.0, std::max(0, size.width() - 16), titleHeight);
    f.layout.lineHeight = line;
    f.layout.textWidth = [metrics](const QString& s) {
        return metrics.horizontalAdvance(s);
    };
    f.layout.minYTickSpacing = line * 3.0;
    f.layout.labelGap = std::round(line * 0.8);
    if (!legendItems.empty() && size.width() >= kMinChartWidthForLegend) {
        const double upper
            = std::max(line * 8.0, std::min(line * maxLegendLines, size.width() * maxLegendShare));
        f.legendWidth = std::clamp(legendPreferredWidth(legendItems, metrics), line * 8.0, upper);
    }
    f.layout.margins
        = QMarginsF(8.0, titleHeight + 2.0, f.legendWidth > 0 ? f.legendWidth + 24.0 : 8.0, 6.0);
    return f;
}

LegendLayout layoutLegendBeside(std::vector<LegendItem> items, QSize size, double legendWidth,
    double plotTop, const QFontMetricsF& metrics, const QString& heading)
{
    if (legendWidth <= 0)
        return {};
    const QRectF area(size.width() - legendWidth - 10.0, plotTop, legendWidth,
        std::max(0.0, size.height() - plotTop - 8.0));
    return layoutLegend(std::move(items), area, metrics, heading);
}

void paintChartTitle(QPainter& painter, QRectF box, const QString& title, const QString& subtitle,
    const QString& hint, const ChartStyle& style)
{
    const QFontMetricsF fm(painter.font());
    painter.save();
    QFont titleFont = painter.font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    painter.setFont(titleFont);
    const QFontMetricsF tfm(titleFont);
    painter.setPen(style.text);
    const double titleWidth = std::min(tfm.horizontalAdvance(title) + 1.0, box.width());
    painter.drawText(QRectF(box.left(), box.top(), titleWidth, box.height()),
        Qt::AlignLeft | Qt::AlignVCenter, tfm.elidedText(title, Qt::ElideRight, titleWidth));
    painter.restore();
    double hintWidth = 0.0;
    if (!hint.isEmpty()) {
        hintWidth = std::min(fm.horizontalAdvance(hint) + 1.0, box.width() * 0.4);
        painter.setPen(style.muted);
        painter.drawText(QRectF(box.right() - hintWidth, box.top(), hintWidth, box.height()),
            Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(hint, Qt::ElideRight, hintWidth));
    }
    const double subLeft = box.left() + titleWidth + fm.height() * 0.8;
    const double subWidth = box.right() - hintWidth - fm.height() - subLeft;
    if (!subtitle.isEmpty() && subWidth > fm.height() * 3) {
        painter.setPen(style.muted);
        painter.drawText(QRectF(subLeft, box.top(), subWidth, box.height()),
            Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(subtitle, Qt::ElideRight, subWidth));
    }
}

void paintChartMessage(QPainter& painter, QRectF area, const QString& text, const ChartStyle& style)
{
    QFont big = painter.font();
    big.setPointSizeF(big.pointSizeF() * 1.1);
    painter.save();
    painter.setFont(big);
    painter.setPen(style.muted);
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, text);
    painter.restore();
}

void paintYGrid(
    QPainter& painter, QRect plot, const std::vector<BarTick>& yTicks, const ChartStyle& style)
{
    const int baseline = plot.top() + plot.height();
    painter.setPen(QPen(style.grid, 1.0));
    for (const auto& tick : yTicks) {
        const int y = static_cast<int>(std::lround(tick.position));
        if (y >= baseline)
            continue;
        painter.drawLine(plot.left(), y, plot.left() + plot.width() - 1, y);
    }
}

void paintChartAxes(QPainter& painter, const ChartAxes& a, const ChartStyle& style, int width)
{
    const QFontMetricsF fm(painter.font());
    const int baseline = a.plot.top() + a.plot.height();
    const double tick = 4.0;
    const QColor axis = faded(style.text, style.background, 0.45);
    painter.setPen(QPen(axis, 1.0));
    painter.drawLine(a.plot.left(), baseline, a.plot.left() + a.plot.width() - 1, baseline);

    painter.setPen(style.muted);
    for (const auto& t : a.yTicks) {
        const QRectF label(0.0, t.position - fm.height() / 2.0, a.yLabelRight, fm.height());
        painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    const int axisBottom = a.plot.top() + a.plot.height();
    for (const auto& t : a.xTicks) {
        const auto x = static_cast<int>(std::lround(t.position));
        painter.setPen(QPen(axis, 1.0));
        painter.drawLine(x, axisBottom, x, axisBottom + static_cast<int>(tick));
        const double w = fm.horizontalAdvance(t.label);
        const double left = std::clamp(t.position - w / 2.0, 8.0, std::max(8.0, width - w - 1.0));
        painter.setPen(style.muted);
        painter.drawText(QRectF(left, a.xLabelTop, w + 1.0, fm.height()), Qt::AlignCenter, t.label);
    }
    painter.setPen(style.text);
    if (!a.xTitle.isEmpty())
        painter.drawText(QRectF(a.plot.left(), a.xTitleBaseline - fm.height() / 2.0, a.plot.width(),
                             fm.height()),
            Qt::AlignCenter, a.xTitle);
    if (!a.yTitle.isEmpty()) {
        painter.save();
        painter.translate(a.yTitleCenterX, a.plot.top() + a.plot.height() / 2.0);
        painter.rotate(-90.0);
        const double length = a.plot.height();
        painter.drawText(QRectF(-length / 2.0, -fm.height() / 2.0, length, fm.height()),
            Qt::AlignCenter, fm.elidedText(a.yTitle, Qt::ElideRight, length));
        painter.restore();
    }
}

void paintBusyVeil(QPainter& painter, QRect plot, const ChartStyle& style)
{
    painter.save();
    painter.fillRect(plot, withAlpha(style.background, 150));
    const QFontMetricsF fm(painter.font());
    const QString text = tr("Computing…");
    const double w = fm.horizontalAdvance(text) + 24.0;
    const QRectF box(plot.center().x() - w / 2.0, plot.top() + 12.0, w, fm.height() + 10.0);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(withAlpha(style.text, 60), 1.0));
    painter.setBrush(style.background);
    painter.drawRoundedRect(box, 6, 6);
    painter.setPen(style.text);
    painter.drawText(box, Qt::AlignCenter, text);
    painter.restore();
}

void paintRangeDrag(QPainter& painter, QRect plot, int x0, int x1, core::TimeRange span,
    const QColor& highlight, const ChartStyle& style, int width)
{
    const QRect band(std::min(x0, x1), plot.top(), std::abs(x1 - x0), plot.height());
    painter.fillRect(band, withAlpha(highlight, 50));
    painter.setPen(QPen(highlight, 1.0));
    painter.drawLine(band.left(), band.top(), band.left(), band.bottom());
    painter.drawLine(band.right(), band.top(), band.right(), band.bottom());
    const QString label = formatTimeSpan(span);
    const QFontMetricsF fm(painter.font());
    const double w = fm.horizontalAdvance(label) + 10.0;
    const QRectF box(std::clamp(band.center().x() - w / 2.0, 0.0, width - w), plot.top() + 4.0, w,
        fm.height() + 4.0);
    painter.fillRect(box, withAlpha(style.background, 230));
    painter.setPen(style.text);
    painter.drawText(box, Qt::AlignCenter, label);
}

bool writeChartSvg(const QString& path, QSize size, const QString& title,
    const std::function<void(QPainter&)>& paint, QString* error)
{
    return writeSvgFile(path, size, title, {}, QFont(), paint, error);
}

} // namespace parallax::views
