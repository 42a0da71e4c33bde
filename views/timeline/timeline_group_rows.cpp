// The timeline's rows of groups of PEs: a collapsed row's aggregated pixel columns (SUM) and
// the spread of its members in each column (SET).

#include "core/analysis/overview.h"
#include "views/timeline/timeline_rows_internal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace parallax::views::timeline_rows {

namespace {

// Adds a group's summary (coarse or fine) to a collapsed row's columns (pixel units, as the
// exact path): busy time per column and the column's dominant entry — of the entries dominating
// its buckets, the one with the most time (each entry's time summed from 0 in bucket order, ties
// to the lowest entry: what the exact path's sparse rows give), with that time in `dominant`.
void addSummary(const PeSummary& sum, const TimeMapping& map, int width, std::size_t entries,
    std::vector<double>& busy, std::vector<std::pair<int, double>>& dominant,
    std::vector<std::uint32_t>& started, double& busyUs, std::vector<double>& entryUs)
{
    const double usPerPixel = static_cast<double>(map.window.length()) / map.width;
    std::vector<std::pair<int, double>> weights; // entry -> time, in the order first seen
    for (int c = 0; c < width; ++c) {
        const auto cc = static_cast<std::size_t>(c);
        weights.clear();
        forBucketsInColumn(sum.origin, sum.bucket, sum.size(), map, usPerPixel, c,
            [&](std::size_t bi, double share, bool begins) {
                const double us = static_cast<double>(sum.busy[bi]) * share;
                busyUs += us;
                busy[cc] += us / usPerPixel;
                if (sum.dominant[bi] < entries) {
                    const double time = static_cast<double>(sum.dominantUs[bi]) * share;
                    const int entry = sum.dominant[bi];
                    const auto it = std::find_if(weights.begin(), weights.end(),
                        [&](const auto& w) { return w.first == entry; });
                    if (it == weights.end())
                        weights.emplace_back(entry, time / usPerPixel);
                    else
                        it->second += time / usPerPixel;
                    entryUs[sum.dominant[bi]] += time;
                }
                if (begins)
                    started[cc] += sum.started[bi];
            });
        auto& [best, bestTime] = dominant[cc];
        for (const auto& [entry, time] : weights)
            if (time > bestTime || (time == bestTime && time > 0.0 && entry < best)) {
                best = entry;
                bestTime = time;
            }
    }
}

// The lowest and highest member per pixel column, folded in member order (ties: the first).
// Members walked from their executions say which columns they ran in whole (addFull) and which
// they did not run in at all (addIdle): the first member idle in a column is its lowest, at 0.
// A column some member ran in whole has its highest (share 1, the first such member), and one
// some member was idle in has its lowest, so those skip such columns (the next column still
// open is found through a forwarding array with path compression): most members of a large
// group then cost a few steps per execution instead of a step per pixel column.
class SpreadFold {
public:
    explicit SpreadFold(int width)
        : m_spread(static_cast<std::size_t>(width))
        , m_firstZero(static_cast<std::size_t>(width), -1)
        , m_openHigh(static_cast<std::size_t>(width) + 1)
        , m_openZero(static_cast<std::size_t>(width) + 1)
    {
        for (auto& s : m_spread) {
            s.low = std::numeric_limits<float>::infinity();
            s.high = -std::numeric_limits<float>::infinity();
        }
        for (int c = 0; c <= width; ++c) {
            m_openHigh[static_cast<std::size_t>(c)] = c;
            m_openZero[static_cast<std::size_t>(c)] = c;
        }
    }
    // A member's share of a column, in member order.
    void add(std::size_t column, core::PeId pe, float utilization)
    {
        auto& s = m_spread[column];
        if (utilization < s.low) {
            s.low = utilization;
            s.lowPe = pe;
        }
        if (utilization > s.high) {
            s.high = utilization;
            s.highPe = pe;
        }
    }
    // Member `pe` ran through columns [c0, c1) whole (share 1). A column an earlier member
    // ran through whole has high 1 and low at most 1 already: nothing to change there.
    void addFull(int c0, int c1, core::PeId pe)
    {
        for (int c = nextOpen(m_openHigh, c0); c < c1; c = nextOpen(m_openHigh, c + 1)) {
            add(static_cast<std::size_t>(c), pe, 1.0F);
            m_openHigh[static_cast<std::size_t>(c)] = c + 1;
        }
    }
    // Member `index` (in order) did not run in columns [c0, c1): the first such member is the
    // column's lowest (see finish).
    void addIdle(int c0, int c1, int index)
    {
        for (int c = nextOpen(m_openZero, c0); c < c1; c = nextOpen(m_openZero, c + 1)) {
            m_firstZero[static_cast<std::size_t>(c)] = index;
            m_openZero[static_cast<std::size_t>(c)] = c + 1;
        }
    }
    // After the members' walks: a column some member was idle in has its lowest at 0, that
    // member's.
    void finish(const std::vector<core::PeId>& members)
    {
        for (std::size_t c = 0; c < m_spread.size(); ++c)
            if (const int zero = m_firstZero[c]; zero >= 0) {
                m_spread[c].low = 0.0F;
                m_spread[c].lowPe = members[static_cast<std::size_t>(zero)];
            }
    }
    [[nodiscard]] const TimelineSpread& at(std::size_t column) const { return m_spread[column]; }

private:
    // The first column from `c` on still open in `next` (`c` itself when open).
    static int nextOpen(std::vector<int>& next, int c)
    {
        int root = c;
        while (next[static_cast<std::size_t>(root)] != root)
            root = next[static_cast<std::size_t>(root)];
        while (c != root) {
            const int following = next[static_cast<std::size_t>(c)];
            next[static_cast<std::size_t>(c)] = root;
            c = following;
        }
        return root;
    }

    std::vector<TimelineSpread> m_spread;
    std::vector<int> m_firstZero; // the first member not running in the column
    std::vector<int> m_openHigh; // forwarding: columns no member ran through whole yet
    std::vector<int> m_openZero; // forwarding: columns no member was idle in yet
};

// One member's walk over the columns for SpreadFold: the columns it touches come in increasing
// order; the ones it skips between them are its idle columns.
class MemberColumns {
public:
    MemberColumns(SpreadFold& fold, int width, int index)
        : m_fold(fold)
        , m_width(width)
        , m_index(index)
    { }
    // The member ran in column `c` (after every column touched so far).
    void touch(int c)
    {
        if (c > m_last + 1)
            m_fold.addIdle(m_last + 1, c, m_index);
        m_last = c;
    }
    // The member ran through columns [c0, c1) whole (after every column touched so far).
    void touchFull(int c0, int c1, core::PeId pe)
    {
        touch(c0);
        m_last = c1 - 1;
        m_fold.addFull(c0, c1, pe);
    }
    // The member's walk is over: the columns after its last are idle.
    void finish()
    {
        if (m_last + 1 < m_width)
            m_fold.addIdle(m_last + 1, m_width, m_index);
    }

private:
    SpreadFold& m_fold;
    int m_width;
    int m_index;
    int m_last = -1;
};

// The first lowest and the first highest of `shares` (not empty, none negative). Non-negative
// floats order as their bit patterns do, and integer minima and maxima the compiler computes
// several at a time; then the first member holding each.
std::pair<std::size_t, std::size_t> firstLowestAndHighest(const std::vector<float>& shares)
{
    std::int32_t lowest = std::numeric_limits<std::int32_t>::max();
    std::int32_t highest = std::numeric_limits<std::int32_t>::min();
    for (const float share : shares) {
        const auto bits = std::bit_cast<std::int32_t>(share);
        lowest = std::min(lowest, bits);
        highest = std::max(highest, bits);
    }
    const auto at = [&](std::int32_t bits) {
        const auto it = std::find(shares.begin(), shares.end(), std::bit_cast<float>(bits));
        return static_cast<std::size_t>(it - shares.begin());
    };
    return { at(lowest), at(highest) };
}

// SET zoomed far out: each member's busy share per pixel column from the group's coarse
// spread: per column, its buckets' rows of members weighted and added (contiguous, so the
// compiler vectorizes them), then the lowest and the highest member.
void foldCoarseSpread(
    const GroupSpread& spread, const TimeMapping& map, int width, SpreadFold& fold)
{
    const double usPerPixel = static_cast<double>(map.window.length()) / map.width;
    const std::size_t members = spread.members.size();
    if (members == 0)
        return;
    std::vector<float> share(members);
    std::vector<std::pair<std::size_t, float>> weights;
    for (int c = 0; c < width; ++c) {
        weights.clear();
        const auto [t0, t1] = forBucketsInColumn(spread.origin, spread.bucket, spread.buckets, map,
            usPerPixel, c, [&](std::size_t b, double part, bool) {
                weights.emplace_back(b, static_cast<float>(part));
            });
        if (t1 <= t0 || weights.empty())
            continue;
        // part × bucket µs / column µs, and the stored × 255.
        const auto scale
            = static_cast<float>(static_cast<double>(spread.bucket) / (t1 - t0) / 255.0);
        const auto column = static_cast<std::size_t>(c);
        const std::size_t b0 = weights.front().first;
        if (weights.size() == 1 || (weights.size() == 2 && weights[1].first == b0 + 1)) {
            // Within two neighbouring buckets: only their candidates can be the extremes.
            const auto shareOf = [&](std::uint32_t m) {
                float sum = 0.0F;
                for (const auto& [b, part] : weights)
                    sum += static_cast<float>(spread.busy[b * members + m]) * (part * scale);
                return sum;
            };
            const auto first = [&](const std::vector<std::uint32_t>& start,
                                   const std::vector<std::uint32_t>& candidates, bool low) {
                std::uint32_t best = candidates[start[b0]];
                float bestShare = shareOf(best);
                for (auto i = start[b0] + 1; i < start[b0 + 1]; ++i) {
                    const float s = shareOf(candidates[i]);
                    if (low ? s < bestShare : s > bestShare) {
                        best = candidates[i];
                        bestShare = s;
                    }
                }
                return std::pair { best, bestShare };
            };
            const auto [low, lowShare] = first(spread.lowStart, spread.lowCandidates, true);
            const auto [high, highShare] = first(spread.highStart, spread.highCandidates, false);
            fold.add(column, spread.members[low], std::min(lowShare, 1.0F));
            fold.add(column, spread.members[high], std::min(highShare, 1.0F));
            continue;
        }
        std::fill(share.begin(), share.end(), 0.0F);
        for (const auto& [b, part] : weights) {
            const std::uint8_t* row = spread.busy.data() + b * members;
            const float w = part * scale;
            for (std::size_t m = 0; m < members; ++m)
                share[m] += static_cast<float>(row[m]) * w;
        }
        const auto [low, high] = firstLowestAndHighest(share);
        fold.add(column, spread.members[low], std::min(share[low], 1.0F));
        fold.add(column, spread.members[high], std::min(share[high], 1.0F));
    }
}

// One member's busy share per pixel column of the window (SET from the fine summary: only the
// spread is wanted of the member's executions): added into `one`, the columns in `touched`.
void addMemberSpread(const core::ExecutionColumns& ex, core::IndexRange range, core::TimeRange w,
    double scale, int width, std::vector<float>& one, std::vector<std::size_t>& touched)
{
    for (auto k = range.first; k < range.last; ++k) {
        const auto b = std::max(ex.begin[k], w.begin);
        const auto e = std::min(ex.end[k], w.end);
        const double u0 = static_cast<double>(b - w.begin) * scale;
        const double u1 = static_cast<double>(e - w.begin) * scale;
        const int c0 = std::clamp(static_cast<int>(std::floor(u0)), 0, width - 1);
        const int c1 = std::clamp(static_cast<int>(std::ceil(u1)), c0 + 1, width);
        for (int c = c0; c < c1; ++c) {
            const double cover
                = std::min(u1, static_cast<double>(c + 1)) - std::max(u0, static_cast<double>(c));
            if (cover <= 0.0)
                continue;
            const auto cc = static_cast<std::size_t>(c);
            if (one[cc] == 0.0F)
                touched.push_back(cc);
            one[cc] += static_cast<float>(cover);
        }
    }
}

// Folds one member's columns (added in increasing order: executions do not overlap in a valid
// log, but the order is checked) into the spread, and clears them.
void foldMember(SpreadFold& fold, std::vector<float>& one, std::vector<std::size_t>& touched,
    int width, int index, core::PeId pe)
{
    if (!std::is_sorted(touched.begin(), touched.end()))
        std::sort(touched.begin(), touched.end());
    MemberColumns walk(fold, width, index);
    for (const auto c : touched) {
        walk.touch(static_cast<int>(c));
        fold.add(c, pe, std::min(one[c], 1.0F));
        one[c] = 0.0F;
    }
    walk.finish();
    touched.clear();
}

// A row's busy time and time per entry, added execution by execution (clipped to the window).
struct BusyTally {
    core::TimeUs& busyUs;
    std::vector<core::TimeUs>& activityTime;
    int entryCount;
    void add(int entry, core::TimeUs us)
    {
        busyUs += us;
        if (entry < entryCount)
            activityTime[static_cast<std::size_t>(entry)] += us;
    }
};

// Folds one member's busy share per pixel column into the spread (SET), reading its
// executions in the window once: a column is folded as soon as the walk has passed it, and the
// columns an execution covers whole (share 1) as a run. The shares are the ones addMemberSpread
// sums, in the same order. Executions overlapping one another (not in a valid log) go through
// addMemberSpread and foldMember instead. With `tally`, each execution's time is added to it in
// the same walk.
void foldMemberSpread(const core::ExecutionColumns& ex, core::IndexRange range, core::TimeRange w,
    double scale, int width, SpreadFold& fold, int index, core::PeId pe, std::vector<float>& one,
    std::vector<std::size_t>& touched, BusyTally* tally = nullptr)
{
    for (auto k = range.first + 1; k < range.last; ++k)
        if (ex.begin[k] < ex.end[k - 1]) {
            if (tally != nullptr)
                for (auto i = range.first; i < range.last; ++i)
                    tally->add(ex.entry[i], clippedLength(ex.begin[i], ex.end[i], w));
            addMemberSpread(ex, range, w, scale, width, one, touched);
            foldMember(fold, one, touched, width, index, pe);
            return;
        }
    MemberColumns walk(fold, width, index);
    int pending = -1; // the column still open to the next execution
    float share = 0.0F;
    const auto flush = [&]() {
        if (pending >= 0)
            fold.add(static_cast<std::size_t>(pending), pe, std::min(share, 1.0F));
        pending = -1;
        share = 0.0F;
    };
    for (auto k = range.first; k < range.last; ++k) {
        const auto b = std::max(ex.begin[k], w.begin);
        const auto e = std::min(ex.end[k], w.end);
        if (tally != nullptr)
            tally->add(ex.entry[k], std::max<core::TimeUs>(e - b, 0));
        const double u0 = static_cast<double>(b - w.begin) * scale;
        const double u1 = static_cast<double>(e - w.begin) * scale;
        const int c0 = std::clamp(static_cast<int>(std::floor(u0)), 0, width - 1);
        const int c1 = std::clamp(static_cast<int>(std::ceil(u1)), c0 + 1, width);
        const auto add = [&](int c) {
            const double cover
                = std::min(u1, static_cast<double>(c + 1)) - std::max(u0, static_cast<double>(c));
            if (cover <= 0.0)
                return;
            if (c != pending) {
                flush();
                pending = c;
                walk.touch(c);
            }
            share += static_cast<float>(cover);
        };
        add(c0);
        if (c1 - c0 < 2)
            continue;
        if (c1 - c0 > 2) {
            // Columns strictly inside the execution: covered whole, by it alone.
            flush();
            walk.touchFull(c0 + 1, c1 - 1, pe);
        }
        add(c1 - 1);
    }
    flush();
    walk.finish();
}

} // namespace

void buildGroupRow(const core::Trace& trace, TimelineRow& row, const TimeMapping& map,
    const core::analysis::ActivityColumns& columns, std::vector<core::TimeUs>& activityTime,
    const TimelineSummaryCache* summaries)
{
    const auto w = map.window;
    const int width = std::max(static_cast<int>(std::ceil(map.width)), 1);
    const double scale = map.width / static_cast<double>(w.length());
    const auto entries = static_cast<std::size_t>(std::max(columns.entryCount, 1));
    const bool set = row.role == TimelineRowRole::GroupSet;
    // Busy pixel-time per column; a fully busy PE adds 1 per column. Per (column, entry) the
    // same, kept sparse: a column holds a few of the run's entry methods.
    std::vector<double> busy(static_cast<std::size_t>(width), 0.0);
    thread_local core::analysis::ActivityCollector byEntry;
    thread_local core::analysis::SparseActivityRows entryRows;
    byEntry.reset(width, static_cast<int>(entries));
    // From a group summary: per column the dominant entry and its time (entry 0 when none ran).
    std::vector<std::pair<int, double>> dominant;
    std::vector<std::uint32_t> started(static_cast<std::size_t>(width), 0);
    std::optional<SpreadFold> fold;
    if (set)
        fold.emplace(width);
    // SET: one member's busy share per column (zero between members), the columns it touched.
    std::vector<float> one(set ? static_cast<std::size_t>(width) : 0, 0.0F);
    std::vector<std::size_t> touched;
    std::vector<core::PeId> counted; // the members with data, in order
    std::size_t members = 0;
    // Zoomed out (several summary buckets per pixel): the group's summary, the coarse one or,
    // closer in, the fine one. With the fine one the members' executions in the window are
    // still read once each (not once per pixel column) for the exact time per entry and, in SET,
    // each member's share per column; the coarse one has its own spread.
    std::shared_ptr<const PeSummary> group;
    bool fine = false;
    if (summaries != nullptr && summaries->trace().get() == &trace) {
        const double usPerPixel = static_cast<double>(w.length()) / map.width;
        if (usPerPixel >= 4.0 * static_cast<double>(summaries->bucketWidth())) {
            group = summaries->of(row.members);
        } else if (usPerPixel >= 4.0 * static_cast<double>(summaries->fineBucketWidth())) {
            group = summaries->fineOf(row.members);
            fine = true;
        }
    }
    if (group) {
        double busyUs = 0.0;
        std::vector<double> entryUs(entries, 0.0);
        dominant.assign(static_cast<std::size_t>(width), { 0, 0.0 });
        addSummary(*group, map, width, entries, busy, dominant, started, busyUs, entryUs);
        for (std::size_t entry = 0;
             !fine && entry < entries && entry < static_cast<std::size_t>(columns.entryCount);
             ++entry)
            activityTime[entry] += static_cast<core::TimeUs>(std::llround(entryUs[entry]));
        row.busyUs = fine ? 0 : static_cast<core::TimeUs>(std::llround(busyUs));
        if (set && !fine)
            if (const auto spread = summaries->spreadOf(row.members))
                foldCoarseSpread(*spread, map, width, *fold);
    }
    const bool walked = !group || fine; // the members' executions in the window are read
    for (std::size_t m = 0; m < row.members.size(); ++m) {
        const auto pe = row.members[m];
        if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        if (const auto next = m + 1 < row.members.size() ? row.members[m + 1] : core::kNoPe;
            walked && next >= 0 && static_cast<std::size_t>(next) < trace.pes.size())
            prefetchExecutions(trace.pes[static_cast<std::size_t>(next)], w);
        ++members;
        row.tracedUs += tracedInWindow(p, w);
        if (group && !fine) {
            // Busy time came from the group's summary; idle is the rest of the traced time.
            continue;
        }
        const auto& ex = p.executions;
        const auto range = executionsNear(p, w);
        if (fine) {
            // The busy time and time per entry; in SET, in the same walk as the spread.
            BusyTally tally { row.busyUs, activityTime, columns.entryCount };
            if (set) {
                foldMemberSpread(ex, range, w, scale, width, *fold,
                    static_cast<int>(counted.size()), pe, one, touched, &tally);
                counted.push_back(pe);
            } else {
                for (auto k = range.first; k < range.last; ++k)
                    tally.add(ex.entry[k], clippedLength(ex.begin[k], ex.end[k], w));
            }
            continue;
        }
        for (auto k = range.first; k < range.last; ++k) {
            const auto b = std::max(ex.begin[k], w.begin);
            const auto e = std::min(ex.end[k], w.end);
            const int entry = ex.entry[k];
            const auto d = std::max<core::TimeUs>(e - b, 0);
            row.busyUs += d;
            if (entry < columns.entryCount)
                activityTime[static_cast<std::size_t>(entry)] += d;
            const double u0 = static_cast<double>(b - w.begin) * scale;
            const double u1 = static_cast<double>(e - w.begin) * scale;
            const int c0 = std::clamp(static_cast<int>(std::floor(u0)), 0, width - 1);
            const int c1 = std::clamp(static_cast<int>(std::ceil(u1)), c0 + 1, width);
            ++started[static_cast<std::size_t>(c0)];
            for (int c = c0; c < c1; ++c) {
                const double cover = std::min(u1, static_cast<double>(c + 1))
                    - std::max(u0, static_cast<double>(c));
                if (cover <= 0.0)
                    continue;
                busy[static_cast<std::size_t>(c)] += cover;
                if (entry < columns.entryCount)
                    byEntry.add(c, entry, cover);
            }
        }
        if (set) {
            foldMemberSpread(ex, range, w, scale, width, *fold, static_cast<int>(counted.size()),
                pe, one, touched);
            counted.push_back(pe);
        }
        const auto idles = p.idlesOverlapping(w.begin, w.end);
        for (auto i = idles.first; i < idles.last; ++i) {
            const auto d = clippedLength(p.idles.begin[i], p.idles.end[i], w);
            row.idleUs += d;
            activityTime[static_cast<std::size_t>(columns.idle())] += d;
        }
    }
    if (set && (!group || fine))
        fold->finish(counted);
    if (group) {
        row.idleUs = std::max<core::TimeUs>(row.tracedUs - row.busyUs, 0);
        activityTime[static_cast<std::size_t>(columns.idle())] += row.idleUs;
    }
    if (!group)
        byEntry.take(entryRows, true);
    const int left = static_cast<int>(std::lround(map.left));
    for (int c = 0; c < width; ++c) {
        const auto cc = static_cast<std::size_t>(c);
        if (busy[cc] <= 0.0)
            continue;
        // The dominant entry: the first of the most time (entry 0 when none ran).
        auto [best, bestTime] = group ? dominant[cc] : std::pair { 0, 0.0 };
        for (auto k = group ? 0 : entryRows.start[cc]; !group && k < entryRows.start[cc + 1]; ++k)
            if (entryRows.value[k] > bestTime) {
                bestTime = entryRows.value[k];
                best = entryRows.activity[k];
            }
        TimelineBlock block;
        block.kind = TimelineBlockKind::Aggregate;
        block.left = left + c;
        block.right = block.left + 1;
        block.activity = best;
        block.dominantShare = static_cast<float>(bestTime / busy[cc]);
        block.utilization = static_cast<float>(
            std::min(busy[cc] / static_cast<double>(std::max<std::size_t>(members, 1)), 1.0));
        block.count = started[cc];
        block.executions = started[cc];
        block.begin = map.timeAt(left + c);
        block.end = std::max(map.timeAt(left + c + 1), block.begin + 1);
        row.blocks.push_back(block);
        if (set) {
            auto spread = fold->at(cc);
            if (spread.lowPe == core::kNoPe) // no member in the coarse spread
                spread = { block.utilization, block.utilization, core::kNoPe, core::kNoPe };
            row.spread.push_back(spread);
        }
    }
}

} // namespace parallax::views::timeline_rows
