#include "views/overview/overview_chart.h"

#include "core/analysis/csv_export.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/common/tool_tip.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

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
    OverviewColoring coloring, std::vector<OverviewRowInfo> rows,
    const core::analysis::GroupOverview* groups)
{
    m_groups = groups;
    m_trace = trace;
    m_overview = overview;
    m_coloring = coloring;
    m_rows = std::move(rows);
    m_traced.clear();
    m_utilizationRows.clear();
    m_dominantCounts.clear();
    if (m_overview != nullptr && m_trace) {
        if (m_rows.size() == m_overview->pes.size()) {
            for (const auto& row : m_rows) {
                m_traced.push_back(row.traced);
                m_utilizationRows.push_back(row.utilizationOnly);
            }
        } else {
            m_rows.clear();
            const auto& summary = m_overview->fromSummary;
            for (const auto pe : m_overview->pes) {
                m_traced.push_back(tracedSpanOf(*m_trace, pe));
                // PEs from their summary files have no entry methods: the utilization ramp.
                m_utilizationRows.push_back(std::binary_search(summary.begin(), summary.end(), pe));
            }
        }
        m_dominantCounts = dominantCellCounts(*m_overview, m_traced);
    }
    invalidate();
}

QString OverviewChart::rowLabel(std::size_t row) const
{
    if (row < m_rows.size())
        return m_rows[row].label;
    if (m_overview == nullptr || row >= m_overview->pes.size())
        return {};
    const auto pe = m_overview->pes[row];
    const auto label = overviewRowLabel(pe, m_trace && m_trace->metadata.isCommThread(pe));
    const auto& summary = m_overview->fromSummary;
    return std::binary_search(summary.begin(), summary.end(), pe) ? fromSummaryLabel(label) : label;
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

OverviewLayout OverviewChart::layoutFor(bool exported, int width) const
{
    const QFontMetrics fm(font());
    OverviewLayout layout;
    layout.titleHeight = fm.height() + 10;
    layout.lineHeight = fm.height();
    int widest = fm.horizontalAdvance(QStringLiteral("PE 0"));
    if (!m_rows.empty()) {
        for (const auto& row : m_rows)
            widest = std::max(widest, fm.horizontalAdvance(row.label));
        widest
            = std::min(widest, std::max(fm.horizontalAdvance(QStringLiteral("PE 0")), width / 4));
    } else if (m_overview != nullptr && !m_overview->pes.empty()) {
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
        m_trace ? &m_trace->metadata : nullptr, size, layoutFor(exported, size.width()), m_rows);
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
            m_traced, m_utilizationRows);
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
    if (cell->row < m_rows.size() && !m_rows[cell->row].isPe())
        return std::nullopt;
    return m_overview->pes[cell->row];
}

std::optional<int> OverviewChart::groupAt(QPoint pos) const
{
    const auto& g = currentGeometry();
    if (pos.x() > g.plot.right())
        return std::nullopt;
    const auto row = g.rowAt(pos.y());
    if (!row || *row >= m_rows.size() || m_rows[*row].group < 0)
        return std::nullopt;
    return m_rows[*row].group;
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
    const auto& meta = m_trace->metadata;
    const OverviewRowInfo* info = cell->row < m_rows.size() ? &m_rows[cell->row] : nullptr;
    if (info != nullptr && !info->isPe())
        return groupToolTip(*info, cell->row, cell->column);
    const auto pe = o.pes[cell->row];
    QString where = tr("<b>PE %1</b>").arg(pe);
    if (info != nullptr && info->kind != OverviewRowInfo::Kind::Pe)
        where = tr("<b>%1</b>").arg(info->label.trimmed().toHtmlEscaped());
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
    const bool summary = info != nullptr
        ? info->fromSummary
        : std::binary_search(o.fromSummary.begin(), o.fromSummary.end(), pe);
    if (summary)
        text += tr("<br><i>from its summary file (.sum: utilization and idle over time): this "
                   "reduced run has no log of PE %1</i>")
                    .arg(pe);
    else
        text += tr("<br>most time: %1")
                    .arg(activityName(meta, o.columns, o.dominant[index], true).toHtmlEscaped());
    if (g.columns > g.plot.width() || g.rows > static_cast<std::size_t>(g.plot.height()))
        text += tr("<br><span style='color:gray'>one of several cells in this pixel</span>");
    text += tr("<br><span style='color:gray'>click: open PE %1 in the timeline</span>").arg(pe);
    return text;
}

QString OverviewChart::groupToolTip(
    const OverviewRowInfo& info, std::size_t row, std::int64_t column) const
{
    using RowKind = OverviewRowInfo::Kind;
    const auto& o = *m_overview;
    const auto& meta = m_trace->metadata;
    const auto g = static_cast<std::size_t>(info.group);
    QString text;
    std::size_t members = 0;
    if (m_groups != nullptr && g < m_groups->groupCount()) {
        const auto& m = m_groups->members[g];
        members = m.size();
        text = tr("<b>%1</b> · %n PE(s)", nullptr, static_cast<int>(members))
                   .arg(info.label.trimmed().toHtmlEscaped());
        if (!m.empty())
            text += tr(" (PE %1–%2)").arg(m.front()).arg(m.back());
    } else {
        text = tr("<b>%1</b>").arg(info.label.toHtmlEscaped());
    }
    const core::TimeRange span { o.grid.begin(column), o.grid.end(column) };
    text += QStringLiteral("<br>") + formatTimeSpan(span);
    if (!overviewCellHasData(o, row, column, m_traced))
        return text + tr("<br><i>not traced here</i>");
    const auto index = o.index(row, column);
    const auto value = percent(static_cast<double>(o.utilization[index]));
    if (info.kind == RowKind::KeyRest) {
        text += tr("<br>the other %n PE(s), mean: utilization %1 · idle %2", nullptr,
            static_cast<int>(members >= 3 ? members - 3 : 0))
                    .arg(value, percent(static_cast<double>(o.idle[index])));
    } else if (m_groups != nullptr && g < m_groups->groupCount()) {
        const auto at = m_groups->index(g, column);
        text += tr("<br>mean utilization %1 · idle %2")
                    .arg(percent(static_cast<double>(m_groups->meanUtilization[at])),
                        percent(static_cast<double>(m_groups->meanIdle[at])));
        text += tr("<br>lowest %1 (PE %2) · highest %3 (PE %4)")
                    .arg(percent(static_cast<double>(m_groups->minUtilization[at])))
                    .arg(m_groups->minPe[at])
                    .arg(percent(static_cast<double>(m_groups->maxUtilization[at])))
                    .arg(m_groups->maxPe[at]);
        if (info.kind == RowKind::GroupMax || info.kind == RowKind::GroupMin)
            text += tr("<br>this row: the %1 utilization of each column")
                        .arg(info.kind == RowKind::GroupMax ? tr("highest") : tr("lowest"));
    }
    text += tr("<br>most time: %1")
                .arg(activityName(meta, o.columns, o.dominant[index], true).toHtmlEscaped());
    if (m_groups != nullptr && g < m_groups->summaryMembers.size()
        && m_groups->summaryMembers[g] > 0)
        text += tr("<br><i>%n of its PEs from their summary files (no log in this reduced run)</i>",
            nullptr, static_cast<int>(m_groups->summaryMembers[g]));
    text += tr("<br><span style='color:gray'>click: show this group's PEs (again: hide "
               "them)</span>");
    return text;
}

bool OverviewChart::event(QEvent* e)
{
    if (answerToolTip(this, e, [this](QPoint pos) { return toolTipAt(pos); }))
        return true;
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
    m_labelPress.reset();
    if (p.x() < g.plot.left()) {
        m_labelPress = g.rowAt(p.y());
        return;
    }
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
    if (e->button() == Qt::LeftButton && m_labelPress) {
        // A click on a label: a group row's label expands or collapses the group.
        const auto row = *m_labelPress;
        m_labelPress.reset();
        if (row < m_rows.size() && m_rows[row].group >= 0 && !m_rows[row].member)
            emit groupClicked(m_rows[row].group);
        else if (m_overview != nullptr && row < m_overview->pes.size()
            && (row >= m_rows.size() || m_rows[row].isPe()))
            emit rowClicked(m_overview->pes[row]);
        return;
    }
    if (e->button() != Qt::LeftButton || !m_dragStart)
        return;
    const int start = *m_dragStart;
    const int end = m_dragNow.value_or(start);
    m_dragStart.reset();
    m_dragNow.reset();
    update();
    const auto& g = currentGeometry();
    if (std::abs(end - start) < 4) {
        // A click: the PE of that row, or the group of an aggregate row.
        const QPoint at = e->position().toPoint();
        if (const auto pe = peAt(at))
            emit rowClicked(*pe);
        else if (const auto group = groupAt(at))
            emit groupClicked(*group);
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
