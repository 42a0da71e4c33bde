#include "call_table.h"

#include "core/trace.h"
#include "duration_stats.h"
#include "message_links.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace parallax::core::analysis {

namespace {

using EdgeKey = std::tuple<EntryId, CallerKind, EntryId, PeId>;

struct EdgeSums {
    std::uint64_t count = 0;
    double bytes = 0;
    DurationStats latency;
};

using EdgeMap = std::map<EdgeKey, EdgeSums>;

// The caller of execution `i` of `pe`: the path back through comm-thread relays, then the
// execution that made the first send.
void addExecution(const Trace& trace, PeId pe, std::size_t i, EdgeMap& edges)
{
    const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
    const EntryId entry = ex.entry[i];
    const auto path = findMessagePath(trace, pe, i);
    const auto& last = path.back();
    CallerKind kind = CallerKind::Unknown;
    EntryId callerEntry = kNoEntry;
    PeId callerPe = kNoPe;
    std::optional<double> latency;
    if (last.linked()) {
        callerPe = last.senderPe;
        const auto& sender = trace.pes[static_cast<std::size_t>(last.senderPe)];
        const auto s = *last.send;
        const auto made = sender.sends.execution[s];
        if (made == kNoExecution || (made & kSendAfterExecution) != 0
            || made >= sender.executions.size()) {
            kind = CallerKind::Outside;
        } else {
            kind = CallerKind::Entry;
            callerEntry = sender.executions.entry[made];
        }
        latency = static_cast<double>(ex.begin[i] - sender.sends.time[s]);
    } else if (path.size() == 1 && last.status == MessageLink::Status::NoSource) {
        kind = CallerKind::NoSender;
    } else if (last.status != MessageLink::Status::NoSource && last.senderPe >= 0
        && last.senderPe < trace.metadata.processors) {
        callerPe = last.senderPe; // named, if it is a PE of the run at all
    }
    auto& sums = edges[EdgeKey { entry, kind, callerEntry, callerPe }];
    ++sums.count;
    sums.bytes += static_cast<double>(std::max(ex.msgBytes[i], 0));
    if (latency)
        sums.latency.add(*latency);
}

} // namespace

std::optional<CallTable> computeCallTable(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    CallTable table;
    table.range = r.range;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        (r.isAggregated(k) ? table.pes : table.apart).push_back(r.pes[k]);
    if (!trace.hasLogs()) {
        table.error = missingLogsMessage(trace, "the call table needs the messages in them");
        return table;
    }
    const bool includeEnd = rangeEndsWithRun(trace, r.range);
    // Each PE's edges are kept apart and merged in PE order afterwards, so the latency statistics
    // (floating-point sums) come out the same on every run, whatever order the threads finish in.
    std::vector<EdgeMap> perPe(r.pes.size());
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        if (!r.isAggregated(k))
            return;
        const PeId pe = r.pes[k];
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        EdgeMap& local = perPe[k];
        const auto span = executionsBeginningIn(p, r.range, includeEnd);
        for (auto i = span.first; i < span.last; ++i) {
            const auto entry = static_cast<std::size_t>(p.executions.entry[i]);
            if (entry < r.entrySelected.size() && r.entrySelected[entry])
                addExecution(trace, pe, i, local);
            if ((i & 0xFFFU) == 0 && progress.isCancelled())
                return;
        }
    });
    if (!ok)
        return std::nullopt;
    EdgeMap all;
    for (auto& local : perPe) {
        for (const auto& [key, sums] : local) {
            auto& into = all[key];
            into.count += sums.count;
            into.bytes += sums.bytes;
            into.latency.merge(sums.latency);
        }
        local = {};
    }
    std::map<EntryId, std::uint64_t> perEntry;
    for (const auto& [key, sums] : all) {
        CallEdge edge;
        std::tie(edge.entry, edge.kind, edge.callerEntry, edge.callerPe) = key;
        edge.count = sums.count;
        edge.bytes = sums.bytes;
        edge.linked = sums.latency.count;
        const bool any = sums.latency.count > 0;
        edge.minLatencyUs = any ? sums.latency.min : std::nan("");
        edge.meanLatencyUs = any ? sums.latency.mean : std::nan("");
        edge.maxLatencyUs = any ? sums.latency.max : std::nan("");
        perEntry[edge.entry] += edge.count;
        table.edges.push_back(edge);
    }
    std::sort(table.edges.begin(), table.edges.end(), [&](const CallEdge& a, const CallEdge& b) {
        const auto na = perEntry[a.entry];
        const auto nb = perEntry[b.entry];
        if (na != nb)
            return na > nb;
        if (a.entry != b.entry)
            return a.entry < b.entry;
        if (a.count != b.count)
            return a.count > b.count;
        return std::tie(a.kind, a.callerEntry, a.callerPe)
            < std::tie(b.kind, b.callerEntry, b.callerPe);
    });
    return table;
}

std::string callerKey(const CallEdge& edge)
{
    switch (edge.kind) {
    case CallerKind::Entry:
        return std::to_string(edge.callerEntry);
    case CallerKind::Outside:
        return "outside";
    case CallerKind::NoSender:
        return "none";
    case CallerKind::Unknown:
        return "unknown";
    }
    return "unknown";
}

ResultTable callTableTable(const CallTable& table, const RunMetadata& metadata)
{
    ResultTable t;
    const auto entry = t.addColumn("entry", CellKind::Integer);
    const auto caller = t.addColumn("caller_entry", CellKind::Text);
    const auto callerPe = t.addColumn("caller_pe", CellKind::Integer);
    const auto count = t.addColumn("count", CellKind::Integer);
    const auto bytes = t.addColumn("bytes", CellKind::Bytes);
    const auto min = t.addColumn("min_us", CellKind::DurationUs);
    const auto mean = t.addColumn("mean_us", CellKind::DurationUs);
    const auto max = t.addColumn("max_us", CellKind::DurationUs);
    const auto name = t.addColumn("entry_name", CellKind::Text);
    const auto callerName = t.addColumn("caller_name", CellKind::Text);
    for (const auto& e : table.edges) {
        t.push(entry, static_cast<double>(e.entry));
        t.push(caller, callerKey(e));
        t.pushIf(callerPe, e.callerPe != kNoPe, static_cast<double>(e.callerPe));
        t.push(count, static_cast<double>(e.count));
        t.push(bytes, e.bytes);
        t.push(min, e.minLatencyUs);
        t.push(mean, e.meanLatencyUs);
        t.push(max, e.maxLatencyUs);
        t.push(name, metadata.entryName(e.entry));
        t.targets.push_back({ e.callerPe, table.range.begin, table.range.end });
        switch (e.kind) {
        case CallerKind::Entry:
            t.push(callerName, metadata.entryName(e.callerEntry));
            break;
        case CallerKind::Outside:
            t.push(callerName, "(between entry methods)");
            break;
        case CallerKind::NoSender:
            t.push(callerName, "(no sender recorded)");
            break;
        case CallerKind::Unknown:
            t.push(callerName, "(send not found)");
            break;
        }
    }
    return t;
}

} // namespace parallax::core::analysis
