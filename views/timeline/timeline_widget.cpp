// TimelineWidget: its state (trace, rows, groups), the geometry cache and the mapping between
// widget points and rows, blocks and times. The rest of the class lives beside it, one file
// per seam: timeline_navigation.cpp (window, zoom, history), timeline_selection.cpp (selection,
// message links, highlight), timeline_painting.cpp with timeline_paint_rows.cpp and
// timeline_paint_links.cpp (the painting passes), timeline_tooltips.cpp and timeline_input.cpp.

#include "views/timeline/timeline_widget.h"

#include "core/analysis/run_span.h"
#include "views/common/entry_palette.h"
#include "views/timeline/timeline_summary.h"
#include "views/timeline/timeline_widget_internal.h"

#include <QElapsedTimer>
#include <QResizeEvent>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>
#include <limits>

Q_LOGGING_CATEGORY(lcTimeline, "parallax.timeline", QtWarningMsg)

namespace parallax::views {

using namespace timeline_internal;

TimelineWidget::TimelineWidget(EntryPalette* palette, QWidget* parent)
    : QWidget(parent)
    , m_palette(palette)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setObjectName(QStringLiteral("timelineWidget"));
    m_scrollBar = new QScrollBar(Qt::Vertical, this);
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int value) {
        if (value == m_scrollY)
            return;
        m_scrollY = value;
        invalidate();
    });
    if (palette != nullptr)
        connect(palette, &EntryPalette::changed, this, qOverload<>(&QWidget::update));
}

void TimelineWidget::adoptTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_summaries = m_trace ? std::make_shared<TimelineSummaryCache>(m_trace) : nullptr;
    // KEY rankings come from the PEs' detail, which a run read on demand adds later.
    m_busyOfPe.clear();
    for (const auto& group : m_groups)
        group.keys.reset();
}

void TimelineWidget::setTrace(core::TracePtr trace, core::TimeRange tracedSpan)
{
    adoptTrace(std::move(trace));
    m_tracedSpan
        = !tracedSpan.empty() || !m_trace ? tracedSpan : core::analysis::tracedRunSpan(*m_trace);
    m_pes.clear();
    m_groups.clear();
    m_highlight.reset();
    m_selected.reset();
    m_path.clear();
    m_targets.clear();
    m_scrollY = 0;
    m_window = { 0, 1 };
    m_reference.reset();
    fit();
    m_back.clear();
    m_forward.clear();
    m_gestureClock.invalidate();
    invalidate();
    updateScrollBar();
    emit historyChanged();
    emit referenceChanged();
}

void TimelineWidget::setSummariesOnly(bool summariesOnly)
{
    if (summariesOnly == m_summariesOnly)
        return;
    m_summariesOnly = summariesOnly;
    invalidate();
}

void TimelineWidget::replaceTrace(core::TracePtr trace)
{
    adoptTrace(std::move(trace));
    if (m_selected)
        relink(); // the sender's PE may have arrived
    invalidate();
    emit blockSelected();
}

void TimelineWidget::setPes(std::vector<core::PeId> pes)
{
    m_pes = std::move(pes);
    // Groups keep only the PEs still shown.
    const auto before = m_groups.size();
    for (auto& group : m_groups)
        std::erase_if(group.pes, [this](core::PeId pe) {
            return std::find(m_pes.begin(), m_pes.end(), pe) == m_pes.end();
        });
    std::erase_if(m_groups, [](const TimelineGroup& group) { return group.pes.empty(); });
    for (const auto& group : m_groups)
        group.keys.reset();
    if (m_groups.size() != before)
        emit groupsChanged();
    if (m_selected && std::find(m_pes.begin(), m_pes.end(), m_selected->pe) == m_pes.end()) {
        m_selected.reset();
        m_path.clear();
        m_targets.clear();
        emit blockSelected();
    } else if (m_selected) {
        relink(); // forward arrows go to the shown PEs
    }
    invalidate();
    emit pesChanged();
    updateScrollBar();
}

void TimelineWidget::collapse(
    const std::vector<core::PeId>& pes, const QString& label, bool automatic)
{
    collapseAll({ { pes, label } }, automatic);
}

void TimelineWidget::collapseAll(const std::vector<GroupSpec>& groups, bool automatic)
{
    bool added = false;
    for (const auto& [pes, label] : groups) {
        TimelineGroup group;
        group.label = label;
        group.automatic = automatic;
        for (const auto pe : m_pes)
            if (std::find(pes.begin(), pes.end(), pe) != pes.end())
                group.pes.push_back(pe);
        if (group.pes.empty())
            continue;
        for (auto& other : m_groups)
            std::erase_if(other.pes, [&](core::PeId pe) {
                return std::find(group.pes.begin(), group.pes.end(), pe) != group.pes.end();
            });
        std::erase_if(m_groups, [](const TimelineGroup& g) { return g.pes.empty(); });
        for (const auto& other : m_groups)
            other.keys.reset();
        m_groups.push_back(std::move(group));
        added = true;
    }
    if (!added)
        return;
    invalidate();
    updateScrollBar();
    emit groupsChanged();
}

void TimelineWidget::keepPlace(int group, const std::function<void()>& change)
{
    const auto firstRowOf = [this](int g) {
        const auto rows = rowSources();
        for (std::size_t r = 0; r < rows.size(); ++r)
            if (rows[r].group == g)
                return static_cast<int>(r);
        return -1;
    };
    const int before = firstRowOf(group);
    const auto& old = currentGeometry();
    const int screenTop = old.rowsArea.top() + before * old.rowPitch - old.scrollY;
    change();
    m_cache.reset();
    const int after = firstRowOf(group);
    if (before >= 0 && after >= 0) {
        const auto& now = currentGeometry();
        m_scrollY = std::max(now.rowsArea.top() + after * now.rowPitch - screenTop, 0);
        m_cache.reset();
    }
    invalidate();
    updateScrollBar();
    m_scrollY = currentGeometry().scrollY;
    emit groupsChanged();
}

void TimelineWidget::expand(int group)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size()
        || m_groups[static_cast<std::size_t>(group)].expanded)
        return;
    keepPlace(group, [&]() { m_groups[static_cast<std::size_t>(group)].expanded = true; });
}

void TimelineWidget::collapseGroup(int group)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size()
        || !m_groups[static_cast<std::size_t>(group)].expanded)
        return;
    keepPlace(group, [&]() { m_groups[static_cast<std::size_t>(group)].expanded = false; });
}

void TimelineWidget::toggleGroup(int group)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size())
        return;
    if (m_groups[static_cast<std::size_t>(group)].expanded)
        collapseGroup(group);
    else
        expand(group);
}

void TimelineWidget::ungroup(int group)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size())
        return;
    m_groups.erase(m_groups.begin() + group);
    invalidate();
    updateScrollBar();
    emit groupsChanged();
}

void TimelineWidget::expandAll()
{
    if (m_groups.empty())
        return;
    m_groups.clear();
    invalidate();
    updateScrollBar();
    emit groupsChanged();
}

void TimelineWidget::setGroupMode(core::analysis::AggregationMode mode)
{
    if (mode == core::analysis::AggregationMode::Signature)
        mode = core::analysis::AggregationMode::Sum;
    if (mode == m_groupMode)
        return;
    // The group at the top of the rows stays there.
    const auto& g = currentGeometry();
    const int top = g.rows.empty() ? -1 : g.rows.front().group;
    keepPlace(top, [&]() { m_groupMode = mode; });
}

std::array<core::PeId, 3> TimelineWidget::keyPes(int group) const
{
    std::array<core::PeId, 3> keys { core::kNoPe, core::kNoPe, core::kNoPe };
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size() || !m_trace)
        return keys;
    const auto& g = m_groups[static_cast<std::size_t>(group)];
    if (g.keys)
        return *g.keys;
    if (m_busyOfPe.size() != m_trace->pes.size())
        m_busyOfPe.assign(m_trace->pes.size(), -1.0);
    const auto entries = static_cast<core::EntryId>(m_trace->metadata.entries.size());
    const auto busyOf = [&](core::PeId pe) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= m_busyOfPe.size())
            return 0.0;
        auto& busy = m_busyOfPe[static_cast<std::size_t>(pe)];
        if (busy < 0) {
            const auto& ex = m_trace->pes[static_cast<std::size_t>(pe)].executions;
            double sum = 0;
            for (std::size_t k = 0; k < ex.size(); ++k)
                if (ex.entry[k] < entries)
                    sum += static_cast<double>(ex.end[k] - ex.begin[k]);
            busy = sum;
        }
        return busy;
    };
    // The members in PE order: the first is kept as it is; ties go to the lower PE.
    auto pes = g.pes;
    std::sort(pes.begin(), pes.end());
    if (!pes.empty())
        keys[0] = pes.front();
    double most = -1;
    for (std::size_t i = 1; i < pes.size(); ++i)
        if (busyOf(pes[i]) > most) {
            most = busyOf(pes[i]);
            keys[1] = pes[i];
        }
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < pes.size(); ++i)
        if (pes[i] != keys[1] && busyOf(pes[i]) < least) {
            least = busyOf(pes[i]);
            keys[2] = pes[i];
        }
    g.keys = keys;
    return keys;
}

std::vector<TimelineRowSource> TimelineWidget::rowSources() const
{
    using Role = TimelineRowRole;
    std::vector<TimelineRowSource> rows;
    std::vector<bool> emitted(m_groups.size(), false);
    // The group of each PE by PE number (built every frame: a hash map of 16,384 PEs took a
    // good part of a millisecond); a PE in several groups belongs to the first.
    core::PeId highest = -1;
    for (const auto pe : m_pes)
        highest = std::max(highest, pe);
    std::vector<int> groupOf(static_cast<std::size_t>(highest + 1), -1);
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        for (const auto pe : m_groups[g].pes)
            if (pe >= 0 && pe <= highest && groupOf[static_cast<std::size_t>(pe)] < 0)
                groupOf[static_cast<std::size_t>(pe)] = static_cast<int>(g);
    for (const auto pe : m_pes) {
        const int group = pe >= 0 ? groupOf[static_cast<std::size_t>(pe)] : -1;
        if (group < 0) {
            rows.push_back({ pe, {}, -1, {} });
            continue;
        }
        if (emitted[static_cast<std::size_t>(group)])
            continue;
        emitted[static_cast<std::size_t>(group)] = true;
        const auto& g = m_groups[static_cast<std::size_t>(group)];
        const int size = static_cast<int>(g.pes.size());
        auto row = [&](core::PeId p, std::vector<core::PeId> members, Role role) {
            rows.push_back({ p, std::move(members), group, g.label, role, g.expanded, size });
        };
        switch (m_groupMode) {
        case core::analysis::AggregationMode::Set:
            row(core::kNoPe, g.pes, Role::GroupSet);
            break;
        case core::analysis::AggregationMode::Key: {
            const auto keys = keyPes(group);
            const Role roles[] = { Role::KeyFirst, Role::KeyBusiest, Role::KeyLeastBusy };
            for (std::size_t k = 0; k < keys.size(); ++k)
                if (keys[k] != core::kNoPe)
                    row(keys[k], {}, roles[k]);
            std::vector<core::PeId> rest;
            for (const auto p : g.pes)
                if (std::find(keys.begin(), keys.end(), p) == keys.end())
                    rest.push_back(p);
            if (!rest.empty())
                row(core::kNoPe, std::move(rest), Role::KeyRest);
            break;
        }
        default:
            row(core::kNoPe, g.pes, Role::GroupSum);
            break;
        }
        if (g.expanded)
            for (const auto p : g.pes)
                row(p, {}, Role::Member);
    }
    return rows;
}

int TimelineWidget::groupAt(QPoint pos) const
{
    const auto* row = currentGeometry().rowAt(pos.y());
    return row != nullptr ? row->group : -1;
}

void TimelineWidget::sortByNode()
{
    if (!m_trace)
        return;
    const auto& meta = m_trace->metadata;
    auto pes = m_pes;
    std::stable_sort(pes.begin(), pes.end(), [&](core::PeId a, core::PeId b) {
        const int na = meta.nodeOf(a);
        const int nb = meta.nodeOf(b);
        if (na != nb)
            return na < nb;
        const bool ca = meta.isCommThread(a);
        const bool cb = meta.isCommThread(b);
        return ca != cb ? cb : a < b;
    });
    setPes(std::move(pes));
}

TimelineLayout TimelineWidget::layoutFor(QSize size, bool exported) const
{
    const QFontMetrics fm(font());
    TimelineLayout layout;
    layout.labelWidth
        = std::max(fm.horizontalAdvance(QStringLiteral("node 00 · 100 % busy")) * 86 / 100,
              fm.horizontalAdvance(QStringLiteral("PE 00000")))
        + 18;
    layout.rulerHeight = fm.height() + 14;
    layout.minTickSpacing
        = std::max(110.0, fm.horizontalAdvance(QStringLiteral("+8,888.88 ms")) + 24.0);
    layout.reference = m_reference;
    layout.summaries = m_summaries.get();
    const int n = static_cast<int>(rowSources().size());
    if (exported) {
        layout.titleHeight = fm.height() + 12;
        layout.legendHeight = 2 * (fm.height() + 4) + 8;
        const int available = size.height() - 2 * layout.margin - layout.titleHeight
            - layout.rulerHeight - layout.legendHeight;
        if (n > 0 && n * (layout.minBarHeight + layout.eventStrip + layout.rowGap) > available) {
            // Everything must fit into a picture: thinner rows and gaps.
            layout.eventStrip = 2;
            layout.rowGap = 2;
            layout.minBarHeight = 2;
        }
        return layout;
    }
    layout.legendHeight = fm.height() + 10;
    const int available
        = size.height() - 2 * layout.margin - layout.rulerHeight - layout.legendHeight;
    if (n * (layout.minBarHeight + layout.eventStrip + layout.rowGap) > available) {
        layout.scrollBarWidth = style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2;
        layout.scrollY = m_scrollY;
    }
    return layout;
}

TimelineGeometry TimelineWidget::geometryFor(QSize size, bool exported) const
{
    if (!m_trace) {
        TimelineGeometry g;
        g.size = size;
        return g;
    }
    return buildTimelineGeometryForRows(
        *m_trace, rowSources(), m_window, size, layoutFor(size, exported));
}

const TimelineGeometry& TimelineWidget::currentGeometry() const
{
    if (!m_cache || m_cache->size != size()) {
        QElapsedTimer timer;
        timer.start();
        m_cache = geometryFor(size(), false);
        if (lcTimeline().isDebugEnabled()) {
            std::size_t blocks = 0;
            for (const auto& row : m_cache->rows)
                blocks += row.blocks.size();
            qCDebug(lcTimeline) << "geometry:" << m_cache->rows.size() << "rows," << blocks
                                << "blocks in" << static_cast<double>(timer.nsecsElapsed()) / 1e6
                                << "ms";
        }
    }
    return *m_cache;
}

void TimelineWidget::invalidate()
{
    m_cache.reset();
    update();
}

void TimelineWidget::updateScrollBar()
{
    const auto& g = currentGeometry();
    const bool needed = g.contentHeight > g.rowsArea.height() && !m_pes.empty();
    if (!needed) {
        m_scrollBar->hide();
        if (m_scrollY != 0) {
            m_scrollY = 0;
            invalidate();
        }
        return;
    }
    const int extent = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    m_scrollBar->setGeometry(width() - extent - 2, g.rowsArea.top(), extent, g.rowsArea.height());
    const QSignalBlocker block(m_scrollBar);
    m_scrollBar->setRange(0, g.contentHeight - g.rowsArea.height());
    m_scrollBar->setPageStep(g.rowsArea.height());
    m_scrollBar->setSingleStep(std::max(g.rowPitch, 1));
    m_scrollBar->setValue(g.scrollY);
    m_scrollBar->show();
}

void TimelineWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_cache.reset();
    updateScrollBar();
}

double TimelineWidget::xOf(core::TimeUs time) const
{
    return currentGeometry().map.xOf(time);
}

core::TimeUs TimelineWidget::timeAt(double x) const
{
    return currentGeometry().map.timeAt(x);
}

QRect TimelineWidget::rowRect(core::PeId pe) const
{
    const auto* row = currentGeometry().rowOfPe(pe);
    return row != nullptr ? row->bar : QRect();
}

QRect TimelineWidget::blockRectAt(core::PeId pe, core::TimeUs time) const
{
    const auto& g = currentGeometry();
    const auto* row = g.rowOfPe(pe);
    if (row == nullptr || time < m_window.begin || time >= m_window.end)
        return {};
    const auto* block = g.blockAt(*row, static_cast<int>(std::floor(g.map.xOf(time))));
    return block != nullptr ? g.blockRect(*row, *block) : QRect();
}

const TimelineBlock* TimelineWidget::blockAt(QPoint pos, const TimelineRow** rowOut) const
{
    const auto& g = currentGeometry();
    if (!g.rowsArea.contains(pos))
        return nullptr;
    const auto* row = g.rowAt(pos.y());
    if (rowOut != nullptr)
        *rowOut = row;
    if (row == nullptr || pos.y() < row->bar.top() || pos.y() > row->bar.bottom())
        return nullptr;
    return g.blockAt(*row, pos.x());
}

} // namespace parallax::views
