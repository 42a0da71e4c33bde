#pragma once

#include "core/analysis/overview.h"
#include "core/analysis/pe_groups.h"
#include "views/common/analysis_view.h"
#include "views/common/chart_style.h"
#include "views/overview/overview_chart.h"

#include <QPointer>

#include <optional>
#include <set>
#include <vector>

class QComboBox;
class QLineEdit;

namespace parallax::views {

class AsyncComputation;
class OptionsBar;

// Overview: processors × time. Each cell is coloured by the activity that took most of that
// PE's time in that interval (entry colours, idle light, overhead dark) or by utilization
// (a perceptual ramp with a colour bar). Click a PE's row to open its timeline over the shown
// range (or the selected one); drag across time to select a range: the selection is reported
// (selectionChanged) and a menu offers to zoom to it or open it in another view. Options: range,
// PEs, number of columns, colouring, and rows: above kMaxRows PEs (or when asked) the rows are
// groups of PEs — SMP nodes, or blocks of consecutive PEs — drawn as their mean, their spread
// (highest / mean / lowest) or their key PEs; clicking a group shows its PEs in place.
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
    [[nodiscard]] CsvWriter csvWriter() const override;
    // "columns" (1..20000), "coloring" (activity | utilization), "by" (auto | pes | node |
    // block | block:N | signature | cluster) and "mode" (sum | set | key), as the Usage
    // Profile and `parallax-cli groups`.
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;
    // The range, PEs and options, and the named PE lists when grouped by lists ("lists", in
    // the lists file's syntax, so the session does not depend on the file).
    [[nodiscard]] State saveState() const override;
    bool restoreState(const State& state, QString* problems) override;
    [[nodiscard]] const core::Trace* shownRun() const override { return m_trace.get(); }
    [[nodiscard]] std::optional<core::TimeRange> timeAxisRange() const override;
    void zoomTimeAxis(core::TimeRange range) override { zoomTo(range); }

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
    // Above this many PEs the rows are groups (Group: auto).
    static constexpr int kMaxRows = 200;

    enum class Grouping : std::uint8_t { Auto, EveryPe, Nodes, Blocks, Signature, Cluster, Lists };
    // Groups from a user's named PE lists ("name: 0-15,32" per line, core::analysis::parsePeLists).
    // False with one sentence in *error when the file cannot be read or parsed.
    bool loadPeLists(const QString& path, QString* error = nullptr);
    // The groups shown, written as named PE lists that loadPeLists (and `parallax-cli groups
    // --by list:FILE`) reads back; the file is replaced atomically.
    bool saveGroupsAsLists(const QString& path, QString* error = nullptr) const;
    void setGrouping(Grouping grouping);
    void setGroupDisplay(GroupDisplay display);
    [[nodiscard]] GroupDisplay groupDisplay() const;
    // The groups shown (empty when the rows are PEs) and which are expanded.
    [[nodiscard]] const std::optional<core::analysis::GroupOverview>& groups() const
    {
        return m_groups;
    }
    [[nodiscard]] const std::set<int>& expandedGroups() const { return m_expanded; }
    // Shows or hides a group's PEs under its row.
    void toggleGroup(int group);

private:
    void recompute();
    void computeMembers();
    // The options bar's request; for a reduced run, with its PEs without a log (summaryFallback).
    [[nodiscard]] core::analysis::AnalysisRequest request() const;
    void showComposed();
    [[nodiscard]] std::vector<std::vector<core::PeId>> makeGroups(
        const core::analysis::AnalysisRequest& request, std::vector<QString>& names) const;
    void showRangeMenu(core::TimeRange range, QPoint globalPos);
    void showContextMenu(QPoint globalPos, std::optional<core::PeId> pe);

    core::TracePtr m_trace;
    OptionsBar* m_options = nullptr;
    QLineEdit* m_columns = nullptr;
    QComboBox* m_coloring = nullptr;
    QComboBox* m_grouping = nullptr;
    QComboBox* m_groupDisplay = nullptr;
    OverviewChart* m_chart = nullptr;
    AsyncComputation* m_computation = nullptr;
    AsyncComputation* m_memberComputation = nullptr;
    // What the chart shows: per-PE rows, or the composed group rows.
    std::optional<core::analysis::Overview> m_overview;
    std::optional<core::analysis::GroupOverview> m_groups;
    std::vector<QString> m_groupNames;
    std::optional<core::analysis::Overview> m_members; // rows of the expanded groups' PEs
    std::set<int> m_expanded;
    // Signature or cluster groups of the shown range and PEs (computed on the worker).
    std::vector<core::analysis::PeGroup> m_signatures;
    std::vector<core::analysis::NamedPeList> m_lists; // Group: lists
    int m_lastGrouping = 0; // to go back when choosing a lists file is cancelled
    int m_blockSize = 0; // PEs per block (--by block:N); 0: as many as keep kMaxRows rows
    std::vector<core::TimeRange> m_zoomHistory;
    // The selection last shown or reported, to report selectionChanged() only on changes.
    core::TimeRange m_shownRange;
    std::vector<core::PeId> m_shownPes;
};

} // namespace parallax::views
