#include "core/analysis/message_links.h"

#include <algorithm>

namespace parallax::core::analysis {

namespace {

bool isThreadEntry(const RunMetadata& meta, int entry)
{
    return meta.entryName(entry) == "dummy_thread_ep";
}

} // namespace

MessageLink findMessageSource(const Trace& trace, PeId pe, std::size_t execution, TimeUs tolerance)
{
    MessageLink link;
    link.pe = pe;
    link.execution = execution;
    if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size()) {
        link.status = MessageLink::Status::NoSource;
        return link;
    }
    const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
    if (execution >= ex.size()) {
        link.status = MessageLink::Status::NoSource;
        return link;
    }
    link.senderPe = ex.sourcePe[execution];
    const auto eventId = ex.eventId[execution];
    const auto begin = ex.begin[execution];
    const int entry = ex.entry[execution];
    const auto& meta = trace.metadata;
    if (eventId < 0 || link.senderPe < 0) {
        link.status = MessageLink::Status::NoSource;
        link.reason = "no sender recorded (SDAG serial block or runtime message)";
        return link;
    }
    if (static_cast<std::size_t>(link.senderPe) >= trace.pes.size()
        || !trace.pes[static_cast<std::size_t>(link.senderPe)].hasLog) {
        link.status = MessageLink::Status::NotFound;
        link.reason = "PE " + std::to_string(link.senderPe) + " has no log";
        return link;
    }
    const auto& sends = trace.pes[static_cast<std::size_t>(link.senderPe)].sends;
    // Latest match at or before begin + tolerance: scan back from there.
    const auto limit = std::upper_bound(sends.time.begin(), sends.time.end(), begin + tolerance)
        - sends.time.begin();
    std::optional<std::size_t> latestBefore; // time <= begin
    std::optional<std::size_t> withinSkew; // begin < time <= begin + tolerance (earliest)
    for (auto s = static_cast<std::ptrdiff_t>(limit) - 1; s >= 0; --s) {
        const auto index = static_cast<std::size_t>(s);
        if (sends.eventId[index] != eventId)
            continue;
        if (sends.time[index] <= begin) {
            latestBefore = index;
            break;
        }
        withinSkew = index;
    }
    link.send = latestBefore ? latestBefore : withinSkew;
    if (!link.send) {
        const bool later = std::find(sends.eventId.begin() + limit, sends.eventId.end(), eventId)
            != sends.eventId.end();
        link.status = later ? MessageLink::Status::SentAfterBegin : MessageLink::Status::NotFound;
        link.reason = later ? "PE " + std::to_string(link.senderPe) + " sent event "
                + std::to_string(eventId) + " only after this began (a stale event id)"
                            : "PE " + std::to_string(link.senderPe) + " has no send with event "
                + std::to_string(eventId);
        return link;
    }
    const auto s = *link.send;
    link.status = MessageLink::Status::Linked;
    const auto& senderPe = trace.pes[static_cast<std::size_t>(link.senderPe)];
    if (isThreadEntry(meta, entry)) {
        link.status = MessageLink::Status::Weak;
        link.reason = "a thread resumption: its event id may be stale";
    } else if (sends.entry[s] != entry) {
        link.status = MessageLink::Status::Weak;
        link.reason = "the send was for " + meta.entryName(sends.entry[s]) + " (a stale event id?)";
    } else if (sends.kind[s] == SendKind::Multicast) {
        const auto destinations = senderPe.multicastDestinations(s);
        const bool known
            = std::any_of(destinations.begin(), destinations.end(), [](PeId d) { return d != 0; });
        if (known
            && std::find(destinations.begin(), destinations.end(), pe) == destinations.end()) {
            link.status = MessageLink::Status::Weak;
            link.reason = "the multicast does not list PE " + std::to_string(pe);
        }
    }
    return link;
}

std::vector<MessageLink> findMessagePath(
    const Trace& trace, PeId pe, std::size_t execution, std::size_t maxHops, std::size_t messages)
{
    std::vector<MessageLink> path;
    auto link = findMessageSource(trace, pe, execution);
    path.push_back(link);
    std::size_t followed = 1; // messages traced back (comm-thread relays do not count)
    while (path.size() < maxHops && path.back().linked()) {
        const auto& last = path.back();
        const bool relay = trace.metadata.isCommThread(last.senderPe) && last.senderPe != last.pe;
        if (!relay) {
            if (followed >= messages)
                break;
            ++followed;
        }
        const auto& sends = trace.pes[static_cast<std::size_t>(last.senderPe)].sends;
        const auto relayed = sends.execution[*last.send];
        if (relayed == kNoExecution || (relayed & kSendAfterExecution) != 0)
            break;
        link = findMessageSource(trace, last.senderPe, relayed);
        path.push_back(link);
    }
    return path;
}

std::vector<MessageLink> findMessageTargets(
    const Trace& trace, PeId pe, std::size_t execution, const std::vector<PeId>& among)
{
    std::vector<MessageLink> targets;
    if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
        return targets;
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    if (execution >= p.executions.size())
        return targets;
    const auto b = p.executions.begin[execution];
    const auto e = p.executions.end[execution];
    const auto sends = p.sendsIn(b, e + 1);
    std::size_t followed = 0;
    for (auto s = sends.first; s < sends.last && followed < kForwardSendLimit; ++s) {
        if (p.sends.execution[s] != static_cast<std::uint32_t>(execution))
            continue; // made between executions or by another one
        ++followed;
        const auto time = p.sends.time[s];
        const auto eventId = p.sends.eventId[s];
        const bool one = p.sends.kind[s] == SendKind::PointToPoint;
        for (const auto q : among) {
            if (q < 0 || static_cast<std::size_t>(q) >= trace.pes.size())
                continue;
            const auto& ex = trace.pes[static_cast<std::size_t>(q)].executions;
            auto k = static_cast<std::size_t>(
                std::lower_bound(ex.begin.begin(), ex.begin.end(), time - kMessageSkewTolerance)
                - ex.begin.begin());
            bool found = false;
            for (std::size_t n = 0; k < ex.size() && n < kForwardSearchLimit; ++k, ++n) {
                if (ex.sourcePe[k] != pe || ex.eventId[k] != eventId)
                    continue;
                auto link = findMessageSource(trace, q, k);
                if (link.send && *link.send == s) {
                    targets.push_back(std::move(link));
                    found = true;
                }
                break; // the first with this (PE, event id) after the send is the only candidate
            }
            if (found && one)
                break;
        }
    }
    return targets;
}

} // namespace parallax::core::analysis
