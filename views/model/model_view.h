#pragma once

#include "core/analysis/entry_model.h"
#include "views/common/bar_chart_view.h"

#include <optional>

class QCheckBox;
class QComboBox;

namespace parallax::views {

class ModelChart;

// Entry Model: one entry method's executions as a scatter of their durations against what may
// explain them — the size of the message that started each, the iteration it ran in, or a value
// the program recorded with traceUserSuppliedData — with each group's mean ± σ, the linear,
// power-law and quadratic fits (formula and R², the best one emphasised) and a banner when the
// durations look multimodal (core::analysis::modelEntry; `parallax-cli model` prints the same).
// The entry chooser starts on the entry method with the most time; an x the executions do not
// have is disabled with the reason. A click on a point opens that execution in the Timeline.
class EntryModelView : public BarChartView {
    Q_OBJECT
public:
    explicit EntryModelView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    [[nodiscard]] bool canExportSvg() const override;
    bool exportSvg(const QString& path, QSize size, QString* error) override;
    // The fits, as `parallax-cli model --table fits`, then the points.
    [[nodiscard]] QString csv() const override;
    // "entry" (an entry id), "x" (msg-bytes, iteration, user-value) and "log-y" (on, off).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    [[nodiscard]] State saveState() const override;

    // For tests and the app.
    [[nodiscard]] ModelChart* modelChart() const { return m_model; }
    [[nodiscard]] const std::optional<core::analysis::EntryModel>& result() const
    {
        return m_result;
    }
    [[nodiscard]] core::EntryId entry() const;
    [[nodiscard]] core::analysis::ModelX x() const;
    // Shows the model of `entry` (the Entry Profile's "Model this entry…").
    void showEntry(core::EntryId entry);

private:
    void recompute() override;
    void clearResult() override;
    void fillEntries();
    void showChoices(const core::analysis::ModelXChoices& choices);
    void openPoint(int point);
    void showPointMenu(QPoint globalPos, int point);
    void showModel(); // m_result into the chart, on the axis the check box asks for

    ModelChart* m_model = nullptr;
    QComboBox* m_entry = nullptr;
    QComboBox* m_x = nullptr;
    QCheckBox* m_logY = nullptr;
    std::optional<core::analysis::EntryModel> m_result;
    bool m_entryChosen = false; // by the analyst (else the default may move to another entry)
};

} // namespace parallax::views
