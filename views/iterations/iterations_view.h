#pragma once

#include "core/analysis/iterations.h"
#include "core/analysis/pe_groups.h"
#include "views/common/heat_map_view.h"

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace parallax::views {

// Iterations: the run's time steps (core::analysis::findIterations, found from a step user event
// or an entry method run once per step on every PE) as a PE × iteration strip, each cell coloured
// by the PE's busy time in that iteration or by how far it is above the iteration's median PE, the
// iterations' durations above and each PE's total at the right, the longest iteration and the
// busiest PE outlined. A click on a cell opens that PE's timeline in that iteration; a click on an
// iteration's label opens the iteration in the Timeline; the context menu opens an iteration in
// any view (its range becomes theirs).
class IterationsView : public HeatMapView {
    Q_OBJECT
public:
    explicit IterationsView(EntryPalette* palette, QWidget* parent = nullptr);

    // As `parallax-cli iterations`.
    [[nodiscard]] QString csv() const override;
    // "color" (busy, lateness).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    // For tests and the app.
    [[nodiscard]] const std::optional<core::analysis::IterationResult>& result() const
    {
        return m_result;
    }
    [[nodiscard]] core::TimeRange iterationRange(std::size_t iteration) const;

    // The iterations selected, first and last (a click selects one, a shift-click extends the
    // selection from the last click, the "Iterations" field takes "5" or "5-9"), and the time
    // they span.
    void selectIterations(std::size_t first, std::size_t last);
    [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>> selectedIterations() const
    {
        return m_selected;
    }
    [[nodiscard]] core::TimeRange selectedRange() const;
    // "Use as time range": emits timeRangeChosen() with the selection's span.
    bool useSelectionAsTimeRange();
    // "5", "5-9" (also "5–9", "5..9") of `count` iterations; nullopt when not one of them, with
    // the reason in *error when given.
    static std::optional<std::pair<std::size_t, std::size_t>> parseIterationRange(
        const QString& text, std::size_t count, QString* error = nullptr);

    // The rows stand for these groups of PEs when the PEs do not fit (core::analysis::axisGroups;
    // empty: one row per PE).
    [[nodiscard]] const std::vector<core::analysis::PeGroup>& groups() const { return m_groups; }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void showContextMenu(QPoint globalPos, int row, int column);
    // A click on an iteration (label or cell): true when it was a shift-click that extended the
    // selection (then nothing opens).
    bool clickIteration(std::size_t column);
    void showSelection();
    // The PE a row stands for at an iteration: itself, or its group's busiest member.
    [[nodiscard]] core::PeId rowPe(std::size_t row, std::size_t column) const;
    [[nodiscard]] std::vector<core::PeId> rowPes(std::size_t row) const;
    [[nodiscard]] bool showsLateness() const;

    QComboBox* m_color = nullptr;
    QLineEdit* m_selection = nullptr;
    QPushButton* m_useRange = nullptr;
    QLabel* m_selectionError = nullptr; // why the typed selection is refused
    std::optional<core::analysis::IterationResult> m_result;
    std::optional<std::pair<std::size_t, std::size_t>> m_selected;
    std::optional<std::size_t> m_anchor; // the last plain click
    std::vector<core::analysis::PeGroup> m_groups;
    std::vector<core::analysis::IterationGroupBusy> m_groupBusy; // [iteration × group]
};

} // namespace parallax::views
