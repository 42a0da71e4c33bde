#pragma once

#include "core/analysis/critical_path.h"
#include "core/analysis/group_aggregation.h"
#include "core/trace.h"
#include "views/common/chart_style.h"
#include "views/timeline/timeline_geometry.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPointer>
#include <QWidget>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QScrollBar;

namespace parallax::views {

class EntryPalette;
class TimelineSummaryCache;

// An execution picked in the timeline.
struct TimelineSelection {
    core::PeId pe = core::kNoPe;
    std::size_t execution = 0; // index into the PE's executions
    friend bool operator==(const TimelineSelection&, const TimelineSelection&) = default;
};

// PEs shown together: the group's rows in the chosen aggregation mode (one row in SUM and SET,
// up to four in KEY), followed by its PEs' own rows when it is expanded.
struct TimelineGroup {
    QString label; // "node 3", "PEs 0-63"
    std::vector<core::PeId> pes;
    bool expanded = false;
    bool automatic = false; // made because more PEs were shown than rows fit (not by the user)
    // KEY: the first PE, the busiest and the least busy of the others (kNoPe when the group is
    // too small); filled when first needed.
    mutable std::optional<std::array<core::PeId, 3>> keys;
};

// The timeline's drawing surface: a time ruler, one row per PE (label, user-event strip, bar of
// executions and idle, pack/unpack marks, send ticks), a legend of what the window shows, and
// the selected execution with the message arrows from its sender (through comm threads).
//
// Interaction: wheel zooms around the cursor (over the labels it scrolls the rows; Shift+wheel
// or a horizontal wheel pans), drag pans, Shift+drag selects a time range (rangeSelected), a
// click selects a block, a double click zooms to it; keys + and - zoom, arrows pan and scroll,
// Home and End go to the start and the end of the run, F (or Ctrl+0) shows the whole run,
// Alt+Left/Right and Backspace walk the zoom history, a click on the ruler sets the reference
// mark, Escape clears the selection (then the mark). When the sender of the selected
// execution is not shown, an inline "Load PE n" button asks for it (loadPesRequested).
//
// The geometry (buildTimelineGeometry) is cached by window, size, rows and scroll position;
// hover, cursor line, selection and arrows are overlays painted over it.
class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(EntryPalette* palette, QWidget* parent = nullptr);

    // A new run: no rows, its traced span in view. `tracedSpan` is the span of the whole run
    // when `trace` is a partial copy (logs read on demand); empty: computed from `trace`.
    void setTrace(core::TracePtr trace, core::TimeRange tracedSpan = {});
    // The same run with other PEs' detail in it (a run whose logs are read on demand): keeps
    // the window, rows, groups, history and selection; only redraws.
    void replaceTrace(core::TracePtr trace);
    [[nodiscard]] const core::TracePtr& trace() const { return m_trace; }
    // The rows, top to bottom (PEs without a log show an empty row).
    void setPes(std::vector<core::PeId> pes);
    [[nodiscard]] const std::vector<core::PeId>& pes() const { return m_pes; }
    // A run opened from its summary files alone has no executions to draw: the chart says so
    // instead of showing empty rows.
    void setSummariesOnly(bool summariesOnly);
    [[nodiscard]] bool summariesOnly() const { return m_summariesOnly; }

    // Grouping: the shown PEs among `pes` become a group, drawn where the first of them was; a
    // PE belongs to at most one group (grouping takes it out of another). A group is
    // collapsed (its rows alone) or expanded (its rows, then its PEs' own rows); expanding,
    // collapsing and switching the mode keep the window and the group's place on screen.
    void collapse(const std::vector<core::PeId>& pes, const QString& label, bool automatic = false);
    // collapse() of each (PEs, label) in turn, laid out once (hundreds of groups at once).
    using GroupSpec = std::pair<std::vector<core::PeId>, QString>;
    void collapseAll(const std::vector<GroupSpec>& groups, bool automatic = false);
    void expand(int group);
    void collapseGroup(int group);
    void toggleGroup(int group);
    // Takes a group away: its PEs become ordinary rows.
    void ungroup(int group);
    void expandAll(); // ungroups every group
    [[nodiscard]] const std::vector<TimelineGroup>& groups() const { return m_groups; }
    // How a group's rows are drawn: SUM (the members' mean per pixel column), SET (their
    // lowest, mean and highest utilization) or KEY (the first, busiest and least busy PE as
    // their own rows, and the rest's mean). Signature is taken as SUM.
    void setGroupMode(core::analysis::AggregationMode mode);
    [[nodiscard]] core::analysis::AggregationMode groupMode() const { return m_groupMode; }
    // The KEY PEs of a group: first, busiest, least busy (kNoPe where the group is too small).
    // Busy = entry-method time over the run; ties go to the lower PE.
    [[nodiscard]] std::array<core::PeId, 3> keyPes(int group) const;
    // The rows, top to bottom: single PEs and the rows of groups.
    [[nodiscard]] std::vector<TimelineRowSource> rowSources() const;
    // The group of the row at a widget point (-1 when it is a PE's own row outside groups).
    [[nodiscard]] int groupAt(QPoint pos) const;
    // Reorders the shown PEs by SMP node (workers by number, then the node's comm thread).
    void sortByNode();

    // The visible time window; kept inside the run and at least kMinimumWindow long.
    void setWindow(core::TimeRange window);
    [[nodiscard]] core::TimeRange window() const { return m_window; }
    // [0, end of the run): what fit() shows.
    [[nodiscard]] core::TimeRange runSpan() const;
    // factor < 1 zooms in, keeping the time at widget x in place.
    void zoom(double factor, double anchorX);
    void fit();
    // The start or the end of the run at the current zoom (Home, End).
    void goToStart();
    void goToEnd();
    static constexpr core::TimeUs kMinimumWindow = 8;

    // Zoom history. Every window change is remembered (setWindow, zoom, pan, fit, a double
    // click); a gesture of wheel notches, a drag or repeated arrow keys counts once, its
    // steps less than kGesturePauseMs apart. back() and forward() walk it (Alt+Left/Right,
    // Backspace, the mouse's back/forward buttons).
    [[nodiscard]] bool canGoBack() const { return !m_back.empty(); }
    [[nodiscard]] bool canGoForward() const { return !m_forward.empty(); }
    void back();
    void forward();
    static constexpr int kGesturePauseMs = 700;
    static constexpr std::size_t kHistoryLimit = 200;

    // The reference mark (a click on the ruler sets it): the ruler then shows times relative
    // to it and the cursor read-out the difference. nullopt clears it (Escape).
    void setReferenceTime(std::optional<core::TimeUs> time);
    [[nodiscard]] std::optional<core::TimeUs> referenceTime() const { return m_reference; }

    // The geometry for the widget's size (cached) or for another size (exported images).
    [[nodiscard]] const TimelineGeometry& currentGeometry() const;
    [[nodiscard]] TimelineGeometry geometryFor(QSize size, bool exported) const;
    // Widget x <-> time for the current size.
    [[nodiscard]] double xOf(core::TimeUs time) const;
    [[nodiscard]] core::TimeUs timeAt(double x) const;
    // The bar of a PE's row (null when the row is not shown or scrolled away).
    [[nodiscard]] QRect rowRect(core::PeId pe) const;
    // The drawn block of `pe` at `time` (null when nothing is drawn there).
    [[nodiscard]] QRect blockRectAt(core::PeId pe, core::TimeUs time) const;
    // The block at a widget point (nullptr when none).
    [[nodiscard]] const TimelineBlock* blockAt(QPoint pos, const TimelineRow** row = nullptr) const;

    // Selects the execution of `pe` covering `time` (or, within half a pixel, the nearest one)
    // and links it to its sender; false (and no selection) when there is none.
    bool selectAt(core::PeId pe, core::TimeUs time);
    bool selectExecution(core::PeId pe, std::size_t execution);
    void clearSelection();
    [[nodiscard]] std::optional<TimelineSelection> selectedBlock() const { return m_selected; }
    // The link from the selected execution to the send that caused it (nullopt without a
    // selection); linked() is false when no trustworthy send was found.
    [[nodiscard]] std::optional<MessageLink> arrowSource() const;
    // The whole path back through comm threads (first = the direct sender).
    [[nodiscard]] const std::vector<MessageLink>& messagePath() const { return m_path; }
    // The messages the selected execution sent and the executions they started on the shown
    // PEs (drawn as blue arrows).
    [[nodiscard]] const std::vector<MessageLink>& forwardLinks() const { return m_targets; }
    // How many messages the arrows trace back from the selected execution (1: its own message;
    // n: also the message that started the execution that sent it, and so on).
    void setBackTraceHops(int hops);
    [[nodiscard]] int backTraceHops() const { return m_backTraceHops; }
    static constexpr int kMaxBackTraceHops = 32;

    // Highlighting: every execution of an entry (and, with an object, of that object) keeps its
    // colour while everything else is dimmed. nullopt clears it.
    struct Highlight {
        int entry = -1;
        std::optional<core::ObjectId> object;
        friend bool operator==(const Highlight&, const Highlight&) = default;
    };
    void setHighlight(std::optional<Highlight> highlight);
    [[nodiscard]] const std::optional<Highlight>& highlight() const { return m_highlight; }
    // Whether the drawn block is highlighted (true for every block without a highlight).
    [[nodiscard]] bool isHighlighted(const TimelineRow& row, const TimelineBlock& block) const;

    // The critical path drawn over the rows (core/analysis/critical_path.h): its executions
    // outlined in red, its messages as red arrows, its waits as dotted red lines, each only where
    // its PEs are shown. Empty: none.
    void setCriticalPath(std::vector<core::analysis::CriticalStep> steps);
    [[nodiscard]] const std::vector<core::analysis::CriticalStep>& criticalPath() const
    {
        return m_criticalPath;
    }

    // PEs of the message path that are not shown (what "Load PE n" would add).
    [[nodiscard]] std::vector<core::PeId> missingPathPes() const;
    // The inline "Load PE n" button (null when not shown).
    [[nodiscard]] QRect loadButtonRect() const;

    [[nodiscard]] QString toolTipAt(QPoint pos) const;
    // The whole chart at `size`: with `exported`, a title line, a two-line legend and a white
    // background instead of the on-screen overlays.
    void paintChart(QPainter& painter, QSize size, bool exported, const QString& title = {}) const;

    [[nodiscard]] QSize sizeHint() const override { return { 900, 420 }; }
    [[nodiscard]] QSize minimumSizeHint() const override { return { 320, 140 }; }

signals:
    void windowChanged(core::TimeRange window);
    void pesChanged(); // setPes() was called
    void historyChanged(); // canGoBack() or canGoForward() may have changed
    void groupsChanged(); // a group was collapsed or expanded
    void referenceChanged();
    // Shift+drag: a time range, with the global position of the release.
    void rangeSelected(core::TimeRange range, QPoint globalPos);
    void loadPesRequested(std::vector<core::PeId> pes);
    void blockSelected(); // the selection or its links changed
    // Right click: what is under the cursor (pe = kNoPe outside the rows).
    void contextMenuRequested(QPoint globalPos, core::PeId pe, core::TimeUs time);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    using Style = ChartStyle;
    [[nodiscard]] Style screenStyle() const;
    [[nodiscard]] static Style exportStyle();
    [[nodiscard]] TimelineLayout layoutFor(QSize size, bool exported) const;
    void invalidate();
    // Changes the groups through `change`, then scrolls so that the first row of `group` stays
    // where it was on screen.
    void keepPlace(int group, const std::function<void()>& change);
    // How a window change enters the history.
    enum class History : std::uint8_t {
        Record, // a step of its own
        Gesture, // part of a gesture (wheel, drag, arrow keys): recorded once per gesture
        Skip, // walking the history
    };
    void applyWindow(core::TimeRange window, History history);
    // back() and forward(): the window on top of `from` is shown, the current one goes to `to`.
    void stepHistory(std::vector<core::TimeRange>& from, std::vector<core::TimeRange>& to);
    void zoomAt(double factor, double anchorX, History history);
    void panBy(double dx, History history);
    void updateScrollBar();
    void relink();
    // Sets the trace and the summaries derived from it (setTrace and replaceTrace).
    void adoptTrace(core::TracePtr trace);
    [[nodiscard]] std::optional<std::size_t> executionNear(
        core::PeId pe, core::TimeUs time, core::TimeUs slack) const;
    void paintRuler(QPainter& painter, const TimelineGeometry& g, const Style& style) const;
    void paintRows(QPainter& painter, const TimelineGeometry& g, const Style& style) const;
    void paintLinks(QPainter& painter, const TimelineGeometry& g, const Style& style) const;
    void paintCriticalPath(QPainter& painter, const TimelineGeometry& g, const Style& style) const;
    void paintLegend(
        QPainter& painter, const TimelineGeometry& g, const Style& style, bool twoLines) const;
    void paintOverlays(QPainter& painter, const TimelineGeometry& g, const Style& style) const;
    [[nodiscard]] QString blockToolTip(const TimelineRow& row, const TimelineBlock& block) const;
    [[nodiscard]] QString peBlockToolTip(const TimelineRow& row, const TimelineBlock& block) const;
    [[nodiscard]] QString groupLabelToolTip(const TimelineRow& row) const;
    // "KEY: PE n, the busiest of the group …" for a KEY row, else empty.
    [[nodiscard]] QString keyRoleText(const TimelineRow& row) const;
    void setHover(QPoint pos);

    QPointer<EntryPalette> m_palette;
    core::TracePtr m_trace;
    std::vector<core::PeId> m_pes;
    bool m_summariesOnly = false;
    std::vector<TimelineGroup> m_groups;
    core::analysis::AggregationMode m_groupMode = core::analysis::AggregationMode::Sum;
    // Entry-method time over the run per PE (KEY ranks by it); -1: not computed yet.
    mutable std::vector<double> m_busyOfPe;
    // A click that toggled a group (a double click undoes it and zooms instead).
    int m_clickToggled = -1;
    core::TimeRange m_window { 0, 1 };
    core::TimeRange m_tracedSpan; // fit() shows it (the run's traced span)
    int m_scrollY = 0;
    QScrollBar* m_scrollBar = nullptr;

    mutable std::optional<TimelineGeometry> m_cache;
    std::shared_ptr<TimelineSummaryCache> m_summaries; // for collapsed rows zoomed far out

    std::vector<core::TimeRange> m_back;
    std::vector<core::TimeRange> m_forward;
    QElapsedTimer m_gestureClock; // since the last step of the current gesture
    std::optional<core::TimeUs> m_reference;

    std::optional<TimelineSelection> m_selected;
    std::vector<MessageLink> m_path;
    std::vector<MessageLink> m_targets;
    int m_backTraceHops = 1;
    std::optional<Highlight> m_highlight;
    std::vector<core::analysis::CriticalStep> m_criticalPath;

    // Hover and drag state (overlays only).
    std::optional<QPoint> m_mouse;
    std::optional<QPoint> m_press;
    core::TimeRange m_pressWindow;
    bool m_dragged = false;
    bool m_selecting = false;
    int m_selectionX = 0;
};

} // namespace parallax::views
