#pragma once

#include "core/analysis/usage_profile.h"
#include "views/common/bar_chart_view.h"
#include "views/usage_profile/usage_group_bars.h"

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QToolButton;

namespace parallax::views {

// Usage Profile: one stacked bar per PE (plus the average first), each the % of the range spent
// in every entry method, pack, unpack, overhead and idle. Clicking a PE's bar asks for its
// timeline. Options: the range and PEs.
//
// Above kMaxAxisRows PEs the PEs are grouped (by node on SMP runs, else by blocks; or by
// signature) and each group is drawn in the chosen mode: SUM (the members' total per PE), SET
// (their mean, with min–max whiskers and a mean ± σ band of their entry-method time) or KEY
// (the first, slowest and fastest members' own bars and the rest's mean). Clicking a group
// expands it in place into its sub-groups or PEs; clicking it again, or the "back" crumb,
// collapses it. Expansions survive a change of range or PEs when the groups stay the same.
class UsageProfileView : public BarChartView {
    Q_OBJECT
public:
    explicit UsageProfileView(EntryPalette* palette, QWidget* parent = nullptr);

    // pe,activity,percent as `parallax-cli usage` (pe "avg" first); grouped, the groups shown
    // as `parallax-cli groups` writes them (group,first_pe,last_pe,members,mode,role,pe,...).
    [[nodiscard]] QString csv() const override;
    // "by" (auto, pes, node, block, signature, list:FILE) and "mode" (sum, set, key).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;
    // Groups from a user's named PE lists (views/common/pe_lists_file.h), used when the
    // grouping is Lists. False with one sentence in *error when the file cannot be used.
    bool loadPeLists(const QString& path, QString* error = nullptr);

    // For tests and the app.
    // Shared with the groups (no copy of per-PE data); null before a result.
    [[nodiscard]] const std::shared_ptr<const core::analysis::UsageProfile>& profile() const
    {
        return m_profile;
    }
    // The bar of a PE in this widget's coordinates; null when the PE is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;
    // Grouped: the bars after the average (empty when each PE has its own bar).
    [[nodiscard]] const std::vector<UsageBar>& groupBars() const { return m_bars; }
    [[nodiscard]] bool grouped() const { return m_groups != nullptr; }
    // The bar of a group (its first bar in KEY mode) in this widget's coordinates.
    [[nodiscard]] QRect barRectForGroup(const std::string& path) const;
    void setGrouping(UsageGrouping grouping);
    void setAggregationMode(core::analysis::AggregationMode mode);
    // Expands or collapses a group as a click on its bar does.
    bool toggleGroup(const std::string& path);
    // Collapses the group expanded last (the "back" crumb); false when none is.
    bool collapseLast();

private:
    struct Result {
        std::shared_ptr<const core::analysis::UsageProfile> profile;
        std::shared_ptr<UsageGroupBars> groups;
    };
    void recompute() override;
    void clearResult() override;
    void showResult(Result result);
    void showProfile();
    void showGroups();
    void groupClicked(int category);
    [[nodiscard]] UsageGrouping grouping() const;
    [[nodiscard]] core::analysis::AggregationMode aggregationMode() const;
    // The PE of a bar (none for the average bar and for group bars, which expand on click).
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    void showContextMenu(QPoint globalPos, int category) override;

    std::shared_ptr<const core::analysis::UsageProfile> m_profile;
    std::shared_ptr<UsageGroupBars> m_groups;
    std::vector<UsageBar> m_bars;
    // The expanded group paths, kept across recomputations (in expansion order).
    std::vector<std::string> m_expandedPaths;
    std::shared_ptr<const std::vector<core::analysis::NamedPeList>> m_lists;
    int m_lastGrouping = 0; // to go back when choosing a lists file is cancelled
    QComboBox* m_grouping = nullptr;
    QComboBox* m_mode = nullptr;
    QToolButton* m_back = nullptr;
};

} // namespace parallax::views
