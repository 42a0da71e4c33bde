#pragma once

#include "analysis_view.h"
#include "core/analysis/extrema.h"

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class StackedBarChart;

// The Extrema tool: the PEs that stand out by a criterion (least idle, most idle, overhead,
// active entries, grain size, messages or bytes sent, clustering). The chart shows the averaged
// columns "avg", "non-outliers" and "outliers" on the left, set apart, then the N extreme PEs
// with the most extreme rightmost, each stacked by activity, overhead and idle (% of the range),
// labelled "PE 7" with its score in the tooltip. Clicking an extreme PE's bar (or the outliers
// column) asks for its timeline; "Add all to Timeline" asks for all N.
class ExtremaView : public AnalysisView {
    Q_OBJECT
public:
    explicit ExtremaView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // rank,pe,score then group,activity,value, as `parallax-cli extrema`.
    [[nodiscard]] QString csv() const override;
    // "criterion" (least-idle, most-idle, overhead, active-entries, grain-size, msgs-sent,
    // bytes-sent, clustering), "count", "clusters".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] core::analysis::ExtremaCriterion criterion() const;
    // "Least idle time", ... (the choice's labels).
    [[nodiscard]] static QString criterionLabel(core::analysis::ExtremaCriterion criterion);

    // The extreme PEs, most extreme first (drawn right to left); empty before a result.
    [[nodiscard]] std::vector<core::PeId> extremePes() const;
    // The bar of an extreme PE in this widget's coordinates; null when it is not shown.
    [[nodiscard]] QRect barRectForPe(core::PeId pe) const;

    // For tests and the app.
    [[nodiscard]] StackedBarChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
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

    void recompute();
    void showExtrema(core::analysis::Extrema extrema);
    void onCategoryClicked(int category);
    [[nodiscard]] QString scoreText(double score) const;

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QComboBox* m_criterion = nullptr;
    QLineEdit* m_count = nullptr;
    QLineEdit* m_clusters = nullptr;
    QPushButton* m_addAll = nullptr;
    StackedBarChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
    std::optional<core::analysis::Extrema> m_extrema;
    core::TimeRange m_range; // of the shown result
};

} // namespace parallax::views
