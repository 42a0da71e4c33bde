// TimelineWidget's row pass: each row's label, its bar of executions and idle (through
// TimelineBarPainter), pack/unpack marks, user events, brackets, notes and send ticks.

#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_bar_painter.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parallax::views {

using namespace timeline_internal;

namespace {

// The label of one of a group's rows: `first` (and `second` below it when two lines fit) or
// `oneLine`.
void groupLabels(const TimelineRow& row, const QString& busyText, QString& first, QString& oneLine,
    QString& second)
{
    const QString mark = row.groupExpanded ? QStringLiteral("▾ ") : QStringLiteral("▸ ");
    const QString group = mark + row.groupLabel;
    switch (row.role) {
    case TimelineRowRole::KeyFirst:
        first = group;
        oneLine = TimelineWidget::tr("%1 · first PE %2").arg(group).arg(row.pe);
        second = TimelineWidget::tr("first: PE %1").arg(row.pe) + busyText;
        return;
    case TimelineRowRole::KeyBusiest:
        first = TimelineWidget::tr("▲ PE %1").arg(row.pe);
        oneLine = TimelineWidget::tr("▲ PE %1 busiest").arg(row.pe);
        second = TimelineWidget::tr("busiest") + busyText;
        return;
    case TimelineRowRole::KeyLeastBusy:
        first = TimelineWidget::tr("▼ PE %1").arg(row.pe);
        oneLine = TimelineWidget::tr("▼ PE %1 least busy").arg(row.pe);
        second = TimelineWidget::tr("least busy") + busyText;
        return;
    case TimelineRowRole::KeyRest:
        first = TimelineWidget::tr("rest of %1").arg(row.groupLabel);
        oneLine
            = TimelineWidget::tr("rest (%n PEs)", nullptr, static_cast<int>(row.members.size()));
        second = TimelineWidget::tr("%n PEs, mean", nullptr, static_cast<int>(row.members.size()))
            + busyText;
        return;
    default:
        first = group;
        oneLine = TimelineWidget::tr("%1 (%2 PEs)").arg(group).arg(row.members.size());
        second = (row.role == TimelineRowRole::GroupSet
                         ? TimelineWidget::tr("%1 PEs, spread").arg(row.members.size())
                         : TimelineWidget::tr("%1 PEs").arg(row.members.size()))
            + busyText;
        return;
    }
}

} // namespace

void TimelineWidget::paintRows(
    QPainter& painter, const TimelineGeometry& g, const Style& style) const
{
    const auto& meta = m_trace->metadata;
    const QFontMetrics fm(painter.font());
    QFont small = painter.font();
    small.setPointSizeF(small.pointSizeF() * 0.86);
    const QFontMetrics sfm(small);
    const QColor idle = faded(EntryPalette::idleColor(), style.background, 0.15);
    const QColor idleEdge = faded(EntryPalette::idleColor(), style.text, 0.12);
    TimelineBarPainter::Colours colours;
    colours.idle = idle;
    colours.idleEdge = idleEdge;
    for (int a = 0; a < g.columns.count(); ++a)
        colours.activity.push_back(m_palette ? m_palette->color(g.columns, a) : QColor(Qt::gray));
    TimelineBarPainter bars(std::move(colours));
    std::vector<QLine> lines; // ticks of a row, drawn in one call
    std::vector<QRect> rects;

    // Rows too thin for a label each get one every 1, 2, 5, 10, … rows.
    std::size_t labelStep = 1;
    for (std::size_t base = 1; static_cast<int>(labelStep) * g.rowPitch < sfm.height();) {
        if (labelStep == base)
            labelStep = 2 * base;
        else if (labelStep == 2 * base)
            labelStep = 5 * base;
        else
            labelStep = base *= 10;
    }
    for (const auto& row : g.rows) {
        // Node boundary (SMP): a line across the whole width in the gap above.
        if (row.firstOfNode && labelStep == 1) {
            const int y = row.eventStrip.top() - 4;
            painter.setPen(QPen(faded(style.text, style.background, 0.6), 1, Qt::DashLine));
            painter.drawLine(4, y, g.size.width() - 4, y);
        }
        // Label: "PE n" (a collapsed row: its name) and, when there is room, what it is and
        // how busy it was in the window. SMP runs name the node at its first row.
        const bool twoLines = row.label.height() >= fm.height() + sfm.height() - 2;
        const double busy = row.tracedUs > 0
            ? 100.0 * static_cast<double>(row.busyUs) / static_cast<double>(row.tracedUs)
            : -1.0;
        QString first = tr("PE %1").arg(row.pe);
        QString oneLine = row.commThread ? tr("PE %1 (comm)").arg(row.pe) : first;
        QString second;
        const QString busyText = busy >= 0 ? tr(" · %1 % busy").arg(busy, 0, 'f', 0) : QString();
        if (row.groupRow()) {
            groupLabels(row, busyText, first, oneLine, second);
        } else if (row.commThread) {
            second = tr("comm thread");
        } else if (busy >= 0) {
            second = tr("%1 % busy").arg(busy, 0, 'f', 0);
        }
        // A reduced run: which representative this PE is (exemplar or outlier, of which
        // cluster).
        if (const auto* kept
            = !row.collapsed() && m_trace->reduced ? m_trace->reduced->find(row.pe) : nullptr) {
            const QString role = kept->cluster >= 0
                ? tr("%1 C%2").arg(QString::fromStdString(kept->role)).arg(kept->cluster)
                : QString::fromStdString(kept->role);
            second = second.isEmpty() ? role : role + QStringLiteral(" · ") + second;
            oneLine += QStringLiteral(" · ") + role;
        }
        // (A collapsed row names its node itself; thin rows have no room for a header.)
        const bool nodeHeader = meta.smp && row.node >= 0 && (row.firstOfNode || row.position == 0)
            && !row.groupRow() && row.position % labelStep == 0;
        painter.setPen(style.text);
        const QRect labelBox = row.label;
        if (twoLines && !second.isEmpty()) {
            const int top = row.bar.center().y() - (fm.height() + sfm.height()) / 2 + 1;
            painter.drawText(QRect(labelBox.left(), top, labelBox.width(), fm.height()),
                Qt::AlignRight | Qt::AlignVCenter,
                fm.elidedText(first, Qt::ElideRight, labelBox.width()));
            painter.save();
            painter.setFont(small);
            painter.setPen(style.muted);
            painter.drawText(
                QRect(labelBox.left(), top + fm.height() - 1, labelBox.width(), sfm.height()),
                Qt::AlignRight | Qt::AlignVCenter,
                QFontMetrics(painter.font()).elidedText(second, Qt::ElideRight, labelBox.width()));
            painter.restore();
        } else if (row.position % labelStep == 0) {
            // One line; thin rows get a label every labelStep rows.
            painter.save();
            if (row.bar.height() < fm.height())
                painter.setFont(small);
            const int h = std::max(row.bar.height(), sfm.height());
            painter.drawText(
                QRect(labelBox.left(), row.bar.center().y() - h / 2, labelBox.width(), h),
                Qt::AlignRight | Qt::AlignVCenter,
                QFontMetrics(painter.font()).elidedText(oneLine, Qt::ElideRight, labelBox.width()));
            painter.restore();
        }
        if (nodeHeader) {
            painter.save();
            QFont bold = small;
            bold.setBold(true);
            painter.setFont(bold);
            painter.setPen(style.muted);
            painter.drawText(QRect(labelBox.left(), row.eventStrip.top() - 2, labelBox.width(),
                                 QFontMetrics(bold).height()),
                Qt::AlignLeft | Qt::AlignTop, tr("node %1").arg(row.node));
            painter.restore();
        }

        // A faint band for the row (tinted for comm threads and collapsed rows) and a
        // hairline through the PE's traced span.
        if (row.commThread)
            painter.fillRect(row.bar, faded(QColor(0x3b, 0x6e, 0xc4), style.background, 0.88));
        else if (row.groupRow())
            painter.fillRect(row.bar, faded(style.text, style.background, 0.92));
        else
            painter.fillRect(row.bar, style.rowBackground);
        // An expanded group: a bracket in the left margin along its rows and its PEs' rows
        // (a click on it collapses the group).
        if (row.group >= 0 && row.groupExpanded)
            painter.fillRect(QRect(row.label.left() - 5, row.eventStrip.top(), 2, g.rowPitch),
                faded(style.text, style.background, 0.45));
        if (row.pe >= 0 && static_cast<std::size_t>(row.pe) < m_trace->pes.size()) {
            const auto& p = m_trace->pes[static_cast<std::size_t>(row.pe)];
            if (p.firstTime >= 0) {
                const double x0 = std::max(
                    g.map.xOf(p.beginComputation >= 0 ? p.beginComputation : p.firstTime),
                    g.map.left);
                const double x1 = std::min(
                    g.map.xOf(std::max(p.endComputation, p.lastTime)), g.map.left + g.map.width);
                if (x1 > x0) {
                    painter.setPen(QPen(faded(style.text, style.background, 0.7), 1));
                    const int y = row.bar.center().y();
                    painter.drawLine(QPointF(x0, y), QPointF(x1, y));
                }
            }
        }

        bars.paintRow(painter, row, g.columns.idle());
        painter.setPen(Qt::NoPen);
        if (m_highlight) {
            // Dim the row, then bring back the highlighted blocks in full colour.
            painter.fillRect(row.bar, withAlpha(style.background, 190));
            for (const auto& b : row.blocks)
                if (isHighlighted(row, b)) {
                    QRect r = g.blockRect(row, b);
                    if (b.kind == TimelineBlockKind::Aggregate) {
                        const int h = TimelineBarPainter::aggregateHeight(b, r.height());
                        r.setTop(r.bottom() - h + 1);
                    }
                    painter.fillRect(
                        r, m_palette ? m_palette->color(g.columns, b.activity) : QColor(Qt::gray));
                }
        }
        // Names inside blocks wide enough to hold a few characters.
        if (row.bar.height() >= sfm.height() + 2) {
            painter.save();
            painter.setFont(small);
            for (const auto& b : row.blocks) {
                if (b.kind != TimelineBlockKind::Execution || b.right - b.left < 48)
                    continue;
                const int left = std::max(b.left, row.bar.left()) + 4;
                const int right = std::min(b.right, row.bar.right() + 1) - 4;
                if (right - left < 40)
                    continue;
                const QColor fill
                    = m_palette ? m_palette->color(g.columns, b.activity) : QColor(Qt::gray);
                const QString name = sfm.elidedText(
                    activityName(meta, g.columns, b.activity, false), Qt::ElideRight, right - left);
                if (name.size() < 4)
                    continue;
                painter.setPen(static_cast<double>(fill.lightnessF()) > 0.6
                        ? QColor(0x1a, 0x1a, 0x1a)
                        : QColor(Qt::white));
                painter.drawText(QRect(left, row.bar.top(), right - left, row.bar.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, name);
            }
            painter.restore();
            painter.setPen(Qt::NoPen);
        }
        // Pack (dark) and unpack (orange) along the bar's top edge.
        if (!row.packs.empty()) {
            painter.setBrush(EntryPalette::packColor());
            painter.drawRects(row.packs.data(), static_cast<int>(row.packs.size()));
        }
        if (!row.unpacks.empty()) {
            painter.setBrush(EntryPalette::unpackColor());
            painter.drawRects(row.unpacks.data(), static_cast<int>(row.unpacks.size()));
        }
        painter.setBrush(Qt::NoBrush);
        // The strip above the bar: bracketed user events as bars, point user events as
        // ticks over them, notes as amber ticks reaching into the bar.
        if (!row.brackets.empty()) {
            // Spans at most a pixel apart are drawn as one (zoomed out they are dense).
            rects.clear();
            for (const auto& b : row.brackets) {
                if (!rects.empty() && rects.back().right() + 2 >= b.left)
                    rects.back().setRight(std::max(rects.back().right(), b.right - 1));
                else
                    rects.emplace_back(b.left, row.eventStrip.top() + 1, b.right - b.left,
                        std::max(row.eventStrip.height() - 2, 1));
            }
            painter.setPen(Qt::NoPen);
            painter.setBrush(bracketColour());
            painter.drawRects(rects.data(), static_cast<int>(rects.size()));
            painter.setBrush(Qt::NoBrush);
        }
        if (!row.userEvents.empty()) {
            // Ticks in neighbouring pixel columns form one rectangle (zoomed out they are dense).
            rects.clear();
            const int top = row.eventStrip.top();
            const int height = row.bar.top() - top;
            for (const auto& t : row.userEvents) {
                if (!rects.empty() && rects.back().right() + 1 == t.x)
                    rects.back().setRight(t.x);
                else
                    rects.emplace_back(t.x, top, 1, height);
            }
            painter.setPen(Qt::NoPen);
            painter.setBrush(faded(style.text, style.background, 0.25));
            painter.drawRects(rects.data(), static_cast<int>(rects.size()));
            painter.setBrush(Qt::NoBrush);
        }
        if (!row.notes.empty()) {
            rects.clear();
            for (const auto& t : row.notes)
                rects.emplace_back(t.x - 1, row.eventStrip.top(), 3,
                    row.eventStrip.height() + std::min(4, row.bar.height() / 3));
            painter.setPen(Qt::NoPen);
            painter.setBrush(noteColour());
            painter.drawRects(rects.data(), static_cast<int>(rects.size()));
            painter.setBrush(Qt::NoBrush);
        }
        // Message sends: short ticks just below the bar.
        if (!row.sends.empty()) {
            painter.setPen(QPen(faded(style.text, style.background, 0.35), 1));
            const int y0 = row.bar.bottom() + 1;
            const int y1 = y0
                + std::max(
                    2, std::min(4, g.rowPitch - row.bar.height() - row.eventStrip.height() - 2));
            lines.clear();
            for (const auto& t : row.sends)
                lines.emplace_back(t.x, y0, t.x, y1);
            painter.drawLines(lines.data(), static_cast<int>(lines.size()));
        }
    }
}

} // namespace parallax::views
