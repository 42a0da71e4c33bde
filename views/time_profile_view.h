#pragma once

#include "analysis_view.h"
#include "core/analysis/time_profile.h"

#include <optional>
#include <vector>

class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// Time Profile: per time interval, the share of the selected PEs' processor time spent in each
// entry method, pack, unpack, overhead and idle (stacked, 0-100 %). Options: "Interval" (a
// time such as 1ms) or "Bins" (default 1000). Dragging across the time axis zooms in (and
// emits selectionChanged); the context menu zooms out and opens the shown range in another
// view.
class TimeProfileView : public AnalysisView {
    Q_OBJECT
public:
    explicit TimeProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // interval,begin_us,end_us,activity,time_us,percent as `parallax-cli time-profile`.
    [[nodiscard]] QString csv() const override;
    // "interval" (a time) and "bins" (a count).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    // Shows `range` (as a drag on the chart does); zoomOut() returns to the previous one.
    void zoomTo(core::TimeRange range);
    bool zoomOut();

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    [[nodiscard]] QLineEdit* intervalField() const { return m_interval; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] const std::optional<core::analysis::TimeProfile>& profile() const
    {
        return m_profile;
    }

private:
    void recompute();
    void showProfile(core::analysis::TimeProfile profile, std::size_t peCount);
    void showContextMenu(QPoint globalPos, int category);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QLineEdit* m_interval = nullptr;
    QLineEdit* m_bins = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::optional<core::analysis::TimeProfile> m_profile;
    std::vector<core::TimeRange> m_zoomHistory; // ranges shown before each zoom
};

} // namespace parallax::views
