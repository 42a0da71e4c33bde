#include "core/analysis/critical_path.h"

#include "core/analysis/message_links.h"
#include "core/trace.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_set>

namespace parallax::core::analysis {

namespace {

constexpr TimeUs kCriticalNever = std::numeric_limits<TimeUs>::min();

// Relays plus the sender: enough hops for any comm-thread chain seen in practice.
constexpr std::size_t kCriticalRelayHops = 8;

const char* criticalLinkState(MessageLink::Status status)
{
    switch (status) {
    case MessageLink::Status::Weak:
        return "weak";
    case MessageLink::Status::SentAfterBegin:
        return "stale-event-id";
    case MessageLink::Status::NotFound:
        return "not-found";
    case MessageLink::Status::Linked:
    case MessageLink::Status::NoSource:
        break;
    }
    return "";
}

// Whether `pe` sat idle right before `begin`: its last idle interval that began before `begin`
// ended at or after `freeFrom` (the end of the previous execution).
bool idleRightBefore(const PeTrace& p, TimeUs begin, TimeUs freeFrom)
{
    const auto& idles = p.idles;
    const auto it = std::lower_bound(idles.begin.begin(), idles.begin.end(), begin);
    if (it == idles.begin.begin())
        return false;
    const auto k = static_cast<std::size_t>(it - idles.begin.begin()) - 1;
    return idles.end[k] >= freeFrom && idles.end[k] + kIdleEndSlack >= begin;
}

std::uint64_t criticalNodeKey(ExecutionRef ref)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(ref.pe)) << 40U)
        ^ static_cast<std::uint64_t>(ref.index);
}

} // namespace

PeFilter makePeFilter(const Trace& trace, const std::vector<PeId>& pes)
{
    PeFilter filter;
    filter.allowed.assign(trace.pes.size(), false);
    for (const auto pe : pes)
        if (pe >= 0 && static_cast<std::size_t>(pe) < trace.pes.size()
            && trace.pes[static_cast<std::size_t>(pe)].hasLog)
            filter.allowed[static_cast<std::size_t>(pe)] = true;
    return filter;
}

StartCause findStartCause(const Trace& trace, PeId pe, std::size_t execution, const PeFilter& pes)
{
    StartCause cause;
    if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
        return cause;
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    const auto& ex = p.executions;
    if (execution >= ex.size())
        return cause;
    const TimeUs begin = ex.begin[execution];
    const bool hasPrevious = execution > 0;
    const TimeUs freeAt = hasPrevious ? ex.end[execution - 1] : kCriticalNever;

    // The message, followed back through comm-thread relays to the worker that sent it.
    bool message = false;
    const auto path = findMessagePath(trace, pe, execution, kCriticalRelayHops, 1);
    const auto& last = path.back();
    const bool weak = std::any_of(path.begin(), path.end(), [](const auto& l) { return l.weak(); });
    if (!last.linked() || weak) {
        cause.unresolved = weak ? "weak" : criticalLinkState(last.status);
    } else if (trace.metadata.isCommThread(last.senderPe) && last.senderPe != last.pe) {
        cause.unresolved = "not-found"; // a relay whose own message could not be followed
    } else {
        const auto& sender = trace.pes[static_cast<std::size_t>(last.senderPe)];
        const auto s = *last.send;
        message = true;
        cause.senderPe = last.senderPe;
        cause.sendTime = std::min(sender.sends.time[s], begin); // clock skew: never after
        cause.sentEntry = static_cast<EntryId>(sender.sends.entry[s]);
        const auto made = sender.sends.execution[s];
        if (!pes.contains(last.senderPe)) {
            cause.unresolved = "outside-pes";
        } else if (made != kNoExecution) {
            const auto index = static_cast<std::size_t>(made & ~kSendAfterExecution);
            if (index < sender.executions.size()) {
                cause.sender = { last.senderPe, index };
                cause.senderExecution = true;
                cause.sentBetween = (made & kSendAfterExecution) != 0
                    || sender.executions.end[index] < cause.sendTime;
            }
        }
    }
    if (message && (!hasPrevious || cause.sendTime > freeAt || idleRightBefore(p, begin, freeAt))) {
        cause.kind = StartCause::Kind::Message;
        return cause;
    }
    if (hasPrevious) {
        cause.kind = StartCause::Kind::ProgramOrder;
        cause.previous = { pe, execution - 1 };
        if (message)
            cause.unresolved.clear(); // the message was there in time: not a missing link
    }
    return cause;
}

const char* criticalStepKindName(CriticalStep::Kind kind)
{
    switch (kind) {
    case CriticalStep::Kind::Exec:
        return "exec";
    case CriticalStep::Kind::Message:
        return "message";
    case CriticalStep::Kind::Wait:
        return "wait";
    }
    return "exec";
}

TimeUs CriticalPath::total(CriticalStep::Kind kind) const
{
    TimeUs sum = 0;
    for (const auto& step : steps)
        if (step.kind == kind)
            sum += step.end - step.begin;
    return sum;
}

std::vector<CriticalEntryShare> criticalPathByEntry(const CriticalPath& path)
{
    std::vector<CriticalEntryShare> shares;
    std::vector<std::size_t> shareOf; // index = entry + 1 (kNoEntry first): position + 1, or 0
    for (std::size_t k = 0; k < path.steps.size(); ++k) {
        const auto& step = path.steps[k];
        if (step.kind == CriticalStep::Kind::Wait)
            continue;
        const auto slot = static_cast<std::size_t>(std::max<EntryId>(step.entry, kNoEntry) + 1);
        if (slot >= shareOf.size())
            shareOf.resize(slot + 1, 0);
        if (shareOf[slot] == 0) {
            shares.push_back({ step.entry, 0, 0, 0, k });
            shareOf[slot] = shares.size();
        }
        auto& share = shares[shareOf[slot] - 1];
        const TimeUs length = step.end - step.begin;
        if (step.kind == CriticalStep::Kind::Exec) {
            const auto& longest = path.steps[share.longestStep];
            if (share.executions == 0 || length > longest.end - longest.begin)
                share.longestStep = k;
            share.exec += length;
            ++share.executions;
        } else {
            share.message += length;
        }
    }
    std::sort(shares.begin(), shares.end(), [](const auto& a, const auto& b) {
        if (a.exec != b.exec)
            return a.exec > b.exec;
        if (a.message != b.message)
            return a.message > b.message;
        return a.entry < b.entry;
    });
    return shares;
}

CriticalPath findCriticalPath(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    CriticalPath path;
    const auto resolved = resolve(trace, request);
    path.range = resolved.range;
    const TimeUs rangeBegin = resolved.range.begin;
    const TimeUs rangeEnd = resolved.range.end;
    std::vector<PeId> nodes;
    for (std::size_t k = 0; k < resolved.pes.size(); ++k)
        if (resolved.isAggregated(k))
            nodes.push_back(resolved.pes[k]);
    const auto filter = makePeFilter(trace, nodes);

    // The execution that ends last in the range (the lowest PE on a tie).
    std::optional<ExecutionRef> last;
    TimeUs lastEnd = kCriticalNever;
    for (const auto pe : nodes) {
        if (!filter.contains(pe))
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        const auto overlapping = p.executionsOverlapping(rangeBegin, rangeEnd);
        if (overlapping.empty())
            continue;
        const auto index = overlapping.last - 1;
        const TimeUs end = std::min(p.executions.end[index], rangeEnd);
        if (end > lastEnd) {
            lastEnd = end;
            last = ExecutionRef { pe, index };
        }
    }
    if (!last)
        return path;

    std::vector<CriticalStep> reversed;
    auto push = [&](CriticalStep::Kind kind, PeId pe, PeId toPe, EntryId entry, TimeUs b, TimeUs e,
                    ExecutionRef ref) {
        if (e > b || kind == CriticalStep::Kind::Exec)
            reversed.push_back({ kind, pe, toPe, entry, b, e, ref });
    };
    std::unordered_set<std::uint64_t> visited;
    ExecutionRef current = *last;
    TimeUs currentEnd = lastEnd;
    path.startReason = "no earlier dependency known";
    // Progress: the share of the range walked back over, every few thousand steps.
    constexpr std::size_t kCheckEvery = 4096;
    const double span = std::max<double>(1.0, static_cast<double>(rangeEnd - rangeBegin));
    for (std::size_t walked = 1;; ++walked) {
        if (walked % kCheckEvery == 0) {
            if (progress.isCancelled()) {
                path.startReason = "cancelled";
                break;
            }
            if (progress.report)
                progress.report(
                    std::clamp(static_cast<double>(rangeEnd - currentEnd) / span, 0.0, 1.0));
        }
        if (!visited.insert(criticalNodeKey(current)).second) {
            path.startReason = "a dependency loop (inconsistent event ids)";
            break;
        }
        const auto& ex = trace.pes[static_cast<std::size_t>(current.pe)].executions;
        const TimeUs begin = ex.begin[current.index];
        const auto entry = static_cast<EntryId>(ex.entry[current.index]);
        if (begin <= rangeBegin) {
            push(CriticalStep::Kind::Exec, current.pe, current.pe, entry, rangeBegin, currentEnd,
                current);
            path.startReason = "the range begins";
            break;
        }
        push(CriticalStep::Kind::Exec, current.pe, current.pe, entry, begin, currentEnd, current);
        const auto cause = findStartCause(trace, current.pe, current.index, filter);
        if (!cause.unresolved.empty() && cause.unresolved != "outside-pes")
            ++path.unresolvedLinks; // a sender outside the PEs is a known link, not a missing one
        if (cause.kind == StartCause::Kind::None)
            break;
        if (cause.kind == StartCause::Kind::ProgramOrder) {
            const TimeUs freeAt = ex.end[current.index - 1];
            push(CriticalStep::Kind::Wait, current.pe, current.pe, kNoEntry,
                std::max(freeAt, rangeBegin), begin, {});
            if (freeAt <= rangeBegin) {
                path.startReason = "the range begins";
                break;
            }
            current = cause.previous;
            currentEnd = freeAt;
            continue;
        }
        // A message: from its send to this begin.
        push(CriticalStep::Kind::Message, cause.senderPe, current.pe, cause.sentEntry,
            std::max(cause.sendTime, rangeBegin), begin, {});
        if (cause.sendTime <= rangeBegin) {
            path.startReason = "the range begins";
            break;
        }
        if (!cause.senderExecution) {
            path.startReason = cause.unresolved == "outside-pes"
                ? "PE " + std::to_string(cause.senderPe) + " is not selected"
                : "the send on PE " + std::to_string(cause.senderPe)
                    + " came before any execution there";
            break;
        }
        const auto& senderEx = trace.pes[static_cast<std::size_t>(cause.senderPe)].executions;
        current = cause.sender;
        if (cause.sentBetween) {
            const TimeUs ended = senderEx.end[current.index];
            push(CriticalStep::Kind::Wait, cause.senderPe, cause.senderPe, kNoEntry,
                std::max(ended, rangeBegin), cause.sendTime, {});
            if (ended <= rangeBegin) {
                path.startReason = "the range begins";
                break;
            }
            currentEnd = ended;
        } else {
            currentEnd = std::max(cause.sendTime, senderEx.begin[current.index]);
        }
    }
    path.steps.assign(reversed.rbegin(), reversed.rend());
    return path;
}

} // namespace parallax::core::analysis
