#pragma once

#include "core/analysis/usage_profile.h"
#include "views/common/bar_chart_view.h"

#include <optional>
#include <vector>

namespace parallax::views {

// Usage Profile: one stacked bar per PE (plus the average first), each the % of the range spent
// in every entry method, pack, unpack, overhead and idle. Clicking a PE's bar asks for its
// timeline. Options: the range and PEs.
class UsageProfileView : public BarChartView {
    Q_OBJECT
public:
    explicit UsageProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    // pe,activity,percent as `parallax-cli usage` (pe "avg" first).
    [[nodiscard]] QString csv() const override;

    // For tests and the app.
    [[nodiscard]] const std::optional<core::analysis::UsageProfile>& profile() const
    {
        return m_profile;
    }
    // The bar of a PE in this widget's coordinates; null when the PE is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;

private:
    void recompute() override;
    void clearResult() override;
    void showProfile(core::analysis::UsageProfile profile);
    // The PE of a bar (none for the average bar).
    [[nodiscard]] BarPes pesOfBar(int category) const override;

    std::optional<core::analysis::UsageProfile> m_profile;
};

} // namespace parallax::views
