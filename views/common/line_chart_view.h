#pragma once

#include "views/common/bar_chart_view.h"

class QComboBox;
class QStackedWidget;

namespace parallax::views {

class LineChart;

// A chart view that shows its result as lines over time (LineChart) or, where bars fit better,
// as bars (the StackedBarChart of BarChartView): the options bar, the computation, the zoom
// history and the context menu are BarChartView's. A drag along the lines' time axis zooms; a
// click on a line opens the Timeline of the PE it stands for (or of the PEs that hold the band's
// extremes) at that interval. Both charts export as PNG and, with Qt Svg, as SVG.
class LineChartView : public BarChartView {
    Q_OBJECT
public:
    LineChartView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    [[nodiscard]] bool canExportSvg() const override;
    bool exportSvg(const QString& path, QSize size, QString* error) override;

    [[nodiscard]] LineChart* lineChart() const { return m_lines; }
    [[nodiscard]] bool showingLines() const;

protected:
    // Shows the line chart (true) or the bar chart.
    void showLines(bool lines);
    // The PEs and range a click on a line position opens in the Timeline: the series' PE, else
    // the PEs holding the bands' extremes there (categorical PE axes: the position's PE, over
    // the shown range). Views may refine it.
    [[nodiscard]] virtual BarPes pesAtPosition(int index, int series) const;

    // applyOptions() helper for "by": time (the first choice of `by`) or pe (the second).
    static bool applyByOption(QComboBox* by, const QString& value, QString* error);

    // Whether the grid of `range` would have too many intervals to show; then the line chart
    // says so and any running computation is cancelled.
    bool rejectTooManyIntervals(core::TimeRange range);

    LineChart* m_lines = nullptr;

private:
    QStackedWidget* m_stack = nullptr;
};

} // namespace parallax::views
