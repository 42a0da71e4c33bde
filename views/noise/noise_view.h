#pragma once

#include "core/analysis/noise.h"
#include "views/common/table_analysis_view.h"

#include <optional>

class QLineEdit;

namespace parallax::views {

// The Noise Miner: noise events — executions far longer than their entry method's median,
// grouped by the size of the time they lost (core/analysis/noise.h) — ranked by time lost,
// above the noisy executions of the selected event (all when none is selected). A double-click
// opens the Timeline at an execution (on an event, at its longest one). The options bar takes
// k (scaled MADs above the median) and the minimum excess.
class NoiseView : public TableAnalysisView {
    Q_OBJECT
public:
    explicit NoiseView(EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] ResultTableView* executions() const { return m_executions; }
    // Every noisy execution with its event's rank, as `parallax-cli noise --list executions`
    // (the events follow from it; the list is the fuller record).
    [[nodiscard]] QString csv() const override;
    [[nodiscard]] const std::optional<core::analysis::NoiseReport>& report() const
    {
        return m_report;
    }

protected:
    void recompute() override;
    void clearResult() override;
    [[nodiscard]] bool takesEntries() const override { return true; }
    // "k" (a positive number), "min-excess" (a time).
    bool applyViewOption(const QString& name, const QString& value, QString* error) override;

private:
    void show(core::analysis::NoiseReport report);
    // The noisy executions of event `row` of the main table (-1: all).
    void showDetail(int row) override;

    QLineEdit* m_k = nullptr;
    QLineEdit* m_minExcess = nullptr;
    ResultTableView* m_executions = nullptr;
    std::optional<core::analysis::NoiseReport> m_report;
};

} // namespace parallax::views
