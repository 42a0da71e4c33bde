// TimelineWidget's link passes: the message arrows of the selected execution (back to its
// sender through comm threads, forward to what it started) with their latency labels, and the
// critical path (core/analysis/critical_path.h) when the view shows it.

#include "views/timeline/label_placement.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace parallax::views {

using namespace timeline_internal;

namespace {

// A message arrow from `sx` on row `from` to `rx` on row `to` (a curve over the bar when both are
// the same row); `a` and `z` get its ends.
QPainterPath linkArrowPath(
    const TimelineRow& from, const TimelineRow& to, double sx, double rx, QPointF& a, QPointF& z)
{
    QPainterPath path;
    if (&from == &to) {
        a = QPointF(sx, from.bar.top());
        z = QPointF(rx, to.bar.top());
        path.moveTo(a);
        const double lift = std::max(12.0, std::min(40.0, std::abs(rx - sx) / 3));
        path.cubicTo(a - QPointF(0, lift), z - QPointF(0, lift), z);
    } else if (from.bar.top() < to.bar.top()) {
        a = QPointF(sx, from.bar.bottom() + 1);
        z = QPointF(rx, to.bar.top());
        path.moveTo(a);
        path.lineTo(z);
    } else {
        a = QPointF(sx, from.bar.top());
        z = QPointF(rx, to.bar.bottom() + 1);
        path.moveTo(a);
        path.lineTo(z);
    }
    return path;
}

// Draws the arrow on a halo of the background, with its head at `z` and a dot at `a`.
void drawLinkArrow(QPainter& painter, const QPainterPath& path, QPointF a, QPointF z,
    const QColor& colour, double width, bool dashed, const ChartStyle& style)
{
    QPen halo(withAlpha(style.background, 220), width + 2.3);
    halo.setCapStyle(Qt::RoundCap);
    painter.setPen(halo);
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    QPen pen(colour, width);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    painter.setPen(pen);
    painter.drawPath(path);
    // Arrow head at the receiver, along the path's last direction.
    const double angle = path.angleAtPercent(1.0) * std::numbers::pi / 180.0;
    const QPointF dir(std::cos(angle), -std::sin(angle));
    const QPointF normal(-dir.y(), dir.x());
    QPolygonF head;
    head << z << z - dir * kArrowHead + normal * (kArrowHead * 0.45)
         << z - dir * kArrowHead - normal * (kArrowHead * 0.45);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawPolygon(head);
    painter.drawEllipse(a, 2.5, 2.5);
}

QColor criticalPathColour()
{
    return { 0xd0, 0x1c, 0x3c };
}

} // namespace

void TimelineWidget::paintLinks(
    QPainter& painter, const TimelineGeometry& g, const Style& style) const
{
    if (!m_selected)
        return;
    const auto* row = g.rowOfPe(m_selected->pe);
    const auto& selectedPe = m_trace->pes[static_cast<std::size_t>(m_selected->pe)];
    if (row != nullptr) {
        const auto b = selectedPe.executions.begin[m_selected->execution];
        const auto e = selectedPe.executions.end[m_selected->execution];
        double x0 = std::max(g.map.xOf(b), g.map.left - 3);
        double x1 = std::min(g.map.xOf(e), g.map.left + g.map.width + 3);
        if (x1 - x0 < 3) {
            const double mid = (x0 + x1) / 2;
            x0 = mid - 1.5;
            x1 = mid + 1.5;
        }
        const QRectF box(x0 - 1, row->bar.top() - 1, x1 - x0 + 2, row->bar.height() + 2);
        painter.setPen(QPen(style.background, 3));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        painter.setPen(QPen(style.text, 1.6));
        painter.drawRect(box);
    }

    painter.save();
    // Arrows from sends outside the window start at the plot's edge, not over the PE labels.
    const QRectF plot(g.map.left, g.rowsArea.top(), g.map.width, g.rowsArea.height());
    painter.setClipRect(plot, Qt::IntersectClip);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetrics fm(painter.font());
    // The path back (dark), then the messages the selected execution sent (blue).
    std::vector<std::pair<const MessageLink*, bool>> links;
    for (const auto& link : m_path) {
        if (!link.linked())
            break;
        links.emplace_back(&link, false);
    }
    for (const auto& link : m_targets)
        links.emplace_back(&link, true);
    // The latency labels are drawn after every arrow, placed so that none covers another.
    struct Label {
        QString text;
        QColor colour;
    };
    std::vector<Label> labels;
    std::vector<QRectF> wanted;
    for (const auto& [linkPtr, forward] : links) {
        const auto& link = *linkPtr;
        const auto* to = g.rowOfPe(link.pe);
        const auto* from = g.rowOfPe(link.senderPe);
        if (to == nullptr || from == nullptr)
            continue;
        const auto& sender = m_trace->pes[static_cast<std::size_t>(link.senderPe)];
        const auto& receiver = m_trace->pes[static_cast<std::size_t>(link.pe)];
        const auto sendTime = sender.sends.time[*link.send];
        const auto beginTime = receiver.executions.begin[link.execution];
        const double sx = g.map.xOf(sendTime);
        const double rx = g.map.xOf(beginTime);
        QPointF a;
        QPointF z;
        const auto path = linkArrowPath(*from, *to, sx, rx, a, z);
        const QColor colour = link.weak() ? QColor(0xb3, 0x5c, 0x00)
            : forward                     ? QColor(0x1f, 0x5f, 0xb0)
                                          : QColor(0x14, 0x14, 0x14);
        drawLinkArrow(painter, path, a, z, colour, 1.7, link.weak(), style);
        // Latency label halfway.
        const QString label = durationText(beginTime - sendTime);
        const QPointF mid = path.pointAtPercent(0.5);
        const double labelWidth = fm.horizontalAdvance(label) + 8;
        // Kept inside the plot when half the arrow lies outside the window.
        const double labelLeft = std::clamp(
            mid.x() + 4, plot.left() + 4, std::max(plot.left() + 4, plot.right() - labelWidth - 4));
        wanted.emplace_back(
            labelLeft, mid.y() - fm.height() / 2.0 - 1, labelWidth, fm.height() + 2);
        labels.push_back({ label, colour });
    }
    const auto boxes = placeLabels(wanted, plot);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        painter.setBrush(withAlpha(style.background, 235));
        painter.setPen(QPen(withAlpha(labels[i].colour, 120), 1));
        painter.drawRoundedRect(boxes[i], 3, 3);
        painter.setPen(labels[i].colour);
        painter.drawText(boxes[i], Qt::AlignCenter, labels[i].text);
    }
    painter.setBrush(Qt::NoBrush);
    painter.restore();
}

void TimelineWidget::setCriticalPath(std::vector<core::analysis::CriticalStep> steps)
{
    m_criticalPath = std::move(steps);
    update();
}

void TimelineWidget::paintCriticalPath(
    QPainter& painter, const TimelineGeometry& g, const Style& style) const
{
    if (m_criticalPath.empty())
        return;
    painter.save();
    const QRectF plot(g.map.left, g.rowsArea.top(), g.map.width, g.rowsArea.height());
    painter.setClipRect(plot, Qt::IntersectClip);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QColor colour = criticalPathColour();
    using Kind = core::analysis::CriticalStep::Kind;
    for (const auto& step : m_criticalPath) {
        const double x0 = g.map.xOf(step.begin);
        const double x1 = g.map.xOf(step.end);
        if (x1 < plot.left() - 2 || x0 > plot.right() + 2)
            continue;
        const auto* row = g.rowOfPe(step.pe);
        if (step.kind == Kind::Message) {
            const auto* to = g.rowOfPe(step.toPe);
            if (row == nullptr || to == nullptr)
                continue; // only what is shown: an arrow needs both of its PEs
            QPointF a;
            QPointF z;
            const auto path = linkArrowPath(*row, *to, x0, x1, a, z);
            drawLinkArrow(painter, path, a, z, colour, 2.2, false, style);
            continue;
        }
        if (row == nullptr)
            continue;
        if (step.kind == Kind::Wait) {
            const double y = row->bar.center().y() + 0.5;
            QPen dotted(colour, 2.0, Qt::DotLine);
            painter.setPen(dotted);
            painter.drawLine(QPointF(x0, y), QPointF(x1, y));
            continue;
        }
        const QRectF box(
            x0 - 1, row->bar.top() - 1, std::max(x1 - x0, 1.0) + 2, row->bar.height() + 2);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(withAlpha(style.background, 220), 4.2));
        painter.drawRect(box);
        painter.setPen(QPen(colour, 2.2));
        painter.drawRect(box);
    }
    painter.restore();
}

} // namespace parallax::views
