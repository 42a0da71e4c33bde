// TimelineWidget's selection: the picked execution, the message links drawn from it
// (core/analysis/message_links), the entry highlight and the inline "Load PE n" button.

#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace parallax::views {

using namespace timeline_internal;

std::optional<std::size_t> TimelineWidget::executionNear(
    core::PeId pe, core::TimeUs time, core::TimeUs slack) const
{
    if (!m_trace || pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
        return std::nullopt;
    const auto& p = m_trace->pes[static_cast<std::size_t>(pe)];
    const auto range = p.executionsOverlapping(time - slack, time + slack + 1);
    std::optional<std::size_t> best;
    core::TimeUs bestDistance = 0;
    core::TimeUs bestLength = 0;
    for (auto k = range.first; k < range.last; ++k) {
        const auto b = p.executions.begin[k];
        const auto e = p.executions.end[k];
        const core::TimeUs distance = time < b ? b - time : (time >= e ? time - e + 1 : 0);
        // The one containing the time, else the nearest; among equals the longest.
        if (!best || distance < bestDistance || (distance == bestDistance && e - b > bestLength)) {
            best = k;
            bestDistance = distance;
            bestLength = e - b;
        }
    }
    return best;
}

bool TimelineWidget::selectAt(core::PeId pe, core::TimeUs time)
{
    const auto& g = currentGeometry();
    const auto slack = static_cast<core::TimeUs>(std::floor(g.map.usPerPixel() / 2.0));
    const auto k = executionNear(pe, time, slack);
    if (!k) {
        clearSelection();
        return false;
    }
    return selectExecution(pe, *k);
}

bool TimelineWidget::selectExecution(core::PeId pe, std::size_t execution)
{
    if (!m_trace || pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size()
        || execution >= m_trace->pes[static_cast<std::size_t>(pe)].executions.size())
        return false;
    m_selected = TimelineSelection { pe, execution };
    relink();
    update();
    emit blockSelected();
    return true;
}

void TimelineWidget::clearSelection()
{
    if (!m_selected)
        return;
    m_selected.reset();
    m_path.clear();
    m_targets.clear();
    update();
    emit blockSelected();
}

void TimelineWidget::relink()
{
    m_path.clear();
    m_targets.clear();
    if (m_selected && m_trace) {
        m_targets = findMessageTargets(*m_trace, m_selected->pe, m_selected->execution, m_pes);
        const auto hops = static_cast<std::size_t>(m_backTraceHops);
        m_path
            = findMessagePath(*m_trace, m_selected->pe, m_selected->execution, 4 * hops + 6, hops);
    }
}

void TimelineWidget::setBackTraceHops(int hops)
{
    hops = std::clamp(hops, 1, kMaxBackTraceHops);
    if (hops == m_backTraceHops)
        return;
    m_backTraceHops = hops;
    relink();
    update();
    emit blockSelected();
}

void TimelineWidget::setHighlight(std::optional<Highlight> highlight)
{
    if (highlight == m_highlight)
        return;
    m_highlight = std::move(highlight);
    update();
}

bool TimelineWidget::isHighlighted(const TimelineRow& row, const TimelineBlock& block) const
{
    if (!m_highlight)
        return true;
    if (block.activity != m_highlight->entry || block.kind == TimelineBlockKind::Idle)
        return false;
    if (!m_highlight->object)
        return true;
    // An object: only single executions can be told apart.
    if (block.kind != TimelineBlockKind::Execution || row.collapsed() || !m_trace)
        return false;
    const auto& p = m_trace->pes[static_cast<std::size_t>(row.pe)];
    const auto object = p.executions.object[block.index];
    return object < p.objects.size() && p.objects[object] == *m_highlight->object;
}

std::optional<MessageLink> TimelineWidget::arrowSource() const
{
    if (m_path.empty())
        return std::nullopt;
    return m_path.front();
}

std::vector<core::PeId> TimelineWidget::missingPathPes() const
{
    std::vector<core::PeId> missing;
    for (const auto& link : m_path) {
        if (!link.linked())
            break;
        if (std::find(m_pes.begin(), m_pes.end(), link.senderPe) == m_pes.end()
            && std::find(missing.begin(), missing.end(), link.senderPe) == missing.end())
            missing.push_back(link.senderPe);
    }
    return missing;
}

QRect TimelineWidget::loadButtonRect() const
{
    if (!m_selected || !m_trace)
        return {};
    const auto missing = missingPathPes();
    if (missing.empty())
        return {};
    const auto& g = currentGeometry();
    const auto* row = g.rowOfPe(m_selected->pe);
    if (row == nullptr)
        return {};
    const QFontMetrics fm(font());
    const QString text = missing.size() == 1
        ? tr("Load PE %1 (sender)").arg(missing.front())
        : tr("Load PEs %1 (message path)").arg(peListText(missing));
    const int w = fm.horizontalAdvance(text) + 16;
    const int h = fm.height() + 6;
    const auto& ex = m_trace->pes[static_cast<std::size_t>(m_selected->pe)].executions;
    const int x = static_cast<int>(std::clamp(
        g.map.xOf(ex.begin[m_selected->execution]), g.map.left, g.map.left + g.map.width - w));
    // Above the row when there is room in the rows area, else below it.
    int y = row->bar.top() - h - 2;
    if (y < g.rowsArea.top())
        y = row->bar.bottom() + 3;
    return QRect(x, y, w, h);
}

} // namespace parallax::views
