#include "core/analysis/idle_blame.h"

#include "core/trace.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace parallax::core::analysis {

namespace {

EntryId blameEntryOf(const Trace& trace, ExecutionRef ref)
{
    return static_cast<EntryId>(
        trace.pes[static_cast<std::size_t>(ref.pe)].executions.entry[ref.index]);
}

// Fills in the blame of an idle period ended by execution `after` of its PE.
void blameIdle(const Trace& trace, const PeFilter& producers, BlamedIdle& idle)
{
    const auto& ex = trace.pes[static_cast<std::size_t>(idle.consumerPe)].executions;
    const auto cause = findStartCause(trace, idle.consumerPe, idle.ended.index, producers);
    if (cause.kind != StartCause::Kind::Message) {
        const bool named = ex.sourcePe[idle.ended.index] >= 0 && ex.eventId[idle.ended.index] >= 0;
        idle.kind = named && !cause.unresolved.empty() ? BlamedIdle::Kind::UnresolvedLink
                                                       : BlamedIdle::Kind::NoSender;
        return;
    }
    idle.producerPe = cause.senderPe;
    idle.messageEntry = cause.sentEntry;
    idle.sendTime = cause.sendTime;
    if (cause.senderPe == idle.consumerPe) {
        idle.kind = BlamedIdle::Kind::SelfMessage;
        return;
    }
    idle.kind = BlamedIdle::Kind::Message;
    if (!cause.senderExecution || cause.sentBetween)
        return;
    idle.producerEntry = blameEntryOf(trace, cause.sender);
    // One level up: why the producer's execution began when it did.
    const auto late = findStartCause(trace, cause.sender.pe, cause.sender.index, producers);
    idle.producerLate = late.kind;
    if (late.kind == StartCause::Kind::Message) {
        idle.producerLatePe = late.senderPe;
        if (late.senderExecution && !late.sentBetween)
            idle.producerLateEntry = blameEntryOf(trace, late.sender);
    } else if (late.kind == StartCause::Kind::ProgramOrder) {
        idle.producerLatePe = late.previous.pe;
        idle.producerLateEntry = blameEntryOf(trace, late.previous);
    }
}

} // namespace

const char* blamedIdleKindName(BlamedIdle::Kind kind)
{
    switch (kind) {
    case BlamedIdle::Kind::Message:
        return "message";
    case BlamedIdle::Kind::SelfMessage:
        return "self-message";
    case BlamedIdle::Kind::NoSender:
        return "no-sender";
    case BlamedIdle::Kind::UnresolvedLink:
        return "unresolved-link";
    case BlamedIdle::Kind::NothingAfter:
        return "nothing-after";
    }
    return "nothing-after";
}

const char* producerLateName(StartCause::Kind kind)
{
    switch (kind) {
    case StartCause::Kind::Message:
        return "message";
    case StartCause::Kind::ProgramOrder:
        return "busy";
    case StartCause::Kind::None:
        break;
    }
    return "none";
}

TimeUs IdleBlame::blamedIdle() const
{
    TimeUs sum = 0;
    for (const auto& idle : idles)
        if (idle.kind == BlamedIdle::Kind::Message)
            sum += idle.idle();
    return sum;
}

IdleBlame findIdleBlame(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    IdleBlame blame;
    const auto resolved = resolve(trace, request);
    blame.range = resolved.range;
    // Producers may be any PE with a log; consumers are the selected PEs.
    std::vector<PeId> all(trace.pes.size());
    for (std::size_t p = 0; p < all.size(); ++p)
        all[p] = static_cast<PeId>(p);
    const auto producers = makePeFilter(trace, all);
    for (std::size_t k = 0; k < resolved.pes.size(); ++k) {
        const auto pe = resolved.pes[k];
        if (resolved.isAggregated(k) && producers.contains(pe))
            blame.pes.push_back(pe);
    }
    // Each consumer PE on its own (they only read the trace), then joined in PE order.
    struct PeBlame {
        std::vector<BlamedIdle> idles;
        TimeUs totalIdle = 0;
    };
    std::vector<PeBlame> perPe(blame.pes.size());
    const auto range = blame.range;
    parallelFor(perPe.size(), resolved.threads, progress, [&](std::size_t k) {
        const auto pe = blame.pes[k];
        auto& out = perPe[k];
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        const auto idles = p.idlesOverlapping(range.begin, range.end);
        for (auto i = idles.first; i < idles.last; ++i) {
            BlamedIdle idle;
            idle.consumerPe = pe;
            idle.begin = std::max(p.idles.begin[i], range.begin);
            idle.end = std::min(p.idles.end[i], range.end);
            if (idle.end <= idle.begin)
                continue;
            out.totalIdle += idle.idle();
            const auto& ex = p.executions;
            const auto after = static_cast<std::size_t>(
                std::lower_bound(ex.begin.begin(), ex.begin.end(), p.idles.end[i])
                - ex.begin.begin());
            if (after < ex.size() && ex.begin[after] <= p.idles.end[i] + kIdleEndSlack) {
                idle.ended = { pe, after };
                blameIdle(trace, producers, idle);
            }
            out.idles.push_back(idle);
        }
    });
    std::size_t count = 0;
    for (const auto& x : perPe)
        count += x.idles.size();
    blame.idles.reserve(count);
    for (auto& x : perPe) {
        blame.totalIdle += x.totalIdle;
        blame.idles.insert(blame.idles.end(), x.idles.begin(), x.idles.end());
    }
    return blame;
}

std::vector<BlameRow> aggregateBlame(const IdleBlame& blame, BlameGrouping grouping)
{
    using Key = std::tuple<PeId, EntryId, PeId, int, PeId, EntryId>;
    std::map<Key, BlameRow> rows;
    for (const auto& idle : blame.idles) {
        if (idle.kind != BlamedIdle::Kind::Message)
            continue;
        BlameRow row;
        if (grouping != BlameGrouping::Entry) {
            row.producerPe = idle.producerPe;
            row.consumerPe = idle.consumerPe;
        }
        if (grouping != BlameGrouping::Pe)
            row.producerEntry = idle.producerEntry;
        if (grouping == BlameGrouping::Detail) {
            row.producerLate = idle.producerLate;
            row.producerLatePe = idle.producerLatePe;
            row.producerLateEntry = idle.producerLateEntry;
        }
        const Key key { row.producerPe, row.producerEntry, row.consumerPe,
            static_cast<int>(row.producerLate), row.producerLatePe, row.producerLateEntry };
        auto& slot = rows.try_emplace(key, row).first->second;
        slot.idle += idle.idle();
        ++slot.count;
    }
    std::vector<BlameRow> out;
    out.reserve(rows.size());
    for (auto& [key, row] : rows)
        out.push_back(row);
    std::stable_sort(out.begin(), out.end(),
        [](const BlameRow& a, const BlameRow& b) { return a.idle > b.idle; });
    return out;
}

std::vector<IdleCaused> idleCaused(const IdleBlame& blame)
{
    std::map<PeId, IdleCaused> byPe;
    std::map<EntryId, IdleCaused> byEntry;
    std::map<int, IdleCaused> unblamed;
    for (const auto& idle : blame.idles) {
        IdleCaused* slot = nullptr;
        if (idle.kind == BlamedIdle::Kind::Message) {
            auto& pe = byPe.try_emplace(idle.producerPe).first->second;
            pe.kind = IdleCaused::Kind::Pe;
            pe.pe = idle.producerPe;
            pe.idle += idle.idle();
            ++pe.count;
            slot = &byEntry.try_emplace(idle.producerEntry).first->second;
            slot->kind = IdleCaused::Kind::Entry;
            slot->entry = idle.producerEntry;
        } else {
            slot = &unblamed.try_emplace(static_cast<int>(idle.kind)).first->second;
            slot->kind = IdleCaused::Kind::Unblamed;
            slot->unblamed = idle.kind;
        }
        slot->idle += idle.idle();
        ++slot->count;
    }
    std::vector<IdleCaused> out;
    const auto byIdle = [](const IdleCaused& a, const IdleCaused& b) {
        return a.idle > b.idle;
    };
    for (const auto* group : { &byPe, &byEntry }) {
        const auto first = out.size();
        for (const auto& [key, row] : *group)
            out.push_back(row);
        std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), byIdle);
    }
    for (const auto& [key, row] : unblamed)
        out.push_back(row);
    return out;
}

} // namespace parallax::core::analysis
