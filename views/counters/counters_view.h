#pragma once

#include "core/analysis/counters.h"
#include "core/run_metadata.h"
#include "views/common/bar_chart_view.h"

#include <memory>
#include <optional>

class QComboBox;

namespace parallax::views {

// Performance Counters: one hardware counter per entry method (the heaviest first, coloured as
// in every view) or per PE, as the total over the executions measured or as a rate per
// microsecond of execution. The counters come from the run's logs (PAPI values, executions that
// begin in the range) or from a table given with setCounterTable() (the old NAME.count files).
// A click on a PE's bar opens its Timeline.
class CountersView : public BarChartView {
    Q_OBJECT
public:
    explicit CountersView(EntryPalette* palette, QWidget* parent = nullptr);

    // Shows a table read elsewhere (the .count files) instead of the run's logs; `metadata`
    // names its entry methods. Null: back to the run.
    void setCounterTable(std::shared_ptr<const core::analysis::CounterTable> table,
        std::shared_ptr<const core::RunMetadata> metadata);

    // The CSV of `parallax-cli counters` (--by entry or --by pe, as shown) for every counter.
    [[nodiscard]] QString csv() const override;
    // "counter" (a name), "metric" (total or rate), "by" (entry or pe).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const core::analysis::CounterTable* table() const;
    [[nodiscard]] QComboBox* counterChoice() const { return m_counter; }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void fillCounters();
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    [[nodiscard]] bool perPe() const;
    [[nodiscard]] const core::RunMetadata* metadata() const;

    QComboBox* m_counter = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_by = nullptr;
    std::optional<core::analysis::CounterTable> m_fromLogs;
    std::shared_ptr<const core::analysis::CounterTable> m_given;
    std::shared_ptr<const core::RunMetadata> m_givenMetadata;
    QString m_message;
};

} // namespace parallax::views
