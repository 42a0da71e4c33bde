#pragma once

#include "core/analysis/overview.h"
#include "views/common/analysis_view.h"
#include "views/common/chart_style.h"
#include "views/overview/overview_geometry.h"

#include <QPointer>

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class OverviewChart;

// Overview: processors × time. Each cell is coloured by the activity that took most of that
// PE's time in that interval (entry colours, idle light, overhead dark) or by utilization
// (a perceptual ramp with a colour bar). Click a PE's row to open its timeline over the shown
// range (or the selected one); drag across time to select a range: the selection is reported
// (selectionChanged) and a menu offers to zoom to it or open it in another view. Options: range,
// PEs, number of columns, colouring.
class OverviewView : public AnalysisView {
    Q_OBJECT
public:
    explicit OverviewView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct as `parallax-cli overview`
    // (cells with neither utilization nor idle are left out).
    [[nodiscard]] QString csv() const override;
    // "columns" (1..20000) and "coloring" (activity | utilization).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const std::optional<core::analysis::Overview>& overview() const
    {
        return m_overview;
    }
    [[nodiscard]] OverviewChart* chart() const { return m_chart; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    void setColoring(OverviewColoring coloring);
    [[nodiscard]] OverviewColoring coloring() const;
    // The range dragged out on the chart (nullopt when none).
    [[nodiscard]] std::optional<core::TimeRange> selectedRange() const;
    // The range a row click opens in the timeline: the selection, else the shown range.
    [[nodiscard]] core::TimeRange currentRange() const;
    void zoomTo(core::TimeRange range);
    bool zoomOut();

    static constexpr int kMaxColumns = 20'000;

private:
    void recompute();
    void showRangeMenu(core::TimeRange range, QPoint globalPos);
    void showContextMenu(QPoint globalPos, std::optional<core::PeId> pe);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QLineEdit* m_columns = nullptr;
    QComboBox* m_coloring = nullptr;
    OverviewChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    std::optional<core::analysis::Overview> m_overview;
    std::vector<core::TimeRange> m_zoomHistory;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
};

// The painted heat map with title, PE labels, time axis and legend (also used offscreen by
// renderChart). The heat map image is built for the plot size and cached; hover, drag band and
// selection are overlays.
class OverviewChart : public QWidget {
    Q_OBJECT
public:
    explicit OverviewChart(EntryPalette* palette, QWidget* parent = nullptr);

    void setData(const core::TracePtr& trace, const core::analysis::Overview* overview,
        OverviewColoring coloring);
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
    // The PE row under a widget point (nullopt outside the plot).
    [[nodiscard]] std::optional<core::PeId> peAt(QPoint pos) const;
    [[nodiscard]] QString toolTipAt(QPoint pos) const;
    // The chart on a white background at `size` (title and legend included).
    [[nodiscard]] QImage renderImage(QSize size) const;
    // Traced span of each row's PE (cells outside it have no data).
    [[nodiscard]] const std::vector<core::TimeRange>& tracedSpans() const { return m_traced; }

    [[nodiscard]] QSize sizeHint() const override { return { 900, 420 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 320, 200 }; }

signals:
    void rowClicked(core::PeId pe);
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
    [[nodiscard]] OverviewLayout layoutFor(bool exported) const;
    [[nodiscard]] const QImage& imageFor(QSize plotSize) const;
    void paintFrame(
        QPainter& painter, const OverviewGeometry& g, const Style& style, bool onScreen) const;
    void paintLegend(QPainter& painter, const OverviewGeometry& g, const Style& style) const;
    void invalidate();

    QPointer<EntryPalette> m_palette;
    core::TracePtr m_trace;
    const core::analysis::Overview* m_overview = nullptr;
    OverviewColoring m_coloring = OverviewColoring::DominantActivity;
    std::vector<core::TimeRange> m_traced;
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
    std::optional<int> m_dragNow;
};

} // namespace parallax::views
