#pragma once

#include "core/analysis/extrema.h"
#include "views/common/bar_chart_view.h"

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace parallax::views {

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

    // The extreme PEs, most extreme first (drawn right to left); empty before a result.
    [[nodiscard]] std::vector<core::PeId> extremePes() const;
    // The bar of an extreme PE in this widget's coordinates; null when it is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;

    // For tests and the app.
    [[nodiscard]] QComboBox* criterionChoice() const { return m_criterion; }
    [[nodiscard]] QLineEdit* countField() const { return m_count; }
    [[nodiscard]] QLineEdit* clustersField() const { return m_clusters; }
    [[nodiscard]] QPushButton* addAllButton() const { return m_addAll; }
    [[nodiscard]] const std::optional<core::analysis::Extrema>& extrema() const
    {
        return m_extrema;
    }

private:
    static constexpr int kAveragedColumns = 3; // avg, non-outliers, outliers

    void recompute() override;
    void clearResult() override;
    void showExtrema(core::analysis::Extrema extrema);
    // The PEs of a bar: one extreme PE, or all of them for the outliers' average.
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    // A PE's score in words for tooltips ("1,234 messages sent"), or short as drawn above a
    // bar ("1.2 k msgs", "3.4 ms").
    enum class ScoreText { Tooltip, OnBar };
    [[nodiscard]] QString scoreText(double score, ScoreText form = ScoreText::Tooltip) const;

    QComboBox* m_criterion = nullptr;
    QLineEdit* m_count = nullptr;
    QLineEdit* m_clusters = nullptr;
    QPushButton* m_addAll = nullptr;
    std::optional<core::analysis::Extrema> m_extrema;
    core::TimeRange m_range; // of the shown result
};

} // namespace parallax::views
