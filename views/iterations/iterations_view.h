#pragma once

#include "core/analysis/iterations.h"
#include "views/common/heat_map_view.h"

#include <optional>

class QComboBox;

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

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void showContextMenu(QPoint globalPos, int row, int column);
    [[nodiscard]] bool showsLateness() const;

    QComboBox* m_color = nullptr;
    std::optional<core::analysis::IterationResult> m_result;
};

} // namespace parallax::views
