#include "views/common/heat_map_chart.h"

#include "views/common/chart_frame.h"

#include <QContextMenuEvent>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

// The heaviest rows and columns: a red that viridis never uses.
QColor accentColor()
{
    return QColor(0xd6, 0x27, 0x28);
}

QColor barColor()
{
    return QColor(0x7f, 0x8c, 0x9e);
}

bool contains(const std::vector<std::size_t>& items, std::size_t k)
{
    return std::find(items.begin(), items.end(), k) != items.end();
}

} // namespace

HeatMapChart::HeatMapChart(QWidget* parent)
    : FramedChart(parent)
{ }

void HeatMapChart::setFootnote(const QString& footnote)
{
    m_footnote = footnote;
    invalidate();
}

void HeatMapChart::invalidate()
{
    m_image = QImage();
    FramedChart::invalidate();
}

HeatMapLayout HeatMapChart::layoutFor(const QFont& font) const
{
    const QFontMetrics fm(font);
    HeatMapLayout l;
    l.margin = 8;
    l.lineHeight = fm.height();
    l.titleHeight = 2 * fm.height(); // as the other charts: room for the larger, bold title
    l.axisTitle = fm.height() + 2;
    l.legendWidth = std::max(90, fm.horizontalAdvance(QStringLiteral("000.0 MB")) + 34);
    l.barSize = std::max(48, fm.height() * 4);
    l.textWidth = [fm](const QString& s) {
        return fm.horizontalAdvance(s);
    };
    l.footnoteHeight = m_footnote.isEmpty() ? 0 : fm.height() + 4;
    return l;
}

HeatMapFrame HeatMapChart::buildFrame(QSize size) const
{
    return { size, buildHeatMapGeometry(m_data, size, layoutFor(font())) };
}

const HeatMapGeometry& HeatMapChart::geometry() const
{
    return frame().geometry;
}

const QImage& HeatMapChart::imageFor(QSize plotSize) const
{
    if (m_image.size() != plotSize)
        m_image = heatMapImage(m_data, plotSize);
    return m_image;
}

QString HeatMapChart::toolTipAt(QPoint pos) const
{
    if (!hasData())
        return {};
    const auto& g = geometry();
    if (const auto cell = g.cellAt(pos)) {
        if (m_cellText)
            return m_cellText(*cell);
        const auto& d = m_data;
        QStringList lines;
        if (cell->row < d.rowAxis.labels.size())
            lines << d.rowAxis.title + QStringLiteral(": ") + d.rowAxis.labels[cell->row];
        if (cell->column < d.columnAxis.labels.size())
            lines << d.columnAxis.title + QStringLiteral(": ") + d.columnAxis.labels[cell->column];
        lines << d.legendTitle + QStringLiteral(": ")
                + heatValueText(d.value(cell->row, cell->column), d.unit);
        return lines.join(QLatin1Char('\n'));
    }
    if (!g.rowBars.isEmpty() && g.rowBars.contains(pos))
        if (const auto row = g.rowAt(pos.y()); row && *row < m_data.rowTotals.size())
            return m_rowBarText ? m_rowBarText(*row)
                                : m_data.rowTotalsTitle + QStringLiteral(": ")
                    + heatValueText(m_data.rowTotals[*row], m_data.unit);
    if (!g.columnBars.isEmpty() && g.columnBars.contains(pos))
        if (const auto column = g.columnAt(pos.x()); column && *column < m_data.columnTotals.size())
            return m_columnBarText ? m_columnBarText(*column)
                                   : m_data.columnTotalsTitle + QStringLiteral(": ")
                    + heatValueText(m_data.columnTotals[*column], m_data.unit);
    return {};
}

void HeatMapChart::paintFrame(
    QPainter& painter, const HeatMapFrame& f, const ChartStyle& style, bool onScreen) const
{
    const auto& g = f.geometry;
    const QFontMetrics fm(painter.font());
    if (!paintBackdrop(painter, f.size, QRectF(g.title), style, onScreen, hasData(),
            !hasData() || g.plot.width() <= 0 || g.plot.height() <= 0))
        return;

    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.drawImage(g.plot.topLeft(), imageFor(g.plot.size()));
    // Cell borders while cells are large enough to tell apart.
    const double cellWidth = static_cast<double>(g.plot.width()) / static_cast<double>(g.columns);
    const double cellHeight = static_cast<double>(g.plot.height()) / static_cast<double>(g.rows);
    if (cellHeight >= 6.0)
        for (std::size_t r = 1; r < g.rows; ++r)
            painter.fillRect(
                QRect(g.plot.left(), g.rowBand(r).top(), g.plot.width(), 1), style.background);
    if (cellWidth >= 6.0)
        for (std::size_t c = 1; c < g.columns; ++c)
            painter.fillRect(
                QRect(g.columnBand(c).left(), g.plot.top(), 1, g.plot.height()), style.background);
    // The heaviest rows and columns, outlined.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(accentColor(), 2));
    for (const auto r : m_data.rowAxis.emphasized)
        if (r < g.rows)
            painter.drawRect(g.rowBand(r).adjusted(0, 0, -1, -1));
    for (const auto c : m_data.columnAxis.emphasized)
        if (c < g.columns)
            painter.drawRect(g.columnBand(c).adjusted(0, 0, -1, -1));
    painter.setPen(style.grid);
    painter.drawRect(g.plot.adjusted(-1, -1, 0, 0));
    paintCellValues(painter, g);

    paintLabels(painter, g, style);
    paintBars(painter, g, style);
    paintLegend(painter, g, style);
    if (!g.footnote.isEmpty()) {
        painter.setPen(style.muted);
        painter.drawText(g.footnote, Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(m_footnote, Qt::ElideRight, g.footnote.width()));
    }

    if (!onScreen)
        return;
    if (m_hover) {
        painter.setPen(QPen(style.text, 1));
        painter.drawRect(g.cellRect(*m_hover).adjusted(0, 0, -1, -1));
    }
    paintDragAndBusy(
        painter, g.plot, [this, &g](int x) { return timeAt(g, x); }, style, f.size.width(),
        hasData());
}

void HeatMapChart::paintCellValues(QPainter& painter, const HeatMapGeometry& g) const
{
    // Each value written in its cell where it fits, dark on light cells and light on dark ones,
    // so the map reads without hovering.
    // Either every value or none: a map with numbers in some cells only would read as if the
    // others were different.
    const QFontMetrics fm(painter.font());
    if (static_cast<double>(g.plot.height()) / static_cast<double>(g.rows) < fm.height() + 2)
        return;
    const auto shown = [&](double v) {
        return std::isfinite(v) && !(v == 0 && m_data.scale.zeroIsEmpty);
    };
    int widest = 0;
    for (const double v : m_data.values)
        if (shown(v))
            widest = std::max(widest, fm.horizontalAdvance(formatBarValue(v, m_data.unit)));
    if (static_cast<double>(g.plot.width()) / static_cast<double>(g.columns) < widest + 6)
        return;
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.columns; ++c) {
            const double v = m_data.value(r, c);
            if (!shown(v))
                continue;
            const QRect cell = g.cellRect({ r, c });
            const QString text = formatBarValue(v, m_data.unit);
            const QColor fill = m_data.scale.color(v);
            const int luma = (299 * fill.red() + 587 * fill.green() + 114 * fill.blue()) / 1000;
            painter.setPen(luma > 140 ? QColor(0x1f, 0x1f, 0x1f) : QColor(Qt::white));
            const auto index = r * g.columns + c;
            if (index < m_data.cellLabels.size() && cell.height() >= 2 * fm.height() + 4
                && fm.horizontalAdvance(m_data.cellLabels[index]) + 6 <= cell.width()) {
                const QRect upper(
                    cell.left(), cell.center().y() - fm.height(), cell.width(), fm.height());
                painter.drawText(upper, Qt::AlignCenter, m_data.cellLabels[index]);
                painter.drawText(upper.translated(0, fm.height()), Qt::AlignCenter, text);
                continue;
            }
            painter.drawText(cell, Qt::AlignCenter, text);
        }
}

void HeatMapChart::paintLabels(
    QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const
{
    const QFontMetrics fm(painter.font());
    QFont bold = painter.font();
    bold.setBold(true);
    const QFont normal = painter.font();
    for (const auto& label : g.rowLabelItems) {
        painter.setFont(label.emphasized ? bold : normal);
        painter.setPen(label.emphasized ? accentColor() : style.text);
        const QRect box(
            g.rowLabels.left(), label.position - fm.height() / 2, g.rowLabels.width(), fm.height());
        const int titleStrip = m_data.rowAxis.title.isEmpty() ? 0 : fm.height() + 2;
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(label.text, Qt::ElideRight, g.rowLabels.width() - titleStrip - 2));
    }
    const int labelTop = g.plot.bottom() + 4;
    if (g.timeAxis.ticks.empty()) {
        for (const auto& label : g.columnLabelItems) {
            painter.setFont(label.emphasized ? bold : normal);
            painter.setPen(label.emphasized ? accentColor() : style.text);
            const int w = fm.horizontalAdvance(label.text) + 4;
            painter.drawText(QRect(label.position - w / 2, labelTop, w, fm.height()),
                Qt::AlignCenter, label.text);
        }
    } else {
        painter.setFont(normal);
        for (const auto& tick : g.timeAxis.ticks) {
            const int x = static_cast<int>(std::lround(tick.x));
            painter.fillRect(QRect(x, g.plot.bottom() + 1, 1, 4), style.muted);
            const int w = fm.horizontalAdvance(tick.label) + 4;
            painter.setPen(style.text);
            painter.drawText(
                QRect(x - w / 2, labelTop + 2, w, fm.height()), Qt::AlignCenter, tick.label);
        }
    }
    painter.setFont(normal);
    painter.setPen(style.muted);
    // Axis titles: the column axis's below its labels, the row axis's turned along the labels.
    if (!m_data.columnAxis.title.isEmpty())
        painter.drawText(
            QRect(g.plot.left(), labelTop + fm.height() + 2, g.plot.width(), fm.height()),
            Qt::AlignCenter, m_data.columnAxis.title);
    if (!m_data.rowAxis.title.isEmpty()) {
        painter.save();
        painter.translate(g.rowLabels.left(), g.plot.center().y());
        painter.rotate(-90);
        painter.drawText(QRect(-g.plot.height() / 2, 0, g.plot.height(), fm.height()),
            Qt::AlignCenter, m_data.rowAxis.title);
        painter.restore();
    }
}

void HeatMapChart::paintBars(
    QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const
{
    const QFontMetrics fm(painter.font());
    auto largest = [](const std::vector<double>& v) {
        double m = 0.0;
        for (const double x : v)
            if (std::isfinite(x))
                m = std::max(m, x);
        return m;
    };
    if (!g.rowBars.isEmpty()) {
        const double top = largest(m_data.rowTotals);
        for (std::size_t r = 0; r < std::min(g.rows, m_data.rowTotals.size()); ++r) {
            const QRect band = g.rowBand(r);
            const int length = top > 0
                ? static_cast<int>(std::lround(m_data.rowTotals[r] / top * g.rowBars.width()))
                : 0;
            const int gap = band.height() >= 4 ? 1 : 0;
            const bool emphasized = contains(m_data.rowAxis.emphasized, r);
            painter.fillRect(QRect(g.rowBars.left(), band.top() + gap, length, band.height() - gap),
                emphasized ? accentColor() : barColor());
            // The value on its bar where the row is tall enough.
            const QString text = formatBarValue(m_data.rowTotals[r], m_data.unit);
            if (band.height() >= fm.height()
                && fm.horizontalAdvance(text) + 6 <= g.rowBars.width()) {
                painter.setPen(emphasized ? QColor(Qt::white) : QColor(0x1f, 0x1f, 0x1f));
                painter.drawText(
                    QRect(g.rowBars.left() + 3, band.top(), g.rowBars.width() - 3, band.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, text);
            }
        }
        painter.setPen(style.muted);
        painter.drawText(QRect(g.rowBars.left(), g.plot.top() - fm.height() - 2,
                             g.rowBars.width() + 40, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, m_data.rowTotalsTitle);
        painter.drawText(
            QRect(g.rowBars.left(), g.plot.bottom() + 4, g.rowBars.width() + 40, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, formatBarValue(top, m_data.unit));
    }
    if (!g.columnBars.isEmpty()) {
        const double top = largest(m_data.columnTotals);
        for (std::size_t c = 0; c < std::min(g.columns, m_data.columnTotals.size()); ++c) {
            const QRect band = g.columnBand(c);
            const int length = top > 0 ? static_cast<int>(std::lround(
                                   m_data.columnTotals[c] / top * g.columnBars.height()))
                                       : 0;
            const int gap = band.width() >= 4 ? 1 : 0;
            const bool emphasized = contains(m_data.columnAxis.emphasized, c);
            painter.fillRect(QRect(band.left() + gap, g.columnBars.bottom() + 1 - length,
                                 band.width() - gap, length),
                emphasized ? accentColor() : barColor());
            const QString text = formatBarValue(m_data.columnTotals[c], m_data.unit);
            if (m_data.columnTotals[c] != 0 && fm.horizontalAdvance(text) + 6 <= band.width()) {
                painter.setPen(emphasized ? QColor(Qt::white) : QColor(0x1f, 0x1f, 0x1f));
                painter.drawText(QRect(band.left(), g.columnBars.bottom() - fm.height() - 1,
                                     band.width(), fm.height()),
                    Qt::AlignCenter, text);
            }
        }
        painter.setPen(style.muted);
        const int w = g.columnBars.left() - 12;
        painter.drawText(QRect(g.rowLabels.left(), g.columnBars.top(), w, fm.height()),
            Qt::AlignRight | Qt::AlignTop, formatBarValue(top, m_data.unit));
        painter.drawText(
            QRect(g.rowLabels.left(), g.columnBars.bottom() - fm.height(), w, fm.height()),
            Qt::AlignRight | Qt::AlignBottom, m_data.columnTotalsTitle);
    }
}

void HeatMapChart::paintLegend(
    QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const
{
    const QFontMetrics fm(painter.font());
    const QRect& box = g.legend;
    painter.setPen(style.text);
    painter.drawText(QRect(box.left(), box.top(), box.width() + 8, fm.height()),
        Qt::AlignLeft | Qt::AlignVCenter, m_data.legendTitle);
    const QRect ramp(box.left(), box.top() + fm.height() + 6, 14,
        std::max(box.height() - fm.height() * 3 - 10, 40));
    // The ramp from the bottom (minimum) to the top (maximum), a pixel row at a time.
    for (int y = 0; y < ramp.height(); ++y) {
        const double f = 1.0 - static_cast<double>(y) / std::max(ramp.height() - 1, 1);
        painter.fillRect(QRect(ramp.left(), ramp.top() + y, ramp.width(), 1), viridisColor(f));
    }
    painter.setPen(style.grid);
    painter.drawRect(ramp.adjusted(0, 0, -1, -1));
    const auto& scale = m_data.scale;
    int lastY = -1000;
    const auto ticks = scale.ticks(std::max(2, ramp.height() / (fm.height() + 6)));
    const double step = ticks.size() >= 2 ? ticks[1] - ticks[0] : scale.maximum;
    for (const double v : ticks) {
        const int y = ramp.bottom()
            - static_cast<int>(std::lround(scale.fraction(v) * (ramp.height() - 1)));
        if (std::abs(y - lastY) < fm.height())
            continue;
        lastY = y;
        painter.fillRect(QRect(ramp.right() + 1, y, 4, 1), style.muted);
        painter.setPen(style.text);
        painter.drawText(QRect(ramp.right() + 8, y - fm.height() / 2, box.width(), fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            scale.logarithmic ? formatBarValue(v, m_data.unit)
                              : formatAxisValue(v, m_data.unit, step, scale.maximum));
    }
    int y = ramp.bottom() + 8;
    auto swatch = [&](const QColor& colour, const QString& text) {
        painter.fillRect(QRect(ramp.left(), y, 14, fm.height() - 2), colour);
        painter.setPen(style.text);
        painter.drawText(QRect(ramp.right() + 8, y, box.width(), fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, text);
        y += fm.height() + 2;
    };
    if (scale.logarithmic) {
        painter.setPen(style.muted);
        painter.drawText(QRect(ramp.left(), y, box.width() + 8, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, tr("log scale"));
        y += fm.height() + 2;
    }
    const bool anyZero = scale.zeroIsEmpty
        && std::any_of(m_data.values.begin(), m_data.values.end(), [](double v) { return v == 0; });
    if (anyZero)
        swatch(emptyCellColor(), tr("none"));
    if (std::any_of(
            m_data.values.begin(), m_data.values.end(), [](double v) { return std::isnan(v); }))
        swatch(noDataCellColor(), tr("no data"));
}

bool HeatMapChart::exportSvg(const QString& path, QSize size, QString* error) const
{
    if (size.isEmpty())
        size = QSize(1200, 700);
    return writeSvgFile(
        path, size, m_title, m_subtitle, font(),
        [&](QPainter& painter) { paintExport(painter, size); }, error);
}

core::TimeUs HeatMapChart::timeAt(const HeatMapGeometry& g, int x) const
{
    if (!m_data.columnAxis.span)
        return 0;
    TimeMapping map;
    map.window = *m_data.columnAxis.span;
    map.left = g.plot.left();
    map.width = g.plot.width();
    return map.timeAt(std::clamp(x, g.plot.left(), g.plot.left() + g.plot.width()));
}

void HeatMapChart::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const auto& g = geometry();
    if (followDrag(pos, event->buttons(), g.plot, m_data.columnAxis.span.has_value()))
        return;
    const auto cell = hasData() ? g.cellAt(pos) : std::nullopt;
    if (cell != m_hover) {
        m_hover = cell;
        update();
    }
    const bool onLabel = (g.rowLabels.contains(pos) && g.rowAt(pos.y()))
        || (g.columnLabels.contains(pos) && g.columnAt(pos.x()) && !m_data.columnAxis.span);
    showPlotTip(event->globalPosition().toPoint(), toolTipAt(pos), false);
    setCursor(cell || onLabel ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void HeatMapChart::mouseReleaseEvent(QMouseEvent* event)
{
    const auto& g = geometry();
    const auto click = releaseClick(event, g.plot, [this, &g](int x) { return timeAt(g, x); });
    if (!click || !hasData())
        return;
    const QPoint press = *click;
    if (const auto cell = g.cellAt(press)) {
        emit cellClicked(static_cast<int>(cell->row), static_cast<int>(cell->column));
        return;
    }
    if (g.rowLabels.contains(press) || g.rowBars.contains(press)) {
        if (const auto row = g.rowAt(press.y()))
            emit rowLabelClicked(static_cast<int>(*row));
        return;
    }
    if ((g.columnLabels.contains(press) && !m_data.columnAxis.span) || g.columnBars.contains(press))
        if (const auto column = g.columnAt(press.x()))
            emit columnLabelClicked(static_cast<int>(*column));
}

void HeatMapChart::contextMenuEvent(QContextMenuEvent* event)
{
    const auto cell = hasData() ? geometry().cellAt(event->pos()) : std::nullopt;
    emit contextMenuRequested(event->globalPos(), cell ? static_cast<int>(cell->row) : -1,
        cell ? static_cast<int>(cell->column) : -1);
}

} // namespace parallax::views
