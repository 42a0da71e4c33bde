#include "java_event_stream.h"

#include <algorithm>
#include <cstdint>

namespace parallax::core::analysis {

namespace {

// An auxiliary record and the slot it belongs to: inside execution x, or after execution x
// (before x+1); slot -1 = before the first execution.
struct Aux {
    std::int64_t slot; // 2*x+1 inside x, 2*x+2 after x, 0 before any
    TimeUs time;
    std::uint32_t order; // tie-break within a slot: original sequence
    JavaEvent event;
};

std::int64_t slotOf(const ExecutionColumns& ex, TimeUs begin, TimeUs end)
{
    // Last execution that began at or before `begin`.
    const auto it = std::upper_bound(ex.begin.begin(), ex.begin.end(), begin);
    if (it == ex.begin.begin())
        return 0;
    const auto x = static_cast<std::int64_t>(it - ex.begin.begin()) - 1;
    const auto ux = static_cast<std::size_t>(x);
    const bool inside = begin >= ex.begin[ux] && end <= ex.end[ux]
        && (begin < ex.end[ux] || ex.begin[ux] == ex.end[ux]);
    return inside ? 2 * x + 1 : 2 * x + 2;
}

} // namespace

std::vector<JavaEvent> javaEventStream(const PeTrace& pe, JavaStreamParts parts)
{
    using Kind = JavaEvent::Kind;
    const auto& ex = pe.executions;
    std::vector<Aux> aux;
    std::uint32_t order = 0;
    // Idles lie between executions.
    for (std::size_t j = 0; j < pe.idles.size(); ++j) {
        const auto b = pe.idles.begin[j];
        const auto e = pe.idles.end[j];
        auto slot = slotOf(ex, b, e);
        if (slot % 2 == 1)
            ++slot; // an idle is never inside an execution (the store closed it there)
        aux.push_back({ slot, b, order++, { Kind::BeginIdle, b } });
        const bool last = j + 1 == pe.idles.size();
        if (!(last && pe.lastIdleFlags != 0))
            aux.push_back({ slot, e, order++, { Kind::EndIdle, e } });
    }
    if (parts.packs) {
        const IntervalColumns* kinds[] = { &pe.packs, &pe.unpacks };
        const Kind begins[] = { Kind::BeginPack, Kind::BeginUnpack };
        const Kind ends[] = { Kind::EndPack, Kind::EndUnpack };
        for (int k = 0; k < 2; ++k) {
            const auto& c = *kinds[k];
            for (std::size_t j = 0; j < c.size(); ++j) {
                const auto slot = slotOf(ex, c.begin[j], c.end[j]);
                aux.push_back({ slot, c.begin[j], order++, { begins[k], c.begin[j] } });
                aux.push_back({ slot, c.end[j], order++, { ends[k], c.end[j] } });
            }
        }
    }
    if (parts.creations) {
        const auto& s = pe.sends;
        for (std::size_t j = 0; j < s.size(); ++j) {
            if (s.kind[j] != SendKind::PointToPoint)
                continue;
            const auto anchor = s.execution[j];
            std::int64_t slot = 0;
            if (anchor != kNoExecution) {
                const auto x = static_cast<std::int64_t>(anchor & ~kSendAfterExecution);
                slot = (anchor & kSendAfterExecution) != 0 ? 2 * x + 2 : 2 * x + 1;
            }
            aux.push_back({ slot, s.time[j], order++,
                { Kind::Creation, s.time[j], static_cast<EntryId>(s.entry[j]),
                    s.sendDuration[j] } });
        }
    }
    std::sort(aux.begin(), aux.end(), [](const Aux& a, const Aux& b) {
        if (a.slot != b.slot)
            return a.slot < b.slot;
        if (a.time != b.time)
            return a.time < b.time;
        return a.order < b.order;
    });

    std::vector<JavaEvent> out;
    out.reserve(ex.size() * 2 + aux.size() + 1);
    std::size_t a = 0;
    auto flushSlot = [&](std::int64_t slot) {
        while (a < aux.size() && aux[a].slot <= slot)
            out.push_back(aux[a++].event);
    };
    constexpr std::uint8_t kNoLoggedEnd
        = kClosedByNextBegin | kClosedAtEndComputation | kClosedAtEof | kClosedByIdle;
    for (std::size_t x = 0; x < ex.size(); ++x) {
        const auto sx = static_cast<std::int64_t>(x);
        flushSlot(2 * sx); // everything before execution x
        const auto entry = static_cast<EntryId>(ex.entry[x]);
        out.push_back({ Kind::BeginProcessing, ex.begin[x], entry });
        flushSlot(2 * sx + 1); // inside x
        const auto flags = ex.flags[x];
        if ((flags & kClosedAtTraceOff) != 0) {
            out.push_back({ Kind::EndTrace, ex.end[x] });
            const auto gap = std::find_if(pe.traceGaps.begin(), pe.traceGaps.end(),
                [&](const TraceGap& g) { return g.begin == ex.end[x]; });
            if (gap != pe.traceGaps.end() && gap->resumedEnd >= 0)
                out.push_back({ Kind::EndProcessing, gap->resumedEnd, entry });
        } else if ((flags & kNoLoggedEnd) == 0) {
            out.push_back({ Kind::EndProcessing, ex.end[x], entry });
        }
    }
    flushSlot(INT64_MAX);
    if (pe.endComputation >= 0)
        out.push_back({ Kind::EndComputation, pe.endComputation });
    return out;
}

} // namespace parallax::core::analysis
