#pragma once

#include "core/analysis/analysis_request.h"
#include "core/trace.h"
#include "core/types.h"

#include <QImage>
#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QMenu;

namespace parallax::views {

class EntryPalette;

// The views an analyst can open, each a dockable widget of the main window.
enum class ViewKind {
    Overview,
    UsageProfile,
    TimeProfile,
    Histogram,
    Communication,
    Extrema,
    Timeline,
    Clusters,
    CommMatrix,
    MsgSizeEvolution,
    Animation,
    EntryProfile,
    CallTable,
    UserEvents,
    LogView,
    Noise,
    UserStats,
    Memory,
    Counters,
    Compare,
    Iterations,
    EntryModel,
    Why,
};

// Every view, in menu order (View menu; Ctrl+1..9 open the first nine).
inline constexpr ViewKind kAllViewKinds[] = {
    ViewKind::Overview,
    ViewKind::UsageProfile,
    ViewKind::TimeProfile,
    ViewKind::Histogram,
    ViewKind::Communication,
    ViewKind::Extrema,
    ViewKind::Timeline,
    ViewKind::Clusters,
    ViewKind::EntryProfile,
    ViewKind::CallTable,
    ViewKind::UserEvents,
    ViewKind::LogView,
    ViewKind::Noise,
    ViewKind::CommMatrix,
    ViewKind::MsgSizeEvolution,
    ViewKind::Animation,
    ViewKind::UserStats,
    ViewKind::Memory,
    ViewKind::Counters,
    ViewKind::Compare,
    ViewKind::Iterations,
    ViewKind::EntryModel,
    ViewKind::Why,
};

// The view's key ("overview", "usage", "time-profile", ..., "compare": the names of
// `parallax-cli render VIEW`), and its human title.
QString viewKey(ViewKind kind);
QString viewTitle(ViewKind kind);

// What every view shares: it shows one run, in a time range, for a set of PEs; it can be
// exported as a picture and as the CSV of the data behind it; it can ask the app to open a
// PE's timeline or to open a range in another view. Views compute off the GUI thread
// (AsyncComputation) and never talk to each other: the app wires the signals.
class AnalysisView : public QWidget {
    Q_OBJECT
public:
    AnalysisView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] ViewKind kind() const { return m_kind; }
    [[nodiscard]] EntryPalette* palette() const { return m_palette; }

    // A new run (null = none); views reset their options to the whole run and recompute.
    virtual void setTrace(core::TracePtr trace) = 0;
    // The time range and PEs to show (empty PE list = all); views recompute.
    virtual void setSelection(core::TimeRange range, std::vector<core::PeId> pes) = 0;
    // The run shown (null when none).
    [[nodiscard]] virtual const core::Trace* shownRun() const { return nullptr; }
    // True while a computation runs (for tests and headless rendering).
    [[nodiscard]] virtual bool busy() const = 0;
    // The chart (without the options bar) rendered at `size` (screen size when empty).
    [[nodiscard]] virtual QImage renderChart(QSize size = {}) = 0;
    // Whether exportSvg() can write this view's chart as an SVG (vector) image.
    [[nodiscard]] virtual bool canExportSvg() const { return false; }
    // The chart (as renderChart draws it) as an SVG file at `size` (screen size when empty).
    // False with *error when the view or the build has no SVG export or the file cannot be
    // written.
    virtual bool exportSvg(const QString& path, QSize size, QString* error);
    // The data behind the chart, CSV with a header row.
    [[nodiscard]] virtual QString csv() const = 0;
    // For views whose csv() is too big to build on the GUI thread (the Timeline of hundreds of
    // PEs): a self-contained writer of the same text that runs on any thread. It holds what it
    // needs (the immutable run, the selection shown when it was made), hands the CSV to `sink`
    // in order, in pieces, reports progress, and returns false when cancelled or when `sink`
    // returns false (a write failed). Null (the default) for views whose csv() is cheap.
    using CsvSink = std::function<bool(const std::string& piece)>;
    using CsvWriter
        = std::function<bool(const CsvSink& sink, const core::analysis::Progress& progress)>;
    [[nodiscard]] virtual CsvWriter csvWriter() const { return {}; }
    // View options given by name as on the command line (`parallax-cli render`): "interval",
    // "bins", "metric", "bin-size", "min", "columns", "criterion", "count", "clusters", ...
    // Returns false with a message for an unknown option or a bad value. Applying recomputes.
    virtual bool applyOptions(const std::map<QString, QString>& options, QString* error);
    // Views that play over time (the Animation): their number of frames (0: a still chart) and
    // the chart of one frame at `size` (renderChart draws the one shown), for animated exports.
    [[nodiscard]] virtual int frameCount() const { return 0; }
    [[nodiscard]] virtual QImage renderFrame(int frame, QSize size);
    // The delay between frames when played, in ms.
    [[nodiscard]] virtual int frameDelayMs() const { return 200; }

    // The view's state as text, for session files and `parallax-cli render --session`: "range"
    // (B:E in µs) and "pes" (a PE list) when the view has them, the view's options under their
    // command-line names (the keys applyOptions() takes) and whatever else it needs to look the
    // same again. Views with options implement it (calling their base class's first).
    using State = std::map<QString, QString>;
    [[nodiscard]] virtual State saveState() const;
    // Restores a saveState() of this kind of view, on the run shown now, as far as it applies:
    // the selection (PEs the run lacks are left out), then the options (an option that fails is
    // skipped, the others are applied). False when something was left out, with what and why in
    // *problems (one sentence each, newline-separated).
    virtual bool restoreState(const State& state, QString* problems);

    // Views with a time axis: the range shown (nullopt for the others), and zooming the axis to
    // another range as a drag on it does (kept in the view's zoom history).
    [[nodiscard]] virtual std::optional<core::TimeRange> timeAxisRange() const
    {
        return std::nullopt;
    }
    virtual void zoomTimeAxis(core::TimeRange range) { (void)range; }

protected:
    // applyOptions() helper: the error for an option the view does not have (returns false).
    bool rejectOption(const QString& name, QString* error) const;

signals:
    // Open the timeline of these PEs in this range (a click on a PE's bar or row).
    void timelineRequested(std::vector<core::PeId> pes, core::TimeRange range);
    // Open the range in another view ("open this range in ...").
    void openRangeRequested(
        parallax::views::ViewKind target, core::TimeRange range, std::vector<core::PeId> pes);
    // The analyst chose `range` (iterations 5–9, say) as the time range of every view: the app
    // opens views with it from now on and moves the time axes of the open ones to it.
    void timeRangeChosen(core::TimeRange range);
    // The shown range or PEs changed from inside the view (zoom, options bar).
    void selectionChanged(core::TimeRange range, std::vector<core::PeId> pes);
    void computed();
    // The view's own context menu asked to export its chart (PNG) or its data (CSV); the app
    // shows the export dialog for this view.
    void exportChartRequested();
    void exportDataRequested();

private:
    ViewKind m_kind;
    EntryPalette* m_palette;
};

// Adds "Open PE n in the timeline" (or "Open these N PEs …") for `pes` when not empty.
void addOpenTimelineAction(
    QMenu& menu, AnalysisView& view, const std::vector<core::PeId>& pes, core::TimeRange range);

// Session state helpers for saveState()/restoreState(): a range as "B:E" (µs) and back.
QString stateRangeText(core::TimeRange range);
std::optional<core::TimeRange> parseStateRange(const QString& text);
// Writes "range" and "pes" (all PEs: no key) into a state.
void saveSelectionState(
    AnalysisView::State& state, core::TimeRange range, const std::vector<core::PeId>& pes);
// Takes "range" and "pes" out of `state`. PEs `trace` does not have are dropped with a note in
// `problems`; an empty range means none was saved (or it was unreadable, also noted).
struct SelectionState {
    core::TimeRange range;
    std::vector<core::PeId> pes;
};
SelectionState takeSelectionState(
    AnalysisView::State& state, const core::Trace* trace, QStringList& problems);

// Adds "Export Chart as PNG…" and "Export Data as CSV…" (after a separator when the menu is not
// empty) to a view's context menu.
void addExportActions(QMenu& menu, AnalysisView& view);

} // namespace parallax::views
