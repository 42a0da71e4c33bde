#include "views/overview/overview_view.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"

// After the other project headers (see time_profile_view.cpp: a GCC 12 false positive).
#include "views/common/async_computation.h"

#include <QComboBox>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QLinearGradient>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

QString rowLabel(core::PeId pe, bool commThread)
{
    return commThread ? OverviewChart::tr("PE %1 (comm)").arg(pe)
                      : OverviewChart::tr("PE %1").arg(pe);
}

QString percent(double value)
{
    return QLocale().toString(value, 'f', value >= 10.0 || value == 0.0 ? 0 : 1)
        + QStringLiteral(" %");
}

} // namespace

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
        widest = fm.horizontalAdvance(rowLabel(m_overview->pes.back(), comm));
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
                m_traced));
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
    if (rowHeight >= 8.0) {
        painter.setPen(QPen(style.background, 1));
        for (std::size_t r = 1; r < rows; ++r) {
            const int y = g.rowRect(r).top();
            painter.drawLine(g.plot.left(), y, g.plot.right(), y);
        }
    }
    if (!g.nodeBoundaries.empty()) {
        // Strong lines between a few nodes, faint ones between many, none when they would
        // cover the map.
        const double nodeHeight = static_cast<double>(g.plot.height())
            / static_cast<double>(g.nodeBoundaries.size() + 1);
        if (nodeHeight >= 24.0)
            painter.setPen(QPen(style.text, rowHeight >= 8.0 ? 2 : 1));
        else
            painter.setPen(QPen(withAlpha(style.text, 90), 1));
        if (nodeHeight >= 6.0)
            for (const int y : g.nodeBoundaries)
                painter.drawLine(g.plot.left() - 6, y, g.plot.right(), y);
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
        painter.setPen(comm ? style.muted : style.text);
        painter.drawText(
            QRect(0, row.center().y() - fm.height() / 2, g.plot.left() - 8, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, rowLabel(pe, comm));
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
                rowLabel(m_overview->pes[cell->row],
                    m_trace->metadata.isCommThread(m_overview->pes[cell->row])));
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

OverviewView::OverviewView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Overview, palette, parent)
{
    m_options = new OptionsBar(this);
    m_options->offerCommThreads();
    m_columns = m_options->addField(
        tr("&Columns"), QStringLiteral("1000"),
        [](const QString& text) { return countFieldError(text, 1, kMaxColumns, tr("Columns")); },
        6);
    m_columns->setObjectName(QStringLiteral("columns"));
    m_columns->setToolTip(tr("Number of time columns over the range"));
    m_coloring
        = m_options->addChoice(tr("Colour &by"), { tr("Dominant activity"), tr("Utilization") });
    m_coloring->setObjectName(QStringLiteral("coloring"));
    m_chart = new OverviewChart(palette, this);
    setFocusProxy(m_chart); // keys go to the chart, not to the options bar
    m_computation = new AsyncComputation(this);
    auto* top = new QHBoxLayout();
    top->setContentsMargins(0, 0, 6, 0);
    top->addWidget(m_options, 1);
    top->addWidget(makeBusyIndicator(m_computation, nullptr, this));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);

    connect(m_options, &OptionsBar::applied, this, [this]() {
        // Choosing a colouring also applies the bar: recompute and report only real changes.
        const bool changed
            = rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
        m_chart->setCommThreadsMuted(!m_options->includeCommThreads());
        if (!changed && m_overview
            && m_overview->grid.count == countFieldValue(m_columns->text(), 1000))
            return;
        m_chart->setSelectedRange(std::nullopt);
        recompute();
        if (changed)
            emit selectionChanged(m_options->range(), m_options->pes());
    });
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this](int index) {
        setColoring(
            index == 1 ? OverviewColoring::Utilization : OverviewColoring::DominantActivity);
    });
    connect(m_computation, &AsyncComputation::busyChanged, m_chart, &OverviewChart::setBusy);
    connect(m_chart, &OverviewChart::rowClicked, this,
        [this](core::PeId pe) { emit timelineRequested({ pe }, currentRange()); });
    connect(m_chart, &OverviewChart::rangeSelected, this, [this](core::TimeRange range, QPoint at) {
        emit selectionChanged(range, m_options->pes());
        showRangeMenu(range, at);
    });
    connect(m_chart, &OverviewChart::contextMenuRequested, this, &OverviewView::showContextMenu);
}

void OverviewView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_overview.reset();
    m_zoomHistory.clear();
    m_options->setTrace(m_trace);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    m_chart->setData(m_trace, nullptr, coloring());
    recompute();
}

void OverviewView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    if (range.empty() && m_trace)
        range = core::analysis::tracedRunSpan(*m_trace);
    m_options->setRange(range);
    m_options->setPes(pes);
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    m_chart->setSelectedRange(std::nullopt);
    recompute();
}

bool OverviewView::busy() const
{
    return m_computation->busy();
}

OverviewColoring OverviewView::coloring() const
{
    return m_coloring->currentIndex() == 1 ? OverviewColoring::Utilization
                                           : OverviewColoring::DominantActivity;
}

void OverviewView::setColoring(OverviewColoring coloring)
{
    {
        const QSignalBlocker block(m_coloring);
        m_coloring->setCurrentIndex(coloring == OverviewColoring::Utilization ? 1 : 0);
    }
    m_chart->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring);
}

std::optional<core::TimeRange> OverviewView::selectedRange() const
{
    return m_chart->selectedRange();
}

core::TimeRange OverviewView::currentRange() const
{
    return m_chart->selectedRange().value_or(m_options->range());
}

void OverviewView::zoomTo(core::TimeRange range)
{
    if (range.empty())
        return;
    m_zoomHistory.push_back(m_options->range());
    m_options->setRange(range);
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
}

bool OverviewView::zoomOut()
{
    if (m_zoomHistory.empty())
        return false;
    m_options->setRange(m_zoomHistory.back());
    m_zoomHistory.pop_back();
    m_chart->setSelectedRange(std::nullopt);
    recompute();
    rememberSelection(m_shownRange, m_shownPes, m_options->range(), m_options->pes());
    emit selectionChanged(m_options->range(), m_options->pes());
    return true;
}

void OverviewView::showRangeMenu(core::TimeRange range, QPoint globalPos)
{
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Zoom to %1 (%2)")
                        .arg(formatTimeSpan(range),
                            QString::fromStdString(core::formatDuration(range.length()))),
        this, [this, range]() { zoomTo(range); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    menu->addSeparator();
    menu->addAction(
        tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    menu->popup(globalPos);
}

void OverviewView::showContextMenu(QPoint globalPos, std::optional<core::PeId> pe)
{
    if (!m_trace)
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const auto range = currentRange();
    if (pe)
        menu->addAction(tr("Open PE %1 in the timeline").arg(*pe), this,
            [this, pe = *pe, range]() { emit timelineRequested({ pe }, range); });
    if (const auto selected = m_chart->selectedRange()) {
        menu->addAction(tr("Zoom to the selection"), this, [this, r = *selected]() { zoomTo(r); });
        menu->addAction(
            tr("Clear the selection"), this, [this]() { m_chart->setSelectedRange(std::nullopt); });
    }
    QAction* back = menu->addAction(tr("Zoom out"), this, [this]() { zoomOut(); });
    back->setEnabled(!m_zoomHistory.empty());
    menu->addAction(tr("Show the whole traced run"), this,
        [this]() { zoomTo(core::analysis::tracedRunSpan(*m_trace)); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_options->pes());
    addExportActions(*menu, *this);
    menu->popup(globalPos);
}

void OverviewView::recompute()
{
    if (!m_trace) {
        m_computation->cancel();
        m_overview.reset();
        m_chart->setData(m_trace, nullptr, coloring());
        m_chart->setSubtitle({});
        return;
    }
    auto request = m_options->request();
    m_chart->setCommThreadsMuted(!request.includeCommThreads);
    core::analysis::OverviewOptions options;
    options.columns = countFieldValue(m_columns->text(), 1000);
    auto trace = m_trace;
    m_computation->run<std::optional<core::analysis::Overview>>(
        [trace, request, options](const core::analysis::Progress& progress) {
            return core::analysis::computeOverview(*trace, request, options, progress);
        },
        [this](std::optional<core::analysis::Overview> result) {
            m_overview = std::move(result);
            if (m_overview) {
                const auto& grid = m_overview->grid;
                m_chart->setSubtitle(
                    describeSelection(*m_trace, m_options->range(), m_options->pes())
                    + tr(" · %1 columns of %2")
                          .arg(QLocale().toString(static_cast<qlonglong>(grid.count)),
                              formatTime(static_cast<double>(grid.size))));
            }
            m_chart->setData(m_trace, m_overview ? &*m_overview : nullptr, coloring());
            emit computed();
        });
}

QImage OverviewView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_chart->isVisible() ? m_chart->size() : QSize(1200, 700);
    return m_chart->renderImage(size);
}

QString OverviewView::csv() const
{
    return QString::fromStdString(core::analysis::overviewCsv(m_overview ? &*m_overview : nullptr));
}

bool OverviewView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("columns")) {
            m_columns->setText(value);
        } else if (name == QStringLiteral("coloring") || name == QStringLiteral("color")) {
            if (value == QStringLiteral("utilization"))
                setColoring(OverviewColoring::Utilization);
            else if (value == QStringLiteral("activity"))
                setColoring(OverviewColoring::DominantActivity);
            else {
                if (error != nullptr)
                    *error = tr("--%1: '%2' is not activity or utilization").arg(name, value);
                return false;
            }
        } else {
            if (error != nullptr)
                *error = tr("the %1 view has no option --%2").arg(viewKey(kind()), name);
            return false;
        }
    }
    if (!m_options->apply()) {
        if (error != nullptr)
            *error = m_options->errorText();
        return false;
    }
    return true;
}

} // namespace parallax::views
