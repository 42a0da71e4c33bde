#pragma once

#include "core/trace.h"
#include "views/common/analysis_view.h"

#include <QTabWidget>

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace parallax::views {
class AsyncComputation;
class EntryPalette;
} // namespace parallax::views

namespace parallax::app {

// The run's pages: the summary first, then the analysis views the analyst opened, as closable
// tabs. Creates views on demand, hands them the run and the selection, and wires what views ask
// for: "open the timeline of these PEs" and "open this range in another view". Views never talk
// to each other; this class does.
class ViewWorkspace : public QTabWidget {
    Q_OBJECT
public:
    ViewWorkspace(QWidget* summaryPage, views::EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace);
    [[nodiscard]] const core::TracePtr& trace() const { return m_trace; }

    // The view of that kind, created (and shown) if needed; `select` makes it the current tab.
    views::AnalysisView* openView(views::ViewKind kind, bool select = true);
    [[nodiscard]] views::AnalysisView* view(views::ViewKind kind) const;
    // The view of the current tab, or null on the summary page.
    [[nodiscard]] views::AnalysisView* currentView() const;
    // The open views in tab order.
    [[nodiscard]] std::vector<views::AnalysisView*> openViews() const;
    // Closes every view's tab (the summary stays).
    void closeAllViews();

    // Opens the timeline with these PEs added, in this range.
    void openTimeline(const std::vector<core::PeId>& pes, core::TimeRange range);

    // The time range views open with (chosen in a view, e.g. iterations 5–9 in Iterations;
    // empty: the run's traced span); the open views with a time axis move to it. A new run
    // forgets it.
    void setOpeningRange(core::TimeRange range);
    [[nodiscard]] core::TimeRange openingRange() const { return m_openingRange; }

    // The run's iterations (core::analysis::findIterations over the whole run, found once per
    // run on a worker): every view's "Iterations…" chooser offers them. Nullopt until found.
    [[nodiscard]] const std::optional<std::vector<core::TimeRange>>& runIterations() const
    {
        return m_iterations;
    }

signals:
    void viewsChanged();
    // A view was asked for that this build does not have yet.
    void viewUnavailable(parallax::views::ViewKind kind);
    // The tab's or the view's context menu asked to export the (now current) view.
    void exportChartRequested();
    void exportDataRequested();
    // runIterations() became known for the open run.
    void runIterationsFound();

private:
    void closeTab(int index);
    void wire(views::AnalysisView* view);
    void findRunIterations();
    // Hands runIterations() to the view's options bar.
    void offerIterations(views::AnalysisView* view) const;

    views::EntryPalette* m_palette;
    core::TracePtr m_trace;
    std::map<views::ViewKind, views::AnalysisView*> m_views;
    core::TimeRange m_openingRange;
    views::AsyncComputation* m_iterationsJob = nullptr;
    std::optional<std::vector<core::TimeRange>> m_iterations;
};

} // namespace parallax::app
