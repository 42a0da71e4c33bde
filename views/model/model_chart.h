#pragma once

#include "core/analysis/entry_model.h"
#include "views/common/chart_widget.h"
#include "views/common/stacked_bar_geometry.h"

#include <QColor>
#include <QPolygonF>

#include <optional>
#include <vector>

namespace parallax::views {

// What the Entry Model chart shows: one entry method's executions as points of duration (µs)
// against x, the groups' mean ± σ, the fits, and the bimodality flag (core::analysis::EntryModel).
struct ModelChartData {
    core::analysis::EntryModel model;
    QString xTitle; // "Message size", "Iteration", "User-supplied value"
    BarUnit xUnit = BarUnit::Count;
    QColor pointColor; // the entry method's colour
    bool logY = false; // durations on a logarithmic axis (1-2-5 ticks per decade)
};

// Everything the chart draws, in widget pixels. Points that fall into the same cell of
// `cellSize` px are drawn once, darker the more points it holds, so a million executions cost
// as many rectangles as the plot has cells (and stay readable as a density).
struct ModelChartGeometry : ChartAxes {
    QRectF legend; // right of the plot (empty when too narrow)
    QRectF banner; // the multimodality warning, above the plot (empty when not flagged)
    double xMin = 0.0; // values at the plot's edges
    double xMax = 1.0;
    double yMin = 0.0;
    double yMax = 1.0;
    // Log axis: yMin is the lowest decade shown (> 0); durations of 0 sit on it, at the bottom.
    bool logY = false;
    double cellSize = 3.0;
    // Per density level (1 point, 2–3, 4–7, …): the cells to fill.
    std::vector<std::vector<QRectF>> cells;
    std::vector<QPolygonF> fits; // per model.fits entry
    struct Whisker {
        double x = 0.0;
        double mean = 0.0;
        double low = 0.0;
        double high = 0.0;
    };
    std::vector<Whisker> whiskers; // per model.groups entry
    std::vector<QPointF> pointPositions; // per model.points entry (hit tests)

    [[nodiscard]] bool empty() const { return plot.isEmpty(); }
    [[nodiscard]] double xOf(double x) const;
    // The pixel y of a duration (µs), through the linear or the log mapping. On a log axis a
    // duration of 0 (or less) is drawn at the bottom; 0 < y < yMin falls below the plot.
    [[nodiscard]] double yOf(double y) const;
};

// Pure layout (BarLayout's margins and text sizes); empty when there are no points or the size is
// too small.
ModelChartGeometry buildModelChart(
    const ModelChartData& data, QSize size, const BarLayout& layout, double legendWidth);

// The fit with the highest R² (nullopt when there is none).
std::optional<std::size_t> bestModelFit(const core::analysis::EntryModel& model);

// "1 execution", "40 executions".
QString modelCountText(std::size_t n, const char* one, const char* many);

// The point nearest a widget position within `tolerance` px.
std::optional<std::size_t> modelPointAt(
    const ModelChartGeometry& geometry, QPointF pos, double tolerance = 6.0);

// The chart laid out for one size.
struct ModelChartFrame {
    QSize size;
    QRectF titleBox;
    ModelChartGeometry geometry;
};

// The Entry Model chart: a scatter of execution durations against x, with mean ± σ whiskers per
// group, the three fit curves (the best one thicker) and a legend with their formulas and R²,
// and a banner when the durations look multimodal. Hovering a point tells which execution it is;
// a click emits pointClicked().
class ModelChart : public FramedChart<ModelChartData, ModelChartFrame> {
    Q_OBJECT
public:
    explicit ModelChart(QWidget* parent = nullptr);

    [[nodiscard]] bool hasData() const { return !m_data.model.points.empty(); }
    [[nodiscard]] const ModelChartGeometry& geometry() const;
    [[nodiscard]] QString toolTipAt(QPoint pos) const;

    // The colour of each fit kind.
    [[nodiscard]] static QColor fitColor(core::analysis::ModelFit::Kind kind);
    // The banner's text (empty when the durations are not flagged).
    [[nodiscard]] QString bannerText() const;
    // The legend's lines: the points, the groups, then one per fit "linear: y = … (R² 0.98)".
    [[nodiscard]] QStringList legendLines() const;

signals:
    void pointClicked(int point);
    void contextMenuRequested(QPoint globalPos, int point);

protected:
    void clearHover() override { m_hover.reset(); }
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    using Frame = ModelChartFrame;
    [[nodiscard]] Frame buildFrame(QSize size) const override;
    void paintFrame(
        QPainter& painter, const Frame& f, const ChartStyle& style, bool onScreen) const override;
    void paintLegend(QPainter& painter, const Frame& f, const ChartStyle& style) const;

    std::optional<std::size_t> m_hover;
};

} // namespace parallax::views
