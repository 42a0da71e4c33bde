#include "views/common/chart_widget.h"

#include "views/common/chart_frame.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {
constexpr int kDragThreshold = 4; // pixels before a press becomes a drag
constexpr int kBusyDelayMs = 150;
} // namespace

ChartWidget::ChartWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_busyDelay = new QTimer(this);
    m_busyDelay->setSingleShot(true);
    m_busyDelay->setInterval(kBusyDelayMs);
    connect(m_busyDelay, &QTimer::timeout, this, [this]() {
        m_showBusy = m_busy;
        update();
    });
}

void ChartWidget::setTitle(const QString& title, const QString& subtitle)
{
    m_title = title;
    m_subtitle = subtitle;
    update();
}

void ChartWidget::setLegendHeading(const QString& heading)
{
    m_legendHeading = heading;
    invalidate();
}

void ChartWidget::setHint(const QString& hint)
{
    m_hint = hint;
    update();
}

void ChartWidget::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    if (busy) {
        m_busyDelay->start();
    } else {
        m_busyDelay->stop();
        m_showBusy = false;
    }
    update();
}

void ChartWidget::invalidate()
{
    m_dragging = false;
    clearHover();
    update();
}

QSize ChartWidget::sizeHint() const
{
    return { 900, 520 };
}

QSize ChartWidget::minimumSizeHint() const
{
    return { 360, 240 };
}

ChartStyle ChartWidget::screenStyle() const
{
    return screenChartStyle(palette(), 0.4, 0.88);
}

ChartStyle ChartWidget::exportStyle()
{
    return { QColor(Qt::white), QColor(0x1f, 0x1f, 0x1f), QColor(0x5f, 0x5f, 0x5f),
        QColor(0xe9, 0xe9, 0xe9), {} };
}

QSize ChartWidget::exportSize(QSize size) const
{
    if (!size.isEmpty())
        return size;
    return isVisible() ? this->size() : QSize(1200, 700);
}

QImage ChartWidget::renderImage(QSize size) const
{
    if (size.isEmpty())
        size = QSize(1200, 700);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const int dpm = static_cast<int>(std::lround(logicalDpiX() / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintExport(painter, size);
    return image;
}

void ChartWidget::paintExport(QPainter& painter, QSize size) const
{
    painter.setFont(font());
    paintChart(painter, size, exportStyle(), false);
}

void ChartWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintChart(painter, size(), screenStyle(), true);
}

bool ChartWidget::paintBackdrop(QPainter& painter, QSize size, QRectF titleBox,
    const ChartStyle& style, bool onScreen, bool hasData, bool plotEmpty) const
{
    painter.fillRect(QRect(QPoint(0, 0), size), style.background);
    paintChartTitle(
        painter, titleBox, m_title, m_subtitle, onScreen && hasData ? m_hint : QString(), style);
    if (!plotEmpty)
        return true;
    QString text = m_message;
    if (onScreen && m_busy)
        text = tr("Computing…");
    else if (text.isEmpty())
        text = hasData ? tr("Too small to draw") : tr("No data");
    paintChartMessage(painter,
        QRectF(
            16.0, titleBox.bottom(), size.width() - 32.0, size.height() - titleBox.bottom() - 16.0),
        text, style);
    return false;
}

void ChartWidget::paintDragAndBusy(QPainter& painter, QRect plot,
    const std::function<core::TimeUs(int)>& timeAt, const ChartStyle& style, int width,
    bool hasData) const
{
    if (m_dragging && m_pressPos) {
        const int x0 = std::clamp(m_pressPos->x(), plot.left(), plot.left() + plot.width());
        paintRangeDrag(painter, plot, x0, m_dragX,
            { timeAt(std::min(x0, m_dragX)), timeAt(std::max(x0, m_dragX)) },
            palette().color(QPalette::Highlight), style, width);
    }
    if (m_showBusy && hasData)
        paintBusyVeil(painter, plot, style);
}

void ChartWidget::showPlotTip(QPoint globalPos, const QString& tip, bool zoomable)
{
    setCursor(zoomable ? Qt::CrossCursor : Qt::ArrowCursor);
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, tip, this);
}

void ChartWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position().toPoint();
        m_dragging = false;
    }
    QWidget::mousePressEvent(event);
}

void ChartWidget::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    clearHover();
    QToolTip::hideText();
    update();
}

bool ChartWidget::followDrag(QPoint pos, Qt::MouseButtons buttons, QRect plot, bool allowed)
{
    if (!allowed || !m_pressPos || !(buttons & Qt::LeftButton)
        || !plot.adjusted(0, 0, 1, 1).contains(*m_pressPos))
        return false;
    if (!m_dragging && std::abs(pos.x() - m_pressPos->x()) <= kDragThreshold)
        return false;
    m_dragging = true;
    m_dragX = std::clamp(pos.x(), plot.left(), plot.left() + plot.width());
    QToolTip::hideText();
    update();
    return true;
}

std::optional<QPoint> ChartWidget::releaseClick(
    QMouseEvent* event, QRect plot, const std::function<core::TimeUs(int)>& timeAt)
{
    if (event->button() != Qt::LeftButton || !m_pressPos) {
        QWidget::mouseReleaseEvent(event);
        return std::nullopt;
    }
    const QPoint press = *m_pressPos;
    m_pressPos.reset();
    if (!m_dragging)
        return press;
    m_dragging = false;
    const int x0 = std::clamp(press.x(), plot.left(), plot.left() + plot.width());
    update();
    const auto begin = timeAt(std::min(x0, m_dragX));
    const auto end = timeAt(std::max(x0, m_dragX));
    if (end > begin)
        emit rangeSelected({ begin, end });
    return std::nullopt;
}

void ChartWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    invalidate();
}

void ChartWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::PaletteChange)
        invalidate();
}

} // namespace parallax::views
