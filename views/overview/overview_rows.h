#pragma once

#include "core/analysis/group_overview.h"
#include "core/trace.h"

#include <QString>

#include <set>
#include <vector>

namespace parallax::views {

// How a group of PEs is drawn on the Overview (the aggregation modes of PE groups):
// Mean — one row, the members' mean (SUM);
// Spread — the highest, mean and lowest utilization of the members (SET);
// Key — the first member, the busiest, the least busy (their own rows) and the rest's mean (KEY).
enum class GroupDisplay : std::uint8_t { Mean, Spread, Key };

// What one displayed row of the Overview is.
struct OverviewRowInfo {
    enum class Kind : std::uint8_t {
        Pe, // one PE (ungrouped, or a member of an expanded group)
        GroupMean,
        GroupMax,
        GroupMin,
        KeyFirst,
        KeySlowest,
        KeyFastest,
        KeyRest,
    };
    Kind kind = Kind::Pe;
    core::PeId pe = -1; // the PE drawn (Pe and the three real key PEs); -1 for aggregates
    int group = -1; // index of its group; -1 for PEs outside groups
    QString label;
    core::TimeRange traced; // where the row has data (the members' union for aggregates)
    bool member = false; // a PE of an expanded group
    bool commThread = false;
    bool fromSummary = false; // a PE drawn from its summary file (no log in a reduced run)

    // Drawn with the utilization ramp whatever the colouring (a group's spread).
    bool utilizationOnly = false;
    // The row stands for one real PE (clicking it opens that PE's timeline).
    [[nodiscard]] bool isPe() const { return pe >= 0; }
};

// The rows to draw: an Overview whose row r is rows[r] (its `pes[r]` is the row's PE, or the
// group's first member for aggregates), with the groups in order, each expanded group followed
// by its members' own rows.
struct ComposedOverview {
    core::analysis::Overview overview;
    std::vector<OverviewRowInfo> rows;
};

// `memberRows` holds the rows of the expanded groups' members (computed for those PEs only;
// may be null when nothing is expanded); `names` names each group.
ComposedOverview composeOverview(const core::Trace& trace,
    const core::analysis::GroupOverview& groups, const std::vector<QString>& names,
    GroupDisplay display, const std::set<int>& expanded,
    const core::analysis::Overview* memberRows);

// Rows per group for a display mode when collapsed (1, 3 or 4).
int rowsPerGroup(GroupDisplay display);

// The span in which a PE has records, or an empty range.
core::TimeRange tracedSpanOf(const core::Trace& trace, core::PeId pe);

// A row label's mark for a PE drawn from its summary file ("PE 12 (.sum)").
QString fromSummaryLabel(const QString& label);

} // namespace parallax::views
