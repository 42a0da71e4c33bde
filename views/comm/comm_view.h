#pragma once

#include "core/analysis/communication.h"
#include "views/common/bar_chart_view.h"

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;

namespace parallax::views {

// Communication over Time: per interval, the messages or bytes sent or received by the
// selected PEs, stacked by entry method (sends by their destination entry, receives by the
// executed one). Options: one of the eight metrics, "Interval" or "Bins" as in the Time
// Profile; values are totals per interval and the y axis names the interval. Dragging zooms
// in; the context menu zooms out and opens the shown range in another view.
class CommView : public BarChartView {
    Q_OBJECT
public:
    explicit CommView(EntryPalette* palette, QWidget* parent = nullptr);

    // interval,begin_us,end_us,metric,activity,value as `parallax-cli comm` (all 8 metrics).
    [[nodiscard]] QString csv() const override;
    // "metric" (msgs_sent, bytes_sent, ..., ext_node_bytes_recv), "interval", "bins".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;
    [[nodiscard]] std::optional<core::TimeRange> timeAxisRange() const override;
    void zoomTimeAxis(core::TimeRange range) override { zoomTo(range); }

    [[nodiscard]] core::analysis::CommMetric metric() const;
    void setMetric(core::analysis::CommMetric metric);
    // "Messages sent", "Bytes received from other nodes", ...
    [[nodiscard]] static QString metricLabel(core::analysis::CommMetric metric);

    // For tests and the app.
    [[nodiscard]] QLineEdit* intervalField() const { return m_interval; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] const std::optional<core::analysis::CommunicationOverTime>& result() const
    {
        return m_result;
    }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void showContextMenu(QPoint globalPos, int category) override;

    QComboBox* m_metric = nullptr;
    std::optional<core::analysis::CommunicationOverTime> m_result;
    QString m_requestKey; // inputs of the last computation: a new metric alone needs none
};

} // namespace parallax::views
