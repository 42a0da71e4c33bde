// TimelineWidget's input: wheel, mouse and keys turned into navigation, selection, range
// selection, the reference mark and context menus.

#include "views/common/tool_tip.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace parallax::views {

using namespace timeline_internal;

bool TimelineWidget::event(QEvent* e)
{
    if (answerToolTip(this, e, [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
    return QWidget::event(e);
}

void TimelineWidget::setHover(QPoint pos)
{
    m_mouse = pos;
    update();
}

void TimelineWidget::leaveEvent(QEvent* event)
{
    m_mouse.reset();
    update();
    QWidget::leaveEvent(event);
}

void TimelineWidget::wheelEvent(QWheelEvent* e)
{
    const auto& g = currentGeometry();
    const QPoint delta = e->angleDelta();
    const double x = e->position().x();
    const bool overLabels = x < g.map.left;
    if (delta.x() != 0 || (e->modifiers() & Qt::ShiftModifier) != 0) {
        // Horizontal wheel or Shift+wheel: pan (a notch moves a tenth of the plot).
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        panBy(-d / 120.0 * g.map.width / 10.0, History::Gesture);
    } else if (overLabels || (e->modifiers() & Qt::AltModifier) != 0) {
        if (m_scrollBar->isVisible())
            m_scrollBar->setValue(m_scrollBar->value() - delta.y() / 120 * std::max(g.rowPitch, 1));
    } else if (delta.y() != 0) {
        zoomAt(std::pow(kZoomStep, delta.y() / 120.0), x, History::Gesture);
    }
    e->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() == Qt::BackButton) {
        back();
        return;
    }
    if (e->button() == Qt::ForwardButton) {
        forward();
        return;
    }
    if (e->button() != Qt::LeftButton)
        return;
    m_gestureClock.invalidate(); // a drag is a step of its own
    m_press = e->position().toPoint();
    m_pressWindow = m_window;
    m_dragged = false;
    m_selecting = (e->modifiers() & Qt::ShiftModifier) != 0;
    m_selectionX = m_press->x();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (!m_press) {
        setHover(pos);
        return;
    }
    m_mouse = pos;
    const int dx = pos.x() - m_press->x();
    if (std::abs(dx) > 3 || std::abs(pos.y() - m_press->y()) > 3)
        m_dragged = true;
    if (m_selecting) {
        const auto& g = currentGeometry();
        m_selectionX = std::clamp(
            pos.x(), static_cast<int>(g.map.left), static_cast<int>(g.map.left + g.map.width));
        update();
        return;
    }
    if (m_dragged) {
        setCursor(Qt::ClosedHandCursor);
        const auto& g = currentGeometry();
        const auto shift = static_cast<core::TimeUs>(std::llround(
            dx * static_cast<double>(m_pressWindow.length()) / std::max(g.map.width, 1.0)));
        applyWindow({ m_pressWindow.begin - shift, m_pressWindow.end - shift }, History::Gesture);
        // Vertical drag scrolls the rows.
        if (m_scrollBar->isVisible())
            m_scrollBar->setValue(m_scrollBar->value() - (pos.y() - m_press->y()));
        m_press->setY(pos.y());
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e)
{
    unsetCursor();
    if (e->button() != Qt::LeftButton || !m_press)
        return;
    const QPoint pos = e->position().toPoint();
    const bool selecting = m_selecting;
    const bool dragged = m_dragged;
    const QPoint press = *m_press;
    m_press.reset();
    m_selecting = false;
    update();
    if (selecting && dragged) {
        const auto& g = currentGeometry();
        const int a = std::min(press.x(), m_selectionX);
        const int b = std::max(press.x(), m_selectionX);
        const core::TimeRange range { g.map.timeAt(a), g.map.timeAt(b) };
        if (!range.empty())
            emit rangeSelected(range, mapToGlobal(pos));
        return;
    }
    if (dragged)
        return;
    // A click: on the ruler it sets the reference mark; else the load button, a block, or
    // nothing (clears the selection).
    if (const auto& g = currentGeometry(); press.y() >= g.ruler.top()
        && press.y() <= g.ruler.bottom() && press.x() >= g.map.left
        && press.x() <= g.map.left + g.map.width) {
        setReferenceTime(g.map.timeAt(press.x()));
        return;
    }
    if (const QRect button = loadButtonRect(); button.contains(pos)) {
        emit loadPesRequested(missingPathPes());
        return;
    }
    // A group's row: a click on its label, or on its aggregated bar, expands or collapses the
    // group in place (a KEY row's bar is a PE's: its executions are selected as any other).
    m_clickToggled = -1;
    if (const auto* at = currentGeometry().rowAt(pos.y());
        at != nullptr && at->group >= 0 && pos.y() >= at->eventStrip.top()) {
        const bool onLabel = pos.x() < currentGeometry().map.left;
        const bool onBracket = pos.x() < at->label.left() + kGroupBracketWidth;
        if ((at->groupRow() && (onLabel || at->collapsed()))
            || (at->role == TimelineRowRole::Member && onBracket)) {
            m_clickToggled = at->group;
            toggleGroup(at->group);
            return;
        }
    }
    const TimelineRow* row = nullptr;
    // A click on a user event says what it is at once (no hover delay).
    if (timeline_internal::userEventNear(currentGeometry(), pos, &row) != nullptr) {
        QToolTip::showText(mapToGlobal(pos), toolTipAt(pos), this);
        return;
    }
    const auto* block = blockAt(pos, &row);
    if (block == nullptr || row == nullptr || block->kind == TimelineBlockKind::Idle
        || row->collapsed()) {
        clearSelection();
        return;
    }
    if (block->kind == TimelineBlockKind::Execution) {
        selectExecution(row->pe, block->index);
        return;
    }
    // A merged pixel: the longest execution in it.
    const auto& p = m_trace->pes[static_cast<std::size_t>(row->pe)];
    const auto range = p.executionsOverlapping(block->begin, block->end);
    std::optional<std::size_t> best;
    for (auto k = range.first; k < range.last; ++k)
        if (!best
            || p.executions.end[k] - p.executions.begin[k]
                > p.executions.end[*best] - p.executions.begin[*best])
            best = k;
    if (best)
        selectExecution(row->pe, *best);
    else
        clearSelection();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (m_clickToggled >= 0) {
        // The first click expanded or collapsed a group. On its label that stands; on its bar
        // the double click means zoom in: the group goes back as it was.
        const int group = m_clickToggled;
        m_clickToggled = -1;
        if (pos.x() < currentGeometry().map.left)
            return;
        toggleGroup(group);
        zoom(0.1, e->position().x());
        return;
    }
    const TimelineRow* row = nullptr;
    const auto* block = blockAt(pos, &row);
    if (block == nullptr)
        return;
    if (block->kind == TimelineBlockKind::Merged || block->kind == TimelineBlockKind::Aggregate) {
        zoom(0.1, e->position().x());
        return;
    }
    const auto margin = std::max<core::TimeUs>((block->end - block->begin) / 5, 2);
    setWindow({ block->begin - margin, block->end + margin });
}

void TimelineWidget::keyPressEvent(QKeyEvent* e)
{
    const auto& g = currentGeometry();
    const double centre = g.map.left + g.map.width / 2.0;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom(0.5, m_mouse ? m_mouse->x() : centre);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoom(2.0, m_mouse ? m_mouse->x() : centre);
        break;
    case Qt::Key_Left:
        if ((e->modifiers() & Qt::AltModifier) != 0)
            back();
        else
            panBy(-g.map.width / 8.0, History::Gesture);
        break;
    case Qt::Key_Right:
        if ((e->modifiers() & Qt::AltModifier) != 0)
            forward();
        else
            panBy(g.map.width / 8.0, History::Gesture);
        break;
    case Qt::Key_Backspace:
    case Qt::Key_Back:
        back();
        break;
    case Qt::Key_Forward:
        forward();
        break;
    case Qt::Key_End:
        goToEnd();
        break;
    case Qt::Key_F:
        fit();
        break;
    case Qt::Key_0:
        if ((e->modifiers() & Qt::ControlModifier) != 0)
            fit();
        else
            QWidget::keyPressEvent(e);
        break;
    case Qt::Key_Up:
        m_scrollBar->setValue(m_scrollBar->value() - std::max(g.rowPitch, 1));
        break;
    case Qt::Key_Down:
        m_scrollBar->setValue(m_scrollBar->value() + std::max(g.rowPitch, 1));
        break;
    case Qt::Key_PageUp:
        m_scrollBar->setValue(m_scrollBar->value() - g.rowsArea.height());
        break;
    case Qt::Key_PageDown:
        m_scrollBar->setValue(m_scrollBar->value() + g.rowsArea.height());
        break;
    case Qt::Key_Home:
        goToStart();
        break;
    case Qt::Key_Escape:
        if (m_selected)
            clearSelection();
        else
            setReferenceTime(std::nullopt);
        break;
    default:
        QWidget::keyPressEvent(e);
    }
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* e)
{
    const auto& g = currentGeometry();
    const auto* row = g.rowAt(e->pos().y());
    emit contextMenuRequested(
        e->globalPos(), row != nullptr ? row->pe : core::kNoPe, g.map.timeAt(e->pos().x()));
}

} // namespace parallax::views
