#include "view_workspace.h"

#include "core/analysis/iterations.h"
#include "views/common/async_computation.h"
#include "views/common/options_bar.h"
#include "views/common/view_factory.h"
#include "views/entry_profile/entry_profile_view.h"
#include "views/model/model_view.h"

#include <QMenu>
#include <QTabBar>

namespace parallax::app {

ViewWorkspace::ViewWorkspace(QWidget* summaryPage, views::EntryPalette* palette, QWidget* parent)
    : QTabWidget(parent)
    , m_palette(palette)
    , m_iterationsJob(new views::AsyncComputation(this))
{
    setObjectName(QStringLiteral("viewWorkspace"));
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    addTab(summaryPage, tr("Summary"));
    // The summary page cannot be closed.
    if (auto* button = tabBar()->tabButton(0, QTabBar::RightSide))
        button->hide();
    connect(this, &QTabWidget::tabCloseRequested, this, &ViewWorkspace::closeTab);
    // Right-click a view's tab: export it, or close it.
    tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tabBar(), &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const int index = tabBar()->tabAt(at);
        if (index <= 0)
            return;
        setCurrentIndex(index);
        QMenu menu(this);
        menu.addAction(tr("Export Chart as PNG…"), this, &ViewWorkspace::exportChartRequested);
        menu.addAction(tr("Export Data as CSV…"), this, &ViewWorkspace::exportDataRequested);
        menu.addSeparator();
        menu.addAction(tr("Close"), this, [this, index]() { closeTab(index); });
        menu.exec(tabBar()->mapToGlobal(at));
    });
}

void ViewWorkspace::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_openingRange = {};
    for (auto& [kind, view] : m_views)
        view->setTrace(m_trace);
    findRunIterations();
    if (!m_trace)
        setCurrentIndex(0);
}

views::AnalysisView* ViewWorkspace::view(views::ViewKind kind) const
{
    const auto it = m_views.find(kind);
    return it == m_views.end() ? nullptr : it->second;
}

views::AnalysisView* ViewWorkspace::currentView() const
{
    return qobject_cast<views::AnalysisView*>(currentWidget());
}

std::vector<views::AnalysisView*> ViewWorkspace::openViews() const
{
    std::vector<views::AnalysisView*> views;
    for (int i = 1; i < count(); ++i)
        if (auto* v = qobject_cast<views::AnalysisView*>(widget(i)))
            views.push_back(v);
    return views;
}

void ViewWorkspace::closeAllViews()
{
    while (count() > 1)
        closeTab(count() - 1);
}

views::AnalysisView* ViewWorkspace::openView(views::ViewKind kind, bool select)
{
    auto* existing = view(kind);
    if (existing == nullptr) {
        existing = views::createView(kind, m_palette, this);
        if (existing == nullptr) {
            emit viewUnavailable(kind);
            return nullptr;
        }
        m_views[kind] = existing;
        wire(existing);
        addTab(existing, views::viewTitle(kind));
        existing->setTrace(m_trace);
        offerIterations(existing);
        if (!m_openingRange.empty() && m_trace) {
            // Views with a time axis keep their own PEs (the Timeline its first rows).
            if (existing->timeAxisRange())
                existing->zoomTimeAxis(m_openingRange);
            else
                existing->setSelection(m_openingRange, {});
        }
        emit viewsChanged();
    }
    if (select) {
        setCurrentWidget(existing);
        existing->setFocus(Qt::OtherFocusReason); // the chart (focus proxy), ready for keys
    }
    return existing;
}

void ViewWorkspace::openTimeline(const std::vector<core::PeId>& pes, core::TimeRange range)
{
    auto* timeline = openView(views::ViewKind::Timeline);
    if (timeline != nullptr)
        timeline->setSelection(range, pes);
}

void ViewWorkspace::setOpeningRange(core::TimeRange range)
{
    m_openingRange = range;
    if (range.empty())
        return;
    for (auto& [kind, view] : m_views)
        if (const auto shown = view->timeAxisRange();
            shown && (shown->begin != range.begin || shown->end != range.end))
            view->zoomTimeAxis(range);
}

void ViewWorkspace::findRunIterations()
{
    m_iterations.reset();
    m_iterationsJob->cancel();
    if (!m_trace)
        return;
    const auto trace = m_trace;
    m_iterationsJob->run<std::vector<core::TimeRange>>(
        [trace](const core::analysis::Progress&) {
            std::vector<core::TimeRange> ranges;
            for (const auto& it : core::analysis::findIterations(*trace, {}).iterations)
                ranges.push_back(it.range);
            return ranges;
        },
        [this](std::vector<core::TimeRange> ranges) {
            m_iterations = std::move(ranges);
            for (auto& [kind, view] : m_views)
                offerIterations(view);
            emit runIterationsFound();
        });
}

void ViewWorkspace::offerIterations(views::AnalysisView* view) const
{
    for (auto* bar : view->findChildren<views::OptionsBar*>())
        bar->setRunIterations(m_trace.get(), m_iterations);
}

void ViewWorkspace::wire(views::AnalysisView* view)
{
    // Export from the view's own context menu: that view becomes the current tab first, so the
    // app exports the view the analyst clicked.
    connect(view, &views::AnalysisView::exportChartRequested, this, [this, view]() {
        setCurrentWidget(view);
        emit exportChartRequested();
    });
    connect(view, &views::AnalysisView::exportDataRequested, this, [this, view]() {
        setCurrentWidget(view);
        emit exportDataRequested();
    });
    connect(view, &views::AnalysisView::timelineRequested, this,
        [this](std::vector<core::PeId> pes, core::TimeRange range) { openTimeline(pes, range); });
    connect(view, &views::AnalysisView::timeRangeChosen, this, &ViewWorkspace::setOpeningRange);
    // Entry Profile → "Model this entry…": the Entry Model of that entry over the same selection.
    if (auto* profile = qobject_cast<views::EntryProfileView*>(view))
        connect(profile, &views::EntryProfileView::modelEntryRequested, this,
            [this](core::EntryId entry, core::TimeRange range, std::vector<core::PeId> pes) {
                auto* model
                    = qobject_cast<views::EntryModelView*>(openView(views::ViewKind::EntryModel));
                if (model == nullptr)
                    return;
                model->setSelection(range, pes);
                model->showEntry(entry);
            });
    connect(view, &views::AnalysisView::openRangeRequested, this,
        [this](views::ViewKind target, core::TimeRange range, std::vector<core::PeId> pes) {
            if (auto* v = openView(target))
                v->setSelection(range, pes);
        });
}

void ViewWorkspace::closeTab(int index)
{
    if (index <= 0)
        return;
    auto* v = qobject_cast<views::AnalysisView*>(widget(index));
    removeTab(index);
    if (v != nullptr) {
        m_views.erase(v->kind());
        v->deleteLater();
    }
    emit viewsChanged();
}

} // namespace parallax::app
