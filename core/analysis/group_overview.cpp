#include "group_overview.h"

#include "core/trace.h"
#include "pe_activity.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace parallax::core::analysis {

namespace {

struct GroupWork {
    ActivityCollector scratch; // one PE's rows
    ActivityAccumulator sum; // the group's total, then the rest's
    SparseActivityRows member;
    SparseActivityRows total; // the group's summed activity rows
    SparseActivityRows rest; // total minus the key PEs' rows
    SparseActivityRows key[3]; // first, slowest, fastest
    std::vector<double> busy; // one member's busy and idle µs per interval (from its log)
    std::vector<double> idle;
};

// A member from its log, not kept as rows: its time added to the group's total as it is
// visited, its busy and idle µs per interval (whole µs: sums do not depend on their order, so
// the figures are those of its rows). Returns its entry-method time.
double addMember(const PeTrace& pe, const GroupOverview& o, GroupWork& w)
{
    const auto cols = o.columns;
    w.busy.assign(static_cast<std::size_t>(o.grid.count), 0.0);
    w.idle.assign(static_cast<std::size_t>(o.grid.count), 0.0);
    double entries = 0;
    visitActivity(pe, o.grid, cols, [&](std::int64_t i, int column, double us) {
        w.sum.add(i, column, us);
        const auto at = static_cast<std::size_t>(i);
        if (column < cols.entryCount) {
            w.busy[at] += us;
            entries += us;
        } else if (column == cols.pack() || column == cols.unpack()) {
            w.busy[at] += us;
        } else if (column == cols.idle()) {
            w.idle[at] += us;
        }
    });
    return entries;
}

void writeCells(const SparseActivityRows& rows, const GroupOverview& o, double divisor,
    std::size_t firstCell, std::vector<float>& util, std::vector<float>& idle,
    std::vector<std::int32_t>& dominant)
{
    for (std::int64_t i = 0; i < o.grid.count; ++i) {
        const auto cell = overviewCell(rows, o.grid, i, o.columns);
        const auto at = firstCell + static_cast<std::size_t>(i);
        util[at] = static_cast<float>(static_cast<double>(cell.utilization) / divisor);
        idle[at] = static_cast<float>(static_cast<double>(cell.idle) / divisor);
        dominant[at] = cell.dominant;
    }
}

void computeGroup(const Trace& trace, const ResolvedRequest& r, GroupOverview& o, std::size_t g,
    bool logs, GroupWork& w)
{
    // A PE's own rows: from its log, or from its summaries (a reduced run's PE without a log,
    // whose .sum utilization is in the pack column: not added to the group's total, which is
    // read as log time and where it would be mistaken for pack time).
    const auto skipOf = [&](PeId pe) {
        return logs && r.isFromSummary(pe) ? o.columns.pack() : -1;
    };
    const auto rowsOf = [&](PeId pe, SparseActivityRows& rows) {
        overviewActivityRows(trace, pe, o.grid, o.columns, logs && skipOf(pe) < 0, w.scratch, rows);
    };
    const auto& members = o.members[g];
    const auto cellsPerRow = static_cast<std::size_t>(o.grid.count);
    const int width = o.columns.count();
    w.sum.reset(o.grid.count, width);
    const auto base = o.index(g, 0);
    for (std::size_t i = 0; i < cellsPerRow; ++i) {
        o.minUtilization[base + i] = std::numeric_limits<float>::infinity();
        o.maxUtilization[base + i] = -std::numeric_limits<float>::infinity();
    }
    std::vector<double> sumUtil(cellsPerRow, 0.0);
    std::vector<double> sumIdle(cellsPerRow, 0.0);
    double slowestBusy = -1;
    double fastestBusy = std::numeric_limits<double>::infinity();
    PeId slowest = -1;
    PeId fastest = -1;
    std::vector<double> busyOf(members.size(), 0.0);
    for (std::size_t m = 0; m < members.size(); ++m) {
        const PeId pe = members[m];
        // The first member's rows are its KEY row; the others from logs need no rows.
        const bool direct = m > 0 && logs && skipOf(pe) < 0;
        double busy = 0;
        if (direct) {
            static const PeTrace none;
            const auto p = static_cast<std::size_t>(pe);
            busy = addMember(p < trace.pes.size() ? trace.pes[p] : none, o, w);
        } else {
            rowsOf(pe, w.member);
            w.sum.add(w.member, 1.0, skipOf(pe));
            busy = entryTime(w.member, o.columns);
        }
        o.summaryMembers[g] += skipOf(pe) >= 0 ? 1U : 0U;
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto c = static_cast<std::size_t>(i);
            const auto cell = direct ? OverviewCell { percentOfInterval(w.busy[c], o.grid, i),
                percentOfInterval(w.idle[c], o.grid, i), 0 }
                                     : overviewCell(w.member, o.grid, i, o.columns);
            sumUtil[c] += static_cast<double>(cell.utilization);
            sumIdle[c] += static_cast<double>(cell.idle);
            if (cell.utilization < o.minUtilization[base + c]) {
                o.minUtilization[base + c] = cell.utilization;
                o.minPe[base + c] = pe;
            }
            if (cell.utilization > o.maxUtilization[base + c]) {
                o.maxUtilization[base + c] = cell.utilization;
                o.maxPe[base + c] = pe;
            }
        }
        busyOf[m] = busy;
        if (m == 0) {
            w.key[0] = w.member;
            continue;
        }
        // Ties go to the lower PE (members are sorted): strict comparison.
        if (busy > slowestBusy) {
            slowestBusy = busy;
            slowest = pe;
        }
    }
    w.sum.take(w.total, logs);
    // The least busy of the others, never the busiest itself (they tie when all are equal).
    for (std::size_t m = 1; m < members.size(); ++m)
        if (members[m] != slowest && busyOf[m] < fastestBusy) {
            fastestBusy = busyOf[m];
            fastest = members[m];
        }
    if (members.empty()) {
        for (std::size_t i = 0; i < cellsPerRow; ++i) {
            o.minUtilization[base + i] = 0;
            o.maxUtilization[base + i] = 0;
        }
        return;
    }
    const double n = static_cast<double>(members.size());
    for (std::size_t i = 0; i < cellsPerRow; ++i) {
        o.meanUtilization[base + i] = static_cast<float>(sumUtil[i] / n);
        o.meanIdle[base + i] = static_cast<float>(sumIdle[i] / n);
        o.dominant[base + i]
            = overviewCell(w.total, o.grid, static_cast<std::int64_t>(i), o.columns).dominant;
    }

    // KEY: the first member (kept unconditionally, as the seed's initial thread), then the
    // busiest and the least busy of the others, then the rest averaged.
    const auto keyBase = g * GroupOverview::kKeyRoles;
    const PeId keys[3] = { members[0], slowest, fastest };
    double keyBusy[3] = { busyOf[0], slowestBusy, fastestBusy };
    for (int role = 0; role < 3; ++role) {
        o.keyPe[keyBase + static_cast<std::size_t>(role)] = keys[role];
        o.keyBusyUs[keyBase + static_cast<std::size_t>(role)] = keys[role] >= 0 ? keyBusy[role] : 0;
    }
    w.sum.reset(o.grid.count, width);
    w.sum.add(w.total);
    for (int role = 0; role < 3; ++role) {
        if (keys[role] < 0)
            continue;
        if (role > 0)
            rowsOf(keys[role], w.key[role]);
        w.sum.add(w.key[role], -1.0, skipOf(keys[role]));
        writeCells(w.key[role], o, 1.0, o.keyIndex(g, role, 0), o.keyUtilization, o.keyIdle,
            o.keyDominant);
    }
    w.sum.take(w.rest, logs);
    const std::size_t restCount = members.size() >= 3 ? members.size() - 3 : 0;
    if (restCount > 0) {
        for (auto& v : w.rest.value)
            v = std::max(0.0, v); // rounding of the subtraction
        writeCells(w.rest, o, static_cast<double>(restCount), o.keyIndex(g, GroupOverview::Rest, 0),
            o.keyUtilization, o.keyIdle, o.keyDominant);
        // Members from their summaries: the rest's utilization and idle are the mean of its
        // members' own (their summed rows do not hold them).
        if (o.summaryMembers[g] > 0)
            for (std::size_t i = 0; i < cellsPerRow; ++i) {
                double util = sumUtil[i];
                double idle = sumIdle[i];
                for (int role = 0; role < 3; ++role)
                    if (keys[role] >= 0) {
                        const auto at = o.keyIndex(g, role, static_cast<std::int64_t>(i));
                        util -= static_cast<double>(o.keyUtilization[at]);
                        idle -= static_cast<double>(o.keyIdle[at]);
                    }
                const auto at = o.keyIndex(g, GroupOverview::Rest, static_cast<std::int64_t>(i));
                o.keyUtilization[at]
                    = static_cast<float>(std::max(util, 0.0) / static_cast<double>(restCount));
                o.keyIdle[at]
                    = static_cast<float>(std::max(idle, 0.0) / static_cast<double>(restCount));
            }
        double restBusy = 0;
        for (std::size_t m = 0; m < members.size(); ++m)
            if (members[m] != keys[0] && members[m] != keys[1] && members[m] != keys[2])
                restBusy += busyOf[m];
        o.keyBusyUs[keyBase + GroupOverview::Rest] = restBusy / static_cast<double>(restCount);
    }
}

} // namespace

std::optional<GroupOverview> computeGroupOverview(const Trace& trace,
    const AnalysisRequest& request, const std::vector<std::vector<PeId>>& groups,
    const OverviewOptions& options, const Progress& progress)
{
    AnalysisRequest correct = request;
    correct.mode = Mode::Correct;
    const auto r = resolve(trace, correct);
    GroupOverview o;
    o.columns = r.columns;
    o.grid = overviewGrid(trace, r, options);
    std::unordered_map<PeId, bool> counts; // selected PE -> counts in averages
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        counts.emplace(r.pes[k], r.isAggregated(k));
    o.members.reserve(groups.size());
    for (const auto& group : groups) {
        std::vector<PeId> kept;
        for (const PeId pe : group) {
            const auto it = counts.find(pe);
            if (it != counts.end() && it->second)
                kept.push_back(pe);
        }
        std::sort(kept.begin(), kept.end());
        kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
        o.members.push_back(std::move(kept));
    }
    o.fromSummary = r.fromSummary;
    o.summaryMembers.assign(groups.size(), 0);
    const auto cells = groups.size() * static_cast<std::size_t>(o.grid.count);
    o.meanUtilization.assign(cells, 0.0F);
    o.minUtilization.assign(cells, 0.0F);
    o.maxUtilization.assign(cells, 0.0F);
    o.minPe.assign(cells, -1);
    o.maxPe.assign(cells, -1);
    o.meanIdle.assign(cells, 0.0F);
    o.dominant.assign(cells, r.columns.overhead());
    const auto keys = groups.size() * GroupOverview::kKeyRoles;
    o.keyPe.assign(keys, -1);
    o.keyBusyUs.assign(keys, 0.0);
    o.keyUtilization.assign(keys * static_cast<std::size_t>(o.grid.count), 0.0F);
    o.keyIdle.assign(keys * static_cast<std::size_t>(o.grid.count), 0.0F);
    o.keyDominant.assign(keys * static_cast<std::size_t>(o.grid.count), r.columns.overhead());
    const bool logs = trace.hasLogs();
    const bool ok = parallelFor(groups.size(), r.threads, progress, [&](std::size_t g) {
        thread_local GroupWork work;
        computeGroup(trace, r, o, g, logs, work);
    });
    if (!ok)
        return std::nullopt;
    return o;
}

} // namespace parallax::core::analysis
