#pragma once

#include "core/analysis/extrema.h"
#include "views/common/bar_chart_view.h"

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace parallax::views {

struct StackedBarData;

// The Extrema tool: the PEs that stand out by a criterion (least idle, most idle, overhead,
// active entries, grain size, messages or bytes sent, clustering). The chart shows the averaged
// columns "avg", "non-outliers" and "outliers" on the left, set apart, then the N extreme PEs
// with the most extreme rightmost, each stacked by activity, overhead and idle (% of the range),
// labelled "PE 7" with its score in the tooltip. Clicking an extreme PE's bar (or the outliers
// column) asks for its timeline; "Add all to Timeline" asks for all N.
class ExtremaView : public BarChartView {
    Q_OBJECT
public:
    explicit ExtremaView(EntryPalette* palette, QWidget* parent = nullptr);

    // rank,pe,score then group,activity,value, as `parallax-cli extrema`.
    [[nodiscard]] QString csv() const override;
    // "criterion" (least-idle, most-idle, overhead, active-entries, grain-size, msgs-sent,
    // bytes-sent, clustering), "count", "clusters".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;

    [[nodiscard]] core::analysis::ExtremaCriterion criterion() const;
    // "Least idle time", ... (the choice's labels).
    [[nodiscard]] static QString criterionLabel(core::analysis::ExtremaCriterion criterion);

    // The extreme PEs, most extreme first (drawn right to left); empty before a result. By
    // groups: the members of the extreme groups, most extreme group first.
    [[nodiscard]] std::vector<core::PeId> extremePes() const;
    // The bar of an extreme PE (by groups: of a member of an expanded group) in this widget's
    // coordinates; null when it is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;

    // The criterion computed per PE or over groups of PEs: SMP nodes, or blocks of consecutive
    // PEs (as many as keep about kMaxAxisRows of them). A group's bar expands in place into
    // the bars of its members (its most extreme ones when they would not fit) and collapses
    // again; a member's bar opens its timeline.
    enum class By : std::uint8_t { Pes, Node, Block };
    void setBy(By by);
    [[nodiscard]] By by() const;
    // By groups: the extreme groups (most extreme first) and their names; null otherwise.
    [[nodiscard]] const core::analysis::GroupExtrema* groupExtrema() const
    {
        return m_groups ? &*m_groups : nullptr;
    }
    // Expands or collapses the extreme group of rank `rank` (0: the most extreme).
    void toggleGroup(std::size_t rank);
    [[nodiscard]] bool isExpanded(std::size_t rank) const;
    // The bar of the extreme group of rank `rank` in this widget's coordinates.
    [[nodiscard]] QRect barRectForGroup(std::size_t rank) const;
    // At most this many bars (the averaged columns included) before anything is expanded.
    static constexpr int kMaxBars = 200;

    // For tests and the app.
    [[nodiscard]] QComboBox* criterionChoice() const { return m_criterion; }
    [[nodiscard]] QLineEdit* countField() const { return m_count; }
    [[nodiscard]] QLineEdit* clustersField() const { return m_clusters; }
    [[nodiscard]] QPushButton* addAllButton() const { return m_addAll; }
    [[nodiscard]] QComboBox* byChoice() const { return m_by; }
    [[nodiscard]] const std::optional<core::analysis::Extrema>& extrema() const
    {
        return m_extrema;
    }

private:
    static constexpr int kAveragedColumns = 3; // avg, non-outliers, outliers

    struct Result {
        std::optional<core::analysis::Extrema> extrema;
        std::optional<core::analysis::GroupExtrema> groups;
        std::vector<QString> groupNames; // by index of the groups given to rankGroups
    };
    void recompute() override;
    void clearResult() override;
    void showResult(Result result);
    void showExtrema();
    // By groups: the bars after the averaged columns, and what each stands for.
    void addGroupBars(StackedBarData& chartData, std::size_t width);
    // The PEs of a bar: one extreme PE, or all of them for the outliers' average.
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    void showContextMenu(QPoint globalPos, int category) override;
    // A PE's score in words for tooltips ("1,234 messages sent"), or short as drawn above a
    // bar ("1.2 k msgs", "3.4 ms").
    enum class ScoreText { Tooltip, OnBar };
    [[nodiscard]] QString scoreText(double score, ScoreText form = ScoreText::Tooltip) const;

    QComboBox* m_criterion = nullptr;
    QLineEdit* m_count = nullptr;
    QLineEdit* m_clusters = nullptr;
    QPushButton* m_addAll = nullptr;
    QComboBox* m_by = nullptr;
    std::optional<core::analysis::Extrema> m_extrema;
    std::optional<core::analysis::GroupExtrema> m_groups;
    std::vector<QString> m_groupNames;
    std::vector<bool> m_expanded; // by rank of the extreme groups
    // By groups, per bar after the averaged columns: the group's rank, and the member (kNoPe
    // for the group's own bar).
    struct GroupBar {
        std::size_t rank = 0;
        core::PeId member = core::kNoPe;
    };
    std::vector<GroupBar> m_groupBars;
    core::TimeRange m_range; // of the shown result
};

} // namespace parallax::views
