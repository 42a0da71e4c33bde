#include "export_plan.h"

#include "core/analysis/message_links.h"
#include "core/analysis/pe_activity.h"
#include "core/text_args.h"
#include "core/trace.h"

#include <algorithm>
#include <cstdint>

namespace parallax::exporter {

using core::PeId;
using core::TimeUs;

namespace {

// At most this many comm threads are followed back from one execution (a message passes one
// or two: the sender's node and the receiver's).
constexpr std::size_t kMaxRelays = 4;

std::vector<Region> makeRegions(const core::RunMetadata& meta)
{
    std::vector<Region> regions;
    regions.reserve(meta.entryCount() + 5);
    for (std::size_t id = 0; id < meta.entryCount(); ++id) {
        const auto entry = static_cast<core::EntryId>(id);
        Region r;
        r.kind = RegionKind::Entry;
        r.entry = entry;
        r.method = meta.entryName(entry);
        r.chare = meta.chareNameOfEntry(entry);
        r.name = r.chare.empty() ? r.method : r.chare + "::" + r.method;
        regions.push_back(std::move(r));
    }
    for (const auto& [kind, name] :
        { std::pair { RegionKind::Overhead, "Overhead" }, std::pair { RegionKind::Idle, "Idle" },
            std::pair { RegionKind::Pack, "Pack" }, std::pair { RegionKind::Unpack, "Unpack" },
            std::pair { RegionKind::UnknownEntry, "Unknown entry method" } }) {
        Region r;
        r.kind = kind;
        r.name = name;
        regions.push_back(std::move(r));
    }
    return regions;
}

// The message that started execution `k` of `pe`, as a send of an exported PE: the direct
// sender when it is exported, else back through the comm threads that relayed it. Only links
// the Timeline draws solid (Status::Linked) count.
std::optional<Message> incomingMessage(
    const core::Trace& trace, const ExportPlan& plan, PeId pe, std::size_t k, bool& weak)
{
    auto link = core::analysis::findMessageSource(trace, pe, k);
    std::uint8_t relays = 0;
    for (;;) {
        if (link.status != core::analysis::MessageLink::Status::Linked) {
            weak = weak || link.weak();
            return std::nullopt;
        }
        const auto sender = link.senderPe;
        const auto& sends = trace.pes[static_cast<std::size_t>(sender)].sends;
        const auto s = *link.send;
        if (plan.indexOf(sender) >= 0) {
            const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
            Message m;
            m.senderPe = sender;
            m.send = static_cast<std::uint32_t>(s);
            const auto made = sends.execution[s];
            if (made != core::kNoExecution && (made & core::kSendAfterExecution) == 0)
                m.sendExecution = made;
            m.sendTime = sends.time[s];
            m.receiverPe = pe;
            m.execution = static_cast<std::uint32_t>(k);
            m.receiveTime = ex.begin[k];
            m.bytes = sends.msgBytes[s];
            m.relays = relays;
            return m;
        }
        // A comm thread that is not exported relayed it: follow the execution that made the
        // send back to its own sender.
        const auto relayed = sends.execution[s];
        if (!trace.metadata.isCommThread(sender) || sender == link.pe || relays >= kMaxRelays
            || relayed == core::kNoExecution || (relayed & core::kSendAfterExecution) != 0)
            return std::nullopt;
        ++relays;
        link = core::analysis::findMessageSource(trace, sender, relayed);
        pe = sender;
        k = relayed;
    }
}

} // namespace

std::uint32_t ExportPlan::region(RegionKind kind) const
{
    for (std::size_t r = regions.size(); r-- > 0;)
        if (regions[r].kind == kind)
            return static_cast<std::uint32_t>(r);
    return 0;
}

int ExportPlan::indexOf(PeId pe) const
{
    const auto it = std::lower_bound(
        pes.begin(), pes.end(), pe, [](const ExportedPe& e, PeId p) { return e.pe < p; });
    return it != pes.end() && it->pe == pe ? static_cast<int>(it - pes.begin()) : -1;
}

std::size_t ExportPlan::executionCount() const
{
    std::size_t n = 0;
    for (const auto& p : pes)
        n += p.executions;
    return n;
}

std::size_t ExportPlan::unmatchedSendCount() const
{
    std::size_t n = 0;
    for (const auto& p : pes)
        n += p.unmatchedSends.size();
    return n;
}

PlanOutcome planExport(const core::Trace& trace, const ExportRequest& request,
    const core::analysis::Progress& progress)
{
    PlanOutcome outcome;
    if (!trace.hasLogs()) {
        outcome.error = "the run has no logs (summary files only), so there are no executions "
                        "to export";
        return outcome;
    }
    if (trace.logsOnDemand()) {
        outcome.error = "the run was opened from its summary files because its logs exceed the "
                        "memory budget; open it with a larger budget to export it";
        return outcome;
    }
    std::vector<PeId> logged;
    for (std::size_t p = 0; p < trace.pes.size(); ++p)
        if (trace.pes[p].hasLog)
            logged.push_back(static_cast<PeId>(p));
    std::vector<PeId> pes = request.pes;
    std::sort(pes.begin(), pes.end());
    pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
    if (pes.empty())
        pes = logged;
    for (const auto pe : pes)
        if (!std::binary_search(logged.begin(), logged.end(), pe)) {
            outcome.error = "PE " + std::to_string(pe)
                + " has no log in this run (PEs with logs: " + core::formatPeList(logged) + ")";
            return outcome;
        }
    core::analysis::AnalysisRequest window;
    window.range = request.range;
    window.threads = request.threads;
    const auto resolved = core::analysis::resolve(trace, window);
    if (resolved.range.empty()) {
        outcome.error = "the time range is empty";
        return outcome;
    }

    ExportPlan plan;
    plan.range = resolved.range;
    plan.regions = makeRegions(trace.metadata);
    for (const auto pe : pes) {
        ExportedPe e;
        e.pe = pe;
        e.node = trace.metadata.nodeOf(pe);
        e.commThread = trace.metadata.isCommThread(pe);
        e.executions = trace.pes[static_cast<std::size_t>(pe)]
                           .executionsOverlapping(plan.range.begin, plan.range.end)
                           .size();
        plan.pes.push_back(std::move(e));
        plan.nodes.push_back(trace.metadata.nodeOf(pe));
    }
    std::sort(plan.nodes.begin(), plan.nodes.end());
    plan.nodes.erase(std::unique(plan.nodes.begin(), plan.nodes.end()), plan.nodes.end());

    // Incoming messages per receiver, in parallel; a message counts when its send lies in the
    // window too.
    std::vector<std::vector<Message>> incoming(plan.pes.size());
    std::vector<std::size_t> weak(plan.pes.size(), 0);
    const auto& B = plan.range.begin;
    const auto& E = plan.range.end;
    const bool ok = core::analysis::parallelFor(
        plan.pes.size(), resolved.threads, progress, [&](std::size_t i) {
            const auto pe = plan.pes[i].pe;
            const auto execs = trace.pes[static_cast<std::size_t>(pe)].executionsOverlapping(B, E);
            for (auto k = execs.first; k < execs.last; ++k) {
                bool isWeak = false;
                auto m = incomingMessage(trace, plan, pe, k, isWeak);
                if (m && m->sendTime >= B && m->sendTime < E && m->receiveTime >= B)
                    incoming[i].push_back(*m);
                else if (isWeak)
                    ++weak[i];
            }
        });
    if (!ok) {
        outcome.cancelled = true;
        return outcome;
    }
    for (std::size_t i = 0; i < plan.pes.size(); ++i) {
        plan.pes[i].firstIncoming = plan.messages.size();
        plan.messages.insert(plan.messages.end(), incoming[i].begin(), incoming[i].end());
        plan.pes[i].lastIncoming = plan.messages.size();
        plan.weakLinks += weak[i];
        incoming[i] = {};
    }
    // Outgoing lists by send time, and the sends that started nothing exported.
    for (std::size_t m = 0; m < plan.messages.size(); ++m)
        plan.pes[static_cast<std::size_t>(plan.indexOf(plan.messages[m].senderPe))]
            .outgoing.push_back(static_cast<std::uint32_t>(m));
    for (auto& e : plan.pes) {
        std::sort(e.outgoing.begin(), e.outgoing.end(), [&](std::uint32_t a, std::uint32_t b) {
            const auto& ma = plan.messages[a];
            const auto& mb = plan.messages[b];
            return ma.send != mb.send ? ma.send < mb.send : a < b;
        });
        const auto& p = trace.pes[static_cast<std::size_t>(e.pe)];
        const auto sends = p.sendsIn(B, E);
        std::size_t next = 0;
        for (auto s = sends.first; s < sends.last; ++s) {
            while (next < e.outgoing.size() && plan.messages[e.outgoing[next]].send < s)
                ++next;
            if (next < e.outgoing.size() && plan.messages[e.outgoing[next]].send == s)
                continue;
            e.unmatchedSends.push_back(static_cast<std::uint32_t>(s));
        }
    }
    outcome.plan = std::move(plan);
    return outcome;
}

namespace {

struct Piece {
    TimeUs begin;
    TimeUs end;
    std::uint32_t region;
    std::uint32_t execution;
};

// Adds [b, e) minus the executions (sorted, non-overlapping) to `out`.
void addOutsideExecutions(const std::vector<Piece>& execs, TimeUs b, TimeUs e, std::uint32_t region,
    std::vector<Piece>& out)
{
    auto it = std::upper_bound(
        execs.begin(), execs.end(), b, [](TimeUs t, const Piece& p) { return t < p.end; });
    for (; it != execs.end() && it->begin < e && b < e; ++it) {
        if (it->begin > b)
            out.push_back({ b, it->begin, region, Activity::kNotAnExecution });
        b = std::max(b, it->end);
    }
    if (b < e)
        out.push_back({ b, e, region, Activity::kNotAnExecution });
}

} // namespace

std::vector<Activity> peActivities(
    const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex)
{
    const auto pe = plan.pes[peIndex].pe;
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    const TimeUs B = plan.range.begin;
    const TimeUs E = plan.range.end;
    const auto clip = [&](TimeUs t) {
        return std::clamp(t, B, E);
    };
    const auto entryCount = static_cast<std::uint32_t>(trace.metadata.entryCount());
    const auto unknown = plan.region(RegionKind::UnknownEntry);

    // Executions: never moved, never dropped.
    std::vector<Piece> execs;
    const auto& ex = p.executions;
    const auto range = p.executionsOverlapping(B, E);
    execs.reserve(range.size());
    for (auto k = range.first; k < range.last; ++k) {
        const auto entry = static_cast<std::uint32_t>(ex.entry[k]);
        execs.push_back({ clip(ex.begin[k]), clip(ex.end[k]), entry < entryCount ? entry : unknown,
            static_cast<std::uint32_t>(k) });
    }
    // Pack and unpack inside an execution become its children; the rest of them, and idle,
    // are top-level pieces outside every execution.
    std::vector<Piece> children; // sorted by begin per kind; merged below
    std::vector<Piece> others;
    const auto idles = p.idlesOverlapping(B, E);
    for (auto k = idles.first; k < idles.last; ++k)
        addOutsideExecutions(execs, clip(p.idles.begin[k]), clip(p.idles.end[k]),
            plan.region(RegionKind::Idle), others);
    const core::IntervalColumns* kinds[] = { &p.packs, &p.unpacks };
    const std::uint32_t kindRegion[]
        = { plan.region(RegionKind::Pack), plan.region(RegionKind::Unpack) };
    for (int kind = 0; kind < 2; ++kind) {
        const auto& c = *kinds[kind];
        const auto r = core::overlappingRange(c.begin, c.end, B, E);
        for (auto k = r.first; k < r.last; ++k) {
            const TimeUs b = clip(c.begin[k]);
            const TimeUs e = clip(c.end[k]);
            if (e <= b)
                continue;
            // The execution containing b, as the usage profile finds it: the last one that
            // begins at or before b.
            const auto it = std::upper_bound(execs.begin(), execs.end(), b,
                [](TimeUs t, const Piece& x) { return t < x.begin; });
            TimeUs rest = b;
            if (it != execs.begin()) {
                const auto& x = *(it - 1);
                const TimeUs ib = std::max(b, x.begin);
                const TimeUs ie = std::min(e, x.end);
                if (ie > ib) {
                    children.push_back({ ib, ie, kindRegion[kind], x.execution });
                    rest = ie;
                }
            }
            if (rest < e)
                addOutsideExecutions(execs, rest, e, kindRegion[kind], others);
        }
    }
    // Top-level pieces other than executions may still overlap each other (idle against an
    // unpack outside an execution): the later one is trimmed.
    std::sort(others.begin(), others.end(), [](const Piece& a, const Piece& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::vector<Piece> top;
    top.reserve(execs.size() + others.size());
    TimeUs lastEnd = B;
    for (auto o : others) {
        o.begin = std::max(o.begin, lastEnd);
        if (o.end <= o.begin)
            continue;
        lastEnd = o.end;
        top.push_back(o);
    }
    const auto byBegin = [](const Piece& a, const Piece& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    };
    std::vector<Piece> merged(execs.size() + top.size());
    std::merge(execs.begin(), execs.end(), top.begin(), top.end(), merged.begin(), byBegin);
    std::stable_sort(children.begin(), children.end(), byBegin);

    // The traced spans (clipped), widened to hold any top-level piece that crosses them.
    std::vector<core::analysis::TracedSpan> spans;
    for (const auto& s : core::analysis::tracedSpans(p)) {
        const TimeUs b = clip(s.begin);
        const TimeUs e = clip(s.end);
        if (e > b)
            spans.push_back({ b, e });
    }
    for (const auto& piece : merged)
        for (auto& s : spans)
            if (piece.begin < s.end && piece.end > s.begin) {
                s.begin = std::min(s.begin, piece.begin);
                s.end = std::max(s.end, piece.end);
            }
    std::vector<core::analysis::TracedSpan> joined;
    for (const auto& s : spans) {
        if (!joined.empty() && s.begin <= joined.back().end)
            joined.back().end = std::max(joined.back().end, s.end);
        else
            joined.push_back(s);
    }

    std::vector<Activity> out;
    out.reserve(merged.size() + children.size() + joined.size());
    const auto overhead = plan.region(RegionKind::Overhead);
    std::size_t span = 0;
    bool spanOpen = false; // joined[span] has been emitted
    const auto openSpan = [&]() {
        out.push_back(
            { joined[span].begin, joined[span].end, overhead, Activity::kNotAnExecution, 0 });
        spanOpen = true;
    };
    std::size_t child = 0;
    for (const auto& piece : merged) {
        // Spans that end before this piece (one ending where a zero-length piece lies holds it).
        while (span < joined.size()
            && (joined[span].end < piece.begin
                || (joined[span].end == piece.begin && piece.end > piece.begin))) {
            if (!spanOpen)
                openSpan();
            ++span;
            spanOpen = false;
        }
        const bool inside = span < joined.size() && joined[span].begin <= piece.begin
            && piece.end <= joined[span].end;
        if (inside && !spanOpen)
            openSpan();
        const auto depth = static_cast<std::uint8_t>(inside ? 1 : 0);
        out.push_back({ piece.begin, piece.end, piece.region, piece.execution, depth });
        if (piece.execution == Activity::kNotAnExecution)
            continue;
        // Its pack and unpack children; one that overlaps the previous child is trimmed.
        TimeUs childEnd = piece.begin;
        while (child < children.size() && children[child].execution < piece.execution)
            ++child;
        for (; child < children.size() && children[child].execution == piece.execution; ++child) {
            const TimeUs b = std::max(children[child].begin, childEnd);
            if (children[child].end <= b)
                continue;
            childEnd = children[child].end;
            out.push_back({ b, childEnd, children[child].region, Activity::kNotAnExecution,
                static_cast<std::uint8_t>(depth + 1) });
        }
    }
    for (; span < joined.size(); ++span, spanOpen = false)
        if (!spanOpen)
            openSpan();
    return out;
}

std::vector<Mark> peMarks(const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex)
{
    const auto& p = trace.pes[static_cast<std::size_t>(plan.pes[peIndex].pe)];
    const auto& meta = trace.metadata;
    const TimeUs B = plan.range.begin;
    const TimeUs E = plan.range.end;
    const auto eventName = [&](core::UserEventId id) {
        const auto it = meta.userEvents.find(id);
        return it != meta.userEvents.end() ? it->second : "user event " + std::to_string(id);
    };
    std::vector<Mark> marks;
    for (const auto& u : p.userEvents)
        if (u.time >= B && u.time < E)
            marks.push_back({ Mark::Kind::UserEvent, u.time, u.time, eventName(u.id), {} });
    for (const auto& b : p.userBrackets)
        if ((b.begin < E && b.end > B) || (b.begin == b.end && b.begin >= B && b.begin < E))
            marks.push_back({ Mark::Kind::Bracket, std::max(b.begin, B), std::min(b.end, E),
                eventName(b.id), {} });
    for (const auto& n : p.notes)
        if (n.begin >= B && n.begin < E)
            marks.push_back({ Mark::Kind::Note, n.begin, std::max(n.begin, std::min(n.end, E)),
                "note", n.text });
    return marks;
}

std::vector<Sample> peSamples(const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex)
{
    const auto& p = trace.pes[static_cast<std::size_t>(plan.pes[peIndex].pe)];
    const auto& meta = trace.metadata;
    const auto inWindow = [&](TimeUs t) {
        return t >= plan.range.begin && t < plan.range.end;
    };
    std::vector<Sample> samples;
    for (const auto& s : p.stats) {
        if (!inWindow(s.time))
            continue;
        const auto it = meta.stats.find(s.statId);
        samples.push_back({ Sample::Kind::Stat, s.time,
            it != meta.stats.end() ? it->second : "stat " + std::to_string(s.statId), s.value, 0 });
    }
    for (const auto& s : p.memory)
        if (inWindow(s.time))
            samples.push_back({ Sample::Kind::Memory, s.time, "memory", 0.0,
                static_cast<std::int64_t>(std::min<std::uint64_t>(s.bytes, INT64_MAX)) });
    for (const auto& s : p.userSupplied)
        if (inWindow(s.time))
            samples.push_back(
                { Sample::Kind::UserValue, s.time, "user-supplied value", 0.0, s.value });
    return samples;
}

std::string objectIndexText(const core::Trace& trace, PeId pe, std::size_t execution)
{
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    if (execution >= p.executions.object.size())
        return {};
    const auto object = p.executions.object[execution];
    if (object >= p.objects.size() || p.objects[object].length == 0)
        return {};
    const auto& id = p.objects[object];
    std::string text = "[";
    for (std::uint8_t i = 0; i < id.length && i < id.values.size(); ++i) {
        if (i > 0)
            text.push_back(',');
        text.append(std::to_string(id.values[i]));
    }
    text.push_back(']');
    return text;
}

} // namespace parallax::exporter
