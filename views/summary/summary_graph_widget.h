#pragma once

#include "core/analysis/summary_profiles.h"
#include "views/summary/summary_graph_geometry.h"

#include <QColor>
#include <QPixmap>
#include <QWidget>

#include <optional>
#include <utility>

namespace parallax::views {

// Whole-run utilisation graph of the .sum files: busy % as a filled step line, idle % as a
// second line when the files have it, time along the bottom, 0-100 % up the side, a legend,
// and a tooltip with the exact values of the bin under the cursor. The geometry comes from
// buildSummaryGraphGeometry() and is cached per widget size, the picture too; hovering only
// repaints an overlay.
class SummaryGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit SummaryGraphWidget(QWidget* parent = nullptr);

    void setSeries(core::analysis::SummaryAverage series);
    [[nodiscard]] const core::analysis::SummaryAverage& series() const { return m_series; }
    // The span the run was traced (core::analysis::tracedRunSpan): the time before it is shaded
    // and labelled "start-up", the time after it "after the run", so that neither reads as the
    // program's own work. Nothing is marked without it.
    void setTracedSpan(std::optional<core::TimeRange> span);
    [[nodiscard]] std::optional<core::TimeRange> tracedSpan() const { return m_tracedSpan; }
    // The shaded bands in widget coordinates (start-up, then the tail; empty rects when none).
    [[nodiscard]] std::pair<QRectF, QRectF> untracedBands() const;

    // The geometry for the current size (built on demand); for tests and tooltips.
    [[nodiscard]] const SummaryGraphGeometry& geometry() const;
    // The layout (margins, tick spacing) derived from the widget's font.
    [[nodiscard]] SummaryGraphLayout layoutForFont() const;
    // Tooltip text for the bin under widget x; empty outside the plot.
    [[nodiscard]] QString toolTipAt(double x) const;

    [[nodiscard]] static QColor utilizationColor();
    [[nodiscard]] static QColor idleColor();

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void invalidateGeometry();
    // Everything but the hover overlay (what m_picture holds).
    void paintGraph(QPainter& painter) const;
    void paintLegend(QPainter& painter, const SummaryGraphGeometry& g) const;
    void paintAxes(QPainter& painter, const SummaryGraphGeometry& g) const;
    void paintHover(QPainter& painter, const SummaryGraphGeometry& g) const;
    void paintUntraced(QPainter& painter, const SummaryGraphGeometry& g) const;

    core::analysis::SummaryAverage m_series;
    mutable std::optional<SummaryGraphGeometry> m_geometry; // cache for the current size
    std::optional<double> m_hoverX; // cursor x over the plot, for the overlay
    std::optional<core::TimeRange> m_tracedSpan;
    QPixmap m_picture; // paintGraph() at the current size; null when stale
};

} // namespace parallax::views
