#include "views/common/line_chart.h"

#include "views/common/chart_frame.h"
#include "views/common/entry_palette.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

constexpr std::size_t kMaxTooltipLines = 12;

QString swatch(const QColor& color)
{
    return QStringLiteral("<span style=\"color:%1\">&#9632;</span> ").arg(color.name());
}

} // namespace

LineChart::LineChart(QWidget* parent)
    : FramedChart(parent)
{ }

void LineChart::clearHover()
{
    m_hover.reset();
    m_hoverLegendRow.reset();
}

QColor LineChart::seriesColor(std::size_t s) const
{
    if (s >= m_data.series.size())
        return bandColor(s - m_data.series.size());
    const auto& series = m_data.series[s];
    if (series.color)
        return QColor::fromRgb(*series.color);
    return EntryPalette::rankColor(static_cast<int>(s));
}

QColor LineChart::bandColor(std::size_t b) const
{
    if (b < m_data.bands.size() && m_data.bands[b].color)
        return QColor::fromRgb(*m_data.bands[b].color);
    return { 0x7f, 0x9f, 0xc8 };
}

LineChart::Frame LineChart::buildFrame(QSize size) const
{
    const QFontMetricsF fm(font());
    std::vector<LegendItem> items;
    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const auto& series = m_data.series[s];
        items.push_back({ s, series.name, series.fullName.isEmpty() ? series.name : series.fullName,
            0.0, -1, false, {} });
    }
    for (std::size_t b = 0; b < m_data.bands.size(); ++b)
        items.push_back({ m_data.series.size() + b, m_data.bands[b].name, m_data.bands[b].name, 0.0,
            -1, false, {} });
    const auto axes = layoutAxesFrame(size, fm, items, 18.0, 0.25);
    Frame f;
    f.size = size;
    f.titleBox = axes.titleBox;
    f.geometry = buildLineChart(m_data, size, axes.layout);
    if (!f.geometry.empty())
        f.legend = layoutLegendBeside(std::move(items), size, axes.legendWidth,
            f.geometry.plot.top(), fm, m_legendHeading.isEmpty() ? tr("Series") : m_legendHeading);
    return f;
}

const LineChartGeometry& LineChart::geometry() const
{
    return frame().geometry;
}

const LegendLayout& LineChart::legend() const
{
    return frame().legend;
}

void LineChart::paintFrame(
    QPainter& painter, const Frame& f, const ChartStyle& style, bool onScreen) const
{
    const QFontMetricsF fm(painter.font());
    if (!paintBackdrop(painter, f.size, f.titleBox, style, onScreen, hasData(), f.geometry.empty()))
        return;
    const auto& g = f.geometry;
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintYGrid(painter, g.plot, g.yTicks, style);
    if (g.zeroY) {
        painter.setPen(QPen(style.muted, 1.0));
        painter.drawLine(g.plot.left(), *g.zeroY, g.plot.left() + g.plot.width() - 1, *g.zeroY);
    }
    painter.save();
    painter.setClipRect(g.plot.adjusted(-2, -2, 2, 2));
    paintData(painter, f, style);
    if (onScreen)
        paintHover(painter, f, style);
    painter.restore();
    paintChartAxes(painter, g, style, f.size.width());
    paintLegend(
        painter, f.legend, fm, [this](std::size_t s) { return seriesColor(s); }, {}, style.text,
        style.muted, onScreen ? m_hoverLegendRow : std::nullopt);
    if (onScreen)
        paintDragAndBusy(
            painter, g.plot, [&g](int x) { return timeAtX(g, x); }, style, f.size.width(),
            hasData());
}

void LineChart::paintData(QPainter& painter, const Frame& f, const ChartStyle& style) const
{
    const auto& g = f.geometry;
    // A hovered legend row brings its series forward and fades the others.
    std::optional<std::size_t> focused;
    if (m_hoverLegendRow && *m_hoverLegendRow < f.legend.rows.size())
        focused = f.legend.rows[*m_hoverLegendRow].item.series;
    else if (m_hover && m_hover->series)
        focused = m_hover->series;
    auto shade = [&](QColor c, std::size_t index) {
        if (focused && *focused != index)
            return faded(c, style.background, 0.65);
        return c;
    };
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t b = 0; b < g.bands.size(); ++b) {
        QColor fill = shade(bandColor(b), m_data.series.size() + b);
        fill.setAlpha(70);
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        for (const auto& polygon : g.bands[b]) {
            if (polygon.size() <= 2) { // one position: a short vertical bar
                const QRectF r = polygon.boundingRect();
                painter.drawRect(r.adjusted(-1.5, 0, 1.5, 0));
            } else {
                painter.drawPolygon(polygon);
            }
        }
    }
    // Thin lines first, so the emphasised ones stay on top.
    for (const bool emphasised : { false, true })
        for (std::size_t s = 0; s < g.lines.size(); ++s) {
            const auto& series = m_data.series[s];
            if (series.emphasised != emphasised)
                continue;
            const bool front = focused && *focused == s;
            QPen pen(shade(seriesColor(s), s), emphasised || front ? 2.4 : 1.4);
            if (series.dashed)
                pen.setStyle(Qt::DashLine);
            pen.setJoinStyle(Qt::RoundJoin);
            painter.setPen(pen);
            painter.setBrush(Qt::NoBrush);
            for (const auto& polyline : g.lines[s]) {
                if (series.dotsOnly && !g.markers[s].empty())
                    break; // dense: no dots, the line stands in for them
                if (polyline.size() == 1 && !series.markers)
                    painter.drawEllipse(polyline.front(), 1.8, 1.8);
                else
                    painter.drawPolyline(polyline);
            }
            if (!g.markers[s].empty()) {
                painter.setBrush(pen.color());
                painter.setPen(QPen(style.background, 1.0));
                const double radius = series.dotsOnly ? 4.5 : 3.0;
                for (const auto& p : g.markers[s])
                    painter.drawEllipse(p, radius, radius);
            }
        }
}

void LineChart::paintHover(QPainter& painter, const Frame& f, const ChartStyle& style) const
{
    const auto& g = f.geometry;
    if (!m_hover || dragging() || m_hover->index >= g.xs.size())
        return;
    const double x = g.xs[m_hover->index];
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(withAlpha(style.text, 90), 1.0, Qt::DashLine));
    painter.drawLine(QPointF(x, g.plot.top()), QPointF(x, g.plot.top() + g.plot.height()));
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const double v = m_data.series[s].values[m_hover->index];
        if (!std::isfinite(v))
            continue;
        painter.setPen(QPen(style.background, 1.5));
        painter.setBrush(seriesColor(s));
        const double r = m_hover->series && *m_hover->series == s ? 5.0 : 3.5;
        painter.drawEllipse(QPointF(x, g.yOf(v)), r, r);
    }
}

QString LineChart::positionHeading(std::size_t index) const
{
    if (m_data.axis == LineAxis::Time && index < m_data.spans.size())
        return formatTimeSpan(m_data.spans[index]);
    if (index < m_data.labels.size())
        return m_data.labels[index];
    return {};
}

QString LineChart::toolTipAt(QPoint pos) const
{
    const auto hit = hitTestLines(geometry(), m_data, pos.x(), pos.y());
    if (!hit)
        return {};
    const auto i = hit->index;
    QStringList lines;
    lines << QStringLiteral("<b>%1</b>").arg(positionHeading(i).toHtmlEscaped());
    auto nameOf = [](const LineSeries& s) {
        return (s.fullName.isEmpty() ? s.name : s.fullName).toHtmlEscaped();
    };
    if (hit->series) {
        const auto s = *hit->series;
        lines << swatch(seriesColor(s))
                + QStringLiteral("<b>%1: %2</b>")
                      .arg(nameOf(m_data.series[s]),
                          formatBarValue(m_data.series[s].values[i], m_data.unit));
    }
    // The other series at this position, highest first.
    std::vector<std::pair<double, std::size_t>> values;
    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const double v = m_data.series[s].values[i];
        if (std::isfinite(v) && !(hit->series && *hit->series == s))
            values.emplace_back(v, s);
    }
    std::stable_sort(values.begin(), values.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    std::size_t shown = 0;
    for (const auto& [v, s] : values) {
        if (shown++ >= kMaxTooltipLines) {
            lines << tr("… %1 more").arg(values.size() - kMaxTooltipLines);
            break;
        }
        lines << swatch(seriesColor(s))
                + QStringLiteral("%1: %2").arg(
                    nameOf(m_data.series[s]), formatBarValue(v, m_data.unit));
    }
    for (std::size_t b = 0; b < m_data.bands.size(); ++b) {
        const auto& band = m_data.bands[b];
        if (!std::isfinite(band.low[i]) || !std::isfinite(band.high[i]))
            continue;
        auto bound = [&](double v, const std::vector<core::PeId>& pes) {
            QString text = formatBarValue(v, m_data.unit);
            if (i < pes.size() && pes[i] != core::kNoPe)
                text += tr(" (PE %1)").arg(pes[i]);
            return text;
        };
        lines << swatch(bandColor(b))
                + QStringLiteral("%1: %2 – %3")
                      .arg(band.name.toHtmlEscaped(), bound(band.low[i], band.lowPe),
                          bound(band.high[i], band.highPe));
    }
    if (lines.size() == 1)
        lines << tr("no value here");
    return QStringLiteral("<html>%1</html>").arg(lines.join(QStringLiteral("<br>")));
}

void LineChart::updateHover(QPoint pos, QPoint globalPos)
{
    const auto& f = frame();
    const auto hit = hitTestLines(f.geometry, m_data, pos.x(), pos.y());
    const auto legendRow = f.legend.rowAt(pos);
    const bool changed = (hit.has_value() != m_hover.has_value())
        || (hit && (hit->index != m_hover->index || hit->series != m_hover->series))
        || legendRow != m_hoverLegendRow;
    m_hover = hit;
    m_hoverLegendRow = legendRow;
    if (changed)
        update();
    if (legendRow) {
        QToolTip::showText(globalPos, f.legend.rows[*legendRow].item.toolTip, this);
        return;
    }
    showPlotTip(globalPos, hit ? toolTipAt(pos) : QString(),
        m_data.axis == LineAxis::Time && f.geometry.plot.contains(pos));
}

void LineChart::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (followDrag(pos, event->buttons(), geometry().plot, m_data.axis == LineAxis::Time))
        return;
    updateHover(pos, event->globalPosition().toPoint());
}

void LineChart::mouseReleaseEvent(QMouseEvent* event)
{
    const auto& g = geometry();
    const auto press = releaseClick(event, g.plot, [&g](int x) { return timeAtX(g, x); });
    if (!press)
        return;
    if (const auto hit = hitTestLines(g, m_data, press->x(), press->y()))
        emit positionClicked(
            static_cast<int>(hit->index), hit->series ? static_cast<int>(*hit->series) : -1);
}

void LineChart::contextMenuEvent(QContextMenuEvent* event)
{
    const auto hit = hitTestLines(geometry(), m_data, event->pos().x(), event->pos().y());
    emit contextMenuRequested(event->globalPos(), hit ? static_cast<int>(hit->index) : -1);
}

} // namespace parallax::views
