// TimelineWidget's painting: the frame of a chart (styles, ruler, legend) and the on-screen
// overlays (cursor, hover, range selection, reference mark). The rows and the message arrows
// are painted by timeline_paint_rows.cpp and timeline_paint_links.cpp.

#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QElapsedTimer>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parallax::views {

using namespace timeline_internal;

TimelineWidget::Style TimelineWidget::screenStyle() const
{
    return screenChartStyle(palette(), 0.42, 0.9, 0.975);
}

TimelineWidget::Style TimelineWidget::exportStyle()
{
    return { QColor(Qt::white), QColor(0x1f, 0x1f, 0x1f), QColor(0x66, 0x66, 0x66),
        QColor(0xe8, 0xe8, 0xe8), QColor(0xfa, 0xfa, 0xfa) };
}

void TimelineWidget::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    paintChart(painter, size(), false);
    qCDebug(lcTimeline) << "frame painted in" << static_cast<double>(timer.nsecsElapsed()) / 1e6
                        << "ms";
}

void TimelineWidget::paintChart(
    QPainter& painter, QSize size, bool exported, const QString& title) const
{
    const Style style = exported ? exportStyle() : screenStyle();
    painter.fillRect(QRect(QPoint(0, 0), size), style.background);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetrics fm(painter.font());
    if (!m_trace || m_pes.empty() || m_summariesOnly) {
        painter.setPen(style.muted);
        painter.drawText(QRect(QPoint(0, 0), size).adjusted(16, 16, -16, -16),
            Qt::AlignCenter | Qt::TextWordWrap,
            !m_trace              ? tr("No run loaded")
                : m_summariesOnly ? tr("This run has summaries only: the Timeline needs the "
                                       "PEs' .log files, which were not found beside the .sts. "
                                       "The Usage Profile, Time Profile and Overview work from "
                                       "the summaries.")
                                  : tr("No PEs shown. Type PEs in the options above, or click a "
                                       "PE in another view."));
        return;
    }
    const TimelineGeometry exportedGeometry
        = exported || size != this->size() ? geometryFor(size, exported) : TimelineGeometry {};
    const auto& g = exported || size != this->size() ? exportedGeometry : currentGeometry();

    if (!g.title.isEmpty()) {
        QFont bold = painter.font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.15);
        const QString heading = tr("Timeline");
        painter.save();
        painter.setFont(bold);
        painter.setPen(style.text);
        painter.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, heading);
        painter.restore();
        if (!title.isEmpty()) {
            const int left
                = g.title.left() + QFontMetrics(bold).horizontalAdvance(heading) + fm.height();
            painter.setPen(style.muted);
            painter.drawText(QRect(left, g.title.top(), g.title.right() - left, g.title.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(title, Qt::ElideRight, g.title.right() - left));
        }
    }
    paintRuler(painter, g, style);
    painter.save();
    painter.setClipRect(g.rowsArea);
    paintRows(painter, g, style);
    if (m_reference) {
        const double x = g.map.xOf(*m_reference);
        if (x >= g.map.left - 0.5 && x <= g.map.left + g.map.width + 0.5) {
            painter.setPen(QPen(withAlpha(referenceColour(), 200), 1));
            painter.drawLine(QPointF(x, g.rowsArea.top()), QPointF(x, g.rowsArea.bottom()));
        }
    }
    paintCriticalPath(painter, g, style);
    paintLinks(painter, g, style);
    painter.restore();
    paintLegend(painter, g, style, exported);
    if (!exported)
        paintOverlays(painter, g, style);
}

void TimelineWidget::paintRuler(
    QPainter& painter, const TimelineGeometry& g, const Style& style) const
{
    const QFontMetrics fm(painter.font());
    const int baseline = g.ruler.bottom() - 2;
    painter.setPen(QPen(faded(style.text, style.background, 0.5), 1));
    painter.drawLine(g.ruler.left(), baseline, g.ruler.right(), baseline);
    for (const auto& tick : g.axis.ticks) {
        const int x = static_cast<int>(std::lround(tick.x));
        if (x < g.ruler.left() || x > g.ruler.right())
            continue;
        painter.setPen(QPen(faded(style.text, style.background, 0.5), 1));
        painter.drawLine(x, baseline - 5, x, baseline);
        painter.setPen(QPen(style.grid, 1));
        painter.drawLine(x, g.rowsArea.top(), x, g.rowsArea.bottom());
        const int w = fm.horizontalAdvance(tick.label) + 2;
        const int left = std::clamp(x - w / 2, g.ruler.left() - 4, g.ruler.right() - w + 4);
        painter.setPen(style.muted);
        painter.drawText(QRect(left, g.ruler.top(), w, baseline - 6 - g.ruler.top()),
            Qt::AlignHCenter | Qt::AlignBottom, tick.label);
    }
    if (!g.axis.origin.isEmpty()) {
        // Offsets are from the first tick: name its absolute time in the label column.
        painter.setPen(style.text);
        painter.drawText(QRect(g.map.left > 8 ? 8 : 0, g.ruler.top(),
                             static_cast<int>(g.map.left) - 14, baseline - 6 - g.ruler.top()),
            Qt::AlignRight | Qt::AlignBottom,
            g.axis.originName + QStringLiteral(" = ") + g.axis.origin);
    }
    // The reference mark: a small triangle pointing down at its time.
    if (m_reference) {
        const double x = g.map.xOf(*m_reference);
        if (x >= g.map.left - 0.5 && x <= g.map.left + g.map.width + 0.5) {
            painter.save();
            painter.setRenderHint(QPainter::Antialiasing, true);
            painter.setPen(Qt::NoPen);
            painter.setBrush(referenceColour());
            QPolygonF mark;
            mark << QPointF(x - 5, baseline - 7) << QPointF(x + 5, baseline - 7)
                 << QPointF(x, baseline);
            painter.drawPolygon(mark);
            painter.restore();
        }
    }
}

void TimelineWidget::paintLegend(
    QPainter& painter, const TimelineGeometry& g, const Style& style, bool twoLines) const
{
    if (g.legend.isEmpty())
        return;
    const QFontMetrics fm(painter.font());
    struct Item {
        int activity;
        core::TimeUs time;
    };
    std::vector<Item> items;
    core::TimeUs total = 0;
    for (int c = 0; c < g.columns.entryCount; ++c)
        if (g.activityTime[static_cast<std::size_t>(c)] > 0) {
            items.push_back({ c, g.activityTime[static_cast<std::size_t>(c)] });
            total += g.activityTime[static_cast<std::size_t>(c)];
        }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        return a.time != b.time ? a.time > b.time : a.activity < b.activity;
    });
    const auto idleTime = g.activityTime[static_cast<std::size_t>(g.columns.idle())];
    const bool anyPack = std::any_of(
        g.rows.begin(), g.rows.end(), [](const TimelineRow& r) { return !r.packs.empty(); });
    const bool anyUnpack = std::any_of(
        g.rows.begin(), g.rows.end(), [](const TimelineRow& r) { return !r.unpacks.empty(); });

    // The fixed items (idle, pack, unpack) go first so they are always explained.
    struct Drawn {
        QColor colour;
        QString text;
        bool idle;
    };
    std::vector<Drawn> fixed;
    if (idleTime > 0 || items.empty())
        fixed.push_back({ EntryPalette::idleColor(), tr("idle"), true });
    if (anyPack)
        fixed.push_back({ EntryPalette::packColor(), tr("pack"), false });
    if (anyUnpack)
        fixed.push_back({ EntryPalette::unpackColor(), tr("unpack"), false });

    const int lineHeight = fm.height() + 4;
    const int lines = twoLines ? std::max(1, g.legend.height() / lineHeight) : 1;
    int line = 0;
    int x = static_cast<int>(g.map.left);
    const int right = g.legend.right();
    const int swatch = std::max(8, fm.height() - 6);
    auto place = [&](const QString& text, int reserve) -> std::optional<QPoint> {
        const int w = swatch + 5 + fm.horizontalAdvance(text) + 14;
        if (x + w > right - reserve) {
            if (line + 1 >= lines)
                return std::nullopt;
            ++line;
            x = static_cast<int>(g.map.left);
        }
        const QPoint at(x, g.legend.top() + line * lineHeight);
        x += w;
        return at;
    };
    auto draw = [&](QPoint at, const QColor& colour, const QString& text, bool idle) {
        const QRect sw(at.x(), at.y() + (lineHeight - swatch) / 2, swatch, swatch);
        if (idle) {
            painter.fillRect(sw, faded(colour, style.background, 0.15));
            painter.setPen(QPen(faded(colour, style.text, 0.12), 1));
            painter.drawLine(sw.topLeft(), sw.topRight());
            painter.drawLine(sw.bottomLeft(), sw.bottomRight());
        } else {
            painter.fillRect(sw, colour);
        }
        painter.setPen(style.muted);
        painter.drawText(QRect(sw.right() + 5, at.y(), fm.horizontalAdvance(text) + 2, lineHeight),
            Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    painter.setPen(style.muted);
    painter.drawText(QRect(g.legend.left(), g.legend.top(),
                         static_cast<int>(g.map.left) - g.legend.left() - 14, lineHeight),
        Qt::AlignRight | Qt::AlignVCenter, tr("in view"));
    for (const auto& f : fixed)
        if (const auto at = place(f.text, 0))
            draw(*at, f.colour, f.text, f.idle);
    const QString moreTemplate = tr("+%1 more").arg(88888);
    const int moreWidth = fm.horizontalAdvance(moreTemplate) + 8;
    std::size_t shown = 0;
    for (const auto& item : items) {
        const double share
            = total > 0 ? 100.0 * static_cast<double>(item.time) / static_cast<double>(total) : 0.0;
        QString name = activityName(m_trace->metadata, g.columns, item.activity, false);
        name = fm.elidedText(name, Qt::ElideMiddle, 260);
        const QString text = share >= 1.0 ? tr("%1 %2 %").arg(name).arg(share, 0, 'f', 0) : name;
        const auto at = place(text, moreWidth);
        if (!at)
            break;
        const QColor colour
            = m_palette ? m_palette->color(g.columns, item.activity) : QColor(Qt::gray);
        draw(*at, colour, text, false);
        ++shown;
    }
    if (shown < items.size()) {
        painter.setPen(style.muted);
        painter.drawText(QRect(x, g.legend.top() + line * lineHeight, moreWidth + 40, lineHeight),
            Qt::AlignLeft | Qt::AlignVCenter, tr("+%1 more").arg(items.size() - shown));
    }
}

void TimelineWidget::paintOverlays(
    QPainter& painter, const TimelineGeometry& g, const Style& style) const
{
    const QFontMetrics fm(painter.font());
    // Hovered block outline.
    if (m_mouse && !m_press) {
        const TimelineRow* row = nullptr;
        if (const auto* block = blockAt(*m_mouse, &row); block != nullptr && row != nullptr) {
            painter.setPen(QPen(withAlpha(style.text, 160), 1));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(g.blockRect(*row, *block).adjusted(0, 0, -1, -1));
        }
    }
    // Cursor line with its time on the ruler.
    if (m_mouse && m_mouse->x() >= g.map.left && m_mouse->x() <= g.map.left + g.map.width
        && m_mouse->y() >= g.ruler.top() && m_mouse->y() <= g.rowsArea.bottom()) {
        const int x = m_mouse->x();
        painter.setPen(QPen(withAlpha(style.text, 70), 1, Qt::DotLine));
        painter.drawLine(x, g.rowsArea.top(), x, g.rowsArea.bottom());
        const auto t = g.map.timeAt(x);
        QString label = formatPreciseTime(t);
        if (m_reference)
            label += tr("  (ref %1%2)")
                         .arg(t >= *m_reference ? QStringLiteral("+") : QStringLiteral("−"))
                         .arg(durationText(std::abs(t - *m_reference)));
        const int w = fm.horizontalAdvance(label) + 10;
        const QRect box(
            std::clamp(x - w / 2, static_cast<int>(g.map.left) - 30, g.size.width() - w - 2),
            g.ruler.top() + 1, w, g.ruler.height() - 8);
        painter.fillRect(box, style.text);
        painter.setPen(style.background);
        painter.drawText(box, Qt::AlignCenter, label);
    }
    // Shift+drag selection band.
    if (m_press && m_selecting) {
        const int a = std::min(m_press->x(), m_selectionX);
        const int b = std::max(m_press->x(), m_selectionX);
        const QColor highlight = palette().color(QPalette::Highlight);
        painter.fillRect(
            QRect(a, g.rowsArea.top(), b - a, g.rowsArea.height()), withAlpha(highlight, 50));
        painter.setPen(QPen(highlight, 1));
        painter.drawLine(a, g.rowsArea.top(), a, g.rowsArea.bottom());
        painter.drawLine(b, g.rowsArea.top(), b, g.rowsArea.bottom());
        const QString label = durationText(g.map.timeAt(b) - g.map.timeAt(a));
        painter.setPen(style.text);
        painter.drawText(QRect(a, g.rowsArea.top() + 2,
                             std::max(b - a, fm.horizontalAdvance(label) + 8), fm.height()),
            Qt::AlignCenter, label);
    }
    // The inline "Load PE n" button, or why there is no arrow.
    const QRect button = loadButtonRect();
    if (!button.isNull()) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        const bool hot = m_mouse && button.contains(*m_mouse);
        const QColor accent = palette().color(QPalette::Highlight);
        painter.setPen(QPen(accent, 1));
        painter.setBrush(hot ? accent : withAlpha(style.background, 240));
        painter.drawRoundedRect(QRectF(button).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        painter.setPen(hot ? palette().color(QPalette::HighlightedText) : accent);
        const auto missing = missingPathPes();
        painter.drawText(button, Qt::AlignCenter,
            missing.size() == 1 ? tr("Load PE %1 (sender)").arg(missing.front())
                                : tr("Load PEs %1 (message path)").arg(peListText(missing)));
        painter.setRenderHint(QPainter::Antialiasing, false);
    } else if (m_selected && !m_path.empty() && !m_path.front().linked()) {
        const auto* row = g.rowOfPe(m_selected->pe);
        if (row != nullptr) {
            const QString text
                = tr("no message arrow: %1").arg(QString::fromStdString(m_path.front().reason));
            const int w = fm.horizontalAdvance(text) + 12;
            const auto& ex = m_trace->pes[static_cast<std::size_t>(m_selected->pe)].executions;
            const int x = static_cast<int>(std::clamp(g.map.xOf(ex.begin[m_selected->execution]),
                g.map.left, g.map.left + g.map.width - w));
            int y = row->bar.top() - fm.height() - 6;
            if (y < g.rowsArea.top())
                y = row->bar.bottom() + 3;
            const QRect box(x, y, w, fm.height() + 4);
            painter.fillRect(box, withAlpha(style.background, 235));
            painter.setPen(style.muted);
            painter.drawText(box, Qt::AlignCenter, text);
        }
    }
}

} // namespace parallax::views
