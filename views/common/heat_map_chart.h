#pragma once

#include "core/types.h"
#include "views/common/chart_widget.h"
#include "views/common/heat_map_geometry.h"

#include <QImage>

#include <functional>
#include <optional>

namespace parallax::views {

// The heat map laid out for one size.
struct HeatMapFrame {
    QSize size;
    HeatMapGeometry geometry;
};

// A heat map drawn with QPainter, shared by Communication per Processor, Message Size Evolution
// and the Animation: a title line, the cells (buildHeatMapGeometry, heatMapImage), row and column
// labels or a time axis with units, optional marginal bars of the row and column totals, and a
// colour legend with its scale. Emphasized rows and columns (the heaviest sender and receiver)
// are outlined. Hovering a cell or a bar shows a tooltip with exact values; clicks on cells and
// labels are signals; on a time axis a drag selects a range. renderImage() and paintExport() draw
// the very same chart for export (PNG, SVG). Title, message, busy state and drag come from
// ChartWidget, as for the other charts. clearData()'s message says why there is no map ("This run
// has no logs", "No messages in this range").
class HeatMapChart : public FramedChart<HeatMapData, HeatMapFrame> {
    Q_OBJECT
public:
    explicit HeatMapChart(QWidget* parent = nullptr);

    [[nodiscard]] bool hasData() const { return m_data.rows > 0 && m_data.columns > 0; }

    // A line of notes under the chart (what was left out, how relays count); empty: none.
    void setFootnote(const QString& footnote);
    [[nodiscard]] QString footnote() const { return m_footnote; }

    // Tooltip texts; the defaults name the row, the column and the value.
    using CellText = std::function<QString(HeatMapCell)>;
    using ItemText = std::function<QString(std::size_t)>;
    void setCellToolTip(CellText text) { m_cellText = std::move(text); }
    void setRowBarToolTip(ItemText text) { m_rowBarText = std::move(text); }
    void setColumnBarToolTip(ItemText text) { m_columnBarText = std::move(text); }

    [[nodiscard]] const HeatMapGeometry& geometry() const; // for the widget's size (cached)
    [[nodiscard]] QString toolTipAt(QPoint pos) const;
    // The chart as an SVG file, written atomically; false with the reason otherwise.
    bool exportSvg(const QString& path, QSize size, QString* error) const;

    [[nodiscard]] QSize sizeHint() const override { return { 900, 560 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 320, 220 }; }

signals:
    void cellClicked(int row, int column);
    void rowLabelClicked(int row);
    void columnLabelClicked(int column);
    // Right click: the cell under the cursor (-1, -1 when none).
    void contextMenuRequested(QPoint globalPos, int row, int column);

protected:
    void invalidate() override;
    void clearHover() override { m_hover.reset(); }
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    [[nodiscard]] HeatMapFrame buildFrame(QSize size) const override;
    void paintFrame(QPainter& painter, const HeatMapFrame& f, const ChartStyle& style,
        bool onScreen) const override;
    [[nodiscard]] HeatMapLayout layoutFor(const QFont& font) const;
    [[nodiscard]] const QImage& imageFor(QSize plotSize) const;
    void paintLabels(QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const;
    void paintBars(QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const;
    void paintLegend(QPainter& painter, const HeatMapGeometry& g, const ChartStyle& style) const;
    void paintCellValues(QPainter& painter, const HeatMapGeometry& g) const;
    [[nodiscard]] core::TimeUs timeAt(const HeatMapGeometry& g, int x) const;

    QString m_footnote;
    CellText m_cellText;
    ItemText m_rowBarText;
    ItemText m_columnBarText;

    mutable QImage m_image; // the cells for m_image.size()

    std::optional<HeatMapCell> m_hover;
};

} // namespace parallax::views
