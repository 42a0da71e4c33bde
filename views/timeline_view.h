#pragma once

#include "analysis_view.h"

#include <optional>
#include <vector>

class QToolButton;

namespace parallax::views {

class OptionsBar;
class TimelineCanvas;

// Timeline (first version): one row per loaded PE with its entry-method executions coloured by
// entry, idle drawn pale and low, pack/unpack as thin dark marks; a time ruler; wheel zoom
// around the cursor, drag to pan, +/-/arrows/Home on the keyboard. Clicking a block selects it
// and draws the arrow from the send that caused it (matched by source PE and event id, and
// rejected when the send is after the block — stale event ids); "Load PE n" adds a sender that
// is not shown yet. Painting queries only the visible window through the interval index.
class TimelineView : public AnalysisView {
    Q_OBJECT
public:
    explicit TimelineView(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    // Adds the PEs to the shown rows and shows the range.
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override { return false; }
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes for the rows and window shown.
    [[nodiscard]] QString csv() const override;

    void addPes(const std::vector<core::PeId>& pes);
    [[nodiscard]] const std::vector<core::PeId>& loadedPes() const;
    [[nodiscard]] TimelineCanvas* canvas() const { return m_canvas; }

private:
    void syncOptions();

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QToolButton* m_loadSender = nullptr;
    TimelineCanvas* m_canvas = nullptr;
    bool m_showingDefault = false; // the first PEs, shown until some are asked for
};

// An execution picked in the timeline, and the send it came from when one was found.
struct TimelinePick {
    core::PeId pe = core::kNoPe;
    std::size_t execution = 0;
    core::PeId senderPe = core::kNoPe;
    std::optional<std::size_t> send; // index into the sender's sends
    bool weak = false; // thread resumption or entry mismatch: drawn dashed
};

class TimelineCanvas : public QWidget {
    Q_OBJECT
public:
    TimelineCanvas(EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace);
    void setPes(std::vector<core::PeId> pes);
    [[nodiscard]] const std::vector<core::PeId>& pes() const { return m_pes; }
    void setWindow(core::TimeRange window);
    [[nodiscard]] core::TimeRange window() const { return m_window; }
    void zoom(double factor, double anchorX);
    void fit();

    // The block of `pe` covering `time` in widget coordinates (null rect when none is shown).
    [[nodiscard]] QRect blockRectAt(core::PeId pe, core::TimeUs time) const;
    [[nodiscard]] const std::optional<TimelinePick>& selected() const { return m_pick; }
    // Selects the execution of `pe` at `time` and links its sender; true when one was there.
    bool selectAt(core::PeId pe, core::TimeUs time);
    void paintAll(QPainter& painter, QSize size) const;

    // x <-> time for a plot width.
    [[nodiscard]] double xOf(core::TimeUs t, QSize size) const;
    [[nodiscard]] core::TimeUs timeAt(double x, QSize size) const;
    [[nodiscard]] int rowTop(std::size_t row) const;

signals:
    void windowChanged(core::TimeRange window);
    void senderMissing(core::PeId pe); // the selected block's sender is not shown
    void rangeSelected(core::TimeRange range, QPoint at); // Shift+drag

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] std::optional<std::size_t> rowAt(int y) const;
    [[nodiscard]] std::optional<std::size_t> executionAt(
        core::PeId pe, core::TimeUs t, core::TimeUs slack) const;
    [[nodiscard]] QString toolTipAt(QPoint p) const;

    EntryPalette* m_palette;
    core::TracePtr m_trace;
    std::vector<core::PeId> m_pes;
    core::TimeRange m_window;
    std::optional<TimelinePick> m_pick;
    std::optional<QPoint> m_press;
    core::TimeRange m_pressWindow;
    bool m_dragged = false;
    bool m_selecting = false;
    int m_selectionEnd = 0;
};

} // namespace parallax::views
