#include "views/overview/overview_chart.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parallax::views {
namespace {

QString percent(double value)
{
    return QLocale().toString(value, 'f', value >= 10.0 || value == 0.0 ? 0 : 1)
        + QStringLiteral(" %");
}

} // namespace

QString overviewRowLabel(core::PeId pe, bool commThread)
{
    return commThread ? OverviewChart::tr("PE %1 (comm)").arg(pe)
                      : OverviewChart::tr("PE %1").arg(pe);
}

// ---------------------------------------------------------------------------------------------
// OverviewChart

OverviewChart::OverviewChart(EntryPalette* palette, QWidget* parent)
    : QWidget(parent)
    , m_palette(palette)
{
    setObjectName(QStringLiteral("overviewChart"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    if (palette != nullptr)
        connect(palette, &EntryPalette::changed, this, [this]() {
            m_image = QImage();
            update();
        });
}

void OverviewChart::setData(const core::TracePtr& trace, const core::analysis::Overview* overview,
    OverviewColoring coloring)
{
    m_trace = trace;
    m_overview = overview;
    m_coloring = coloring;
    m_traced.clear();
    m_dominantCounts.clear();
    if (m_overview != nullptr && m_trace) {
        for (const auto pe : m_overview->pes) {
            core::TimeRange span;
            if (pe >= 0 && static_cast<std::size_t>(pe) < m_trace->pes.size()) {
                const auto& p = m_trace->pes[static_cast<std::size_t>(pe)];
                if (p.firstTime >= 0)
                    span = { p.beginComputation >= 0 ? p.beginComputation : p.firstTime,
                        std::max(p.endComputation, p.lastTime) };
            }
            m_traced.push_back(span);
        }
        m_dominantCounts = dominantCellCounts(*m_overview, m_traced);
    }
    invalidate();
}

void OverviewChart::setBusy(bool busy)
{
    m_busy = busy;
    update();
}

void OverviewChart::setSubtitle(const QString& subtitle)
{
    m_subtitle = subtitle;
    update();
}

void OverviewChart::setCommThreadsMuted(bool muted)
{
    if (m_commThreadsMuted == muted)
        return;
    m_commThreadsMuted = muted;
    update();
}

void OverviewChart::setSelectedRange(std::optional<core::TimeRange> range)
{
    m_selected = range;
    update();
}

void OverviewChart::invalidate()
{
    m_geometry.reset();
    m_image = QImage();
    update();
}

void OverviewChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_geometry.reset();
}

OverviewLayout OverviewChart::layoutFor(bool exported) const
{
    const QFontMetrics fm(font());
    OverviewLayout layout;
    layout.titleHeight = fm.height() + 10;
    layout.lineHeight = fm.height();
    int widest = fm.horizontalAdvance(QStringLiteral("PE 0"));
    if (m_overview != nullptr && !m_overview->pes.empty()) {
        const bool comm = m_trace && m_trace->metadata.commThreadsPerNode > 0;
        widest = fm.horizontalAdvance(overviewRowLabel(m_overview->pes.back(), comm));
    }
    layout.labelWidth = widest + 14;
    layout.axisHeight = fm.height() + 14;
    layout.legendHeight = (exported ? 2 : 1) * (fm.height() + 8) + 4;
    layout.minTickSpacing
        = std::max(100.0, fm.horizontalAdvance(QStringLiteral("8,888 ms")) + 30.0);
    return layout;
}

OverviewGeometry OverviewChart::geometryFor(QSize size, bool exported) const
{
    static const core::analysis::Overview kEmpty;
    return buildOverviewGeometry(m_overview != nullptr ? *m_overview : kEmpty,
        m_trace ? &m_trace->metadata : nullptr, size, layoutFor(exported));
}

const OverviewGeometry& OverviewChart::currentGeometry() const
{
    if (!m_geometry || m_geometrySize != size()) {
        m_geometry = geometryFor(size(), false);
        m_geometrySize = size();
    }
    return *m_geometry;
}

const QImage& OverviewChart::imageFor(QSize plotSize) const
{
    if (m_overview != nullptr && (m_image.isNull() || m_imageSize != plotSize)) {
        const auto columns = m_overview->columns;
        QPointer<EntryPalette> palette = m_palette;
        m_image = overviewImage(
            *m_overview, m_coloring, plotSize,
            [&](int column) {
                return palette ? palette->color(columns, column) : QColor(Qt::gray);
            },
            m_traced);
        m_imageSize = plotSize;
    }
    return m_image;
}

std::optional<core::PeId> OverviewChart::peAt(QPoint pos) const
{
    if (m_overview == nullptr)
        return std::nullopt;
    const auto cell = currentGeometry().cellAt(pos);
    if (!cell)
        return std::nullopt;
    return m_overview->pes[cell->row];
}

OverviewChart::Style OverviewChart::screenStyle() const
{
    return screenChartStyle(palette(), 0.42, 0.85);
}

OverviewChart::Style OverviewChart::exportStyle()
{
    return { QColor(Qt::white), QColor(0x1f, 0x1f, 0x1f), QColor(0x66, 0x66, 0x66),
        QColor(0xd9, 0xd9, 0xd9), {} };
}

QImage OverviewChart::renderImage(QSize size) const
{
    if (size.isEmpty())
        size = QSize(1200, 700);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font());
    const auto g = geometryFor(size, true);
    paintFrame(painter, g, exportStyle(), false);
    return image;
}

void OverviewChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintFrame(painter, currentGeometry(), screenStyle(), true);
}

QString OverviewChart::toolTipAt(QPoint pos) const
{
    if (m_overview == nullptr || !m_trace)
        return {};
    const auto& g = currentGeometry();
    const auto cell = g.cellAt(pos);
    if (!cell)
        return {};
    const auto& o = *m_overview;
    const auto pe = o.pes[cell->row];
    const auto& meta = m_trace->metadata;
    QString where = tr("<b>PE %1</b>").arg(pe);
    if (meta.isCommThread(pe))
        where += tr(" · comm thread of node %1").arg(meta.nodeOf(pe));
    else if (meta.smp)
        where += tr(" · node %1").arg(meta.nodeOf(pe));
    const core::TimeRange span { o.grid.begin(cell->column), o.grid.end(cell->column) };
    QString text = where + QStringLiteral("<br>") + formatTimeSpan(span);
    if (!overviewCellHasData(o, cell->row, cell->column, m_traced))
        return text + tr("<br><i>not traced here</i>");
    const auto index = o.index(cell->row, cell->column);
    text += tr("<br>utilization %1 · idle %2")
                .arg(percent(static_cast<double>(o.utilization[index])),
                    percent(static_cast<double>(o.idle[index])));
    text += tr("<br>most time: %1")
                .arg(activityName(meta, o.columns, o.dominant[index], true).toHtmlEscaped());
    if (g.columns > g.plot.width() || g.rows > static_cast<std::size_t>(g.plot.height()))
        text += tr("<br><span style='color:gray'>one of several cells in this pixel</span>");
    text += tr("<br><span style='color:gray'>click: open PE %1 in the timeline</span>").arg(pe);
    return text;
}

bool OverviewChart::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void OverviewChart::leaveEvent(QEvent* e)
{
    m_mouse.reset();
    update();
    QWidget::leaveEvent(e);
}

void OverviewChart::mousePressEvent(QMouseEvent* e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton || m_overview == nullptr)
        return;
    const auto& g = currentGeometry();
    const QPoint p = e->position().toPoint();
    if (!g.plot.adjusted(0, -6, 0, 6).contains(p))
        return;
    m_dragStart = std::clamp(p.x(), g.plot.left(), g.plot.right() + 1);
    m_dragNow = m_dragStart;
}

void OverviewChart::mouseMoveEvent(QMouseEvent* e)
{
    m_mouse = e->position().toPoint();
    if (m_dragStart) {
        const auto& g = currentGeometry();
        m_dragNow = std::clamp(m_mouse->x(), g.plot.left(), g.plot.right() + 1);
    }
    update();
}

void OverviewChart::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !m_dragStart)
        return;
    const int start = *m_dragStart;
    const int end = m_dragNow.value_or(start);
    m_dragStart.reset();
    m_dragNow.reset();
    update();
    const auto& g = currentGeometry();
    if (std::abs(end - start) < 4) {
        // A click: the PE of that row.
        if (const auto pe = peAt(e->position().toPoint()))
            emit rowClicked(*pe);
        return;
    }
    const core::TimeRange range { g.map.timeAt(std::min(start, end)),
        g.map.timeAt(std::max(start, end)) };
    if (range.empty())
        return;
    m_selected = range;
    emit rangeSelected(range, mapToGlobal(e->position().toPoint()));
}

void OverviewChart::keyPressEvent(QKeyEvent* e)
{
    if (e->key() == Qt::Key_Escape && m_selected) {
        setSelectedRange(std::nullopt);
        return;
    }
    QWidget::keyPressEvent(e);
}

void OverviewChart::contextMenuEvent(QContextMenuEvent* e)
{
    emit contextMenuRequested(e->globalPos(), peAt(e->pos()));
}

// ---------------------------------------------------------------------------------------------
// OverviewView

} // namespace parallax::views
