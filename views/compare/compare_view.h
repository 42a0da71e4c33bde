#pragma once

#include "core/analysis/run_compare.h"
#include "views/common/line_chart_view.h"

#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace parallax::views {

// Compare: this run (A) next to another run (B, given with setOtherRun(), File → Compare With…)
// or next to another range of itself (the "B range" field). The chart shows the busy share of
// the selected PEs over time in both, aligned on the start of their ranges or on the first
// occurrence of a user event, with one interval size, or the difference B − A; the table below
// lists every entry method matched by name with its time in A and B, the change and the ratio,
// largest change first. A line above the chart warns when the runs are other programs or have
// other PE counts. A click on A's line opens A's Timeline there.
class CompareView : public LineChartView {
    Q_OBJECT
public:
    explicit CompareView(EntryPalette* palette, QWidget* parent = nullptr);

    // The run to compare with (null: none, then the B range compares two ranges of this run).
    void setOtherRun(core::TracePtr other, const QString& label);
    [[nodiscard]] const core::TracePtr& otherRun() const { return m_other; }

    // entry,a_us,b_us,delta_us,ratio as `parallax-cli compare`.
    [[nodiscard]] QString csv() const override;
    // "range-b" (B:E), "align" (start or event:ID), "show" (both or difference), "interval",
    // "bins".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const std::optional<core::analysis::RunComparison>& result() const
    {
        return m_result;
    }
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] QLabel* warningLine() const { return m_warning; }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void fillTable();
    [[nodiscard]] BarPes pesAtPosition(int index, int series) const override;
    [[nodiscard]] std::optional<core::TimeRange> positionRange(int index) const override;
    [[nodiscard]] std::optional<core::TimeRange> rangeB(QString* error) const;

    core::TracePtr m_other;
    QString m_otherLabel;
    QLineEdit* m_rangeB = nullptr;
    QComboBox* m_align = nullptr;
    QLineEdit* m_event = nullptr;
    QComboBox* m_show = nullptr;
    QLabel* m_warning = nullptr;
    QTableWidget* m_table = nullptr;
    std::optional<core::analysis::RunComparison> m_result;
    QString m_message;
};

} // namespace parallax::views
