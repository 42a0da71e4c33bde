// TimelineWidget's tooltips: what is under the cursor (an execution, idle, a merged pixel, a
// collapsed row, user events, sends, notes, brackets), in words.

#include "core/analysis/user_events.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QLocale>

#include <algorithm>

namespace parallax::views {

using namespace timeline_internal;

QString TimelineWidget::blockToolTip(const TimelineRow& row, const TimelineBlock& block) const
{
    const auto& meta = m_trace->metadata;
    const auto& g = currentGeometry();
    if (block.kind == TimelineBlockKind::Aggregate || row.collapsed()) {
        const QString dominant
            = activityName(meta, g.columns, block.activity, false).toHtmlEscaped();
        const QString name = row.role == TimelineRowRole::KeyRest
            ? tr("rest of %1").arg(row.groupLabel)
            : row.groupLabel;
        const auto percent = [](float share) {
            return QString::number(static_cast<double>(share) * 100.0, 'f', 0);
        };
        QString text = tr("<b>%1</b> (%2 PEs)<br>%3 – %4<br>")
                           .arg(name.toHtmlEscaped())
                           .arg(row.members.size())
                           .arg(formatPreciseTime(block.begin), formatPreciseTime(block.end));
        const auto index = static_cast<std::size_t>(&block - row.blocks.data());
        if (index < row.spread.size()) {
            const auto& spread = row.spread[index];
            text += tr("mean %1 % busy · lowest %2 % (PE %3) · highest %4 % (PE %5)<br>")
                        .arg(percent(block.utilization), percent(spread.low))
                        .arg(spread.lowPe)
                        .arg(percent(spread.high))
                        .arg(spread.highPe);
        } else {
            text += tr("%1 % busy (the members' mean)<br>").arg(percent(block.utilization));
        }
        return text
            + tr("mostly %1 (%2 % of the busy time)<br>%3 executions begin here<br>"
                 "<i>click: %4 the group</i>")
                  .arg(dominant, percent(block.dominantShare))
                  .arg(block.count)
                  .arg(row.groupExpanded ? tr("collapse") : tr("expand"));
    }
    if (const QString role = keyRoleText(row); !role.isEmpty())
        return peBlockToolTip(row, block)
            + QStringLiteral("<br><i>%1 (%2)</i>").arg(role, row.groupLabel.toHtmlEscaped());
    return peBlockToolTip(row, block);
}

QString TimelineWidget::peBlockToolTip(const TimelineRow& row, const TimelineBlock& block) const
{
    const auto& meta = m_trace->metadata;
    const auto& g = currentGeometry();
    const auto& p = m_trace->pes[static_cast<std::size_t>(row.pe)];
    if (block.kind == TimelineBlockKind::Idle)
        return tr("<b>Idle</b> on PE %1<br>%2 – %3<br>duration %4")
            .arg(row.pe)
            .arg(formatPreciseTime(block.begin), formatPreciseTime(block.end),
                durationText(block.end - block.begin));
    if (block.kind == TimelineBlockKind::Merged) {
        const QString dominant
            = activityName(meta, g.columns, block.activity, false).toHtmlEscaped();
        return tr("<b>%1 intervals</b> in this pixel on PE %2 (%3 executions)<br>%4 – %5<br>"
                  "executing %6 % of this time; mostly %7 (%8 % of the covered time)<br>"
                  "<i>zoom in to see them one by one</i>")
            .arg(block.count)
            .arg(row.pe)
            .arg(block.executions)
            .arg(formatPreciseTime(block.begin), formatPreciseTime(block.end))
            .arg(static_cast<double>(block.utilization) * 100.0, 0, 'f', 0)
            .arg(dominant)
            .arg(static_cast<double>(block.dominantShare) * 100.0, 0, 'f', 0);
    }
    const auto k = static_cast<std::size_t>(block.index);
    const auto& ex = p.executions;
    const int entry = ex.entry[k];
    QString text = QStringLiteral("<b>%1</b>")
                       .arg(QString::fromStdString(meta.entryName(entry)).toHtmlEscaped());
    const auto chare = QString::fromStdString(meta.chareNameOfEntry(entry));
    if (!chare.isEmpty())
        text += tr("<br>chare %1").arg(chare.toHtmlEscaped());
    if (ex.object[k] < p.objects.size()) {
        const auto& id = p.objects[ex.object[k]];
        if (id.length > 0 && meta.objectIdLength(entry) > 0 && meta.objectIdLength(entry) <= 6) {
            QStringList parts;
            for (std::size_t i = 0; i < id.length; ++i)
                parts << QString::number(id.values[i]);
            text += QStringLiteral(" [%1]").arg(parts.join(QLatin1Char(',')));
        }
    }
    text += tr("<br>PE %1 · begin %2 · duration %3")
                .arg(row.pe)
                .arg(formatPreciseTime(ex.begin[k]), durationText(ex.end[k] - ex.begin[k]));
    if (ex.cpuDuration[k] > 0)
        text += tr(" (CPU %1)").arg(durationText(static_cast<core::TimeUs>(ex.cpuDuration[k])));
    if (ex.msgBytes[k] > 0)
        text += tr("<br>message %1 bytes").arg(QLocale().toString(ex.msgBytes[k]));
    const auto link = findMessageSource(*m_trace, row.pe, k);
    if (link.linked()) {
        const auto sendTime
            = m_trace->pes[static_cast<std::size_t>(link.senderPe)].sends.time[*link.send];
        text += tr("<br>sent by PE %1 at %2 · latency %3")
                    .arg(link.senderPe)
                    .arg(formatPreciseTime(sendTime), durationText(ex.begin[k] - sendTime));
        if (link.weak())
            text += tr("<br><i>uncertain link: %1</i>")
                        .arg(QString::fromStdString(link.reason).toHtmlEscaped());
    } else if (ex.sourcePe[k] >= 0 && link.status != MessageLink::Status::NoSource) {
        text += tr("<br>source PE %1 · %2")
                    .arg(ex.sourcePe[k])
                    .arg(QString::fromStdString(link.reason).toHtmlEscaped());
    }
    const std::uint8_t flags = ex.flags[k];
    if ((flags & ~core::kTimeClamped) != 0)
        text += tr("<br><i>the log has no regular end for this execution</i>");
    text += tr("<br><span style='color:gray'>click: show the message arrow</span>");
    return text;
}

QString TimelineWidget::groupLabelToolTip(const TimelineRow& row) const
{
    const auto& group = m_groups[static_cast<std::size_t>(row.group)];
    const auto busyShare = [](const TimelineRow& r) {
        return r.tracedUs > 0
            ? tr("%1 % busy in this window")
                  .arg(100.0 * static_cast<double>(r.busyUs) / static_cast<double>(r.tracedUs), 0,
                      'f', 1)
            : tr("not traced in this window");
    };
    QString text = tr("<b>%1</b>: %n PE(s) (%2)", nullptr, static_cast<int>(group.pes.size()))
                       .arg(group.label.toHtmlEscaped(),
                           QString::fromStdString(core::formatPeList(group.pes)));
    switch (row.role) {
    case TimelineRowRole::GroupSum:
        text += tr("<br>SUM: the members' mean utilization per pixel, coloured by the entry "
                   "they ran most · %1")
                    .arg(busyShare(row));
        break;
    case TimelineRowRole::GroupSet:
        text += tr("<br>SET: solid up to the least busy member, pale up to the busiest, a dark "
                   "mark at the mean · %1")
                    .arg(busyShare(row));
        break;
    case TimelineRowRole::KeyRest:
        text += tr("<br>KEY: the mean of the %n other member(s) · %1", nullptr,
            static_cast<int>(row.members.size()))
                    .arg(busyShare(row));
        break;
    default:
        text += QStringLiteral("<br>") + keyRoleText(row) + QStringLiteral(" · ") + busyShare(row);
        break;
    }
    return text
        + tr("<br><i>click: %1 the group · right-click: more</i>")
              .arg(group.expanded ? tr("collapse") : tr("expand"));
}

QString TimelineWidget::keyRoleText(const TimelineRow& row) const
{
    switch (row.role) {
    case TimelineRowRole::KeyFirst:
        return tr("KEY: PE %1, the group's first PE, drawn from its own log").arg(row.pe);
    case TimelineRowRole::KeyBusiest:
        return tr("KEY: PE %1, the busiest of the group (most entry-method time over the run), "
                  "drawn from its own log")
            .arg(row.pe);
    case TimelineRowRole::KeyLeastBusy:
        return tr("KEY: PE %1, the least busy of the group (least entry-method time over the "
                  "run), drawn from its own log")
            .arg(row.pe);
    default:
        return {};
    }
}

const TimelineTick* timeline_internal::userEventNear(
    const TimelineGeometry& g, QPoint pos, const TimelineRow** row)
{
    // The row under the cursor, or the one just below when the cursor is in the gap above its
    // strip.
    for (const int below : { 0, 3 }) {
        const auto* r = g.rowAt(pos.y() + below);
        if (r == nullptr || r->collapsed() || r->userEvents.empty()
            || pos.y() < r->eventStrip.top() - 3 || pos.y() > r->bar.top() + 1)
            continue;
        const TimelineTick* best = nullptr;
        for (const auto& t : r->userEvents)
            if (std::abs(t.x - pos.x()) <= kUserEventReach
                && (best == nullptr || std::abs(t.x - pos.x()) < std::abs(best->x - pos.x())))
                best = &t;
        if (best != nullptr) {
            *row = r;
            return best;
        }
    }
    return nullptr;
}

QString TimelineWidget::toolTipAt(QPoint pos) const
{
    if (!m_trace)
        return {};
    if (loadButtonRect().contains(pos))
        return tr("Add the message's sender to the timeline to draw its arrow");
    const auto& g = currentGeometry();
    const TimelineRow* row = nullptr;
    // User events first: their ticks are thin and reach into the bar's top edge.
    if (const auto* t = userEventNear(g, pos, &row)) {
        const auto& e = m_trace->pes[static_cast<std::size_t>(row->pe)].userEvents[t->index];
        const auto name
            = QString::fromStdString(core::analysis::userEventName(m_trace->metadata, e.id));
        QString text = tr("<b>%1</b> (user event %2)<br>PE %3 at %4")
                           .arg(name.toHtmlEscaped())
                           .arg(e.id)
                           .arg(row->pe)
                           .arg(formatPreciseTime(e.time));
        if (t->count > 1)
            text += tr("<br>%1 events in this pixel").arg(t->count);
        return text;
    }
    if (const auto* block = blockAt(pos, &row); block != nullptr && row != nullptr)
        return blockToolTip(*row, *block);
    row = g.rowAt(pos.y());
    if (row == nullptr)
        return {};
    if (row->groupRow() && pos.x() < g.map.left)
        return groupLabelToolTip(*row);
    if (row->collapsed())
        return {};
    if (row->group >= 0 && row->groupExpanded && pos.x() < row->label.left() + kGroupBracketWidth)
        return tr("<b>%1</b><br><i>click: collapse the group</i>")
            .arg(m_groups[static_cast<std::size_t>(row->group)].label.toHtmlEscaped());
    if (pos.x() < g.map.left) {
        QString text = tr("<b>PE %1</b>").arg(row->pe);
        if (row->commThread)
            text += tr(" · communication thread of node %1").arg(row->node);
        else if (m_trace->metadata.smp)
            text += tr(" · node %1").arg(row->node);
        if (row->tracedUs > 0)
            text += tr("<br>in this window: %1 busy, %2 idle (%3 % / %4 %)")
                        .arg(durationText(row->busyUs), durationText(row->idleUs))
                        .arg(100.0 * static_cast<double>(row->busyUs)
                                / static_cast<double>(row->tracedUs),
                            0, 'f', 1)
                        .arg(100.0 * static_cast<double>(row->idleUs)
                                / static_cast<double>(row->tracedUs),
                            0, 'f', 1);
        return text;
    }
    const auto& p = m_trace->pes[static_cast<std::size_t>(row->pe)];
    const auto& meta = m_trace->metadata;
    auto userEventName = [&](core::UserEventId id) {
        const auto it = meta.userEvents.find(id);
        return it != meta.userEvents.end() ? QString::fromStdString(it->second)
                                           : tr("user event %1").arg(id);
    };
    // Message sends in the gap below the bar.
    if (pos.y() > row->bar.bottom()) {
        for (const auto& t : row->sends)
            if (std::abs(t.x - pos.x()) <= 2) {
                const auto s = static_cast<std::size_t>(t.index);
                const auto& sends = p.sends;
                QString text = tr("<b>message sent</b> to %1<br>PE %2 at %3 · %4 bytes")
                                   .arg(QString::fromStdString(meta.entryName(sends.entry[s]))
                                            .toHtmlEscaped())
                                   .arg(row->pe)
                                   .arg(formatPreciseTime(sends.time[s]))
                                   .arg(QLocale().toString(sends.msgBytes[s]));
                if (sends.kind[s] == core::SendKind::Broadcast)
                    text += tr("<br>broadcast");
                else if (sends.kind[s] == core::SendKind::Multicast)
                    text += tr("<br>multicast to %1 PEs").arg(sends.destinationCount[s]);
                text += tr("<br>event id %1").arg(sends.eventId[s]);
                if (t.count > 1)
                    text += tr("<br>%1 sends in this pixel").arg(t.count);
                return text;
            }
        return {};
    }
    // Notes, user events and brackets in the strip above the bar.
    if (pos.y() <= row->bar.top() + 2) {
        for (const auto& t : row->notes)
            if (std::abs(t.x - pos.x()) <= 2) {
                const auto& n = p.notes[t.index];
                QString text
                    = tr("<b>note</b> on PE %1 at %2").arg(row->pe).arg(formatPreciseTime(n.begin));
                if (n.end > n.begin)
                    text += tr(" until %1 (%2)")
                                .arg(formatPreciseTime(n.end), durationText(n.end - n.begin));
                if (n.id >= 0)
                    text += tr("<br>%1").arg(userEventName(n.id).toHtmlEscaped());
                text += QStringLiteral("<br>") + QString::fromStdString(n.text).toHtmlEscaped();
                if (t.count > 1)
                    text += tr("<br>%1 notes in this pixel").arg(t.count);
                return text;
            }
    }
    if (pos.y() <= row->bar.top()) {
        for (const auto& b : row->brackets)
            if (pos.x() >= b.left - 1 && pos.x() <= b.right) {
                const auto& bracket = p.userBrackets[b.index];
                QString text
                    = tr("<b>%1</b><br>PE %2 · %3 – %4 (%5)")
                          .arg(userEventName(bracket.id).toHtmlEscaped())
                          .arg(row->pe)
                          .arg(formatPreciseTime(bracket.begin), formatPreciseTime(bracket.end),
                              durationText(bracket.end - bracket.begin));
                if (b.count > 1)
                    text += tr("<br>with %1 more overlapping here").arg(b.count - 1);
                return text;
            }
    }
    return {};
}

} // namespace parallax::views
