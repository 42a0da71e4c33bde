#pragma once

#include "core/analysis/time_profile.h"
#include "views/common/bar_chart_view.h"

#include <optional>
#include <vector>

class QLineEdit;

namespace parallax::views {

// Time Profile: per time interval, the share of the selected PEs' processor time spent in each
// entry method, pack, unpack, overhead and idle (stacked, 0-100 %). Options: "Interval" (a
// time such as 1ms) or "Bins" (default 1000). Dragging across the time axis zooms in (and
// emits selectionChanged); the context menu zooms out and opens the shown range in another
// view.
class TimeProfileView : public BarChartView {
    Q_OBJECT
public:
    explicit TimeProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    // interval,begin_us,end_us,activity,time_us,percent as `parallax-cli time-profile`.
    [[nodiscard]] QString csv() const override;
    // "interval" (a time) and "bins" (a count).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;
    [[nodiscard]] std::optional<core::TimeRange> timeAxisRange() const override;
    void zoomTimeAxis(core::TimeRange range) override { zoomTo(range); }

    // For tests and the app.
    [[nodiscard]] QLineEdit* intervalField() const { return m_interval; }
    [[nodiscard]] QLineEdit* binsField() const { return m_bins; }
    [[nodiscard]] const std::optional<core::analysis::TimeProfile>& profile() const
    {
        return m_profile;
    }

private:
    void recompute() override;
    void clearResult() override;
    void showProfile(core::analysis::TimeProfile profile, std::size_t peCount);
    void showContextMenu(QPoint globalPos, int category) override;

    std::optional<core::analysis::TimeProfile> m_profile;
};

} // namespace parallax::views
