#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/overview/overview_chart.h"

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parallax::views {
void OverviewChart::paintFrame(
    QPainter& painter, const OverviewGeometry& g, const Style& style, bool onScreen) const
{
    const QSize size = painter.device()->width() > 0
        ? QSize(painter.device()->width(), painter.device()->height())
        : this->size();
    painter.fillRect(QRect(QPoint(0, 0), size), style.background);
    const QFontMetrics fm(painter.font());

    // Title: bold "Overview", then what it shows, muted.
    if (!g.title.isEmpty()) {
        QFont bold = painter.font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.15);
        const QFontMetrics bfm(bold);
        const QString title = tr("Overview");
        painter.save();
        painter.setFont(bold);
        painter.setPen(style.text);
        painter.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, title);
        painter.restore();
        const int left = g.title.left() + bfm.horizontalAdvance(title) + fm.height();
        QString hint;
        if (onScreen && m_overview != nullptr)
            hint = tr("click a row: its timeline · drag: select a range");
        const int hintWidth
            = hint.isEmpty() ? 0 : std::min(fm.horizontalAdvance(hint) + 4, g.title.width() / 3);
        painter.setPen(style.muted);
        if (!m_subtitle.isEmpty())
            painter.drawText(QRect(left, g.title.top(), g.title.right() - left - hintWidth - 12,
                                 g.title.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(m_subtitle, Qt::ElideRight, g.title.right() - left - hintWidth - 12));
        if (!hint.isEmpty())
            painter.drawText(
                QRect(g.title.right() - hintWidth, g.title.top(), hintWidth, g.title.height()),
                Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(hint, Qt::ElideRight, hintWidth));
    }

    if (m_overview == nullptr || m_overview->pes.empty() || m_overview->grid.count <= 0) {
        painter.setPen(style.muted);
        QString text = tr("No run loaded");
        if (m_busy)
            text = tr("Computing…");
        else if (m_trace && m_overview != nullptr)
            text = tr("None of the selected PEs has data in this range");
        painter.drawText(
            g.plot.isValid() ? g.plot : QRect(QPoint(0, 0), size), Qt::AlignCenter, text);
        return;
    }

    painter.setRenderHint(QPainter::Antialiasing, false);
    // The heat map, one image pixel per screen pixel.
    if (onScreen) {
        painter.drawImage(g.plot.topLeft(), imageFor(g.plot.size()));
    } else {
        const auto columns = m_overview->columns;
        QPointer<EntryPalette> palette = m_palette;
        painter.drawImage(g.plot.topLeft(),
            overviewImage(
                *m_overview, m_coloring, g.plot.size(),
                [&](int column) {
                    return palette ? palette->color(columns, column) : QColor(Qt::gray);
                },
                m_traced, m_utilizationRows));
    }
    // Comm threads apart: their rows under a veil unless the options bar includes them.
    const auto rows = m_overview->pes.size();
    if (m_commThreadsMuted && m_trace) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(withAlpha(style.background, 185));
        const QString note = tr("comm thread: no idle records · \"Include comm threads\" shows it");
        for (std::size_t r = 0; r < rows; ++r) {
            if (!m_trace->metadata.isCommThread(m_overview->pes[r]))
                continue;
            const QRect row = g.rowRect(r);
            painter.setPen(Qt::NoPen);
            painter.drawRect(row);
            if (onScreen && row.height() >= fm.height() + 4
                && fm.horizontalAdvance(note) + 16 <= row.width()) {
                painter.setPen(style.text);
                painter.drawText(row, Qt::AlignCenter, note);
            }
        }
        painter.setBrush(Qt::NoBrush);
    }
    // Row separators while rows are tall enough to show them, node boundaries always.
    const double rowHeight = static_cast<double>(g.plot.height()) / static_cast<double>(rows);
    // (Thin filled rectangles, not lines: Qt rasterizes long lines through its thread pool,
    // which cost tens of milliseconds per frame for a hundred boundaries at full-HD width.)
    if (rowHeight >= 8.0)
        for (std::size_t r = 1; r < rows; ++r)
            painter.fillRect(
                QRect(g.plot.left(), g.rowRect(r).top(), g.plot.width(), 1), style.background);
    if (!g.nodeBoundaries.empty()) {
        // Strong lines between a few nodes, faint ones between many, none when they would
        // cover the map.
        const double nodeHeight = static_cast<double>(g.plot.height())
            / static_cast<double>(g.nodeBoundaries.size() + 1);
        const bool strong = nodeHeight >= 24.0;
        const QColor colour = strong ? style.text : withAlpha(style.text, 90);
        const int thickness = strong && rowHeight >= 8.0 ? 2 : 1;
        if (nodeHeight >= 6.0)
            for (const int y : g.nodeBoundaries)
                painter.fillRect(
                    QRect(g.plot.left() - 6, y - thickness / 2, g.plot.width() + 6, thickness),
                    colour);
    }
    painter.setPen(QPen(faded(style.text, style.background, 0.6), 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(g.plot.adjusted(-1, -1, 0, 0));

    // Row labels.
    const auto& meta = m_trace->metadata;
    for (const auto r : g.labelledRows) {
        const QRect row = g.rowRect(r);
        const auto pe = m_overview->pes[r];
        const bool comm = meta.isCommThread(pe);
        const bool member = r < m_rows.size() && m_rows[r].member;
        painter.setPen(comm || member ? style.muted : style.text);
        const QRect box(0, row.center().y() - fm.height() / 2, g.plot.left() - 8, fm.height());
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(rowLabel(r), Qt::ElideMiddle, box.width()));
    }

    // Time axis.
    const int baseline = g.plot.bottom() + 1;
    for (const auto& tick : g.axis.ticks) {
        const int x = static_cast<int>(std::lround(tick.x));
        if (x < g.plot.left() - 1 || x > g.plot.right() + 1)
            continue;
        painter.setPen(QPen(faded(style.text, style.background, 0.5), 1));
        painter.drawLine(x, baseline, x, baseline + 5);
        const int w = fm.horizontalAdvance(tick.label) + 2;
        const int left = std::clamp(x - w / 2, 2, size.width() - w - 2);
        painter.setPen(style.muted);
        painter.drawText(QRect(left, baseline + 6, w, fm.height()), Qt::AlignCenter, tick.label);
    }
    if (!g.axis.origin.isEmpty()) {
        painter.setPen(style.text);
        painter.drawText(QRect(0, baseline + 6, g.plot.left() - 8, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, g.axis.origin + QStringLiteral(" +"));
    }

    paintLegend(painter, g, style);

    // The selected range (kept until cleared).
    // The range between a and b: the rest of the plot fades so the range stands out.
    auto band = [&](int a, int b, int alpha) {
        const QColor highlight = palette().color(QPalette::Highlight);
        const QRect r(std::min(a, b), g.plot.top(), std::abs(b - a), g.plot.height());
        const QColor veil = withAlpha(style.background, alpha);
        painter.fillRect(QRect(g.plot.left(), r.top(), r.left() - g.plot.left(), r.height()), veil);
        painter.fillRect(
            QRect(r.right() + 1, r.top(), g.plot.right() - r.right(), r.height()), veil);
        painter.setPen(QPen(highlight, 1.5));
        painter.drawLine(r.left(), r.top(), r.left(), r.bottom());
        painter.drawLine(r.right(), r.top(), r.right(), r.bottom());
        painter.fillRect(QRect(r.left(), r.top() - 4, r.width(), 3), highlight);
    };
    if (m_selected && !(onScreen && m_dragStart)) {
        const int a = static_cast<int>(std::lround(std::clamp(g.map.xOf(m_selected->begin),
            static_cast<double>(g.plot.left()), static_cast<double>(g.plot.right() + 1))));
        const int b = static_cast<int>(std::lround(std::clamp(g.map.xOf(m_selected->end),
            static_cast<double>(g.plot.left()), static_cast<double>(g.plot.right() + 1))));
        band(a, b, 120);
    }
    if (!onScreen)
        return;
    if (m_dragStart && m_dragNow && std::abs(*m_dragNow - *m_dragStart) >= 4) {
        band(*m_dragStart, *m_dragNow, 120);
        const core::TimeRange r { g.map.timeAt(std::min(*m_dragStart, *m_dragNow)),
            g.map.timeAt(std::max(*m_dragStart, *m_dragNow)) };
        const QString label = formatTimeSpan(r) + QStringLiteral("  (")
            + QString::fromStdString(core::formatDuration(r.length())) + QLatin1Char(')');
        const int w = fm.horizontalAdvance(label) + 10;
        const QRect box(std::clamp(std::min(*m_dragStart, *m_dragNow), 0, size.width() - w),
            g.plot.top() + 4, w, fm.height() + 4);
        painter.fillRect(box, style.text);
        painter.setPen(style.background);
        painter.drawText(box, Qt::AlignCenter, label);
    }
    // Hovered row (outline across the plot) and cell.
    if (m_mouse && !m_dragStart) {
        if (const auto cell = g.cellAt(*m_mouse)) {
            const QRect row = g.rowRect(cell->row);
            painter.setPen(QPen(withAlpha(style.text, 150), 1));
            painter.drawRect(row.adjusted(0, 0, -1, -1));
            const QRect c = g.cellRect(*cell);
            if (c.width() >= 3 && c.height() >= 3) {
                painter.setPen(QPen(style.text, 1.5));
                painter.drawRect(c.adjusted(0, 0, -1, -1));
            }
            painter.setPen(style.text);
            QFont bold = painter.font();
            bold.setBold(true);
            painter.save();
            painter.setFont(bold);
            painter.fillRect(
                QRect(0, row.center().y() - fm.height() / 2, g.plot.left() - 2, fm.height()),
                style.background);
            painter.drawText(
                QRect(0, row.center().y() - fm.height() / 2, g.plot.left() - 8, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter,
                QFontMetrics(bold).elidedText(
                    rowLabel(cell->row), Qt::ElideMiddle, g.plot.left() - 8));
            painter.restore();
        }
    }
}

void OverviewChart::paintLegend(
    QPainter& painter, const OverviewGeometry& g, const Style& style) const
{
    if (g.legend.isEmpty() || m_overview == nullptr)
        return;
    const QFontMetrics fm(painter.font());
    const int lineHeight = fm.height() + 8;
    const int swatch = std::max(8, fm.height() - 5);
    int x = g.plot.left();
    int line = 0;
    const int lines = std::max(1, g.legend.height() / lineHeight);
    auto place = [&](int w, int reserve) -> std::optional<QPoint> {
        if (x + w > g.legend.right() - reserve) {
            if (line + 1 >= lines)
                return std::nullopt;
            ++line;
            x = g.plot.left();
        }
        const QPoint at(x, g.legend.top() + line * lineHeight);
        x += w;
        return at;
    };
    auto item = [&](const QColor& colour, const QString& text, int reserve) {
        const int w = swatch + 5 + fm.horizontalAdvance(text) + 16;
        const auto at = place(w, reserve);
        if (!at)
            return false;
        const QRect sw(at->x(), at->y() + (lineHeight - swatch) / 2, swatch, swatch);
        painter.fillRect(sw, colour);
        painter.setPen(QPen(faded(style.text, style.background, 0.7), 1));
        painter.drawRect(sw.adjusted(0, 0, -1, -1));
        painter.setPen(style.muted);
        painter.drawText(
            QRect(sw.right() + 5, at->y(), w, lineHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
        return true;
    };
    const bool anyEmpty
        = std::any_of(m_traced.begin(), m_traced.end(), [&](const core::TimeRange& r) {
              return r.begin > m_overview->grid.origin || r.end < m_overview->grid.limit();
          });

    if (m_coloring == OverviewColoring::Utilization) {
        // A colour bar 0 .. 100 % with ticks, then "no data".
        painter.setPen(style.muted);
        const QString heading = tr("utilization");
        const int hw = fm.horizontalAdvance(heading) + 10;
        painter.drawText(
            QRect(x, g.legend.top(), hw, lineHeight), Qt::AlignLeft | Qt::AlignVCenter, heading);
        x += hw;
        const int barWidth = std::min(320, std::max(120, g.legend.width() / 3));
        const QRect bar(x, g.legend.top() + 3, barWidth, swatch);
        for (int i = 0; i < bar.width(); ++i)
            painter.fillRect(QRect(bar.left() + i, bar.top(), 1, bar.height()),
                utilizationColor(100.0 * i / std::max(bar.width() - 1, 1)));
        painter.setPen(QPen(faded(style.text, style.background, 0.6), 1));
        painter.drawRect(bar.adjusted(0, 0, -1, -1));
        QFont small = painter.font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        const QFontMetrics sfm(small);
        painter.save();
        painter.setFont(small);
        for (const int p : { 0, 25, 50, 75, 100 }) {
            const int tx = bar.left() + (bar.width() - 1) * p / 100;
            painter.setPen(QPen(faded(style.text, style.background, 0.5), 1));
            painter.drawLine(tx, bar.bottom() + 1, tx, bar.bottom() + 3);
            const QString label = QStringLiteral("%1 %").arg(p);
            const int w = sfm.horizontalAdvance(label) + 2;
            painter.setPen(style.muted);
            painter.drawText(
                QRect(tx - w / 2, bar.bottom() + 3, w, sfm.height()), Qt::AlignCenter, label);
        }
        painter.restore();
        x = bar.right() + 24;
        if (anyEmpty)
            item(noDataColor(), tr("no data"), 0);
        return;
    }

    // Dominant activity: idle and overhead first (always explained), then the entry methods
    // that dominate most cells, as many as fit.
    const auto& columns = m_overview->columns;
    auto count = [&](int c) {
        return c >= 0 && static_cast<std::size_t>(c) < m_dominantCounts.size()
            ? m_dominantCounts[static_cast<std::size_t>(c)]
            : 0;
    };
    auto colourOf = [&](int c) {
        return m_palette ? m_palette->color(columns, c) : QColor(Qt::gray);
    };
    painter.setPen(style.muted);
    const QString heading = tr("most time in");
    const int hw = fm.horizontalAdvance(heading) + 10;
    painter.drawText(
        QRect(x, g.legend.top(), hw, lineHeight), Qt::AlignLeft | Qt::AlignVCenter, heading);
    x += hw;
    item(colourOf(columns.idle()), tr("idle"), 0);
    item(colourOf(columns.overhead()), tr("overhead"), 0);
    if (count(columns.pack()) > 0)
        item(colourOf(columns.pack()), tr("pack"), 0);
    if (count(columns.unpack()) > 0)
        item(colourOf(columns.unpack()), tr("unpack"), 0);
    if (anyEmpty)
        item(noDataColor(), tr("no data"), 0);
    std::vector<int> entries;
    for (int c = 0; c < columns.entryCount; ++c)
        if (count(c) > 0)
            entries.push_back(c);
    std::sort(entries.begin(), entries.end(),
        [&](int a, int b) { return count(a) != count(b) ? count(a) > count(b) : a < b; });
    const int moreWidth = fm.horizontalAdvance(tr("+%1 more").arg(8888)) + 8;
    std::size_t shown = 0;
    for (const int c : entries) {
        const QString name = fm.elidedText(
            activityName(m_trace->metadata, columns, c, false), Qt::ElideMiddle, 240);
        if (!item(colourOf(c), name, moreWidth))
            break;
        ++shown;
    }
    if (shown < entries.size()) {
        painter.setPen(style.muted);
        painter.drawText(QRect(x, g.legend.top() + line * lineHeight, moreWidth + 20, lineHeight),
            Qt::AlignLeft | Qt::AlignVCenter, tr("+%1 more").arg(entries.size() - shown));
    }
}

} // namespace parallax::views
