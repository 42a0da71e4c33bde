#pragma once

#include "core/analysis/entry_profile.h"
#include "views/common/table_analysis_view.h"

#include <optional>

class QSplitter;

namespace parallax::views {

class StackedBarChart;

// Entry Method Profile: per entry method its executions, total, mean, min, max and σ of
// durations and its share of the PEs' time (core/analysis/entry_profile.h), as a sortable table
// under a bar chart of the heaviest entry methods in the run's colours. Counts the executions
// that begin in the range on the selected PEs; comm threads apart unless included.
class EntryProfileView : public TableAnalysisView {
    Q_OBJECT
public:
    explicit EntryProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] const std::optional<core::analysis::EntryProfile>& profile() const
    {
        return m_profile;
    }
    // Bars drawn: the heaviest entry methods, then one for the rest.
    static constexpr std::size_t kBars = 12;

    // "Model this entry…" on a row: asks for the Entry Model of that entry method over the range
    // and PEs shown (false for a row that is none).
    bool modelRow(int tableRow);

signals:
    void modelEntryRequested(
        core::EntryId entry, core::TimeRange range, std::vector<core::PeId> pes);

protected:
    void recompute() override;
    void clearResult() override;
    [[nodiscard]] bool takesEntries() const override { return true; }
    void paintBody(QPainter& painter, const QRect& rect) const override;
    void addRowActions(QMenu& menu, int tableRow) override;

private:
    void show(core::analysis::EntryProfile profile);
    void fillChart();

    StackedBarChart* m_chart = nullptr;
    QSplitter* m_split = nullptr;
    std::optional<core::analysis::EntryProfile> m_profile;
};

} // namespace parallax::views
