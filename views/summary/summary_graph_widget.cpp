#include "views/summary/summary_graph_widget.h"

#include "core/text_args.h"
#include "views/common/chart_style.h"
#include "views/common/fill_rects.h"
#include "views/common/time_format.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

constexpr double kCornerRadius = 6.0;
constexpr double kTickLength = 4.0;

QString percentText(double v)
{
    return QLocale().toString(v, 'f', 1) + QStringLiteral(" %");
}

// Crisp 1-pixel lines: put the line on a pixel centre.
double crisp(double v)
{
    return std::floor(v) + 0.5;
}

// A step line (horizontal and vertical segments) as rectangles `width` px thick, centred on the
// segments.
void fillStepLine(QPainter& painter, const QPolygonF& line, const QColor& color, double width)
{
    if (line.size() < 2)
        return;
    QVector<QRectF> rects;
    rects.reserve(line.size());
    const double half = width / 2.0;
    for (qsizetype i = 1; i < line.size(); ++i) {
        const QPointF a = line[i - 1];
        const QPointF b = line[i];
        rects.append(QRectF(QPointF(std::min(a.x(), b.x()) - half, std::min(a.y(), b.y()) - half),
            QPointF(std::max(a.x(), b.x()) + half, std::max(a.y(), b.y()) + half)));
    }
    fillRectsInBands(painter, rects, QBrush(color));
}

} // namespace

SummaryGraphWidget::SummaryGraphWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SummaryGraphWidget::setSeries(core::analysis::SummaryAverage series)
{
    m_series = std::move(series);
    m_hoverX.reset();
    invalidateGeometry();
}

QColor SummaryGraphWidget::utilizationColor()
{
    return QColor(0x25, 0x63, 0xEB);
}

QColor SummaryGraphWidget::idleColor()
{
    return QColor(0xD9, 0x77, 0x06);
}

QSize SummaryGraphWidget::sizeHint() const
{
    return { 640, 280 };
}

QSize SummaryGraphWidget::minimumSizeHint() const
{
    return { 320, 200 };
}

SummaryGraphLayout SummaryGraphWidget::layoutForFont() const
{
    const QFontMetricsF fm(font());
    SummaryGraphLayout layout;
    const double gap = std::round(fm.height() * 0.6);
    layout.margins = QMarginsF(std::ceil(fm.horizontalAdvance(QStringLiteral("100 %")) + 2 * gap),
        std::ceil(fm.height() + 2 * gap),
        std::ceil(fm.horizontalAdvance(QStringLiteral("0000")) / 2 + gap),
        std::ceil(2 * fm.height() + kTickLength + 2 * gap));
    layout.minTimeTickSpacing = fm.horizontalAdvance(QStringLiteral("0000.00")) + 2 * gap;
    layout.minPercentTickSpacing = fm.height() * 1.6;
    return layout;
}

const SummaryGraphGeometry& SummaryGraphWidget::geometry() const
{
    if (!m_geometry)
        m_geometry = buildSummaryGraphGeometry(m_series, QSizeF(size()), layoutForFont());
    return *m_geometry;
}

void SummaryGraphWidget::invalidateGeometry()
{
    m_geometry.reset();
    m_picture = QPixmap();
    update();
}

QString SummaryGraphWidget::toolTipAt(double x) const
{
    const auto& g = geometry();
    const auto bin = binAt(g, m_series, x);
    const auto bucket = bucketAt(g, x);
    if (!bin || !bucket)
        return {};
    const QLocale locale;
    QStringList lines;
    lines << tr("%1 – %2  (bin %3)")
                 .arg(durationText(m_series.binBegin(*bin)),
                     durationText(m_series.binBegin(*bin + 1)), locale.toString(qulonglong(*bin)));
    lines << tr("Utilization: %1").arg(percentText(m_series.utilization[*bin]));
    if (m_series.hasIdle() && !std::isnan(m_series.idle[*bin]))
        lines << tr("Idle: %1").arg(percentText(m_series.idle[*bin]));
    lines << tr("Average of %1 of %2 PEs")
                 .arg(locale.toString(m_series.peCount[*bin]), locale.toString(m_series.peTotal));
    if (m_tracedSpan && m_series.binBegin(*bin + 1) <= m_tracedSpan->begin)
        lines << tr("Start-up: before the run's first BEGIN_COMPUTATION");
    else if (m_tracedSpan && m_series.binBegin(*bin) >= m_tracedSpan->end)
        lines << tr("Tail: after END_COMPUTATION (comm threads and shutdown)");
    const auto& b = g.buckets[*bucket];
    if (b.lastBin - b.firstBin > 1) {
        QString column = tr("This pixel column: %1 bins, mean utilization %2")
                             .arg(locale.toString(qulonglong(b.lastBin - b.firstBin)),
                                 percentText(b.utilization));
        if (!std::isnan(b.idle))
            column += tr(", idle %1").arg(percentText(b.idle));
        lines << column;
    }
    return lines.join(QLatin1Char('\n'));
}

void SummaryGraphWidget::paintEvent(QPaintEvent*)
{
    // The graph is drawn once per size and data into a pixmap: a repaint (a tab switch, the
    // hover overlay) is a copy. Drawn directly, a run of a thousand bins cost ~100 ms a paint
    // on a loaded machine (the raster engine hands big fills to its threads and waits for them).
    const qreal ratio = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * ratio).toSize();
    if (m_picture.size() != pixels) {
        m_picture = QPixmap(pixels);
        m_picture.setDevicePixelRatio(ratio);
        m_picture.fill(Qt::transparent);
        QPainter cached(&m_picture);
        cached.setFont(font());
        paintGraph(cached);
    }
    QPainter painter(this);
    painter.drawPixmap(0, 0, m_picture);
    const auto& g = geometry();
    if (!g.empty()) {
        painter.setRenderHint(QPainter::Antialiasing);
        paintHover(painter, g);
    }
}

void SummaryGraphWidget::paintGraph(QPainter& painter) const
{
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);

    painter.setPen(QPen(withAlpha(text, 40), 1.0));
    painter.setBrush(pal.color(QPalette::Base));
    painter.drawRoundedRect(
        QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), kCornerRadius, kCornerRadius);

    const auto& g = geometry();
    if (g.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
            m_series.empty() ? tr("No utilization data") : tr("Too small to draw"));
        return;
    }

    // Horizontal grid at the percent ticks.
    painter.setPen(QPen(withAlpha(text, 28), 1.0));
    for (const auto& tick : g.percentTicks) {
        const double y = crisp(tick.position);
        painter.drawLine(QPointF(g.plot.left(), y), QPointF(g.plot.right(), y));
    }

    // The series are step lines (horizontal and vertical segments only): drawn without
    // antialiasing they look the same and take the raster engine's fast path. Antialiased, a
    // jagged run of a thousand steps (a barrier every millisecond) cost ~150 ms per paint.
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    fillRectsInBands(painter, g.utilizationArea, QBrush(withAlpha(utilizationColor(), 64)));
    // Thinner where a pixel column aggregates several bins: dense data stays legible.
    const bool aggregated = g.buckets.size() < m_series.binCount();
    fillStepLine(painter, g.utilizationLine, utilizationColor(), aggregated ? 1.0 : 2.0);
    // Idle is the secondary series: thinner, so that busy stays readable where both are dense.
    for (const auto& idle : g.idleLines)
        fillStepLine(painter, idle, withAlpha(idleColor(), 220), 1.0);
    painter.restore();

    paintUntraced(painter, g);
    paintAxes(painter, g);
    paintLegend(painter, g);
}

void SummaryGraphWidget::setTracedSpan(std::optional<core::TimeRange> span)
{
    m_tracedSpan = span;
    m_picture = QPixmap();
    update();
}

std::pair<QRectF, QRectF> SummaryGraphWidget::untracedBands() const
{
    const auto& g = geometry();
    const double duration = static_cast<double>(m_series.duration());
    if (!m_tracedSpan || g.empty() || !(duration > 0))
        return {};
    auto xOf = [&](core::TimeUs t) {
        const double f = std::clamp(static_cast<double>(t) / duration, 0.0, 1.0);
        return g.plot.left() + f * g.plot.width();
    };
    const double begin = xOf(m_tracedSpan->begin);
    const double end = xOf(m_tracedSpan->end);
    QRectF startUp;
    QRectF tail;
    if (begin - g.plot.left() >= 1.0)
        startUp = QRectF(g.plot.left(), g.plot.top(), begin - g.plot.left(), g.plot.height());
    if (g.plot.right() - end >= 1.0)
        tail = QRectF(end, g.plot.top(), g.plot.right() - end, g.plot.height());
    return { startUp, tail };
}

void SummaryGraphWidget::paintUntraced(QPainter& painter, const SummaryGraphGeometry& g) const
{
    const auto [startUp, tail] = untracedBands();
    if (startUp.isEmpty() && tail.isEmpty())
        return;
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor base = pal.color(QPalette::Base);
    const QFontMetricsF fm(font());
    painter.save();
    // A veil over the series (they stay visible) and a hatch, with the band's name at the top.
    auto band = [&](const QRectF& r, const QString& label, const QString& longLabel) {
        if (r.isEmpty())
            return;
        painter.setPen(Qt::NoPen);
        painter.setBrush(withAlpha(base, 170));
        painter.drawRect(r);
        painter.setBrush(QBrush(withAlpha(text, 40), Qt::BDiagPattern));
        painter.drawRect(r);
        painter.setPen(QPen(withAlpha(text, 90), 1.0, Qt::DashLine));
        const double x = r.left() == g.plot.left() ? r.right() : r.left();
        painter.drawLine(QPointF(crisp(x), r.top()), QPointF(crisp(x), r.bottom()));
        painter.setPen(withAlpha(text, 190));
        const QString shown = fm.horizontalAdvance(longLabel) + 8.0 <= r.width() ? longLabel
            : fm.horizontalAdvance(label) + 8.0 <= r.width()                     ? label
                                                                                 : QString();
        if (!shown.isEmpty())
            painter.drawText(
                r.adjusted(4.0, 0.0, -4.0, -4.0), Qt::AlignHCenter | Qt::AlignBottom, shown);
    };
    band(startUp, tr("start-up"), tr("start-up (not traced)"));
    band(tail, tr("tail"), tr("after END_COMPUTATION"));
    painter.restore();
}

void SummaryGraphWidget::paintAxes(QPainter& painter, const SummaryGraphGeometry& g) const
{
    const QFontMetricsF fm(font());
    const QColor text = palette().color(QPalette::WindowText);
    const QColor muted = withAlpha(text, 170);
    const double gap = std::round(fm.height() * 0.6);

    const double baseline = crisp(g.plot.bottom());
    painter.setPen(QPen(withAlpha(text, 110), 1.0));
    painter.drawLine(QPointF(g.plot.left(), baseline), QPointF(g.plot.right(), baseline));

    // Time ticks: labels centred under the tick, kept inside the widget; a label that would
    // collide with the previous one is skipped (the tick mark stays).
    double lastLabelRight = -1e9;
    for (const auto& tick : g.timeTicks) {
        const double x = crisp(tick.position);
        painter.setPen(QPen(withAlpha(text, 110), 1.0));
        painter.drawLine(QPointF(x, baseline), QPointF(x, baseline + kTickLength));
        const double w = fm.horizontalAdvance(tick.label);
        double left = std::clamp(tick.position - w / 2, 2.0, width() - w - 2.0);
        if (left < lastLabelRight + gap)
            continue;
        lastLabelRight = left + w;
        painter.setPen(muted);
        painter.drawText(
            QRectF(left, baseline + kTickLength + 2, w, fm.height()), Qt::AlignCenter, tick.label);
    }
    painter.setPen(muted);
    const QString title = tr("Time (%1)").arg(g.timeUnit);
    painter.drawText(QRectF(g.plot.left(), baseline + kTickLength + 2 + fm.height(), g.plot.width(),
                         fm.height() + 2),
        Qt::AlignHCenter | Qt::AlignVCenter, title);

    for (const auto& tick : g.percentTicks) {
        const QRectF box(0, tick.position - fm.height() / 2, g.plot.left() - gap, fm.height());
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, tick.label);
    }
}

void SummaryGraphWidget::paintLegend(QPainter& painter, const SummaryGraphGeometry& g) const
{
    const QFontMetricsF fm(font());
    const double swatch = std::round(fm.height() * 0.8);
    const double spacing = std::round(fm.height() * 0.4);
    struct Item {
        QString label;
        QColor color;
        bool filled;
    };
    std::vector<Item> items { { tr("Utilization"), utilizationColor(), true } };
    if (!g.idleLines.empty())
        items.push_back({ tr("Idle"), idleColor(), false });

    double total = 0;
    for (const auto& item : items)
        total += swatch + spacing + fm.horizontalAdvance(item.label) + 2 * spacing;
    double x = g.plot.right() - total + 2 * spacing;
    const double centreY = (g.plot.top()) / 2.0;
    for (const auto& item : items) {
        const QRectF box(x, centreY - swatch / 2, swatch, swatch);
        if (item.filled) {
            painter.setPen(QPen(item.color, 1.5));
            painter.setBrush(withAlpha(item.color, 64));
            painter.drawRoundedRect(box.adjusted(0.75, 0.75, -0.75, -0.75), 2, 2);
        } else {
            painter.setPen(QPen(item.color, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawLine(
                QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
        }
        x += swatch + spacing;
        const double w = fm.horizontalAdvance(item.label);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRectF(x, centreY - fm.height() / 2, w + 1, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, item.label);
        x += w + 2 * spacing;
    }
}

void SummaryGraphWidget::paintHover(QPainter& painter, const SummaryGraphGeometry& g) const
{
    if (!m_hoverX)
        return;
    const auto bucket = bucketAt(g, *m_hoverX);
    if (!bucket)
        return;
    const auto& b = g.buckets[*bucket];
    const double x = crisp((b.left + b.right) / 2);
    painter.setPen(QPen(withAlpha(palette().color(QPalette::WindowText), 90), 1.0, Qt::DashLine));
    painter.drawLine(QPointF(x, g.plot.top()), QPointF(x, g.plot.bottom()));
    auto dot = [&](double percent, const QColor& color) {
        const double y
            = g.plot.bottom() - std::clamp(percent, 0.0, 100.0) / 100.0 * g.plot.height();
        painter.setPen(QPen(palette().color(QPalette::Base), 1.5));
        painter.setBrush(color);
        painter.drawEllipse(QPointF(x, y), 3.5, 3.5);
    };
    dot(b.utilization, utilizationColor());
    if (!std::isnan(b.idle))
        dot(b.idle, idleColor());
}

void SummaryGraphWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_geometry.reset();
    m_picture = QPixmap();
}

void SummaryGraphWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        invalidateGeometry();
    else if (event->type() == QEvent::PaletteChange)
        m_picture = QPixmap(); // the colours come from the palette
}

void SummaryGraphWidget::mouseMoveEvent(QMouseEvent* event)
{
    const double x = event->position().x();
    const QString tip = toolTipAt(x);
    if (tip.isEmpty()) {
        m_hoverX.reset();
        QToolTip::hideText();
    } else {
        m_hoverX = x;
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    }
    update();
}

void SummaryGraphWidget::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    m_hoverX.reset();
    QToolTip::hideText();
    update();
}

} // namespace parallax::views
