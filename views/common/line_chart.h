#pragma once

#include "views/common/chart_legend.h"
#include "views/common/chart_widget.h"
#include "views/common/line_chart_geometry.h"

#include <optional>

namespace parallax::views {

// Everything laid out for one size: geometry, legend and title box.
struct LineChartFrame {
    QSize size;
    LineChartGeometry geometry;
    LegendLayout legend;
    QRectF titleBox;
};

// A line chart drawn with QPainter: a title line, the plot with y ticks in the data's unit and
// a time (or category) axis, min–max bands under the lines, and a legend of the series on the
// right. Hovering shows a cursor at the nearest x position with every series' value there in a
// tooltip; a click emits positionClicked() (with the series under the cursor, if any); on a time
// axis a drag selects a range (rangeSelected()). The geometry comes from buildLineChart() and is
// cached per size and data (FramedChart); renderImage() and paintExport() draw the very same
// chart. Title, message, busy state and drag come from ChartWidget.
class LineChart : public FramedChart<LineChartData, LineChartFrame> {
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);

    [[nodiscard]] bool hasData() const { return m_data.size() > 0; }

    [[nodiscard]] const LineChartGeometry& geometry() const;
    [[nodiscard]] const LegendLayout& legend() const;
    // The colour of series s (bands follow the series: index series.size() + b).
    [[nodiscard]] QColor seriesColor(std::size_t s) const;
    [[nodiscard]] QColor bandColor(std::size_t b) const;
    // Tooltip text at a widget point; empty when nothing is under it.
    [[nodiscard]] QString toolTipAt(QPoint pos) const;

signals:
    // A click in the plot: the x position, and the series under the cursor (-1: none).
    void positionClicked(int index, int series);
    // Right click: the x position under the cursor (-1 when none).
    void contextMenuRequested(QPoint globalPos, int index);

protected:
    void clearHover() override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    using Frame = LineChartFrame;
    [[nodiscard]] Frame buildFrame(QSize size) const override;
    void paintFrame(
        QPainter& painter, const Frame& f, const ChartStyle& style, bool onScreen) const override;
    void paintData(QPainter& painter, const Frame& f, const ChartStyle& style) const;
    void paintHover(QPainter& painter, const Frame& f, const ChartStyle& style) const;
    [[nodiscard]] QString positionHeading(std::size_t index) const;
    void updateHover(QPoint pos, QPoint globalPos);

    std::optional<LineHit> m_hover;
    std::optional<std::size_t> m_hoverLegendRow;
};

} // namespace parallax::views
