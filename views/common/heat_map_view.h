#pragma once

#include "views/common/analysis_view.h"

#include <functional>
#include <optional>
#include <vector>

class QHBoxLayout;
class QMenu;

namespace parallax::views {

class AsyncComputation;
class HeatMapChart;
class OptionsBar;

// What the heat-map views (Communication per Processor, Message Size Evolution, Animation) share:
// the options bar (range, PEs, comm threads) with a busy indicator above a HeatMapChart, one
// AsyncComputation, PNG and SVG export and the common end of applyOptions(). Subclasses add their
// fields, compute in recompute() and turn their result into HeatMapData.
class HeatMapView : public AnalysisView {
    Q_OBJECT
public:
    HeatMapView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    [[nodiscard]] bool canExportSvg() const override;
    bool exportSvg(const QString& path, QSize size, QString* error) override;

    // For tests and the app.
    [[nodiscard]] HeatMapChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }

protected:
    // Recomputes for the current run and options (cancelling a running computation).
    virtual void recompute() = 0;
    // Forgets the result of the previous run.
    virtual void clearResult() = 0;

    // Puts a widget in the top row, right of the options bar.
    void addToolbarWidget(QWidget* widget);
    // Puts a row of controls between the options bar and the chart.
    void addControlRow(QWidget* row);
    // applyOptions()'s last step, which validates and applies every field.
    bool applyFields(QString* error);
    // Clears the chart with the reason when there is nothing to compute: no run, or (when
    // `records` names them) no logs to take those records from. True when it did.
    bool showNothingToCompute(const QString& records);
    // A context menu with "Open … in the Timeline" for `pes` (when any), "Open <range> in ▸" and
    // the export actions; `extra` adds the view's own entries first.
    void showMenu(QPoint globalPos, const std::vector<core::PeId>& pes, core::TimeRange range,
        const std::function<void(QMenu&)>& extra = {});
    // Shows `range` as the options bar's range and recomputes (a drag on a time axis).
    void zoomTo(core::TimeRange range);
    // Why a view that needs the logs' records has nothing to show for this run, or empty.
    [[nodiscard]] QString missingLogsText(const QString& records) const;

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    HeatMapChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;

private:
    QHBoxLayout* m_toolbar = nullptr;
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
};

} // namespace parallax::views
