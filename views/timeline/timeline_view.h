#pragma once

#include "views/common/analysis_view.h"
#include "views/timeline/timeline_widget.h"

#include <functional>
#include <map>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QTimer;
class QToolButton;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;
class TimelineDetailsPanel;

// Timeline: one row per loaded PE with its entry-method executions coloured by entry, idle
// drawn pale, pack/unpack as marks on the bar, user events as ticks above it and message sends
// below it; a time ruler with units; wheel/keyboard zoom and drag/keyboard pan (see
// TimelineWidget). Clicking an execution selects it and draws the message arrow from its
// sender's CREATION (through comm threads in SMP runs); when the sender is not loaded an inline
// button loads it. Only the visible window is read, through the interval index.
//
// PEs: opened on its own the timeline shows the first PEs of the run (up to
// kDefaultPeCount); the first PEs another view asks for replace them, later ones are added
// (addPes). The options bar shows the window and the loaded PEs; typing PEs there replaces them.
class TimelineView : public AnalysisView {
    Q_OBJECT
public:
    explicit TimelineView(EntryPalette* palette, QWidget* parent = nullptr);

    static constexpr std::size_t kDefaultPeCount = 16;

    void setTrace(core::TracePtr trace) override;
    // Shows `range` (when not empty) and adds `pes` to the loaded rows.
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    // True while PEs of a run whose logs are read on demand are being read.
    [[nodiscard]] bool busy() const override;
    // The rows and window shown, with a title line and a legend.
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    // The same picture as an SVG file: vector shapes (one rectangle per drawn block, text as
    // text). False, with *error, when the file cannot be written or the build has no SVG
    // support (svgAvailable()).
    bool exportSvg(const QString& path, QSize size, QString* error) override;
    [[nodiscard]] bool canExportSvg() const override { return svgAvailable(); }
    [[nodiscard]] static bool svgAvailable();
    // pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes for the loaded PEs in the
    // window (kind exec, idle, pack or unpack), in PE order then time order — per PE the same
    // rows as `parallax-cli timeline --pe N --range window`.
    [[nodiscard]] QString csv() const override;
    [[nodiscard]] CsvWriter csvWriter() const override;
    [[nodiscard]] const core::Trace* shownRun() const override { return m_trace.get(); }
    // "range" (the window), "rows" (PEs in row order), "group.N.label"/"group.N.pes" (collapsed
    // rows), "reference", "selection" (PE@begin µs), "highlight", "hops"
    // (timeline_view_state.cpp).
    [[nodiscard]] State saveState() const override;
    bool restoreState(const State& state, QString* problems) override;
    [[nodiscard]] std::optional<core::TimeRange> timeAxisRange() const override;
    void zoomTimeAxis(core::TimeRange range) override;

    // Adds PEs (in order, without duplicates) to the loaded rows.
    void addPes(const std::vector<core::PeId>& pes);
    // Replaces the loaded rows.
    void setPes(const std::vector<core::PeId>& pes);
    void removePe(core::PeId pe);
    // Moves a row `by` places (negative: up), clamped to the ends.
    void movePe(core::PeId pe, int by);
    // PE lists as typed (`0-3,5,7-15:2`, the options bar's syntax): add them to the rows,
    // remove them, or collapse the shown ones into one row. False (and *error) on a bad list.
    bool addPeList(const QString& text, QString* error = nullptr);
    bool removePeList(const QString& text, QString* error = nullptr);
    bool collapsePeList(const QString& text, QString* error = nullptr);
    // SMP runs: each node's shown PEs become one collapsed row "node N".
    void collapseNodes();
    // Above kMaxAxisRows rows, the PEs outside groups are grouped into nodes or blocks (done
    // whenever the shown PEs change); when the PEs fit again, those groups go.
    void groupExcessRows();
    // How groups are drawn (TimelineWidget::setGroupMode); KEY takes four rows per group, so
    // the automatic groups are made again when switching to or from it.
    void setGroupMode(core::analysis::AggregationMode mode);
    [[nodiscard]] const std::vector<core::PeId>& loadedPes() const;
    [[nodiscard]] core::TimeRange window() const;
    void setWindow(core::TimeRange window);

    // "mode" (sum | set | key): how groups of PEs are drawn (TimelineWidget::setGroupMode);
    // "show" (critical-path | none): the "Critical path" toggle.
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    // The "Critical path" toggle: when on, the critical path through the window on the shown
    // PEs (core/analysis/critical_path.h) is drawn over the rows and summed up in the status
    // line; it follows the rows at once and the window once panning or zooming pauses.
    void setCriticalPathShown(bool shown);
    [[nodiscard]] bool criticalPathShown() const;

    [[nodiscard]] TimelineWidget* timeline() const { return m_timeline; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    // The side panel with the selected execution's details (hidden without a selection).
    [[nodiscard]] TimelineDetailsPanel* detailsPanel() const { return m_details; }
    // For tests: the drawn block of `pe` at `time` in timeline() coordinates; the selected
    // execution; the link from its sender.
    [[nodiscard]] QRect blockRectAt(core::PeId pe, core::TimeUs time) const;
    [[nodiscard]] std::optional<TimelineSelection> selectedBlock() const;
    [[nodiscard]] std::optional<MessageLink> arrowSource() const;

private:
    void syncOptions();
    void showContextMenu(QPoint globalPos, core::PeId pe, core::TimeUs time);
    // The context menu's entries for the group under the cursor.
    void addGroupActions(QMenu& menu, int group);
    void showRangeMenu(core::TimeRange range, QPoint globalPos);
    void updateStatus();
    void updateDetails();
    void updateCriticalPath();
    [[nodiscard]] QString chartTitle() const;
    void applyHighlight();
    [[nodiscard]] std::optional<std::vector<core::PeId>> parsePes(
        const QString& text, QString* error) const;
    void askForPeList(
        const QString& title, const std::function<bool(const QString&, QString*)>& apply);

    // Runs whose logs are read on demand (core::Trace::logsOnDemand): reads the shown PEs off
    // the GUI thread and hands the widget a copy of the run holding their detail.
    void fetchDetail();

    core::TracePtr m_trace;
    // What the widget draws: m_trace, or for a run read on demand its copy with the shown PEs.
    core::TracePtr m_shown;
    std::vector<core::PeId> m_shownDetail; // sorted PEs whose detail m_shown holds
    AsyncComputation* m_detailComputation = nullptr;
    OptionsBar* m_options = nullptr;
    QComboBox* m_groupMode = nullptr;
    TimelineWidget* m_timeline = nullptr;
    TimelineDetailsPanel* m_details = nullptr;
    QLabel* m_status = nullptr;
    QToolButton* m_criticalButton = nullptr;
    QString m_criticalSummary; // the status line's words on the critical path shown
    QTimer* m_reportTimer = nullptr; // reports window changes once zooming/panning pauses
    bool m_showingDefault = false; // the first PEs, shown until some are asked for
};

} // namespace parallax::views
