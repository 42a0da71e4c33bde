#pragma once

#include "views/common/analysis_view.h"

#include <optional>
#include <vector>

class QHBoxLayout;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// What the stacked-bar views (usage profile, time profile, histogram, communication,
// Extrema) share: an options bar with a busy indicator above a StackedBarChart, one
// AsyncComputation, the run and the selection shown, a zoom history for time-axis views, and
// the common end of applyOptions(). Subclasses add their fields and compute in recompute().
class BarChartView : public AnalysisView {
    Q_OBJECT
public:
    BarChartView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    [[nodiscard]] const core::Trace* shownRun() const override { return m_trace.get(); }
    // The range and PEs, and "include-comm-threads" (on) when comm threads count.
    [[nodiscard]] State saveState() const override;
    bool restoreState(const State& state, QString* problems) override;

    // Shows `range` (as a drag on a time axis does); zoomOut() returns to the previous one.
    void zoomTo(core::TimeRange range);
    bool zoomOut();
    [[nodiscard]] bool canZoomOut() const { return !m_zoomHistory.empty(); }

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }

protected:
    // Recomputes for the current run and options (cancelling a running computation).
    virtual void recompute() = 0;
    // Forgets the result of the previous run.
    virtual void clearResult() = 0;

    // The chart's context menu at `globalPos` over bar `category` (-1: none). The default offers
    // "Open PE n in the Timeline" for a bar that stands for PEs, then the export actions; views
    // with more entries override it and call addExportActions().
    virtual void showContextMenu(QPoint globalPos, int category);
    // The PEs a bar stands for, and the range of the result shown: a click on the bar, or the
    // context menu, opens them in the Timeline. None by default.
    struct BarPes {
        std::vector<core::PeId> pes;
        core::TimeRange range;
    };
    [[nodiscard]] virtual BarPes pesOfBar(int category) const;
    // pesOfBar() of a chart whose bars are PEs labelled by their number: that PE over the
    // range shown (none for another label).
    [[nodiscard]] BarPes peOfNumberedBar(int category) const;
    // The context menu of a time-axis view: "Zoom to" the bar's `interval` when there is one,
    // zoom out, the whole traced run, "Open this range in …" and the export actions.
    void showTimeAxisMenu(QPoint globalPos, std::optional<core::TimeRange> interval);

    // Time-axis views: adds the "Interval" (a time) and "Bins" (a count, at most kMaxIntervals)
    // fields; `defaultBins` is what the analysis does with neither (shown as the placeholder).
    // intervalSize() and intervalBins() read them (0: not given); applyIntervalOption() takes
    // "interval" and "bins" in applyOptions() (false for another name).
    void addIntervalFields(long long defaultBins);
    [[nodiscard]] core::TimeUs intervalSize() const;
    [[nodiscard]] std::int64_t intervalBins() const;
    bool applyIntervalOption(const QString& name, const QString& value);
    // The start of a time-axis view's recompute(): false, with the computation cancelled, the
    // result dropped (clearResult()) and the chart saying why, when no run is loaded or when the
    // range's grid of intervals would pass kMaxIntervals.
    bool intervalsComputable();

    // Puts a widget in the top row, right of the options bar.
    void addToolbarWidget(QWidget* widget);
    // applyOptions()'s last step, which validates and applies every field.
    bool applyFields(QString* error);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    QLineEdit* m_interval = nullptr; // addIntervalFields()
    QLineEdit* m_bins = nullptr;

private:
    // Records the range and PEs now shown; true when they changed.
    bool rememberShown();
    void afterZoom();

    QHBoxLayout* m_toolbar = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::vector<core::TimeRange> m_zoomHistory; // ranges shown before each zoom
};

// Why a run shows no records that only its logs hold ("memory usage", "user stats"): it was
// opened from its summaries (memory budget) or has no logs at all.
QString logsOnlyMessage(const core::Trace& trace, const QString& what);

// The result of an analysis that only a run's logs feed, or the reason there is none (said in
// the chart instead of an empty plot).
template <typename Result> struct ResultOrReason {
    std::optional<Result> result;
    QString reason;
};

// The start of such a view's computation, on the worker: the reason is logsOnlyMessage() when
// the run has no logs, else `absent()` when that is not empty (why the logs hold none of
// `what`); otherwise the result is `compute()`.
template <typename Result, typename Absent, typename Compute>
ResultOrReason<Result> computeFromLogs(
    const core::Trace& trace, const QString& what, Absent absent, Compute compute)
{
    ResultOrReason<Result> r;
    if (!trace.hasLogs())
        r.reason = logsOnlyMessage(trace, what);
    else
        r.reason = absent();
    if (r.reason.isEmpty())
        r.result = compute();
    return r;
}

} // namespace parallax::views
