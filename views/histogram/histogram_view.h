#pragma once

#include "core/analysis/histogram.h"
#include "views/common/bar_chart_view.h"

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace parallax::views {

// Histogram of execution times (stacked by entry method, idle periods as "Idle"), message
// sizes (stacked by destination entry) or PEs by idle %. Options: the metric, bins, bin size
// (a time for durations), minimum; for durations "Total time" shows the accumulated time per
// bin instead of the count; "Log scale" draws the y axis in decades. With the bin size left empty
// ("auto") the bins are chosen from the data so that 99.9 % of the values fall in about 100 bins;
// the last bar is the overflow bin "≥ X", set apart.
class HistogramView : public BarChartView {
    Q_OBJECT
public:
    explicit HistogramView(EntryPalette* palette, QWidget* parent = nullptr);

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
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void metricChanged();
    [[nodiscard]] std::optional<QString> quantityError(
        const QString& text, const QString& what, bool positive) const;
    [[nodiscard]] double quantity(const QString& text) const;

    QComboBox* m_metric = nullptr;
    QLineEdit* m_bins = nullptr;
    QLineEdit* m_binSize = nullptr;
    QLineEdit* m_minimum = nullptr;
    QCheckBox* m_accumulated = nullptr;
    QCheckBox* m_logScale = nullptr;
    std::optional<core::analysis::Histogram> m_histogram;
};

} // namespace parallax::views
