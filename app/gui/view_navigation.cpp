#include "view_navigation.h"

#include "core/analysis/run_span.h"
#include "main_window.h"
#include "view_workspace.h"
#include "views/common/entry_palette.h"
#include "views/common/time_format.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QCheckBox>
#include <QInputDialog>
#include <QStatusBar>

#include <algorithm>
#include <cmath>

namespace parallax::app {

namespace {

constexpr int kNavigationStatusMs = 6000;
constexpr double kZoomStep = 0.5; // Zoom In halves the window, Zoom Out doubles it
constexpr core::TimeUs kNarrowestZoom = 8; // µs, as the Timeline's narrowest window

// An execution on the Timeline's rows, ordered by begin time, then PE.
struct FoundExecution {
    core::TimeUs begin = 0;
    core::PeId pe = core::kNoPe;
    std::size_t index = 0;
    [[nodiscard]] bool before(core::TimeUs b, core::PeId p) const
    {
        return begin < b || (begin == b && pe < p);
    }
    [[nodiscard]] bool after(core::TimeUs b, core::PeId p) const
    {
        return begin > b || (begin == b && pe > p);
    }
};

// The first execution of `entry` on `pe` after (begin, pe) going forward, or the last before
// it going backward.
std::optional<FoundExecution> findOnPe(const core::Trace& trace, core::PeId pe, core::EntryId entry,
    core::TimeUs fromBegin, core::PeId fromPe, bool forward)
{
    const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
    const std::size_t n = ex.size();
    // The first index whose begin is >= fromBegin: executions are sorted by begin.
    std::size_t lo = 0;
    std::size_t hi = n;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (ex.begin[mid] < fromBegin)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (forward) {
        for (std::size_t i = lo; i < n; ++i) {
            const FoundExecution f { ex.begin[i], pe, i };
            if (static_cast<core::EntryId>(ex.entry[i]) == entry && f.after(fromBegin, fromPe))
                return f;
        }
    } else {
        for (std::size_t i = std::min(n, lo + 1); i-- > 0;) {
            const FoundExecution f { ex.begin[i], pe, i };
            if (static_cast<core::EntryId>(ex.entry[i]) == entry && f.before(fromBegin, fromPe))
                return f;
        }
    }
    return std::nullopt;
}

} // namespace

ViewNavigation::ViewNavigation(MainWindow* window)
    : QObject(window)
    , m_window(window)
{
    m_zoomIn = new QAction(tr("Zoom &In"), this);
    m_zoomIn->setShortcuts(QKeySequence::ZoomIn);
    connect(m_zoomIn, &QAction::triggered, this, [this] { zoomBy(kZoomStep); });
    m_zoomOut = new QAction(tr("Zoom &Out"), this);
    m_zoomOut->setShortcuts(QKeySequence::ZoomOut);
    connect(m_zoomOut, &QAction::triggered, this, [this] { zoomBy(1.0 / kZoomStep); });
    m_wholeRun = new QAction(tr("&Whole Run"), this);
    m_wholeRun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_wholeRun->setStatusTip(tr("Show the run's whole traced span"));
    connect(m_wholeRun, &QAction::triggered, this, &ViewNavigation::showWholeRun);
    m_find = new QAction(tr("&Find Entry Method…"), this);
    m_find->setShortcuts(QKeySequence::Find);
    m_find->setStatusTip(
        tr("Select and highlight the executions of an entry method in the Timeline"));
    connect(m_find, &QAction::triggered, this, &ViewNavigation::askForEntry);
    m_findNext = new QAction(tr("Find &Next"), this);
    m_findNext->setShortcuts(QKeySequence::FindNext);
    connect(m_findNext, &QAction::triggered, this, [this] {
        if (m_entry)
            findEntry(*m_entry, true);
    });
    m_findPrevious = new QAction(tr("Find &Previous"), this);
    m_findPrevious->setShortcuts(QKeySequence::FindPrevious);
    connect(m_findPrevious, &QAction::triggered, this, [this] {
        if (m_entry)
            findEntry(*m_entry, false);
    });
    connect(
        m_window->workspace(), &QTabWidget::currentChanged, this, &ViewNavigation::updateActions);
    connect(m_window, &MainWindow::loadFinished, this, &ViewNavigation::updateActions);
    updateActions();
}

void ViewNavigation::updateActions()
{
    auto* view = m_window->trace() ? m_window->workspace()->currentView() : nullptr;
    const bool timeAxis = view != nullptr && view->timeAxisRange().has_value();
    m_zoomIn->setEnabled(timeAxis);
    m_zoomOut->setEnabled(timeAxis);
    m_wholeRun->setEnabled(timeAxis);
    const bool run = m_window->trace() && m_window->trace()->hasLogs();
    m_find->setEnabled(run);
    m_findNext->setEnabled(run && m_entry.has_value());
    m_findPrevious->setEnabled(run && m_entry.has_value());
}

bool ViewNavigation::zoomBy(double factor)
{
    auto* view = m_window->trace() ? m_window->workspace()->currentView() : nullptr;
    const auto shown = view != nullptr ? view->timeAxisRange() : std::nullopt;
    if (!shown || shown->empty())
        return false;
    const auto span = core::analysis::tracedRunSpan(*m_window->trace());
    const double middle = (static_cast<double>(shown->begin) + static_cast<double>(shown->end)) / 2;
    const auto width
        = std::clamp<core::TimeUs>(std::llround(static_cast<double>(shown->length()) * factor),
            kNarrowestZoom, std::max<core::TimeUs>(span.end, kNarrowestZoom));
    core::TimeRange range { std::llround(middle - static_cast<double>(width) / 2), 0 };
    range.begin
        = std::clamp<core::TimeUs>(range.begin, 0, std::max<core::TimeUs>(0, span.end - width));
    range.end = range.begin + width;
    view->zoomTimeAxis(range);
    return true;
}

bool ViewNavigation::showWholeRun()
{
    auto* view = m_window->trace() ? m_window->workspace()->currentView() : nullptr;
    if (view == nullptr || !view->timeAxisRange())
        return false;
    view->zoomTimeAxis(core::analysis::tracedRunSpan(*m_window->trace()));
    return true;
}

void ViewNavigation::askForEntry()
{
    const auto& trace = m_window->trace();
    if (!trace)
        return;
    // The run's entry methods, heaviest first (as the legend lists them).
    QStringList names;
    std::vector<core::EntryId> ids;
    for (const auto id : m_window->palette()->entryOrder()) {
        names << QString::fromStdString(trace->metadata.entryName(id));
        ids.push_back(id);
    }
    int current = 0;
    if (m_entry)
        if (const auto it = std::find(ids.begin(), ids.end(), *m_entry); it != ids.end())
            current = static_cast<int>(it - ids.begin());
    bool ok = false;
    const QString chosen = QInputDialog::getItem(m_window, tr("Find Entry Method"),
        tr("Select the executions of the entry method, one after the other (F3: next, "
           "Shift+F3: previous), on the Timeline's rows:"),
        names, current, /*editable=*/true, &ok);
    if (!ok)
        return;
    const auto index = names.indexOf(chosen);
    if (index < 0) {
        m_window->statusBar()->showMessage(
            tr("The run has no entry method “%1”").arg(chosen), kNavigationStatusMs);
        return;
    }
    findEntry(ids[static_cast<std::size_t>(index)], true);
}

bool ViewNavigation::findEntry(core::EntryId entry, bool forward)
{
    const auto& run = m_window->trace();
    if (!run || entry < 0 || static_cast<std::size_t>(entry) >= run->metadata.entryCount())
        return false;
    m_entry = entry;
    updateActions();
    auto* timeline = qobject_cast<views::TimelineView*>(
        m_window->workspace()->openView(views::ViewKind::Timeline));
    if (timeline == nullptr || !timeline->timeline()->trace())
        return false;
    auto* widget = timeline->timeline();
    const auto& shown = *widget->trace();
    const auto window = widget->window();
    core::TimeUs fromBegin = forward ? window.begin - 1 : window.end;
    core::PeId fromPe = forward ? std::numeric_limits<core::PeId>::max() : core::kNoPe;
    if (const auto selected = widget->selectedBlock()) {
        const auto& ex = shown.pes[static_cast<std::size_t>(selected->pe)].executions;
        if (selected->execution < ex.size()) {
            fromBegin = ex.begin[selected->execution];
            fromPe = selected->pe;
        }
    }
    std::optional<FoundExecution> best;
    for (const auto pe : widget->pes()) {
        const auto f = findOnPe(shown, pe, entry, fromBegin, fromPe, forward);
        if (f
            && (!best
                || (forward ? f->before(best->begin, best->pe) : f->after(best->begin, best->pe))))
            best = f;
    }
    const QString name = QString::fromStdString(run->metadata.entryName(entry));
    if (!best) {
        m_window->statusBar()->showMessage(forward
                ? tr("No later execution of %1 on the Timeline's rows").arg(name)
                : tr("No earlier execution of %1 on the Timeline's rows").arg(name),
            kNavigationStatusMs);
        return false;
    }
    if (best->begin < window.begin || best->begin >= window.end) {
        const auto width = window.length();
        const auto begin = std::max<core::TimeUs>(0, best->begin - width / 2);
        widget->setWindow({ begin, begin + width });
    }
    widget->selectExecution(best->pe, best->index);
    timeline->detailsPanel()->highlightEntry()->setChecked(true);
    m_window->statusBar()->showMessage(tr("%1 on PE %2 at %3 (F3: next, Shift+F3: previous)")
                                           .arg(name)
                                           .arg(best->pe)
                                           .arg(views::durationText(best->begin)),
        kNavigationStatusMs);
    return true;
}

} // namespace parallax::app
