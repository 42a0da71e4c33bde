#include "views/timeline/timeline_widget.h"

#include "core/text_args.h"
#include "views/common/entry_palette.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_bar_painter.h"
#include "views/timeline/timeline_summary.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QLoggingCategory>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

// Opt-in frame-time read-out: QT_LOGGING_RULES="parallax.timeline.debug=true".
Q_LOGGING_CATEGORY(lcTimeline, "parallax.timeline", QtWarningMsg)

namespace parallax::views {

namespace {

QColor faded(const QColor& c, const QColor& background, double amount)
{
    const auto mix = [amount](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * amount));
    };
    return QColor(mix(c.red(), background.red()), mix(c.green(), background.green()),
        mix(c.blue(), background.blue()));
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

QString duration(core::TimeUs us)
{
    return QString::fromStdString(core::formatDuration(us));
}

QString peListText(const std::vector<core::PeId>& pes)
{
    QStringList parts;
    for (const auto pe : pes)
        parts << QString::number(pe);
    return parts.join(QStringLiteral(", "));
}

constexpr double kZoomStep = 0.8; // one wheel notch

QColor referenceColour()
{
    return { 0xc6, 0x28, 0x28 };
}

QColor bracketColour()
{
    return { 0x4f, 0x7c, 0xac };
}

QColor noteColour()
{
    return { 0xe0, 0x8e, 0x0b };
}
constexpr double kArrowHead = 8.0;

} // namespace

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
}

void TimelineWidget::setTrace(core::TracePtr trace)
{
    adoptTrace(std::move(trace));
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

void TimelineWidget::collapse(const std::vector<core::PeId>& pes, const QString& label)
{
    TimelineGroup group;
    group.label = label;
    for (const auto pe : m_pes)
        if (std::find(pes.begin(), pes.end(), pe) != pes.end())
            group.pes.push_back(pe);
    if (group.pes.empty())
        return;
    for (auto& other : m_groups)
        std::erase_if(other.pes, [&](core::PeId pe) {
            return std::find(group.pes.begin(), group.pes.end(), pe) != group.pes.end();
        });
    std::erase_if(m_groups, [](const TimelineGroup& g) { return g.pes.empty(); });
    m_groups.push_back(std::move(group));
    invalidate();
    updateScrollBar();
    emit groupsChanged();
}

void TimelineWidget::expand(int group)
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

std::vector<TimelineRowSource> TimelineWidget::rowSources() const
{
    std::vector<TimelineRowSource> rows;
    rows.reserve(m_pes.size());
    std::vector<bool> emitted(m_groups.size(), false);
    std::unordered_map<core::PeId, int> groupOf;
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        for (const auto pe : m_groups[g].pes)
            groupOf.emplace(pe, static_cast<int>(g));
    for (const auto pe : m_pes) {
        const auto it = groupOf.find(pe);
        const int group = it != groupOf.end() ? it->second : -1;
        if (group < 0) {
            rows.push_back({ pe, {}, -1, {} });
        } else if (!emitted[static_cast<std::size_t>(group)]) {
            emitted[static_cast<std::size_t>(group)] = true;
            const auto& g = m_groups[static_cast<std::size_t>(group)];
            rows.push_back({ core::kNoPe, g.pes, group, g.label });
        }
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

core::TimeRange TimelineWidget::runSpan() const
{
    if (!m_trace)
        return { 0, 1 };
    return { 0, std::max<core::TimeUs>(m_trace->endTime(), kMinimumWindow) };
}

void TimelineWidget::setWindow(core::TimeRange window)
{
    applyWindow(window, History::Record);
}

void TimelineWidget::applyWindow(core::TimeRange window, History history)
{
    if (m_trace) {
        const auto span = runSpan();
        const auto length = std::clamp<core::TimeUs>(
            window.length(), kMinimumWindow, std::max(span.length(), kMinimumWindow));
        const auto begin = std::clamp<core::TimeUs>(
            window.begin, span.begin, std::max(span.begin, span.end - length));
        window = { begin, begin + length };
    } else if (window.length() < kMinimumWindow) {
        window.end = window.begin + kMinimumWindow;
    }
    if (window.begin == m_window.begin && window.end == m_window.end)
        return;
    bool recorded = false;
    if (history != History::Skip) {
        const bool continuing = history == History::Gesture && m_gestureClock.isValid()
            && m_gestureClock.elapsed() < kGesturePauseMs;
        if (!continuing) {
            m_back.push_back(m_window);
            if (m_back.size() > kHistoryLimit)
                m_back.erase(m_back.begin());
            m_forward.clear();
            recorded = true;
        }
        if (history == History::Gesture)
            m_gestureClock.restart();
        else
            m_gestureClock.invalidate();
    }
    m_window = window;
    invalidate();
    emit windowChanged(m_window);
    if (recorded)
        emit historyChanged();
}

void TimelineWidget::stepHistory(
    std::vector<core::TimeRange>& from, std::vector<core::TimeRange>& to)
{
    if (from.empty())
        return;
    const auto target = from.back();
    from.pop_back();
    to.push_back(m_window);
    m_gestureClock.invalidate();
    applyWindow(target, History::Skip);
    emit historyChanged();
}

void TimelineWidget::back()
{
    stepHistory(m_back, m_forward);
}

void TimelineWidget::forward()
{
    stepHistory(m_forward, m_back);
}

void TimelineWidget::goToStart()
{
    const auto length = m_window.length();
    setWindow({ runSpan().begin, runSpan().begin + length });
}

void TimelineWidget::goToEnd()
{
    const auto length = m_window.length();
    setWindow({ runSpan().end - length, runSpan().end });
}

void TimelineWidget::setReferenceTime(std::optional<core::TimeUs> time)
{
    if (time == m_reference)
        return;
    m_reference = time;
    invalidate();
    emit referenceChanged();
}

void TimelineWidget::fit()
{
    setWindow(runSpan());
}

void TimelineWidget::zoom(double factor, double anchorX)
{
    zoomAt(factor, anchorX, History::Record);
}

void TimelineWidget::zoomAt(double factor, double anchorX, History history)
{
    const auto& g = currentGeometry();
    const double x = std::clamp(anchorX, g.map.left, g.map.left + g.map.width);
    const double t = static_cast<double>(g.map.timeAt(x));
    const double b = t - (t - static_cast<double>(m_window.begin)) * factor;
    const double e = t + (static_cast<double>(m_window.end) - t) * factor;
    core::TimeRange next { static_cast<core::TimeUs>(std::floor(b)),
        static_cast<core::TimeUs>(std::ceil(e)) };
    if (factor < 1.0 && next.length() < kMinimumWindow) {
        // Already at the finest zoom: keep the anchor where it is.
        const auto anchor = static_cast<core::TimeUs>(std::llround(t));
        const double share = (x - g.map.left) / std::max(g.map.width, 1.0);
        const auto begin = anchor
            - static_cast<core::TimeUs>(std::llround(share * static_cast<double>(kMinimumWindow)));
        next = { begin, begin + kMinimumWindow };
    }
    applyWindow(next, history);
}

void TimelineWidget::panPixels(double dx)
{
    panBy(dx, History::Record);
}

void TimelineWidget::panBy(double dx, History history)
{
    const auto& g = currentGeometry();
    const auto shift = static_cast<core::TimeUs>(std::llround(dx * g.map.usPerPixel()));
    applyWindow({ m_window.begin + shift, m_window.end + shift }, history);
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

// ---------------------------------------------------------------------------------------------
// Painting

TimelineWidget::Style TimelineWidget::screenStyle() const
{
    const QPalette pal = palette();
    Style s;
    s.background = pal.color(QPalette::Base);
    s.text = pal.color(QPalette::WindowText);
    s.muted = faded(s.text, s.background, 0.42);
    s.grid = faded(s.text, s.background, 0.9);
    s.rowBackground = faded(s.text, s.background, 0.975);
    return s;
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
    if (!m_trace || m_pes.empty()) {
        painter.setPen(style.muted);
        painter.drawText(QRect(QPoint(0, 0), size).adjusted(16, 16, -16, -16),
            Qt::AlignCenter | Qt::TextWordWrap,
            !m_trace ? tr("No run loaded")
                     : tr("No PEs shown. Type PEs in the options above, or click a PE in "
                          "another view."));
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
        if (row.firstOfNode) {
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
        if (row.collapsed()) {
            first = QStringLiteral("▸ ") + row.groupLabel;
            oneLine = tr("▸ %1 (%2 PEs)").arg(row.groupLabel).arg(row.members.size());
            second = busy >= 0
                ? tr("%1 PEs · %2 % busy").arg(row.members.size()).arg(busy, 0, 'f', 0)
                : tr("%1 PEs").arg(row.members.size());
        } else if (row.commThread) {
            second = tr("comm thread");
        } else if (busy >= 0) {
            second = tr("%1 % busy").arg(busy, 0, 'f', 0);
        }
        const bool nodeHeader = meta.smp && row.node >= 0 && (row.firstOfNode || row.position == 0);
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
                Qt::AlignRight | Qt::AlignVCenter, second);
            painter.restore();
        } else if (row.position % labelStep == 0 || row.collapsed()) {
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
        else if (row.collapsed())
            painter.fillRect(row.bar, faded(style.text, style.background, 0.92));
        else
            painter.fillRect(row.bar, style.rowBackground);
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
        QPainterPath path;
        if (from == to) {
            a = QPointF(sx, from->bar.top());
            z = QPointF(rx, to->bar.top());
            path.moveTo(a);
            const double lift = std::max(12.0, std::min(40.0, std::abs(rx - sx) / 3));
            path.cubicTo(a - QPointF(0, lift), z - QPointF(0, lift), z);
        } else if (from->bar.top() < to->bar.top()) {
            a = QPointF(sx, from->bar.bottom() + 1);
            z = QPointF(rx, to->bar.top());
            path.moveTo(a);
            path.lineTo(z);
        } else {
            a = QPointF(sx, from->bar.top());
            z = QPointF(rx, to->bar.bottom() + 1);
            path.moveTo(a);
            path.lineTo(z);
        }
        const QColor colour = link.weak() ? QColor(0xb3, 0x5c, 0x00)
            : forward                     ? QColor(0x1f, 0x5f, 0xb0)
                                          : QColor(0x14, 0x14, 0x14);
        QPen halo(withAlpha(style.background, 220), 4.0);
        halo.setCapStyle(Qt::RoundCap);
        painter.setPen(halo);
        painter.drawPath(path);
        QPen pen(colour, 1.7);
        if (link.weak())
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
        // Latency label halfway.
        const QString label = duration(beginTime - sendTime);
        const QPointF mid = path.pointAtPercent(0.5);
        const double labelWidth = fm.horizontalAdvance(label) + 8;
        // Kept inside the plot when half the arrow lies outside the window.
        const double labelLeft = std::clamp(
            mid.x() + 4, plot.left() + 4, std::max(plot.left() + 4, plot.right() - labelWidth - 4));
        const QRectF box(labelLeft, mid.y() - fm.height() / 2.0 - 1, labelWidth, fm.height() + 2);
        painter.setBrush(withAlpha(style.background, 235));
        painter.setPen(QPen(withAlpha(colour, 120), 1));
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(colour);
        painter.drawText(box, Qt::AlignCenter, label);
        painter.setBrush(Qt::NoBrush);
    }
    painter.restore();
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
                         .arg(duration(std::abs(t - *m_reference)));
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
        const QString label = duration(g.map.timeAt(b) - g.map.timeAt(a));
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
            const QString text = tr("no message arrow: %1").arg(m_path.front().reason);
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

// ---------------------------------------------------------------------------------------------
// Tooltips

QString TimelineWidget::blockToolTip(const TimelineRow& row, const TimelineBlock& block) const
{
    const auto& meta = m_trace->metadata;
    const auto& g = currentGeometry();
    if (block.kind == TimelineBlockKind::Aggregate || row.collapsed()) {
        const QString dominant
            = activityName(meta, g.columns, block.activity, false).toHtmlEscaped();
        return tr("<b>%1</b> (%2 PEs)<br>%3 – %4<br>%5 % busy · mostly %6 (%7 % of the busy "
                  "time)<br>%8 executions begin here<br><i>right-click: expand the row</i>")
            .arg(row.groupLabel.toHtmlEscaped())
            .arg(row.members.size())
            .arg(formatPreciseTime(block.begin), formatPreciseTime(block.end))
            .arg(static_cast<double>(block.utilization) * 100.0, 0, 'f', 0)
            .arg(dominant)
            .arg(static_cast<double>(block.dominantShare) * 100.0, 0, 'f', 0)
            .arg(block.count);
    }
    const auto& p = m_trace->pes[static_cast<std::size_t>(row.pe)];
    if (block.kind == TimelineBlockKind::Idle)
        return tr("<b>Idle</b> on PE %1<br>%2 – %3<br>duration %4")
            .arg(row.pe)
            .arg(formatPreciseTime(block.begin), formatPreciseTime(block.end),
                duration(block.end - block.begin));
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
                .arg(formatPreciseTime(ex.begin[k]), duration(ex.end[k] - ex.begin[k]));
    if (ex.cpuDuration[k] > 0)
        text += tr(" (CPU %1)").arg(duration(static_cast<core::TimeUs>(ex.cpuDuration[k])));
    if (ex.msgBytes[k] > 0)
        text += tr("<br>message %1 bytes").arg(QLocale().toString(ex.msgBytes[k]));
    const auto link = findMessageSource(*m_trace, row.pe, k);
    if (link.linked()) {
        const auto sendTime
            = m_trace->pes[static_cast<std::size_t>(link.senderPe)].sends.time[*link.send];
        text += tr("<br>sent by PE %1 at %2 · latency %3")
                    .arg(link.senderPe)
                    .arg(formatPreciseTime(sendTime), duration(ex.begin[k] - sendTime));
        if (link.weak())
            text += tr("<br><i>uncertain link: %1</i>").arg(link.reason.toHtmlEscaped());
    } else if (ex.sourcePe[k] >= 0 && link.status != MessageLink::Status::NoSource) {
        text += tr("<br>source PE %1 · %2").arg(ex.sourcePe[k]).arg(link.reason.toHtmlEscaped());
    }
    const std::uint8_t flags = ex.flags[k];
    if ((flags & ~core::kTimeClamped) != 0)
        text += tr("<br><i>the log has no regular end for this execution</i>");
    text += tr("<br><span style='color:gray'>click: show the message arrow</span>");
    return text;
}

QString TimelineWidget::toolTipAt(QPoint pos) const
{
    if (!m_trace)
        return {};
    if (loadButtonRect().contains(pos))
        return tr("Add the message's sender to the timeline to draw its arrow");
    const auto& g = currentGeometry();
    const TimelineRow* row = nullptr;
    if (const auto* block = blockAt(pos, &row); block != nullptr && row != nullptr)
        return blockToolTip(*row, *block);
    row = g.rowAt(pos.y());
    if (row == nullptr)
        return {};
    if (row->collapsed()) {
        if (pos.x() >= g.map.left)
            return {};
        QString text = tr("<b>%1</b>: %2 PEs collapsed into one row (%3)")
                           .arg(row->groupLabel.toHtmlEscaped())
                           .arg(row->members.size())
                           .arg(QString::fromStdString(core::formatPeList(row->members)));
        if (row->tracedUs > 0)
            text += tr("<br>in this window: %1 % busy")
                        .arg(100.0 * static_cast<double>(row->busyUs)
                                / static_cast<double>(row->tracedUs),
                            0, 'f', 1);
        text += tr("<br><i>double-click: expand</i>");
        return text;
    }
    if (pos.x() < g.map.left) {
        QString text = tr("<b>PE %1</b>").arg(row->pe);
        if (row->commThread)
            text += tr(" · communication thread of node %1").arg(row->node);
        else if (m_trace->metadata.smp)
            text += tr(" · node %1").arg(row->node);
        if (row->tracedUs > 0)
            text += tr("<br>in this window: %1 busy, %2 idle (%3 % / %4 %)")
                        .arg(duration(row->busyUs), duration(row->idleUs))
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
                                .arg(formatPreciseTime(n.end), duration(n.end - n.begin));
                if (n.id >= 0)
                    text += tr("<br>%1").arg(userEventName(n.id).toHtmlEscaped());
                text += QStringLiteral("<br>") + QString::fromStdString(n.text).toHtmlEscaped();
                if (t.count > 1)
                    text += tr("<br>%1 notes in this pixel").arg(t.count);
                return text;
            }
    }
    if (pos.y() <= row->bar.top()) {
        for (const auto& t : row->userEvents)
            if (std::abs(t.x - pos.x()) <= 2) {
                const auto& e = p.userEvents[t.index];
                const QString name = userEventName(e.id);
                QString text = tr("<b>%1</b><br>PE %2 at %3")
                                   .arg(name.toHtmlEscaped())
                                   .arg(row->pe)
                                   .arg(formatPreciseTime(e.time));
                if (t.count > 1)
                    text += tr("<br>%1 events in this pixel").arg(t.count);
                return text;
            }
        for (const auto& b : row->brackets)
            if (pos.x() >= b.left - 1 && pos.x() <= b.right) {
                const auto& bracket = p.userBrackets[b.index];
                QString text
                    = tr("<b>%1</b><br>PE %2 · %3 – %4 (%5)")
                          .arg(userEventName(bracket.id).toHtmlEscaped())
                          .arg(row->pe)
                          .arg(formatPreciseTime(bracket.begin), formatPreciseTime(bracket.end),
                              duration(bracket.end - bracket.begin));
                if (b.count > 1)
                    text += tr("<br>with %1 more overlapping here").arg(b.count - 1);
                return text;
            }
    }
    return {};
}

bool TimelineWidget::event(QEvent* e)
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

// ---------------------------------------------------------------------------------------------
// Input

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
    const TimelineRow* row = nullptr;
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
    if (const int group = groupAt(pos); group >= 0 && pos.x() < currentGeometry().map.left) {
        expand(group); // the label of a collapsed row
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
