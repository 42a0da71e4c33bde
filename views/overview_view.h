#pragma once

#include "analysis_view.h"
#include "core/analysis/overview.h"
#include "overview_geometry.h"

#include <optional>

class QComboBox;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class OverviewCanvas;

// Overview: processors × time. Each cell is coloured by the activity that took most of that
// PE's time in that interval (entry colours, idle light, overhead dark), or by utilization.
// Click a PE's row to open its timeline; drag across time to zoom; right-click a dragged range
// to open it in another view. Options: range, PEs, columns, colouring.
class OverviewView : public AnalysisView {
    Q_OBJECT
public:
    explicit OverviewView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct as `parallax-cli overview`.
    [[nodiscard]] QString csv() const override;
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const std::optional<core::analysis::Overview>& overview() const
    {
        return m_overview;
    }
    [[nodiscard]] OverviewCanvas* canvas() const { return m_canvas; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    void setColoring(OverviewColoring coloring);

private:
    void recompute();

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QLineEdit* m_columns = nullptr;
    QComboBox* m_coloring = nullptr;
    OverviewCanvas* m_canvas = nullptr;
    AsyncComputation* m_computation = nullptr;
    std::optional<core::analysis::Overview> m_overview;
};

// The painted heat map (also used offscreen by renderChart).
class OverviewCanvas : public QWidget {
    Q_OBJECT
public:
    OverviewCanvas(EntryPalette* palette, QWidget* parent = nullptr);

    void setData(const core::TracePtr& trace, const core::analysis::Overview* overview,
        OverviewColoring coloring);
    void setBusy(bool busy);
    [[nodiscard]] OverviewGeometry geometryFor(QSize size) const;
    // Paints everything (title, rows, axis, legend) into `painter` for a size.
    void paintAll(QPainter& painter, QSize size) const;
    [[nodiscard]] QString toolTipAt(QPoint p) const;

signals:
    void rowClicked(core::PeId pe);
    void rangeDragged(double beginColumn, double endColumn, QPoint at);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    EntryPalette* m_palette;
    core::TracePtr m_trace;
    const core::analysis::Overview* m_overview = nullptr;
    OverviewColoring m_coloring = OverviewColoring::DominantActivity;
    QImage m_image;
    bool m_busy = false;
    std::optional<int> m_dragStart;
    std::optional<int> m_dragNow;
};

} // namespace parallax::views
