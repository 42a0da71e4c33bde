#include "user_events.h"

#include "core/trace.h"
#include "duration_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace parallax::core::analysis {

namespace {

bool anyUserEvent(const Trace& trace)
{
    return std::any_of(trace.pes.begin(), trace.pes.end(),
        [](const PeTrace& p) { return !p.userEvents.empty() || !p.userBrackets.empty(); });
}

// The occurrences on one PE: instants at, and brackets beginning in, [begin, end) (or at end
// itself when `includeEnd`).
void collect(const PeTrace& pe, TimeRange range, bool includeEnd,
    const std::vector<UserEventId>& wanted, std::vector<UserEventOccurrence>& out)
{
    const auto inRange = [&](TimeUs t) {
        return t >= range.begin && (t < range.end || (includeEnd && t == range.end));
    };
    const auto selected = [&](UserEventId id) {
        return wanted.empty() || std::binary_search(wanted.begin(), wanted.end(), id);
    };
    auto e = std::lower_bound(pe.userEvents.begin(), pe.userEvents.end(), range.begin,
        [](const UserEventPoint& p, TimeUs t) { return p.time < t; });
    for (; e != pe.userEvents.end() && inRange(e->time); ++e)
        if (selected(e->id))
            out.push_back({ e->id, pe.pe, UserEventKind::Instant, e->time, e->time });
    auto b = std::lower_bound(pe.userBrackets.begin(), pe.userBrackets.end(), range.begin,
        [](const UserEventBracket& p, TimeUs t) { return p.begin < t; });
    for (; b != pe.userBrackets.end() && inRange(b->begin); ++b)
        if (selected(b->id))
            out.push_back({ b->id, pe.pe, UserEventKind::Bracket, b->begin, b->end });
}

} // namespace

std::string userEventName(const RunMetadata& metadata, UserEventId event)
{
    const auto it = metadata.userEvents.find(event);
    return it != metadata.userEvents.end() ? it->second : "user event " + std::to_string(event);
}

std::vector<UserEventId> unknownUserEvents(
    const Trace& trace, const std::vector<UserEventId>& events)
{
    std::set<UserEventId> known;
    for (const auto& [id, name] : trace.metadata.userEvents)
        known.insert(id);
    for (const auto& p : trace.pes) {
        for (const auto& e : p.userEvents)
            known.insert(e.id);
        for (const auto& b : p.userBrackets)
            known.insert(b.id);
    }
    std::vector<UserEventId> unknown;
    for (const auto id : events)
        if (known.count(id) == 0)
            unknown.push_back(id);
    return unknown;
}

std::optional<UserEventSummary> computeUserEvents(const Trace& trace,
    const AnalysisRequest& request, const UserEventOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    UserEventSummary summary;
    summary.range = r.range;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        (r.isAggregated(k) ? summary.pes : summary.apart).push_back(r.pes[k]);
    if (!trace.hasLogs()) {
        summary.error = missingLogsMessage(trace, "user events are recorded in the logs only");
        return summary;
    }
    if (!anyUserEvent(trace)) {
        summary.error = "this run has no user events";
        return summary;
    }
    auto wanted = options.events;
    std::sort(wanted.begin(), wanted.end());
    const bool includeEnd = rangeEndsWithRun(trace, r.range);
    std::vector<std::vector<UserEventOccurrence>> perPe(summary.pes.size());
    const bool ok = parallelFor(summary.pes.size(), r.threads, progress, [&](std::size_t k) {
        collect(trace.pes[static_cast<std::size_t>(summary.pes[k])], r.range, includeEnd, wanted,
            perPe[k]);
    });
    if (!ok)
        return std::nullopt;
    for (auto& list : perPe)
        summary.occurrences.insert(summary.occurrences.end(), list.begin(), list.end());
    std::sort(summary.occurrences.begin(), summary.occurrences.end(),
        [](const UserEventOccurrence& a, const UserEventOccurrence& b) {
            return std::tie(a.begin, a.pe, a.event, a.kind)
                < std::tie(b.begin, b.pe, b.event, b.kind);
        });
    // (event, kind, pe) with pe = kNoPe for the all-PE row, which sorts before the PEs.
    struct Sums {
        DurationStats durations;
        TimeUs first = 0;
    };
    std::map<std::tuple<UserEventId, UserEventKind, PeId>, Sums> sums;
    for (const auto& o : summary.occurrences)
        for (const PeId pe : { kNoPe, o.pe }) {
            auto& s = sums[{ o.event, o.kind, pe }];
            if (s.durations.count == 0)
                s.first = o.begin;
            s.durations.add(static_cast<double>(o.end - o.begin));
        }
    for (const auto& [key, s] : sums) {
        UserEventStats stats;
        std::tie(stats.event, stats.kind, stats.pe) = key;
        stats.count = s.durations.count;
        stats.first = s.first;
        const bool bracket = stats.kind == UserEventKind::Bracket;
        stats.totalUs = bracket ? s.durations.total : std::nan("");
        stats.minUs = bracket ? s.durations.min : std::nan("");
        stats.meanUs = bracket ? s.durations.mean : std::nan("");
        stats.maxUs = bracket ? s.durations.max : std::nan("");
        summary.stats.push_back(stats);
    }
    return summary;
}

namespace {

const char* kindName(UserEventKind kind)
{
    return kind == UserEventKind::Instant ? "instant" : "bracket";
}

} // namespace

ResultTable userEventStatsTable(const UserEventSummary& summary, const RunMetadata& metadata)
{
    ResultTable t;
    const auto event = t.addColumn("event", CellKind::Integer);
    const auto name = t.addColumn("event_name", CellKind::Text);
    const auto pe = t.addColumn("pe", CellKind::Text);
    const auto kind = t.addColumn("kind", CellKind::Text);
    const auto count = t.addColumn("count", CellKind::Integer);
    const auto total = t.addColumn("total_us", CellKind::DurationUs);
    const auto min = t.addColumn("min_us", CellKind::DurationUs);
    const auto mean = t.addColumn("mean_us", CellKind::DurationUs);
    const auto max = t.addColumn("max_us", CellKind::DurationUs);
    for (const auto& s : summary.stats) {
        t.push(event, static_cast<double>(s.event));
        t.push(name, userEventName(metadata, s.event));
        t.push(pe, s.pe == kNoPe ? std::string("all") : std::to_string(s.pe));
        t.push(kind, kindName(s.kind));
        t.push(count, static_cast<double>(s.count));
        t.push(total, s.totalUs);
        t.push(min, s.minUs);
        t.push(mean, s.meanUs);
        t.push(max, s.maxUs);
        // The first occurrence: on this PE, or (all-PE row) on the first PE that has it.
        PeId at = s.pe;
        if (at == kNoPe)
            for (const auto& o : summary.occurrences)
                if (o.event == s.event && o.kind == s.kind) {
                    at = o.pe;
                    break;
                }
        t.targets.push_back({ at, s.first, s.first });
    }
    return t;
}

ResultTable userEventOccurrencesTable(const UserEventSummary& summary, const RunMetadata& metadata)
{
    ResultTable t;
    const auto event = t.addColumn("event", CellKind::Integer);
    const auto name = t.addColumn("event_name", CellKind::Text);
    const auto pe = t.addColumn("pe", CellKind::Integer);
    const auto kind = t.addColumn("kind", CellKind::Text);
    const auto begin = t.addColumn("begin_us", CellKind::TimeUs);
    const auto end = t.addColumn("end_us", CellKind::TimeUs);
    const auto duration = t.addColumn("duration_us", CellKind::DurationUs);
    for (const auto& o : summary.occurrences) {
        t.push(event, static_cast<double>(o.event));
        t.push(name, userEventName(metadata, o.event));
        t.push(pe, static_cast<double>(o.pe));
        t.push(kind, kindName(o.kind));
        t.push(begin, static_cast<double>(o.begin));
        t.push(end, static_cast<double>(o.end));
        t.pushIf(duration, o.kind == UserEventKind::Bracket, static_cast<double>(o.end - o.begin));
        t.targets.push_back({ o.pe, o.begin, o.end });
    }
    return t;
}

} // namespace parallax::core::analysis
