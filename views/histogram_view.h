#pragma once

#include "analysis_view.h"
#include "core/analysis/histogram.h"

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// Histogram of execution times (stacked by entry method, idle periods as "Idle"), message
// sizes (stacked by destination entry) or PEs by idle %. Options: the metric, bins, bin size
// (a time for durations), minimum; for durations "Total time" shows the accumulated time per
// bin instead of the count; "Log scale" draws the y axis in decades. With the bin size left empty
// ("auto") the bins are chosen from the data so that 99.9 % of the values fall in about 100 bins;
// the last bar is the overflow bin "≥ X", set apart.
class HistogramView : public AnalysisView {
    Q_OBJECT
public:
    explicit HistogramView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // metric,bin,lo,hi,activity,count as `parallax-cli histogram` (hi "inf" for the overflow).
    [[nodiscard]] QString csv() const override;
    // "metric" (duration, msg-size, idle), "bins", "bin-size", "min".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] core::analysis::HistogramMetric metric() const;
    // Durations only: bars show the summed execution time per bin instead of the count.
    void setAccumulated(bool accumulated);
    [[nodiscard]] bool accumulated() const;
    // A logarithmic y axis, for counts that span decades.
    void setLogScale(bool logScale);
    [[nodiscard]] bool logScale() const;

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    [[nodiscard]] QComboBox* metricChoice() const { return m_metric; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] QLineEdit* binSizeField() const { return m_binSize; }
    [[nodiscard]] QLineEdit* minimumField() const { return m_minimum; }
    [[nodiscard]] QCheckBox* accumulatedToggle() const { return m_accumulated; }
    [[nodiscard]] QCheckBox* logScaleToggle() const { return m_logScale; }
    [[nodiscard]] const std::optional<core::analysis::Histogram>& histogram() const
    {
        return m_histogram;
    }

private:
    void recompute();
    void rebuildChart();
    void metricChanged();
    [[nodiscard]] std::optional<QString> quantityError(
        const QString& text, const QString& what, bool positive) const;
    [[nodiscard]] double quantity(const QString& text) const;

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QComboBox* m_metric = nullptr;
    QLineEdit* m_bins = nullptr;
    QLineEdit* m_binSize = nullptr;
    QLineEdit* m_minimum = nullptr;
    QCheckBox* m_accumulated = nullptr;
    QCheckBox* m_logScale = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::optional<core::analysis::Histogram> m_histogram;
};

} // namespace parallax::views
