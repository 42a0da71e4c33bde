#pragma once

#include "core/analysis/analysis_request.h"
#include "core/run_metadata.h"
#include "core/trace.h"
#include "views/common/chart_legend.h"
#include "views/common/chart_style.h"
#include "views/common/chart_widget.h"
#include "views/common/stacked_bar_geometry.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QMenu;
class QProgressBar;
class QTimer;

namespace parallax::views {

class AnalysisView;
class AsyncComputation;
class EntryPalette;
class OptionsBar;

// Everything laid out for one size: geometry, legend and title box.
struct StackedBarFrame {
    QSize size;
    StackedBarGeometry geometry;
    LegendLayout legend;
    QRectF titleBox;
};

// A stacked bar chart drawn with QPainter: a title line, the plot with nice y ticks and
// readable x labels, and a legend of the activities present on the right (top entries by share,
// "N other entry methods", then overhead/idle/pack/unpack; a click on a row changes the entry's
// colour). Hovering outlines the bar and the segment under the cursor and shows a tooltip with
// exact values; a click on a bar emits categoryClicked(); on a time axis a drag selects a range
// (rubber band) and emits rangeSelected(). The geometry comes from buildStackedBars() and is
// cached per size and data; hover, drag and busy state are overlays that do not rebuild it.
// renderImage() paints the very same chart (title and legend included) into an image. Title,
// message, busy state and drag come from ChartWidget; the legend's heading defaults to
// "Activity · share".
class StackedBarChart : public FramedChart<StackedBarData, StackedBarFrame> {
    Q_OBJECT
public:
    explicit StackedBarChart(EntryPalette* palette, QWidget* parent = nullptr);

    // New data; `columns` maps the series' activities to palette colours. (clearData() shows a
    // message instead.)
    void setData(StackedBarData data, core::analysis::ActivityColumns columns);
    [[nodiscard]] bool hasData() const { return !m_data.categories.empty(); }

    // The geometry and legend for the current size (built on demand, cached).
    [[nodiscard]] const StackedBarGeometry& geometry() const;
    [[nodiscard]] const LegendLayout& legend() const;
    // The drawn bar of a category in widget coordinates (its slot's bottom pixel row when the
    // bar is empty); null when the category is not shown.
    [[nodiscard]] QRect barRect(std::size_t category) const;
    // Tooltip text at a widget point; empty when nothing is under it.
    [[nodiscard]] QString toolTipAt(QPoint pos) const;
    [[nodiscard]] QColor seriesColor(std::size_t series) const;
    // Overhead is hatched (with this colour) so that it never reads as a dark entry method;
    // invalid for the other series.
    [[nodiscard]] QColor seriesHatch(std::size_t series) const;

signals:
    void categoryClicked(int category);
    // Right click: the category under the cursor (-1 when none).
    void contextMenuRequested(QPoint globalPos, int category);

protected:
    void clearHover() override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    using Frame = StackedBarFrame;
    using Style = ChartStyle;

    [[nodiscard]] Frame buildFrame(QSize size) const override;
    void paintFrame(
        QPainter& painter, const Frame& f, const Style& style, bool onScreen) const override;
    void paintValueLabels(QPainter& painter, const Frame& f, const Style& style) const;
    void paintOverlays(QPainter& painter, const Frame& f, const Style& style) const;
    [[nodiscard]] QString categoryHeading(const BarColumn& column, std::size_t category) const;
    void updateHover(QPoint pos, QPoint globalPos);
    void editColor(const LegendItem& item);

    QPointer<EntryPalette> m_palette;
    core::analysis::ActivityColumns m_columns;

    std::optional<std::size_t> m_hoverColumn;
    std::optional<std::size_t> m_hoverSegment;
    std::optional<std::size_t> m_hoverLegendRow;
};

// Helpers shared by the bar-chart views.

// An activity's name: entry methods as "Chare::entry(params)" (short: without parameter
// names such as " impl_msg"), then "Overhead", "Idle", "Pack", "Unpack".
QString activityName(const core::RunMetadata& metadata,
    const core::analysis::ActivityColumns& columns, int column, bool full);

// Series for the activity columns with a non-zero total, in stacking order: entry methods by
// decreasing total (the largest at the bottom), then pack, unpack, overhead and idle on top.
std::vector<StackedBarSeries> activitySeries(const core::RunMetadata& metadata,
    const core::analysis::ActivityColumns& columns, const std::vector<double>& totals);

// "12 PEs (0-11) · 2.06 ms – 134.6 ms (132.5 ms)": what a chart shows, for its subtitle;
// an empty PE list stands for the run's valid PEs.
QString describeSelection(
    const core::Trace& trace, core::TimeRange range, const std::vector<core::PeId>& pes);

// Keeps `range`/`pes` (a view's last reported selection) up to date: true when the new one
// differs, so that a view reports selectionChanged() only for real changes.
bool rememberSelection(core::TimeRange& range, std::vector<core::PeId>& pes,
    core::TimeRange newRange, const std::vector<core::PeId>& newPes);

// Checks an optional whole-number field: empty is fine, else min..max. Returns the message.
std::optional<QString> countFieldError(
    const QString& text, long long minimum, long long maximum, const QString& what);
// Reads a whole-number field (empty or invalid: `fallback`).
long long countFieldValue(const QString& text, long long fallback);

// The time range typed into the options bar's range fields (applied or not); nullopt when
// the fields do not parse. Validators use it to check an interval against the new range.
std::optional<core::TimeRange> typedRange(const OptionsBar* options);

// Adds "Open <range> in ▸ Histogram / Communication / …" (every other view) to a menu; the
// actions emit view.openRangeRequested().
void addOpenRangeMenu(
    QMenu& menu, AnalysisView& view, core::TimeRange range, const std::vector<core::PeId>& pes);

// Interval options shared by the time-axis views: "Interval" (a time) or "Bins" (a count),
// at most kMaxIntervals intervals.
inline constexpr long long kMaxIntervals = 20'000;
// Checks the interval field against the range typed in `options`; the message or nullopt.
std::optional<QString> intervalFieldError(const QString& text, const OptionsBar* options);
// The chart's message when the interval grid of a range would pass kMaxIntervals.
QString tooManyIntervalsText(core::TimeUs intervalSize, long long count);

// A slim progress bar that shows while `computation` runs (indeterminate until the first
// progress report) and keeps the chart's busy state in step.
QProgressBar* makeBusyIndicator(
    AsyncComputation* computation, StackedBarChart* chart, QWidget* parent);

} // namespace parallax::views
