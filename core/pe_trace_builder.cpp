#include "pe_trace_builder.h"

#include "column_placer.h"
#include "run_metadata.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>

namespace parallax::core {

namespace {

// The staged columns of the last PE built on this thread, with their room: the next builder on
// the thread writes into them. A run's PEs are built one after another on a few threads, so the
// arrays' growth (allocation, page faults, copies) is paid once per thread instead of once per PE.
thread_local BuilderStage t_stage;

// A stage larger than this in all (a PE of more than about half a million records) is freed
// rather than kept for the next PE, so a thread never holds more than this after a load.
constexpr std::size_t kMaxStageBytes = std::size_t { 32 } << 20;

// Room for `need` values in `array` (its values need not be kept).
template <typename T>
void ensureRoom(StagedArray<T>& array, std::size_t& capacity, std::size_t need)
{
    if (need > capacity) {
        capacity = std::max(need, capacity * 2);
        array.grow(0, capacity);
    }
}

} // namespace

PeTraceBuilder::PeTraceBuilder(
    PeId pe, const RunMetadata& metadata, std::string fileName, ImportReport& report)
    : m_meta(metadata)
    , m_fileName(std::move(fileName))
    , m_report(report)
    , m_papiCount(metadata.version >= 6.6 ? metadata.papiEvents.size() : 0)
    , m_stage(std::exchange(t_stage, BuilderStage {}))
{
    m_stage.clear();
    m_trace.pe = pe;
    m_trace.hasLog = true;
}

void PeTraceBuilder::issue(Issue kind, std::string message)
{
    m_report.add(kind, m_fileName, m_line, std::move(message));
}

[[gnu::always_inline]] inline void PeTraceBuilder::noteTime(TimeUs t)
{
    if (m_trace.firstTime < 0 || t < m_trace.firstTime)
        m_trace.firstTime = t;
    if (t > m_trace.lastTime)
        m_trace.lastTime = t;
}

// Executions, idles and pack intervals must stay sorted and non-overlapping for the interval
// index, so a record that opens or closes one of them never moves time backwards: an earlier
// timestamp is clamped to the previous one and counted.
[[gnu::always_inline]] inline TimeUs PeTraceBuilder::intervalTime(TimeUs t)
{
    if (t < m_lastIntervalTime) [[unlikely]]
        return clampTime(t);
    m_clamped = false;
    m_lastIntervalTime = t;
    return t;
}

TimeUs PeTraceBuilder::clampTime(TimeUs t)
{
    issue(Issue::TimeWentBackwards,
        "time " + std::to_string(t) + " us is before the previous record's "
            + std::to_string(m_lastIntervalTime) + " us; clamped");
    m_clamped = true;
    return m_lastIntervalTime;
}

void PeTraceBuilder::noteObject(std::span<const std::int32_t> ids)
{
    const auto length = std::min<std::size_t>(ids.size(), 6);
    std::uint64_t hash = 1469598103934665603ULL ^ length;
    for (std::size_t i = 0; i < length; ++i) {
        hash ^= static_cast<std::uint32_t>(ids[i]);
        hash *= 1099511628211ULL;
    }
    // Finalise (murmur3's fmix64) so the low bits used by the table depend on every value:
    // indices that differ only in their high bits (n * P + pe) must not share slots.
    hash ^= hash >> 33;
    hash *= 0xff51afd7ed558ccdULL;
    hash ^= hash >> 33;
    hash *= 0xc4ceb93e53ca8d63ULL;
    hash ^= hash >> 33;
    auto& staged = m_stage.objectIds;
    const auto row = staged.append();
    staged.growValues(staged.valueCount + length);
    std::copy_n(ids.data(), length, staged.values.data() + staged.valueCount);
    staged.valueCount += length;
    staged.hash[row] = static_cast<std::uint32_t>(hash);
    staged.length[row] = static_cast<std::uint8_t>(length);
}

// Executions are recorded in begin order, one per BEGIN_PROCESSING, so the k-th noted object id
// is execution k's; objects are numbered in order of first appearance, as they were when each
// was interned at its BEGIN.
void PeTraceBuilder::internObjects()
{
    const auto& ids = m_stage.objectIds;
    const std::size_t n = ids.rows;
    // At most one new object per execution, so a table of twice that never fills past half and
    // never regrows: the slot of an id further on can be prefetched.
    std::size_t size = 64;
    while (size < 2 * (n + 1))
        size *= 2;
    auto& st = m_stage;
    ensureRoom(st.objectSlots, st.objectSlotCapacity, size);
    std::uint64_t* slots = st.objectSlots.data();
    std::fill_n(slots, size, 0);
    ensureRoom(st.tableOffset, st.tableOffsetCapacity, n + 1);
    ensureRoom(st.tableValues, st.tableValueCapacity, std::max<std::size_t>(ids.valueCount, 1));
    std::uint32_t* offset = st.tableOffset.data();
    std::int32_t* tableValues = st.tableValues.data();
    std::size_t objects = 0;
    offset[0] = 0;
    const std::size_t mask = size - 1;
    const auto rows = st.executions.rows;
    std::uint32_t* out = st.executions.object.data();
    const std::size_t count = std::min(n, rows);
    std::fill(out + count, out + rows, 0U);
    constexpr std::size_t kAhead = 16;
    const std::int32_t* values = ids.values.data();
    for (std::size_t i = 0; i < count; ++i) {
        if (i + kAhead < n)
            __builtin_prefetch(&slots[ids.hash[i + kAhead] & mask]);
        const auto key = ids.hash[i];
        const std::uint32_t length = ids.length[i];
        std::size_t at = key & mask;
        constexpr auto kNotFound = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t index = kNotFound;
        while (const auto slot = slots[at]) {
            if ((slot >> 32) == key) {
                const auto k = static_cast<std::uint32_t>(slot) - 1;
                if (offset[k + 1] - offset[k] == length
                    && std::equal(values, values + length, tableValues + offset[k])) {
                    index = k;
                    break;
                }
            }
            at = (at + 1) & mask;
        }
        if (index == kNotFound) {
            index = static_cast<std::uint32_t>(objects);
            std::copy_n(values, length, tableValues + offset[objects]);
            offset[objects + 1] = offset[objects] + length;
            ++objects;
            slots[at] = (std::uint64_t { key } << 32) | (index + 1);
        }
        values += length;
        out[i] = index;
    }
    ColumnPlacer placer { m_arena };
    placer.place(m_trace.objects.offset, offset, objects == 0 ? 0 : objects + 1);
    placer.place(
        m_trace.objects.values, tableValues, objects == 0 ? 0 : std::size_t { offset[objects] });
}

void PeTraceBuilder::resumeGapAt(TimeUs t)
{
    // Java keeps the entry that was open at END_TRACE open until the next END (or a pretend END
    // at the next BEGIN); remember when that was so a Java-compatible view can reproduce it.
    if (m_awaitingResumeEnd && !m_trace.traceGaps.empty())
        m_trace.traceGaps.back().resumedEnd = t;
    m_awaitingResumeEnd = false;
}

void PeTraceBuilder::beginExecution(const LogRecord& r)
{
    const TimeUs t = intervalTime(r.time);
    const bool clamped = m_clamped;
    resumeGapAt(t);
    if (m_exec.open) {
        // +notracenested logs, lost ENDs: close the open execution here (pretend end, as Java).
        m_report.add(Issue::NestedBegin, m_fileName, m_line,
            "BEGIN_PROCESSING of entry " + std::to_string(r.entry) + " while entry "
                + std::to_string(m_exec.entry) + " is open");
        endExecution(t, kClosedByNextBegin, nullptr);
    }
    if (m_idle.open) {
        issue(Issue::EntryInsideIdle, "BEGIN_PROCESSING while idle; idle closed there");
        closeInterval(m_idle, m_stage.idles, t);
    }
    if (r.entry < 0 || static_cast<std::size_t>(r.entry) >= m_meta.entries.size())
        issue(Issue::UnknownEntry, "entry id " + std::to_string(r.entry) + " is not in the .sts");
    m_exec.open = true;
    m_exec.begin = t;
    m_exec.entry = r.entry;
    m_exec.sourcePe = r.pe;
    m_exec.msgBytes = r.msgBytes;
    m_exec.eventId = r.eventId;
    noteObject(r.objectId);
    m_exec.cpuBegin = r.hasCpuTime ? r.cpuTime : 0;
    m_exec.flags = clamped ? std::uint8_t { kTimeClamped } : std::uint8_t { 0 };
    if (m_papiCount > 0) {
        m_exec.papiBegin.assign(m_papiCount, 0);
        std::copy_n(r.papi.begin(), std::min(r.papi.size(), m_papiCount), m_exec.papiBegin.begin());
    }
}

void PeTraceBuilder::endExecution(TimeUs t, std::uint8_t flags, const LogRecord* end)
{
    std::uint32_t cpuDuration = 0;
    if (end != nullptr && end->hasCpuTime && end->cpuTime > m_exec.cpuBegin) {
        const auto d = end->cpuTime - m_exec.cpuBegin;
        cpuDuration = d > std::numeric_limits<std::uint32_t>::max()
            ? std::numeric_limits<std::uint32_t>::max()
            : static_cast<std::uint32_t>(d);
    }
    auto& x = m_stage.executions;
    const auto i = x.append();
    x.begin[i] = m_exec.begin;
    x.end[i] = std::max(t, m_exec.begin);
    x.sourcePe[i] = m_exec.sourcePe;
    x.msgBytes[i] = m_exec.msgBytes;
    x.eventId[i] = m_exec.eventId;
    x.cpuBegin[i] = m_exec.cpuBegin;
    x.cpuDuration[i] = cpuDuration;
    x.entry[i] = static_cast<std::uint16_t>(m_exec.entry);
    x.flags[i] = static_cast<std::uint8_t>(m_exec.flags | flags); // last: a byte store aliases all
    auto& e = m_trace.executions;
    if (m_papiCount > 0) {
        e.papi.insert(e.papi.end(), m_exec.papiBegin.begin(), m_exec.papiBegin.end());
        const auto before = e.papi.size();
        e.papi.resize(before + m_papiCount, 0);
        if (end != nullptr)
            std::copy_n(end->papi.begin(), std::min(end->papi.size(), m_papiCount),
                e.papi.begin() + static_cast<std::ptrdiff_t>(before));
    }
    m_exec.open = false;
}

[[gnu::always_inline]] inline void PeTraceBuilder::closeInterval(
    OpenInterval& open, StagedIntervals& into, TimeUs t)
{
    const auto i = into.append();
    into.begin[i] = open.begin;
    into.end[i] = std::max(t, open.begin);
    open.open = false;
}

void PeTraceBuilder::addSend(const LogRecord& r, SendKind kind)
{
    auto& s = m_stage.sends;
    const auto index = static_cast<std::uint32_t>(s.rows);
    if (index > 0 && r.time < s.time[index - 1])
        s.unsorted = true;
    const auto begun = m_stage.executions.rows + (m_exec.open ? 1U : 0U);
    std::uint32_t execution = kNoExecution;
    if (begun > 0)
        execution
            = static_cast<std::uint32_t>(begun - 1) | (m_exec.open ? 0U : kSendAfterExecution);
    const auto i = s.append();
    s.time[i] = r.time;
    s.msgBytes[i] = r.msgBytes;
    s.eventId[i] = r.eventId;
    s.destinationCount[i] = kind == SendKind::PointToPoint ? 1 : r.destinationCount;
    s.sendDuration[i] = static_cast<std::int32_t>(std::clamp<std::int64_t>(r.sendDuration,
        std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
    s.execution[i] = execution;
    s.entry[i] = static_cast<std::uint16_t>(std::max(r.entry, 0));
    s.kind[i] = static_cast<std::uint8_t>(kind);
    s.messageType[i] = static_cast<std::uint8_t>(std::clamp(r.messageType, 0, 255));
    if (kind == SendKind::Multicast && !r.destinations.empty()) {
        auto& m = m_trace.sends;
        if (m.multicastOffset.empty())
            m.multicastOffset.push_back(0);
        m.multicastSend.push_back(index);
        m.multicastPes.insert(m.multicastPes.end(), r.destinations.begin(), r.destinations.end());
        m.multicastOffset.push_back(static_cast<std::uint32_t>(m.multicastPes.size()));
    }
    if (r.entry < 0 || static_cast<std::size_t>(r.entry) >= m_meta.entries.size())
        issue(Issue::UnknownEntry,
            "send to entry id " + std::to_string(r.entry) + " not in the .sts");
}

void PeTraceBuilder::add(const LogRecord& r, std::uint64_t lineNumber)
{
    m_line = lineNumber;
    if (m_ended) {
        // Java stops reading at the first END_COMPUTATION; so do we.
        issue(Issue::RecordsAfterEnd, "record after END_COMPUTATION ignored");
        return;
    }
    ++m_trace.recordCount;

    if (m_pendingPair.present && r.type != RecordType::UserEventPair) {
        issue(Issue::UnmatchedUserEventPair, "USER_EVENT_PAIR without its second line");
        m_pendingPair.present = false;
    }

    switch (r.type) {
    case RecordType::BeginComputation:
        noteTime(r.time);
        if (m_trace.beginComputation < 0)
            m_trace.beginComputation = r.time;
        break;
    case RecordType::EndComputation: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        if (m_exec.open) {
            m_report.increment(Issue::OpenAtEndComputation);
            endExecution(t, kClosedAtEndComputation, nullptr);
        }
        if (m_idle.open) {
            closeInterval(m_idle, m_stage.idles, t);
            m_trace.lastIdleFlags = kClosedAtEndComputation;
        }
        if (m_pack.open)
            closeInterval(m_pack, m_stage.packs, t);
        if (m_unpack.open)
            closeInterval(m_unpack, m_stage.unpacks, t);
        m_trace.endComputation = r.time;
        m_ended = true;
        break;
    }
    case RecordType::BeginProcessing:
        noteTime(r.time);
        beginExecution(r);
        break;
    case RecordType::EndProcessing: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        if (!m_exec.open) {
            if (m_awaitingResumeEnd && !m_trace.traceGaps.empty()) {
                // The END of the entry method that was open when tracing went off.
                resumeGapAt(t);
            } else {
                m_report.add(Issue::UnmatchedEnd, m_fileName, m_line,
                    "END_PROCESSING of entry " + std::to_string(r.entry)
                        + " without an open entry method");
            }
            break;
        }
        std::uint8_t flags = m_clamped ? kTimeClamped : kEndedNormally;
        if (r.entry != m_exec.entry) {
            issue(Issue::EntryMismatch,
                "END_PROCESSING of entry " + std::to_string(r.entry) + " closes entry "
                    + std::to_string(m_exec.entry));
            flags |= kEndEntryMismatch;
        }
        endExecution(t, flags, &r);
        break;
    }
    case RecordType::BeginIdle: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        if (m_exec.open) {
            issue(Issue::IdleInsideEntry,
                "BEGIN_IDLE while entry " + std::to_string(m_exec.entry)
                    + " is open; entry closed there");
            endExecution(t, kClosedByIdle, nullptr);
        }
        if (m_idle.open) {
            issue(Issue::NestedIdle, "BEGIN_IDLE while already idle");
            break;
        }
        m_idle.open = true;
        m_idle.begin = t;
        break;
    }
    case RecordType::EndIdle: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        if (!m_idle.open) {
            issue(Issue::UnmatchedEndIdle, "END_IDLE without BEGIN_IDLE");
            break;
        }
        closeInterval(m_idle, m_stage.idles, t);
        break;
    }
    case RecordType::BeginPack:
    case RecordType::BeginUnpack: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        auto& open = r.type == RecordType::BeginPack ? m_pack : m_unpack;
        if (open.open) {
            issue(Issue::UnmatchedPack, "BEGIN_PACK/UNPACK while one is open");
            break;
        }
        open.open = true;
        open.begin = t;
        break;
    }
    case RecordType::EndPack:
    case RecordType::EndUnpack: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        const bool pack = r.type == RecordType::EndPack;
        auto& open = pack ? m_pack : m_unpack;
        if (!open.open) {
            issue(Issue::UnmatchedPack, "END_PACK/UNPACK without its BEGIN");
            break;
        }
        closeInterval(open, pack ? m_stage.packs : m_stage.unpacks, t);
        break;
    }
    case RecordType::Creation:
        noteTime(r.time);
        addSend(r, SendKind::PointToPoint);
        break;
    case RecordType::CreationBcast:
        noteTime(r.time);
        addSend(r, SendKind::Broadcast);
        break;
    case RecordType::CreationMulticast:
        noteTime(r.time);
        addSend(r, SendKind::Multicast);
        break;
    case RecordType::BeginInterrupt:
        noteTime(r.time);
        m_flush.open = true;
        m_flush.begin = r.time;
        break;
    case RecordType::EndInterrupt:
        noteTime(r.time);
        if (m_flush.open) {
            auto& f = m_trace.flushes;
            if (!f.end.empty() && m_flush.begin < f.end.back())
                m_flush.begin = f.end.back();
            f.begin.push_back(m_flush.begin);
            f.end.push_back(std::max(r.time, m_flush.begin));
            m_flush.open = false;
            m_report.increment(Issue::BufferFlush);
        }
        break;
    case RecordType::EndTrace: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        TraceGap gap;
        gap.begin = t;
        gap.end = kTimeMax;
        if (m_exec.open) {
            gap.openEntry = m_exec.entry;
            endExecution(t, kClosedAtTraceOff, nullptr);
        }
        if (m_idle.open)
            closeInterval(m_idle, m_stage.idles, t);
        if (!m_tracingOff) {
            m_trace.traceGaps.push_back(gap);
            m_report.increment(Issue::TracingGap);
        }
        m_tracingOff = true;
        m_awaitingResumeEnd = false;
        break;
    }
    case RecordType::BeginTrace: {
        noteTime(r.time);
        const TimeUs t = intervalTime(r.time);
        if (m_tracingOff && !m_trace.traceGaps.empty()) {
            auto& gap = m_trace.traceGaps.back();
            gap.end = std::max(t, gap.begin);
            m_awaitingResumeEnd = gap.openEntry != kNoEntry;
        }
        m_tracingOff = false;
        break;
    }
    case RecordType::UserEvent:
        noteTime(r.time);
        if (!m_meta.userEvents.contains(r.userEventId))
            m_report.increment(Issue::UnknownUserEvent);
        m_trace.userEvents.push_back({ r.time, r.userEventId, r.eventId });
        break;
    case RecordType::UserEventPair: {
        noteTime(r.time);
        // Two consecutive lines with the same event number: begin time, then end time.
        if (m_pendingPair.present && m_pendingPair.first.eventId == r.eventId
            && m_pendingPair.first.id == r.userEventId) {
            const auto& first = m_pendingPair.first;
            m_trace.userBrackets.push_back(
                { std::min(first.time, r.time), std::max(first.time, r.time), first.id,
                    m_pendingPair.nestedId, BracketKind::Pair });
            m_pendingPair.present = false;
        } else {
            if (m_pendingPair.present)
                issue(Issue::UnmatchedUserEventPair, "USER_EVENT_PAIR without its second line");
            m_pendingPair.present = true;
            m_pendingPair.first = { r.time, r.userEventId, r.eventId };
            m_pendingPair.nestedId = r.nestedId;
        }
        break;
    }
    case RecordType::BeginUserEventPair:
        noteTime(r.time);
        m_openBrackets[{ r.userEventId, r.nestedId }].emplace(r.time,
            UserEventBracket { r.time, r.time, r.userEventId, r.nestedId, BracketKind::BeginEnd });
        ++m_openBracketCount;
        break;
    case RecordType::EndUserEventPair: {
        noteTime(r.time);
        // The END closes the earliest-begun open bracket of its id and nested id (in a log
        // whose times never go backwards, the first one opened).
        const auto key = m_openBrackets.find({ r.userEventId, r.nestedId });
        if (key == m_openBrackets.end() || key->second.empty()
            || key->second.begin()->first > r.time) {
            issue(Issue::UnmatchedUserEventPair,
                "END_USER_EVENT_PAIR " + std::to_string(r.userEventId)
                    + " without BEGIN_USER_EVENT_PAIR");
            break;
        }
        auto bracket = key->second.begin()->second;
        bracket.end = r.time;
        m_trace.userBrackets.push_back(bracket);
        key->second.erase(key->second.begin());
        if (key->second.empty())
            m_openBrackets.erase(key);
        --m_openBracketCount;
        break;
    }
    case RecordType::UserSupplied:
        noteTime(r.time);
        m_trace.userSupplied.push_back({ r.time, r.value });
        break;
    case RecordType::MemoryUsage:
        noteTime(r.time);
        m_trace.memory.push_back(
            { r.time, static_cast<std::uint64_t>(std::max<std::int64_t>(r.value, 0)) });
        break;
    case RecordType::UserSuppliedNote:
        noteTime(r.time);
        m_trace.notes.push_back({ r.time, r.time, -1, std::string(r.text) });
        break;
    case RecordType::UserSuppliedBracketedNote:
        noteTime(r.time);
        m_trace.notes.push_back(
            { r.time, std::max(r.time, r.endTime), r.userEventId, std::string(r.text) });
        break;
    case RecordType::EndPhase:
        noteTime(r.time);
        m_trace.phaseEnds.push_back({ r.time, static_cast<std::int32_t>(r.value) });
        break;
    case RecordType::UserStat:
        noteTime(r.time);
        m_trace.stats.push_back({ r.time, r.userTime, r.statValue, r.statId });
        break;
    case RecordType::Enqueue:
    case RecordType::Dequeue:
    case RecordType::MessageRecv:
        noteTime(r.time);
        m_report.increment(Issue::LegacyRecord);
        break;
    case RecordType::BeginFunc:
    case RecordType::EndFunc:
    case RecordType::MemoryMalloc:
    case RecordType::MemoryFree:
    case RecordType::SurrogateBlock:
        m_report.increment(Issue::LegacyRecord);
        break;
    }
}

namespace {

template <typename C, typename Key> void sortStable(C& v, Key key)
{
    using T = typename C::value_type;
    if (!std::is_sorted(
            v.begin(), v.end(), [&](const T& a, const T& b) { return key(a) < key(b); }))
        std::stable_sort(
            v.begin(), v.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
}

template <typename T> void permute(StagedArray<T>& v, const std::vector<std::uint32_t>& order)
{
    std::vector<T> out;
    out.reserve(order.size());
    for (const auto i : order)
        out.push_back(v[i]);
    std::copy(out.begin(), out.end(), v.data());
}

template <typename... V> void shrinkAll(V&... v)
{
    (v.shrink_to_fit(), ...);
}

} // namespace

// Sends are appended in file order, which is almost but not always time order
// (docs/format.md §2.1).
void PeTraceBuilder::sortSends()
{
    auto& t = m_stage.sends;
    if (!t.unsorted)
        return;
    auto& s = m_trace.sends;
    std::vector<std::uint32_t> order(t.rows);
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(
        order.begin(), order.end(), [&](auto a, auto b) { return t.time[a] < t.time[b]; });
    // Rebuild the multicast lists under the new indices.
    std::vector<std::uint32_t> newIndexOf(order.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        newIndexOf[order[i]] = i;
    std::vector<std::pair<std::uint32_t, std::size_t>> lists; // new send index, old list index
    for (std::size_t k = 0; k < s.multicastSend.size(); ++k)
        lists.emplace_back(newIndexOf[s.multicastSend[k]], k);
    std::sort(lists.begin(), lists.end());
    std::vector<std::uint32_t> sendIdx;
    std::vector<std::uint32_t> offsets;
    std::vector<PeId> pes;
    if (!lists.empty())
        offsets.push_back(0);
    for (const auto& [newIndex, k] : lists) {
        sendIdx.push_back(newIndex);
        pes.insert(pes.end(), s.multicastPes.begin() + s.multicastOffset[k],
            s.multicastPes.begin() + s.multicastOffset[k + 1]);
        offsets.push_back(static_cast<std::uint32_t>(pes.size()));
    }
    s.multicastSend.swap(sendIdx);
    s.multicastOffset.swap(offsets);
    s.multicastPes.swap(pes);
    t.each([&](auto& column) { permute(column, order); });
}

// Writes each staged column once, in its final form, into the arena (or memory of its own).
void PeTraceBuilder::placeColumns()
{
    auto& x = m_stage.executions;
    auto& e = m_trace.executions;
    const auto n = x.rows;
    internObjects(); // fills x.object
    ColumnPlacer out { m_arena };
    out.place(e.begin, x.begin.data(), n);
    out.place(e.end, x.end.data(), n);
    out.place(e.entry, x.entry.data(), n);
    out.place(e.sourcePe, x.sourcePe.data(), n);
    out.place(e.msgBytes, x.msgBytes.data(), n);
    out.place(e.eventId, x.eventId.data(), n);
    out.place(e.object, x.object.data(), n);
    out.place(e.cpuBegin, x.cpuBegin.data(), n);
    out.place(e.cpuDuration, x.cpuDuration.data(), n);
    out.place(e.flags, x.flags.data(), n);
    out.place(m_trace.idles, m_stage.idles);
    out.place(m_trace.packs, m_stage.packs);
    out.place(m_trace.unpacks, m_stage.unpacks);
    auto& t = m_stage.sends;
    auto& s = m_trace.sends;
    const auto m = t.rows;
    out.place(s.time, t.time.data(), m);
    out.place(s.entry, t.entry.data(), m);
    static_assert(sizeof(SendKind) == 1);
    out.place(s.kind, reinterpret_cast<const SendKind*>(t.kind.data()), m);
    out.place(s.messageType, t.messageType.data(), m);
    out.place(s.msgBytes, t.msgBytes.data(), m);
    out.place(s.eventId, t.eventId.data(), m);
    std::vector<std::uint32_t> rows;
    std::vector<std::int32_t> values;
    for (std::size_t i = 0; i < m; ++i)
        if (t.destinationCount[i] != 1) {
            rows.push_back(static_cast<std::uint32_t>(i));
            values.push_back(t.destinationCount[i]);
        }
    rows.shrink_to_fit();
    values.shrink_to_fit();
    s.destinationCount.assign(m, std::move(rows), std::move(values));
    out.place(s.sendDuration, t.sendDuration.data(), m);
    out.place(s.execution, t.execution.data(), m);
}

PeTrace PeTraceBuilder::finish()
{
    if (!m_ended && m_trace.recordCount > 0) {
        m_line = 0;
        issue(Issue::TruncatedLog,
            "log ends without END_COMPUTATION; open activities closed at "
                + std::to_string(m_trace.lastTime) + " us");
        const TimeUs t = std::max(m_lastIntervalTime, m_trace.lastTime);
        if (m_exec.open)
            endExecution(t, kClosedAtEof, nullptr);
        if (m_idle.open) {
            closeInterval(m_idle, m_stage.idles, t);
            m_trace.lastIdleFlags = kClosedAtEof;
        }
        if (m_pack.open)
            closeInterval(m_pack, m_stage.packs, t);
        if (m_unpack.open)
            closeInterval(m_unpack, m_stage.unpacks, t);
    }
    if (m_pendingPair.present)
        m_report.increment(Issue::UnmatchedUserEventPair);
    if (m_openBracketCount > 0)
        m_report.increment(Issue::UnmatchedUserEventPair, m_openBracketCount);

    sortSends();
    sortStable(m_trace.userEvents, [](const auto& x) { return x.time; });
    sortStable(m_trace.userBrackets, [](const auto& x) { return x.begin; });
    sortStable(m_trace.notes, [](const auto& x) { return x.begin; });
    sortStable(m_trace.stats, [](const auto& x) { return x.time; });
    sortStable(m_trace.memory, [](const auto& x) { return x.time; });
    sortStable(m_trace.userSupplied, [](const auto& x) { return x.time; });

    placeColumns();
    m_trace.executions.papi.shrink_to_fit();
    auto& s = m_trace.sends;
    shrinkAll(m_trace.flushes.begin, m_trace.flushes.end);
    shrinkAll(s.multicastSend, s.multicastOffset, s.multicastPes);
    shrinkAll(m_trace.userEvents, m_trace.userBrackets, m_trace.notes, m_trace.stats,
        m_trace.memory, m_trace.userSupplied, m_trace.traceGaps, m_trace.phaseEnds);
    if (m_stage.bytes() <= kMaxStageBytes)
        t_stage = std::move(m_stage);
    m_stage = BuilderStage {};
    return std::move(m_trace);
}

} // namespace parallax::core
