#pragma once

#include "core/analysis/overview.h"
#include "core/trace.h"
#include "views/common/chart_style.h"
#include "views/overview/overview_geometry.h"
#include "views/overview/overview_rows.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

namespace parallax::views {

class EntryPalette;

// "PE 12", or "PE 12 (comm)" for a comm thread: the Overview's row labels.
QString overviewRowLabel(core::PeId pe, bool commThread);

// The painted heat map with title, PE labels, time axis and legend (also used offscreen by
// renderChart). The heat map image is built for the plot size and cached; hover, drag band and
// selection are overlays.
class OverviewChart : public QWidget {
    Q_OBJECT
public:
    explicit OverviewChart(EntryPalette* palette, QWidget* parent = nullptr);

    // `rows` describes each row of `overview` when it shows groups (composeOverview); empty:
    // one row per PE of overview->pes.
    void setData(const core::TracePtr& trace, const core::analysis::Overview* overview,
        OverviewColoring coloring, std::vector<OverviewRowInfo> rows = {},
        const core::analysis::GroupOverview* groups = nullptr);
    [[nodiscard]] const std::vector<OverviewRowInfo>& rows() const { return m_rows; }
    [[nodiscard]] OverviewColoring coloring() const { return m_coloring; }
    void setBusy(bool busy);
    void setSubtitle(const QString& subtitle);
    void setSelectedRange(std::optional<core::TimeRange> range);
    [[nodiscard]] std::optional<core::TimeRange> selectedRange() const { return m_selected; }
    // Comm-thread rows drawn under a veil (the default: they have no idle records, so their
    // rows are all overhead and would draw the eye away from the workers).
    void setCommThreadsMuted(bool muted);
    [[nodiscard]] bool commThreadsMuted() const { return m_commThreadsMuted; }

    [[nodiscard]] OverviewGeometry geometryFor(QSize size, bool exported = false) const;
    [[nodiscard]] const OverviewGeometry& currentGeometry() const;
    // The PE row under a widget point (nullopt outside the plot, or on a group's aggregate row).
    [[nodiscard]] std::optional<core::PeId> peAt(QPoint pos) const;
    // The group of the row under a widget point, in the plot or on its label (nullopt when the
    // row belongs to no group).
    [[nodiscard]] std::optional<int> groupAt(QPoint pos) const;
    // The label of a row ("PE 12", "node 3", "busiest: PE 70", …).
    [[nodiscard]] QString rowLabel(std::size_t row) const;
    [[nodiscard]] QString toolTipAt(QPoint pos) const;
    // The chart on a white background at `size` (title and legend included).
    [[nodiscard]] QImage renderImage(QSize size) const;
    // Traced span of each row's PE (cells outside it have no data).
    [[nodiscard]] const std::vector<core::TimeRange>& tracedSpans() const { return m_traced; }

    [[nodiscard]] QSize sizeHint() const override { return { 900, 420 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 320, 200 }; }

signals:
    void rowClicked(core::PeId pe);
    // A click on a group's aggregate row or on a group row's label: expand or collapse it.
    void groupClicked(int group);
    void rangeSelected(core::TimeRange range, QPoint globalPos);
    void contextMenuRequested(QPoint globalPos, std::optional<core::PeId> pe);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    using Style = ChartStyle;
    [[nodiscard]] Style screenStyle() const;
    [[nodiscard]] static Style exportStyle();
    [[nodiscard]] OverviewLayout layoutFor(bool exported, int width) const;
    [[nodiscard]] const QImage& imageFor(QSize plotSize) const;
    [[nodiscard]] QString groupToolTip(
        const OverviewRowInfo& info, std::size_t row, std::int64_t column) const;
    void paintFrame(
        QPainter& painter, const OverviewGeometry& g, const Style& style, bool onScreen) const;
    void paintLegend(QPainter& painter, const OverviewGeometry& g, const Style& style) const;
    void invalidate();

    QPointer<EntryPalette> m_palette;
    core::TracePtr m_trace;
    const core::analysis::Overview* m_overview = nullptr;
    OverviewColoring m_coloring = OverviewColoring::DominantActivity;
    std::vector<core::TimeRange> m_traced;
    std::vector<OverviewRowInfo> m_rows;
    const core::analysis::GroupOverview* m_groups = nullptr;
    std::vector<bool> m_utilizationRows; // rows drawn with the utilization ramp (lowest/highest)
    std::vector<std::int64_t> m_dominantCounts;
    QString m_subtitle;
    bool m_busy = false;
    bool m_commThreadsMuted = true;
    std::optional<core::TimeRange> m_selected;

    mutable std::optional<OverviewGeometry> m_geometry;
    mutable QSize m_geometrySize;
    mutable QImage m_image; // for m_imageSize
    mutable QSize m_imageSize;

    std::optional<QPoint> m_mouse;
    std::optional<int> m_dragStart;
    std::optional<std::size_t> m_labelPress; // a press on a row label
    std::optional<int> m_dragNow;
};

} // namespace parallax::views
