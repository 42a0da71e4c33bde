#pragma once

#include "core/analysis/histogram.h"
#include "views/common/bar_chart_view.h"
#include "views/common/entry_chooser.h"

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;

namespace parallax::views {

// Histogram of execution times (stacked by entry method), message sizes (stacked by
// destination entry) or PEs by idle %. Options: the metric, bins, bin size (a time for
// durations), minimum; "Entries…" chooses the entry methods counted (a searchable, checkable
// list); for durations "Idle periods" adds idle periods (off by default: they are not
// executions; never with chosen entries) and "Total time" shows the accumulated time per bin
// instead of the count; "Log scale" draws the y axis in decades. With the bin size left empty
// ("auto") the bins are chosen from the data: about 100 bins over where 99.9 % of the values
// lie, more (up to 500) so that the longest one still has its own bin; the last bar is the
// overflow bin "≥ X", set apart. A run with summaries only says so instead of drawing zeros.
class HistogramView : public BarChartView {
    Q_OBJECT
public:
    explicit HistogramView(EntryPalette* palette, QWidget* parent = nullptr);

    // metric,bin,lo,hi,activity,count as `parallax-cli histogram` (hi "inf" for the overflow).
    [[nodiscard]] QString csv() const override;
    // "metric" (duration, msg-size, idle), "bins", "bin-size", "min", "entries" (ids as
    // `--entries`, empty = all), "idle" (on/off: idle periods in the duration histogram),
    // "total-time" and "log-scale" (on/off: the chart's check boxes).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;

    [[nodiscard]] core::analysis::HistogramMetric metric() const;
    // Durations only: bars show the summed execution time per bin instead of the count.
    void setAccumulated(bool accumulated);
    // The entry methods counted, sorted ids; empty = all.
    void setEntries(std::vector<core::EntryId> entries);
    [[nodiscard]] const std::vector<core::EntryId>& entries() const
    {
        return m_entriesButton->entries();
    }
    // Opens "Choose Entries…" (modal) and applies the choice.
    void chooseEntries();

    // For tests and the app.
    [[nodiscard]] QComboBox* metricChoice() const { return m_metric; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] QLineEdit* binSizeField() const { return m_binSize; }
    [[nodiscard]] QLineEdit* minimumField() const { return m_minimum; }
    [[nodiscard]] QCheckBox* accumulatedToggle() const { return m_accumulated; }
    [[nodiscard]] QCheckBox* logScaleToggle() const { return m_logScale; }
    [[nodiscard]] QCheckBox* idleToggle() const { return m_idle; }
    [[nodiscard]] QPushButton* entriesButton() const { return m_entriesButton; }
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
    QCheckBox* m_idle = nullptr;
    EntriesButton* m_entriesButton = nullptr; // the entry methods counted; empty = all
    std::optional<core::analysis::Histogram> m_histogram;
};

} // namespace parallax::views
