#include "views/timeline/timeline_view.h"

#include "core/analysis/critical_path.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/pe_groups.h"
#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "views/common/async_computation.h"
#include "views/common/chart_style.h"
#include "views/common/entry_palette.h"
#include "views/common/options_bar.h"
#include "views/common/stacked_bar_chart.h"
#include "views/timeline/timeline_details_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace parallax::views {

namespace {

// A copy of `run` (a run whose logs are read on demand) holding the detail of `pes`; the other
// PEs stay empty. The PEs in `had` (sorted) are taken from `previous`, the copy shown so far, the
// others read through the run's detail source: a PE already shown is not read again (its log
// may have left the source's cache). Null when cancelled.
core::TracePtr withDetail(const core::Trace& run, const std::vector<core::PeId>& pes,
    const core::Trace* previous, const std::vector<core::PeId>& had,
    const core::analysis::Progress& progress)
{
    auto t = std::make_shared<core::Trace>();
    t->metadata = run.metadata;
    t->files = run.files;
    t->summaries = run.summaries;
    t->details = run.details;
    t->report = run.report;
    t->deferredStoreBytes = run.deferredStoreBytes;
    const auto processors
        = static_cast<std::size_t>(std::max<core::PeId>(run.metadata.processors, 0));
    t->pes.resize(processors);
    for (std::size_t p = 0; p < processors; ++p)
        t->pes[p].pe = static_cast<core::PeId>(p);
    for (const auto pe : pes) {
        if (progress.cancelled && progress.cancelled())
            return nullptr;
        if (pe < 0 || static_cast<std::size_t>(pe) >= processors || !run.detailSource)
            continue;
        if (previous != nullptr && std::binary_search(had.begin(), had.end(), pe))
            t->pes[static_cast<std::size_t>(pe)] = previous->pes[static_cast<std::size_t>(pe)];
        else if (const auto detail = run.detailSource->get(pe, &t->report))
            t->pes[static_cast<std::size_t>(pe)] = *detail;
    }
    return t;
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

TimelineView::TimelineView(EntryPalette* palette, QWidget* parent)
    : AnalysisView(ViewKind::Timeline, palette, parent)
{
    m_options = new OptionsBar(this);
    m_timeline = new TimelineWidget(palette, this);
    m_detailComputation = new AsyncComputation(this);
    connect(m_timeline, &TimelineWidget::pesChanged, this, &TimelineView::fetchDetail);
    // Whatever changed the rows (a menu, "Load PE n", sorting, a drag), the options bar and the
    // status line say what is shown.
    connect(m_timeline, &TimelineWidget::pesChanged, this, [this]() {
        groupExcessRows();
        syncOptions();
        updateCriticalPath(); // and the status
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("timelineStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setForegroundRole(QPalette::PlaceholderText); // muted
    auto* zoomOut = toolButton(QStringLiteral("−"), tr("Zoom out (−)"), this);
    auto* zoomIn = toolButton(QStringLiteral("+"), tr("Zoom in (+)"), this);
    auto* whole = toolButton(tr("Whole run"), tr("Show the whole traced run (F)"), this);
    auto* back
        = toolButton(QStringLiteral("◀"), tr("Back to the previous window (Alt+Left)"), this);
    back->setObjectName(QStringLiteral("timelineBack"));
    auto* forward
        = toolButton(QStringLiteral("▶"), tr("Forward to the next window (Alt+Right)"), this);
    forward->setObjectName(QStringLiteral("timelineForward"));
    auto* rows = toolButton(tr("Rows"), tr("Add, remove, sort and collapse rows"), this);
    rows->setObjectName(QStringLiteral("timelineRows"));
    rows->setPopupMode(QToolButton::InstantPopup);
    auto* rowsMenu = new QMenu(rows);
    rowsMenu->addAction(tr("Add PEs…"), this, [this]() {
        askForPeList(
            tr("Add PEs"), [this](const QString& t, QString* e) { return addPeList(t, e); });
    });
    rowsMenu->addAction(tr("Remove PEs…"), this, [this]() {
        askForPeList(
            tr("Remove PEs"), [this](const QString& t, QString* e) { return removePeList(t, e); });
    });
    rowsMenu->addAction(tr("Collapse PEs into one row…"), this, [this]() {
        askForPeList(tr("Collapse PEs"),
            [this](const QString& t, QString* e) { return collapsePeList(t, e); });
    });
    rowsMenu->addSeparator();
    auto* sortByNode
        = rowsMenu->addAction(tr("Sort by SMP node"), m_timeline, &TimelineWidget::sortByNode);
    auto* collapseNodes
        = rowsMenu->addAction(tr("Collapse every node"), this, &TimelineView::collapseNodes);
    auto* expandAll
        = rowsMenu->addAction(tr("Ungroup all"), m_timeline, &TimelineWidget::expandAll);
    connect(rowsMenu, &QMenu::aboutToShow, this, [this, sortByNode, collapseNodes, expandAll]() {
        const bool smp = m_trace && m_trace->metadata.smp;
        sortByNode->setEnabled(smp);
        collapseNodes->setEnabled(smp);
        expandAll->setEnabled(!m_timeline->groups().empty());
    });
    rows->setMenu(rowsMenu);
    m_criticalButton = toolButton(tr("Critical path"),
        tr("Draw the critical path through the window on the shown PEs: the executions (red "
           "outline), messages (red arrows) and waits (dotted) that made the window as long as "
           "it was. Only verified message links are drawn (see docs/why.md)."),
        this);
    m_criticalButton->setObjectName(QStringLiteral("timelineCriticalPath"));
    m_criticalButton->setCheckable(true);
    connect(m_criticalButton, &QToolButton::toggled, this, &TimelineView::updateCriticalPath);
    m_groupMode = m_options->addChoice(tr("&Groups"), { tr("SUM"), tr("SET"), tr("KEY") });
    m_groupMode->setObjectName(QStringLiteral("timelineGroupMode"));
    m_groupMode->setToolTip(tr("How a group of PEs is drawn. SUM: the members' mean utilization, "
                               "in the colour of the entry they ran most. SET: the least busy, "
                               "mean and busiest member per pixel. KEY: the first PE, the busiest "
                               "and the least busy as their own rows, and the rest's mean."));
    connect(m_groupMode, &QComboBox::currentIndexChanged, this, [this](int index) {
        setGroupMode(static_cast<core::analysis::AggregationMode>(std::clamp(index, 0, 2)));
    });
    auto* top = new QHBoxLayout();
    top->setContentsMargins(0, 0, 6, 0);
    top->setSpacing(2);
    top->addWidget(m_options, 1);
    top->addWidget(m_status);
    top->addSpacing(8);
    top->addWidget(rows);
    top->addWidget(m_criticalButton);
    top->addWidget(back);
    top->addWidget(forward);
    top->addWidget(zoomOut);
    top->addWidget(zoomIn);
    top->addWidget(whole);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    m_details = new TimelineDetailsPanel(this);
    m_details->hide();
    auto* body = new QHBoxLayout();
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(0);
    body->addWidget(m_timeline, 1);
    body->addWidget(m_details);
    layout->addLayout(body, 1);
    setFocusProxy(m_timeline);

    m_reportTimer = new QTimer(this);
    m_reportTimer->setSingleShot(true);
    m_reportTimer->setInterval(300);
    connect(m_reportTimer, &QTimer::timeout, this, [this]() {
        emit selectionChanged(m_timeline->window(), m_timeline->pes());
        if (m_criticalButton->isChecked())
            updateCriticalPath();
    });

    auto centre = [this]() {
        const auto& g = m_timeline->currentGeometry();
        return g.map.left + g.map.width / 2.0;
    };
    connect(
        zoomIn, &QToolButton::clicked, this, [this, centre]() { m_timeline->zoom(0.5, centre()); });
    connect(zoomOut, &QToolButton::clicked, this,
        [this, centre]() { m_timeline->zoom(2.0, centre()); });
    connect(whole, &QToolButton::clicked, m_timeline, &TimelineWidget::fit);
    connect(back, &QToolButton::clicked, m_timeline, &TimelineWidget::back);
    connect(forward, &QToolButton::clicked, m_timeline, &TimelineWidget::forward);
    auto updateHistory = [this, back, forward]() {
        back->setEnabled(m_timeline->canGoBack());
        forward->setEnabled(m_timeline->canGoForward());
    };
    connect(m_timeline, &TimelineWidget::historyChanged, this, updateHistory);
    updateHistory();

    connect(m_options, &OptionsBar::applied, this, [this]() {
        if (!m_options->pes().empty()) {
            m_showingDefault = false;
            m_timeline->setPes(m_options->pes());
        }
        m_timeline->setWindow(m_options->range());
        syncOptions();
        m_reportTimer->stop();
        emit selectionChanged(m_timeline->window(), m_timeline->pes());
    });
    connect(m_timeline, &TimelineWidget::windowChanged, this, [this](core::TimeRange window) {
        m_options->setRange(window);
        updateStatus();
        m_reportTimer->start();
    });
    connect(m_timeline, &TimelineWidget::blockSelected, this, &TimelineView::updateStatus);
    connect(m_timeline, &TimelineWidget::blockSelected, this, &TimelineView::updateDetails);
    connect(
        m_details, &TimelineDetailsPanel::highlightChanged, this, &TimelineView::applyHighlight);
    connect(m_details, &TimelineDetailsPanel::backTraceHopsChanged, m_timeline,
        &TimelineWidget::setBackTraceHops);
    connect(m_details, &TimelineDetailsPanel::closeRequested, m_timeline,
        &TimelineWidget::clearSelection);
    connect(m_timeline, &TimelineWidget::groupsChanged, this, &TimelineView::updateStatus);
    connect(m_timeline, &TimelineWidget::loadPesRequested, this,
        [this](std::vector<core::PeId> pes) { addPes(pes); });
    connect(m_timeline, &TimelineWidget::rangeSelected, this, &TimelineView::showRangeMenu);
    connect(
        m_timeline, &TimelineWidget::contextMenuRequested, this, &TimelineView::showContextMenu);
}

bool TimelineView::busy() const
{
    return m_detailComputation->busy();
}

void TimelineView::fetchDetail()
{
    if (!m_trace || !m_trace->logsOnDemand())
        return;
    auto wanted = m_timeline->pes();
    std::sort(wanted.begin(), wanted.end());
    if (wanted == m_shownDetail)
        return; // rows moved, nothing new to read
    m_detailComputation->run<core::TracePtr>(
        [run = m_trace, wanted, previous = m_shown, had = m_shownDetail](
            const core::analysis::Progress& progress) {
            return withDetail(*run, wanted, previous.get(), had, progress);
        },
        [this, wanted](core::TracePtr detail) {
            if (!detail)
                return;
            m_shown = std::move(detail);
            m_shownDetail = wanted;
            m_timeline->replaceTrace(m_shown);
            updateCriticalPath(); // and the status
            updateDetails();
        });
}

void TimelineView::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_detailComputation->cancel();
    m_shownDetail.clear();
    // A run read on demand starts as a copy without any PE's detail; fetchDetail() fills it.
    m_shown = m_trace && m_trace->logsOnDemand()
        ? withDetail(*m_trace, {}, nullptr, {}, core::analysis::Progress {})
        : m_trace;
    m_options->setTrace(m_trace);
    // The traced span of the whole run: an on-demand copy has no PE's log yet.
    m_timeline->setTrace(
        m_shown, m_trace ? core::analysis::tracedRunSpan(*m_trace) : core::TimeRange {});
    m_timeline->setSummariesOnly(m_trace && !m_trace->hasLogs() && !m_trace->logsOnDemand());
    if (m_trace) {
        const auto valid = m_trace->validPes();
        m_timeline->setPes({ valid.begin(),
            valid.begin() + static_cast<std::ptrdiff_t>(std::min(valid.size(), kDefaultPeCount)) });
    }
    m_showingDefault = true;
    syncOptions();
    updateCriticalPath(); // and the status
}

void TimelineView::setSelection(core::TimeRange range, std::vector<core::PeId> pes)
{
    addPes(pes);
    if (!range.empty())
        m_timeline->setWindow(range);
}

void TimelineView::addPes(const std::vector<core::PeId>& pes)
{
    if (pes.empty() || !m_trace)
        return;
    auto shown = m_showingDefault ? std::vector<core::PeId> {} : m_timeline->pes();
    // Rows in PE order stay in PE order; rows the user moved keep their order, the new ones
    // go below them.
    const bool inOrder = std::is_sorted(shown.begin(), shown.end());
    for (const auto pe : pes)
        if (pe >= 0 && pe < m_trace->metadata.processors
            && std::find(shown.begin(), shown.end(), pe) == shown.end())
            shown.push_back(pe);
    if (inOrder)
        std::sort(shown.begin(), shown.end());
    if (shown.empty())
        return; // none of them is in this run: keep what is shown
    m_showingDefault = false;
    m_timeline->setPes(std::move(shown)); // pesChanged: options bar and status follow
}

void TimelineView::setPes(const std::vector<core::PeId>& pes)
{
    m_showingDefault = false;
    std::vector<core::PeId> shown;
    for (const auto pe : pes)
        if (m_trace && pe >= 0 && pe < m_trace->metadata.processors
            && std::find(shown.begin(), shown.end(), pe) == shown.end())
            shown.push_back(pe);
    m_timeline->setPes(std::move(shown)); // pesChanged: options bar and status follow
}

void TimelineView::movePe(core::PeId pe, int by)
{
    auto shown = m_timeline->pes();
    const auto it = std::find(shown.begin(), shown.end(), pe);
    if (it == shown.end())
        return;
    const auto from = static_cast<int>(it - shown.begin());
    const int to = std::clamp(from + by, 0, static_cast<int>(shown.size()) - 1);
    if (to == from)
        return;
    shown.erase(it);
    shown.insert(shown.begin() + to, pe);
    m_showingDefault = false;
    m_timeline->setPes(std::move(shown));
}

void TimelineView::removePe(core::PeId pe)
{
    auto shown = m_timeline->pes();
    shown.erase(std::remove(shown.begin(), shown.end(), pe), shown.end());
    m_showingDefault = false;
    m_timeline->setPes(std::move(shown)); // pesChanged: options bar and status follow
}

std::optional<std::vector<core::PeId>> TimelineView::parsePes(
    const QString& text, QString* error) const
{
    std::string message;
    auto pes = core::parsePeList(text.trimmed().toStdString(), &message);
    if (!pes) {
        if (error != nullptr)
            *error = QString::fromStdString(message);
        return std::nullopt;
    }
    if (m_trace)
        std::erase_if(*pes, [this](core::PeId pe) { return pe >= m_trace->metadata.processors; });
    if (pes->empty()) {
        if (error != nullptr)
            *error = tr("none of these PEs is in this run");
        return std::nullopt;
    }
    return pes;
}

bool TimelineView::addPeList(const QString& text, QString* error)
{
    const auto pes = parsePes(text, error);
    if (!pes)
        return false;
    addPes(*pes);
    return true;
}

bool TimelineView::removePeList(const QString& text, QString* error)
{
    const auto pes = parsePes(text, error);
    if (!pes)
        return false;
    auto shown = m_timeline->pes();
    std::erase_if(
        shown, [&](core::PeId pe) { return std::binary_search(pes->begin(), pes->end(), pe); });
    m_showingDefault = false;
    m_timeline->setPes(std::move(shown)); // pesChanged: options bar and status follow
    return true;
}

void TimelineView::askForPeList(
    const QString& title, const std::function<bool(const QString&, QString*)>& apply)
{
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, title, tr("PEs (e.g. 0-3,5,7-15:2):"), QLineEdit::Normal, QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    QString error;
    if (!apply(text, &error))
        QMessageBox::warning(this, title, tr("Cannot use \"%1\": %2").arg(text, error));
}

const std::vector<core::PeId>& TimelineView::loadedPes() const
{
    return m_timeline->pes();
}

core::TimeRange TimelineView::window() const
{
    return m_timeline->window();
}

void TimelineView::setWindow(core::TimeRange window)
{
    m_timeline->setWindow(window);
}

QRect TimelineView::blockRectAt(core::PeId pe, core::TimeUs time) const
{
    return m_timeline->blockRectAt(pe, time);
}

std::optional<TimelineSelection> TimelineView::selectedBlock() const
{
    return m_timeline->selectedBlock();
}

std::optional<MessageLink> TimelineView::arrowSource() const
{
    return m_timeline->arrowSource();
}

void TimelineView::syncOptions()
{
    auto sorted = m_timeline->pes();
    std::sort(sorted.begin(), sorted.end());
    m_options->setPes(sorted);
    m_options->setRange(m_timeline->window());
}

void TimelineView::updateStatus()
{
    if (!m_trace) {
        m_status->clear();
        return;
    }
    const auto rows = m_timeline->rowSources().size();
    QString text = (rows == m_timeline->pes().size()
                           ? tr("%1 rows").arg(rows)
                           : tr("%1 PEs in %2 rows").arg(m_timeline->pes().size()).arg(rows))
        + tr(" · %1 window")
              .arg(QString::fromStdString(core::formatDuration(m_timeline->window().length())));
    if (!m_criticalSummary.isEmpty())
        text += QStringLiteral(" · ") + m_criticalSummary;
    m_status->setText(text);
    m_status->setToolTip(tr("Wheel: zoom at the cursor · drag: pan · Shift+drag: select a range · "
                            "click: message arrow · double-click: zoom to a block · F: whole run · "
                            "Home/End: start/end · Alt+Left/Right: back/forward · click the ruler: "
                            "reference mark"));
}

void TimelineView::setCriticalPathShown(bool shown)
{
    m_criticalButton->setChecked(shown); // toggled: updateCriticalPath
}

bool TimelineView::criticalPathShown() const
{
    return m_criticalButton->isChecked();
}

void TimelineView::updateCriticalPath()
{
    m_criticalSummary.clear();
    if (!m_criticalButton->isChecked() || !m_shown) {
        m_timeline->setCriticalPath({});
        updateStatus();
        return;
    }
    core::analysis::AnalysisRequest request;
    request.range = m_timeline->window();
    request.pes = m_timeline->pes();
    auto path = core::analysis::findCriticalPath(*m_shown, request);
    if (path.empty()) {
        m_criticalSummary = tr("no execution for a critical path");
    } else {
        using Kind = core::analysis::CriticalStep::Kind;
        const auto length = path.length();
        const auto share = [&](Kind kind) {
            return QString::number(length <= 0
                    ? 0.0
                    : 100.0 * static_cast<double>(path.total(kind)) / static_cast<double>(length),
                'f', 0);
        };
        m_criticalSummary = tr("critical path %1: %2% executing, %3% messages, %4% waits")
                                .arg(QString::fromStdString(core::formatDuration(length)),
                                    share(Kind::Exec), share(Kind::Message), share(Kind::Wait));
    }
    m_timeline->setCriticalPath(std::move(path.steps));
    updateStatus();
}

void TimelineView::updateDetails()
{
    const auto selected = m_timeline->selectedBlock();
    if (!selected || !m_trace) {
        m_details->hide();
        m_timeline->setHighlight(std::nullopt);
        return;
    }
    m_details->showDetails(describeExecution(*m_shown, selected->pe, selected->execution),
        m_timeline->messagePath(), m_timeline->forwardLinks());
    m_details->show();
    applyHighlight();
}

void TimelineView::applyHighlight()
{
    const auto selected = m_timeline->selectedBlock();
    if (!selected || !m_trace || !m_details->highlightEntry()->isChecked()) {
        m_timeline->setHighlight(std::nullopt);
        return;
    }
    const auto details = describeExecution(*m_shown, selected->pe, selected->execution);
    TimelineWidget::Highlight highlight;
    highlight.entry = details.entry;
    if (m_details->highlightObject()->isChecked())
        highlight.object = details.object;
    m_timeline->setHighlight(highlight);
}

void TimelineView::showRangeMenu(core::TimeRange range, QPoint globalPos)
{
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Zoom to %1 (%2)")
                        .arg(formatTimeSpan(range),
                            QString::fromStdString(core::formatDuration(range.length()))),
        this, [this, range]() { m_timeline->setWindow(range); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, range, m_timeline->pes());
    menu->popup(globalPos);
}

void TimelineView::showContextMenu(QPoint globalPos, core::PeId pe, core::TimeUs time)
{
    if (!m_trace)
        return;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (const int group = m_timeline->groupAt(m_timeline->mapFromGlobal(globalPos)); group >= 0)
        addGroupActions(*menu, group);
    if (pe != core::kNoPe) {
        const auto& p = m_shown->pes[static_cast<std::size_t>(pe)];
        const auto& g = m_timeline->currentGeometry();
        const auto slack = static_cast<core::TimeUs>(g.map.usPerPixel() / 2.0);
        const auto r = p.executionsOverlapping(time - slack, time + slack + 1);
        if (!r.empty()) {
            const auto k = r.first;
            const auto name
                = QString::fromStdString(m_trace->metadata.entryName(p.executions.entry[k]));
            menu->addAction(tr("Show the message of %1").arg(name), this,
                [this, pe, k]() { m_timeline->selectExecution(pe, k); });
            const core::TimeRange block { p.executions.begin[k], p.executions.end[k] };
            menu->addAction(tr("Zoom to this execution"), this, [this, block]() {
                const auto margin = std::max<core::TimeUs>(block.length() / 5, 2);
                m_timeline->setWindow({ block.begin - margin, block.end + margin });
            });
            const auto link = findMessageSource(*m_shown, pe, k);
            if (link.linked()
                && std::find(loadedPes().begin(), loadedPes().end(), link.senderPe)
                    == loadedPes().end())
                menu->addAction(tr("Load PE %1 (the sender)").arg(link.senderPe), this,
                    [this, pe, k, sender = link.senderPe]() {
                        addPes({ sender });
                        m_timeline->selectExecution(pe, k);
                    });
            menu->addSeparator();
        }
        if (m_timeline->pes().size() > 1) {
            menu->addAction(
                tr("Remove PE %1 from the timeline").arg(pe), this, [this, pe]() { removePe(pe); });
            auto* move = menu->addMenu(tr("Move PE %1").arg(pe));
            move->addAction(tr("Up"), this, [this, pe]() { movePe(pe, -1); });
            move->addAction(tr("Down"), this, [this, pe]() { movePe(pe, 1); });
            move->addAction(tr("To the top"), this,
                [this, pe]() { movePe(pe, -static_cast<int>(loadedPes().size())); });
            move->addAction(tr("To the bottom"), this,
                [this, pe]() { movePe(pe, static_cast<int>(loadedPes().size())); });
        }
        const auto& meta = m_trace->metadata;
        if (meta.smp) {
            menu->addAction(
                tr("Collapse node %1 into one row").arg(meta.nodeOf(pe)), this, [this, pe]() {
                    const auto& m = m_trace->metadata;
                    std::vector<core::PeId> members;
                    for (const auto q : m_timeline->pes())
                        if (m.nodeOf(q) == m.nodeOf(pe))
                            members.push_back(q);
                    m_timeline->collapse(members, tr("node %1").arg(m.nodeOf(pe)));
                });
            std::vector<core::PeId> node;
            for (core::PeId q = 0; q < meta.processors; ++q)
                if (meta.nodeOf(q) == meta.nodeOf(pe))
                    node.push_back(q);
            menu->addAction(tr("Load the other PEs of node %1").arg(meta.nodeOf(pe)), this,
                [this, node]() { addPes(node); });
        }
        menu->addSeparator();
    }
    menu->addAction(tr("Zoom in"), this,
        [this, globalPos]() { m_timeline->zoom(0.5, m_timeline->mapFromGlobal(globalPos).x()); });
    menu->addAction(tr("Zoom out"), this,
        [this, globalPos]() { m_timeline->zoom(2.0, m_timeline->mapFromGlobal(globalPos).x()); });
    menu->addAction(tr("Show the whole run"), m_timeline, &TimelineWidget::fit);
    if (m_timeline->canGoBack())
        menu->addAction(tr("Back to the previous window"), m_timeline, &TimelineWidget::back);
    menu->addAction(tr("Set the reference mark here"), this,
        [this, time]() { m_timeline->setReferenceTime(time); });
    if (m_timeline->referenceTime())
        menu->addAction(tr("Clear the reference mark"), this,
            [this]() { m_timeline->setReferenceTime(std::nullopt); });
    menu->addSeparator();
    addOpenRangeMenu(*menu, *this, m_timeline->window(), m_timeline->pes());
    addExportActions(*menu, *this);
    menu->popup(globalPos);
}

QString TimelineView::chartTitle() const
{
    if (!m_trace)
        return {};
    auto pes = m_timeline->pes();
    std::sort(pes.begin(), pes.end());
    const auto w = m_timeline->window();
    QString title = pes.size() == 1
        ? tr("PE %1").arg(pes.front())
        : tr("%1 PEs (%2)").arg(pes.size()).arg(QString::fromStdString(core::formatPeList(pes)));
    title += tr(" · %1 – %2 (%3)")
                 .arg(formatPreciseTime(w.begin), formatPreciseTime(w.end),
                     QString::fromStdString(core::formatDuration(w.length())));
    return title;
}

QImage TimelineView::renderChart(QSize size)
{
    if (size.isEmpty())
        size = m_timeline->isVisible() ? m_timeline->size() : QSize(1200, 700);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(m_timeline->font());
    m_timeline->paintChart(painter, size, true, chartTitle());
    return image;
}

bool TimelineView::svgAvailable()
{
    return svgExportAvailable();
}

bool TimelineView::exportSvg(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty())
        size = m_timeline->isVisible() ? m_timeline->size() : QSize(1200, 700);
    return writeSvgFile(
        path, size, tr("Timeline"), chartTitle(), m_timeline->font(),
        [&](QPainter& painter) { m_timeline->paintChart(painter, size, true, chartTitle()); },
        error);
}

QString TimelineView::csv() const
{
    if (!m_trace)
        return QString::fromStdString(core::analysis::timelineCsv(core::Trace {}, {}, {}));
    return QString::fromStdString(
        core::analysis::timelineCsv(*m_shown, m_timeline->pes(), m_timeline->window()));
}

AnalysisView::CsvWriter TimelineView::csvWriter() const
{
    if (!m_trace)
        return {};
    // The rows of each PE depend on that PE alone: the text is csv()'s, written a PE at a time
    // (the header once) so that it can report progress and stop between PEs.
    return [trace = m_shown, pes = m_timeline->pes(), window = m_timeline->window()](
               const CsvSink& sink, const core::analysis::Progress& progress) {
        const std::vector<core::PeId> none;
        auto header = core::analysis::timelineCsv(*trace, none, window);
        if (!sink(header))
            return false;
        for (std::size_t i = 0; i < pes.size(); ++i) {
            if (progress.isCancelled())
                return false;
            auto rows = core::analysis::timelineCsv(*trace, { pes[i] }, window);
            rows.erase(0, header.size());
            if (!rows.empty() && !sink(rows))
                return false;
            if (progress.report)
                progress.report(static_cast<double>(i + 1) / static_cast<double>(pes.size()));
        }
        return true;
    };
}

} // namespace parallax::views
