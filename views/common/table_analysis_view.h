#pragma once

#include "core/analysis/analysis_request.h"
#include "core/analysis/result_table.h"
#include "views/common/analysis_view.h"
#include "views/common/async_computation.h"
#include "views/common/result_table_model.h"

#include <optional>
#include <vector>

class QLabel;
class QHBoxLayout;
class QVBoxLayout;

namespace parallax::views {

class OptionsBar;
class ResultTableView;

// What the table tools share (Entry Profile, Call Table, User Events, Log, Noise Miner): the
// options bar (range, PEs) with a busy indicator, a heading (title and what is shown), a body
// that holds at least one ResultTableView, and one AsyncComputation. The main table's CSV is
// the view's CSV; its picture (PNG or SVG) is the heading and the body as paintBody() draws it.
// A row that points into the run opens the Timeline there (double-click, Enter or the context
// menu). Subclasses compute in recompute() and show results with showTable().
class TableAnalysisView : public AnalysisView {
    Q_OBJECT
public:
    TableAnalysisView(ViewKind kind, EntryPalette* palette, QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace) override;
    void setSelection(core::TimeRange range, std::vector<core::PeId> pes) override;
    [[nodiscard]] bool busy() const override;
    [[nodiscard]] QImage renderChart(QSize size = {}) override;
    [[nodiscard]] bool canExportSvg() const override;
    bool exportSvg(const QString& path, QSize size, QString* error) override;
    [[nodiscard]] QString csv() const override;
    // "entries" (an id list: the entry methods counted; views that count executions), and the
    // subclass's own options through applyViewOption().
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] ResultTableView* table() const { return m_table; }
    [[nodiscard]] OptionsBar* optionsBar() const { return m_options; }
    [[nodiscard]] QString title() const { return m_title; }
    [[nodiscard]] QString subtitle() const { return m_subtitle; }
    // What the options ask: range, PEs, comm threads, and the entries given to applyOptions.
    [[nodiscard]] core::analysis::AnalysisRequest request() const;

protected:
    // Recomputes for the current run and options (cancelling a running computation).
    virtual void recompute() = 0;
    // Forgets the shown result (no run, or a new one); the main table is cleared by the caller.
    virtual void clearResult() { }
    // The common recompute(): without a run, clears the view under `title`; else runs
    // compute(trace, request(), progress) on the pool and hands a result that was not
    // cancelled to show() on the GUI thread, then emits computed().
    template <typename Result, typename Compute, typename Show>
    void computeAndShow(const QString& title, Compute compute, Show show)
    {
        if (!m_trace) {
            m_computation->cancel();
            clearResult();
            setHeading(title, {});
            showMessage(tr("No run loaded"));
            return;
        }
        m_computation->run<std::optional<Result>>(
            [trace = m_trace, request = request(), compute](
                const core::analysis::Progress& progress) {
                return compute(*trace, request, progress);
            },
            [this, show](std::optional<Result> result) {
                if (result)
                    show(std::move(*result));
                emit computed();
            });
    }
    // One view option by name (render, applyOptions); false with *error when unknown or bad.
    virtual bool applyViewOption(const QString& name, const QString& value, QString* error);
    // Whether the view counts entry methods (accepts "entries").
    [[nodiscard]] virtual bool takesEntries() const { return false; }
    // The picture below the heading: by default the main table (and the detail table below).
    virtual void paintBody(QPainter& painter, const QRect& rect) const;
    // The context menu over a row (-1: none) of `source`: open the Timeline there, copy,
    // export.
    virtual void showContextMenu(QPoint globalPos, int tableRow, ResultTableView* source);
    // The view's own actions for a row of the main table (-1: none), first in that menu.
    virtual void addRowActions(QMenu& menu, int tableRow)
    {
        (void)menu;
        (void)tableRow;
    }

    void setHeading(const QString& title, const QString& subtitle);
    // "N PEs (list) · range (length)" for the heading, naming comm threads left apart.
    [[nodiscard]] QString describe(core::TimeRange range, const std::vector<core::PeId>& pes,
        const std::vector<core::PeId>& apart) const;
    // No result: an empty table with this message instead of rows.
    void showMessage(const QString& message);
    // Wires a further table (user events' occurrences, noisy executions) like the main one.
    void wireTable(ResultTableView* table);
    // Opens the Timeline at a row's target (a window around it).
    void openTimelineAt(const core::analysis::RowTarget& target);
    // A second table below the main one (master and detail, in a splitter): selecting a row of
    // the main table calls showDetail() with it; the picture draws both. Rows of the detail
    // open the Timeline as the main table's do.
    ResultTableView* addDetailTable(const QString& objectName);
    // Fills the detail table for a row of the main table (-1: none selected).
    virtual void showDetail(int /*tableRow*/) { }
    // Puts a widget in the top row, right of the options bar; the body replaces the main table
    // in the layout (the body holds the table, e.g. in a splitter).
    void addToolbarWidget(QWidget* widget);
    void setBody(QWidget* body);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    AsyncComputation* m_computation = nullptr;
    ResultTableView* m_table = nullptr;
    ResultTableView* m_detail = nullptr; // addDetailTable()

private:
    QLabel* m_heading = nullptr;
    QHBoxLayout* m_toolbar = nullptr;
    QVBoxLayout* m_layout = nullptr;
    QWidget* m_body = nullptr;
    QString m_title;
    QString m_subtitle;
    std::vector<core::EntryId> m_entries;
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
};

// The Timeline window that shows a target with some context: its span widened by twice its
// length (at least 100 µs) on each side, kept inside `run` when it fits.
core::TimeRange timelineWindowAround(const core::analysis::RowTarget& target, core::TimeRange run);

// Table columns by key with their headings and tooltips.
using TableColumns = std::vector<ResultTableModel::Column>;

} // namespace parallax::views
