#pragma once

#include "analysis_view.h"
#include "core/analysis/usage_profile.h"

#include <optional>
#include <vector>

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// Usage Profile: one stacked bar per PE (plus the average first), each the % of the range spent
// in every entry method, pack, unpack, overhead and idle. Clicking a PE's bar asks for its
// timeline. Options: the range and PEs.
class UsageProfileView : public AnalysisView {
    Q_OBJECT
public:
    explicit UsageProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // pe,activity,percent as `parallax-cli usage` (pe "avg" first).
    [[nodiscard]] QString csv() const override;

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    [[nodiscard]] const std::optional<core::analysis::UsageProfile>& profile() const
    {
        return m_profile;
    }
    // The bar of a PE in this widget's coordinates; null when the PE is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;

private:
    void recompute();
    void showProfile(core::analysis::UsageProfile profile);
    void onCategoryClicked(int category);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::optional<core::analysis::UsageProfile> m_profile;
};

} // namespace parallax::views
