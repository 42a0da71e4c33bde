#pragma once

#include "analysis_view.h"
#include "core/analysis/communication.h"

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// Communication over Time: per interval, the messages or bytes sent or received by the
// selected PEs, stacked by entry method (sends by their destination entry, receives by the
// executed one). Options: one of the eight metrics, "Interval" or "Bins" as in the Time
// Profile; values are totals per interval and the y axis names the interval. Dragging zooms
// in; the context menu zooms out and opens the shown range in another view.
class CommView : public AnalysisView {
    Q_OBJECT
public:
    explicit CommView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // interval,begin_us,end_us,metric,activity,value as `parallax-cli comm` (all 8 metrics).
    [[nodiscard]] QString csv() const override;
    // "metric" (msgs_sent, bytes_sent, ..., ext_node_bytes_recv), "interval", "bins".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] core::analysis::CommMetric metric() const;
    void setMetric(core::analysis::CommMetric metric);
    // "Messages sent", "Bytes received from other nodes", ...
    [[nodiscard]] static QString metricLabel(core::analysis::CommMetric metric);

    void zoomTo(core::TimeRange range);
    bool zoomOut();

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    [[nodiscard]] QComboBox* metricChoice() const { return m_metric; }
    [[nodiscard]] QLineEdit* intervalField() const { return m_interval; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] const std::optional<core::analysis::CommunicationOverTime>& result() const
    {
        return m_result;
    }

private:
    void recompute();
    void rebuildChart();
    void showContextMenu(QPoint globalPos, int category);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QComboBox* m_metric = nullptr;
    QLineEdit* m_interval = nullptr;
    QLineEdit* m_bins = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::optional<core::analysis::CommunicationOverTime> m_result;
    std::vector<core::TimeRange> m_zoomHistory;
    QString m_requestKey; // inputs of the last computation: a new metric alone needs none
};

} // namespace parallax::views
