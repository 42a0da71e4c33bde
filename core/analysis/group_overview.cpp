#include "group_overview.h"

#include "core/trace.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace parallax::core::analysis {

namespace {

// Entry-method time of one PE's rows (the KEY ranking: busy = work, not idle or overhead).
double entryTime(
    const std::vector<double>& rows, const ActivityColumns& cols, bool logs, std::int64_t intervals)
{
    const auto width = static_cast<std::size_t>(cols.count());
    double sum = 0;
    for (std::int64_t i = 0; i < intervals; ++i) {
        const double* row = rows.data() + static_cast<std::size_t>(i) * width;
        double entries = 0;
        for (int x = 0; x < cols.entryCount; ++x)
            entries += row[x];
        // Summary-only runs: the .sum utilization when there is no .sumd entry time.
        sum += (!logs && entries <= 0) ? row[cols.pack()] : entries;
    }
    return sum;
}

struct GroupWork {
    std::vector<double> member; // one member's activity rows
    std::vector<double> total; // the group's summed activity rows
    std::vector<double> rest; // total minus the key PEs' rows
    std::vector<double> key[3]; // first, slowest, fastest
};

void writeCells(const std::vector<double>& rows, const GroupOverview& o, bool logs, double divisor,
    std::size_t firstCell, std::vector<float>& util, std::vector<float>& idle,
    std::vector<std::int32_t>& dominant)
{
    const auto width = static_cast<std::size_t>(o.columns.count());
    for (std::int64_t i = 0; i < o.grid.count; ++i) {
        const auto cell = overviewCell(
            rows.data() + static_cast<std::size_t>(i) * width, o.grid, i, o.columns, logs);
        const auto at = firstCell + static_cast<std::size_t>(i);
        util[at] = static_cast<float>(static_cast<double>(cell.utilization) / divisor);
        idle[at] = static_cast<float>(static_cast<double>(cell.idle) / divisor);
        dominant[at] = cell.dominant;
    }
}

void computeGroup(const Trace& trace, GroupOverview& o, std::size_t g, bool logs, GroupWork& w)
{
    const auto& members = o.members[g];
    const auto cellsPerRow = static_cast<std::size_t>(o.grid.count);
    const auto width = static_cast<std::size_t>(o.columns.count());
    const auto rowLength = cellsPerRow * width;
    w.total.assign(rowLength, 0.0);
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
        overviewActivityRows(trace, pe, o.grid, o.columns, logs, w.member);
        for (std::size_t x = 0; x < rowLength; ++x)
            w.total[x] += w.member[x];
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto cell = overviewCell(
                w.member.data() + static_cast<std::size_t>(i) * width, o.grid, i, o.columns, logs);
            const auto c = static_cast<std::size_t>(i);
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
        const double busy = entryTime(w.member, o.columns, logs, o.grid.count);
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
        const auto cell = overviewCell(
            w.total.data() + i * width, o.grid, static_cast<std::int64_t>(i), o.columns, logs);
        o.dominant[base + i] = cell.dominant;
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
    w.rest = w.total;
    for (int role = 0; role < 3; ++role) {
        if (keys[role] < 0)
            continue;
        if (role > 0)
            overviewActivityRows(trace, keys[role], o.grid, o.columns, logs, w.key[role]);
        for (std::size_t x = 0; x < rowLength; ++x)
            w.rest[x] -= w.key[role][x];
        writeCells(w.key[role], o, logs, 1.0, o.keyIndex(g, role, 0), o.keyUtilization, o.keyIdle,
            o.keyDominant);
    }
    const std::size_t restCount = members.size() >= 3 ? members.size() - 3 : 0;
    if (restCount > 0) {
        for (auto& v : w.rest)
            v = std::max(0.0, v); // rounding of the subtraction
        writeCells(w.rest, o, logs, static_cast<double>(restCount),
            o.keyIndex(g, GroupOverview::Rest, 0), o.keyUtilization, o.keyIdle, o.keyDominant);
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
        computeGroup(trace, o, g, logs, work);
    });
    if (!ok)
        return std::nullopt;
    return o;
}

} // namespace parallax::core::analysis
