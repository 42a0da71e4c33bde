#include "pe_trace.h"

#include <algorithm>

namespace parallax::core {

namespace {
template <typename Times>
IndexRange overlapping(const Times& begin, const Times& end, TimeUs t0, TimeUs t1)
{
    if (t1 <= t0 || begin.empty())
        return {};
    // Both columns are non-decreasing (sorted, non-overlapping intervals). The first candidate
    // is the first interval ending at or after t0; one that ends exactly at t0 overlaps only
    // if it has zero length (a point at t0). The last is the first that begins at or after t1.
    auto first
        = static_cast<std::size_t>(std::lower_bound(end.begin(), end.end(), t0) - end.begin());
    while (first < end.size() && end[first] == t0 && begin[first] < t0)
        ++first;
    const auto last = static_cast<std::size_t>(
        std::lower_bound(begin.begin(), begin.end(), t1) - begin.begin());
    if (last <= first)
        return {};
    return { first, last };
}
} // namespace

IndexRange overlappingRange(
    std::span<const TimeUs> begin, std::span<const TimeUs> end, TimeUs t0, TimeUs t1)
{
    return overlapping(begin, end, t0, t1);
}

IndexRange overlappingRange(const ClockColumn& begin, const ClockColumn& end, TimeUs t0, TimeUs t1)
{
    return overlapping(begin, end, t0, t1);
}

IndexRange PeTrace::executionsOverlapping(TimeUs t0, TimeUs t1) const
{
    return overlappingRange(executions.begin, executions.end, t0, t1);
}

IndexRange PeTrace::idlesOverlapping(TimeUs t0, TimeUs t1) const
{
    return overlappingRange(idles.begin, idles.end, t0, t1);
}

IndexRange PeTrace::packsOverlapping(TimeUs t0, TimeUs t1) const
{
    return overlappingRange(packs.begin, packs.end, t0, t1);
}

IndexRange PeTrace::unpacksOverlapping(TimeUs t0, TimeUs t1) const
{
    return overlappingRange(unpacks.begin, unpacks.end, t0, t1);
}

IndexRange PeTrace::sendsIn(TimeUs t0, TimeUs t1) const
{
    if (t1 <= t0)
        return {};
    const auto& t = sends.time;
    const auto first
        = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), t0) - t.begin());
    const auto last
        = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), t1) - t.begin());
    return { first, std::max(first, last) };
}

std::vector<PeId> PeTrace::multicastDestinations(std::size_t sendIndex) const
{
    const auto& idx = sends.multicastSend;
    const auto it = std::lower_bound(idx.begin(), idx.end(), static_cast<std::uint32_t>(sendIndex));
    if (it == idx.end() || *it != sendIndex)
        return {};
    const auto k = static_cast<std::size_t>(it - idx.begin());
    const auto from = sends.multicastOffset[k];
    const auto to = sends.multicastOffset[k + 1];
    return { sends.multicastPes.begin() + from, sends.multicastPes.begin() + to };
}

namespace {
template <typename C> std::size_t bytesOf(const C& v)
{
    if constexpr (requires { v.memoryBytes(); })
        return v.memoryBytes();
    else
        return v.capacity() * sizeof(typename C::value_type);
}
} // namespace

std::size_t PeTrace::memoryBytes() const
{
    const auto& e = executions;
    std::size_t n = bytesOf(e.begin) + bytesOf(e.end) + bytesOf(e.entry) + bytesOf(e.sourcePe)
        + bytesOf(e.msgBytes) + bytesOf(e.eventId) + bytesOf(e.object) + bytesOf(e.cpuBegin)
        + bytesOf(e.cpuDuration) + bytesOf(e.flags) + bytesOf(e.papi);
    for (const auto* c : { &idles, &packs, &unpacks, &flushes })
        n += bytesOf(c->begin) + bytesOf(c->end);
    const auto& s = sends;
    n += bytesOf(s.time) + bytesOf(s.entry) + bytesOf(s.kind) + bytesOf(s.messageType)
        + bytesOf(s.msgBytes) + bytesOf(s.eventId) + bytesOf(s.destinationCount)
        + bytesOf(s.sendDuration) + bytesOf(s.execution) + bytesOf(s.multicastSend)
        + bytesOf(s.multicastOffset) + bytesOf(s.multicastPes);
    n += bytesOf(objects.offset) + bytesOf(objects.values) + bytesOf(userEvents)
        + bytesOf(userBrackets) + bytesOf(stats) + bytesOf(memory) + bytesOf(userSupplied)
        + bytesOf(traceGaps) + bytesOf(phaseEnds);
    n += bytesOf(notes);
    for (const auto& note : notes)
        n += note.text.capacity();
    return n;
}

} // namespace parallax::core
