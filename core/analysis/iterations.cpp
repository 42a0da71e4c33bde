#include "core/analysis/iterations.h"

#include "core/analysis/pe_groups.h"
#include "core/trace.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>

namespace parallax::core::analysis {

namespace {

// The selected PEs that have a log (only they have executions and user events).
std::vector<PeId> loggedPes(const Trace& trace, const ResolvedRequest& resolved)
{
    std::vector<PeId> pes;
    for (const PeId pe : resolved.pes)
        if (static_cast<std::size_t>(pe) < trace.pes.size()
            && trace.pes[static_cast<std::size_t>(pe)].hasLog)
            pes.push_back(pe);
    return pes;
}

bool namesSteps(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    constexpr std::array<std::string_view, 4> kWords { "step", "iter", "phase", "cycle" };
    return std::any_of(kWords.begin(), kWords.end(),
        [&](std::string_view w) { return name.find(w) != std::string::npos; });
}

// Instant occurrences of `id` in the range on the PE that has most of them (the lowest PE on
// ties): a step marker is usually recorded by one PE, or by every PE at about the same time.
std::vector<TimeUs> markerTimes(
    const Trace& trace, const std::vector<PeId>& pes, UserEventId id, TimeRange range)
{
    std::vector<TimeUs> best;
    for (const PeId pe : pes) {
        std::vector<TimeUs> times;
        for (const auto& u : trace.pes[static_cast<std::size_t>(pe)].userEvents)
            if (u.id == id && u.time >= range.begin && u.time < range.end)
                times.push_back(u.time);
        if (times.size() > best.size())
            best = std::move(times);
    }
    return best;
}

// The begin times of the notes in the range whose text names a step ("step 12", "Iteration
// 3", ...), on the PE that has most of them (the lowest PE on ties); fewer than two mark nothing.
std::vector<TimeUs> stepNoteTimes(const Trace& trace, const std::vector<PeId>& pes, TimeRange range)
{
    std::vector<TimeUs> best;
    for (const PeId pe : pes) {
        std::vector<TimeUs> times;
        for (const auto& n : trace.pes[static_cast<std::size_t>(pe)].notes)
            if (n.begin >= range.begin && n.begin < range.end && namesSteps(n.text))
                times.push_back(n.begin);
        if (times.size() > best.size())
            best = std::move(times);
    }
    if (best.size() < 2)
        best.clear();
    return best;
}

std::optional<UserEventId> findStepEvent(
    const Trace& trace, const std::vector<PeId>& pes, TimeRange range)
{
    std::optional<UserEventId> chosen;
    std::size_t chosenCount = 1; // at least two occurrences
    for (const auto& [id, name] : trace.metadata.userEvents) {
        if (!namesSteps(name))
            continue;
        const auto count = markerTimes(trace, pes, id, range).size();
        if (count > chosenCount) {
            chosen = id;
            chosenCount = count;
        }
    }
    return chosen;
}

struct EntryCounts {
    std::vector<std::size_t> perPe; // index into the PE list
    TimeUs total = 0;
    TimeUs first = kTimeMax;
    TimeUs last = 0;
};

std::optional<EntryId> findStepEntry(
    const Trace& trace, const std::vector<PeId>& pes, TimeRange range)
{
    std::map<EntryId, EntryCounts> counts;
    std::vector<bool> busy(pes.size(), false);
    for (std::size_t k = 0; k < pes.size(); ++k) {
        const auto& p = trace.pes[static_cast<std::size_t>(pes[k])];
        const auto& ex = p.executions;
        for (std::size_t i = 0; i < ex.size(); ++i) {
            if (ex.begin[i] < range.begin || ex.begin[i] >= range.end)
                continue;
            auto& c = counts[static_cast<EntryId>(ex.entry[i])];
            c.perPe.resize(pes.size(), 0);
            ++c.perPe[k];
            c.total += ex.end[i] - ex.begin[i];
            c.first = std::min(c.first, ex.begin[i]);
            c.last = std::max(c.last, ex.begin[i]);
            busy[k] = true;
        }
    }
    std::optional<EntryId> chosen;
    std::size_t chosenPerPe = 0;
    TimeUs chosenTotal = 0;
    for (const auto& [entry, c] : counts) {
        std::size_t perPe = 0;
        bool same = true;
        for (std::size_t k = 0; k < pes.size() && same; ++k) {
            if (!busy[k])
                continue;
            if (perPe == 0)
                perPe = c.perPe[k];
            same = c.perPe[k] == perPe;
        }
        // A step marker recurs through the run, not in a burst (start-up, a final reduction).
        if (!same || perPe < 3 || 2 * (c.last - c.first) < range.end - range.begin)
            continue;
        if (!chosen || perPe < chosenPerPe || (perPe == chosenPerPe && c.total > chosenTotal)) {
            chosen = entry;
            chosenPerPe = perPe;
            chosenTotal = c.total;
        }
    }
    return chosen;
}

// Step k of an entry marker starts at the earliest k-th execution over the PEs.
std::vector<TimeUs> entryStarts(
    const Trace& trace, const std::vector<PeId>& pes, EntryId entry, TimeRange range)
{
    std::vector<TimeUs> starts;
    for (const PeId pe : pes) {
        const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
        std::size_t k = 0;
        for (std::size_t i = 0; i < ex.size(); ++i) {
            if (static_cast<EntryId>(ex.entry[i]) != entry || ex.begin[i] < range.begin
                || ex.begin[i] >= range.end)
                continue;
            if (k == starts.size())
                starts.push_back(ex.begin[i]);
            else
                starts[k] = std::min(starts[k], ex.begin[i]);
            ++k;
        }
    }
    return starts;
}

// Entry-method time of one PE inside `window` (executions clipped to it).
TimeUs busyIn(const PeTrace& p, TimeRange window)
{
    const auto span = p.executionsOverlapping(window.begin, window.end);
    TimeUs busy = 0;
    for (std::size_t i = span.first; i < span.last; ++i)
        busy += std::max<TimeUs>(0,
            std::min(p.executions.end[i], window.end)
                - std::max(p.executions.begin[i], window.begin));
    return busy;
}

} // namespace

IterationResult findIterations(
    const Trace& trace, const AnalysisRequest& request, const IterationRequest& how)
{
    const auto resolved = resolve(trace, request);
    const TimeRange range = resolved.range;
    IterationResult result;
    result.pes = loggedPes(trace, resolved);

    std::vector<TimeUs> starts;
    if (how.every > 0) {
        result.source = "every";
        for (TimeUs t = range.begin; t < range.end; t += how.every)
            starts.push_back(t);
    } else if (!how.starts.empty()) {
        result.source = "starts";
        for (const TimeUs t : how.starts)
            if (t >= range.begin && t < range.end)
                starts.push_back(t);
    } else {
        auto event = how.userEvent;
        auto entry = how.entry;
        std::vector<TimeUs> notes;
        if (!event && !entry) {
            event = findStepEvent(trace, result.pes, range);
            if (!event)
                notes = stepNoteTimes(trace, result.pes, range);
            if (!event && notes.empty())
                entry = findStepEntry(trace, result.pes, range);
        }
        if (!notes.empty()) {
            result.source = "note";
            starts = std::move(notes);
        } else if (event) {
            result.source = "user-event";
            result.markerId = *event;
            starts = markerTimes(trace, result.pes, *event, range);
        } else if (entry) {
            result.source = "entry";
            result.markerId = *entry;
            starts = entryStarts(trace, result.pes, *entry, range);
        }
    }
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());

    std::vector<TimeUs> busy(result.pes.size());
    for (std::size_t k = 0; k < starts.size(); ++k) {
        Iteration it;
        it.range = { starts[k], k + 1 < starts.size() ? starts[k + 1] : range.end };
        for (std::size_t i = 0; i < result.pes.size(); ++i) {
            busy[i] = busyIn(trace.pes[static_cast<std::size_t>(result.pes[i])], it.range);
            if (it.slowestPe == kNoPe || busy[i] > it.slowestBusyUs) {
                it.slowestPe = result.pes[i];
                it.slowestBusyUs = busy[i];
            }
        }
        result.busy.insert(result.busy.end(), busy.begin(), busy.end());
        if (!busy.empty()) {
            std::vector<TimeUs> sorted = busy;
            std::sort(sorted.begin(), sorted.end());
            const std::size_t mid = sorted.size() / 2;
            it.medianBusyUs = sorted.size() % 2 == 1
                ? static_cast<double>(sorted[mid])
                : (static_cast<double>(sorted[mid - 1]) + static_cast<double>(sorted[mid])) / 2.0;
        }
        result.iterations.push_back(it);
    }
    return result;
}

std::string iterationsCsv(const IterationResult& result)
{
    std::string out
        = "iteration,begin_us,end_us,duration_us,slowest_pe,slowest_busy_us,median_busy_us\n";
    for (std::size_t k = 0; k < result.iterations.size(); ++k) {
        const auto& it = result.iterations[k];
        const auto twice = static_cast<long long>(std::llround(it.medianBusyUs * 2.0));
        out += std::to_string(k) + "," + std::to_string(it.range.begin) + ","
            + std::to_string(it.range.end) + "," + std::to_string(it.range.end - it.range.begin)
            + "," + (it.slowestPe == kNoPe ? std::string("*") : std::to_string(it.slowestPe)) + ","
            + std::to_string(it.slowestBusyUs) + "," + std::to_string(twice / 2)
            + (twice % 2 != 0 ? ".5" : "") + "\n";
    }
    return out;
}

std::vector<IterationGroupBusy> groupIterationBusy(
    const IterationResult& result, const std::vector<PeGroup>& groups)
{
    std::map<PeId, std::size_t> indexOf;
    for (std::size_t i = 0; i < result.pes.size(); ++i)
        indexOf[result.pes[i]] = i;
    std::vector<std::vector<std::size_t>> members(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (const auto pe : groups[g].pes)
            if (const auto it = indexOf.find(pe); it != indexOf.end())
                members[g].push_back(it->second);
    std::vector<IterationGroupBusy> cells(result.iterations.size() * groups.size());
    for (std::size_t k = 0; k < result.iterations.size(); ++k)
        for (std::size_t g = 0; g < groups.size(); ++g) {
            auto& cell = cells[k * groups.size() + g];
            double sum = 0;
            for (const auto i : members[g]) {
                const auto busy = result.busyOf(k, i);
                sum += static_cast<double>(busy);
                if (cell.slowestPe == kNoPe || busy > cell.maxBusyUs) {
                    cell.slowestPe = result.pes[i];
                    cell.maxBusyUs = busy;
                }
            }
            if (!members[g].empty())
                cell.meanBusyUs = sum / static_cast<double>(members[g].size());
        }
    return cells;
}

std::string iterationComparisonCsv(const IterationResult& a, const IterationResult& b)
{
    std::string out = "iteration,duration_a_us,duration_b_us,ratio,slowest_pe_a,slowest_pe_b\n";
    const auto count = std::max(a.iterations.size(), b.iterations.size());
    const auto pe = [](const Iteration& it) {
        return it.slowestPe == kNoPe ? std::string("*") : std::to_string(it.slowestPe);
    };
    for (std::size_t k = 0; k < count; ++k) {
        const Iteration* ia = k < a.iterations.size() ? &a.iterations[k] : nullptr;
        const Iteration* ib = k < b.iterations.size() ? &b.iterations[k] : nullptr;
        const auto da = ia != nullptr ? ia->range.end - ia->range.begin : 0;
        const auto db = ib != nullptr ? ib->range.end - ib->range.begin : 0;
        std::string ratio;
        if (ia != nullptr && ib != nullptr && da > 0) {
            char buf[32];
            std::snprintf(
                buf, sizeof buf, "%.4f", static_cast<double>(db) / static_cast<double>(da));
            ratio = buf;
        }
        out += std::to_string(k) + "," + (ia != nullptr ? std::to_string(da) : std::string()) + ","
            + (ib != nullptr ? std::to_string(db) : std::string()) + "," + ratio + ","
            + (ia != nullptr ? pe(*ia) : std::string()) + ","
            + (ib != nullptr ? pe(*ib) : std::string()) + "\n";
    }
    return out;
}

} // namespace parallax::core::analysis
