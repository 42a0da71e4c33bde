#include "pe_trace_builder.h"

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

// The big columns of the last PE built on this thread, emptied but with their capacity: the
// next builder on the thread grows into them, and finish() hands out exact-size copies. A
// run's PEs are built one after another on a few threads, so the columns' growth (allocation,
// page faults, copies) is paid once per thread instead of once per PE.
struct BuilderScratch {
    ExecutionColumns executions;
    SendColumns sends;
    IntervalColumns idles;
    IntervalColumns packs;
    IntervalColumns unpacks;
    ObjectTable objects;
    std::vector<std::uint32_t> objectHashes;
    std::vector<std::uint8_t> objectLengths;
    std::vector<std::int32_t> objectValues;
    std::vector<std::uint64_t> objectSlots;
};
thread_local BuilderScratch t_scratch;

// Scratch larger than this in all (a PE of more than about half a million records) is freed
// rather than kept for the next PE, so a thread never holds more than this after a load.
constexpr std::size_t kMaxScratchBytes = std::size_t { 32 } << 20;
thread_local std::size_t t_scratchBytes = 0; // capacity kept by the current finish() so far

} // namespace

// Moves `column`'s capacity into `scratch` and leaves `column` an exact-size copy (in the
// arena when there is one).
template <typename T> void PeTraceBuilder::exactFromScratch(Column<T>& column, Column<T>& scratch)
{
    static_assert(std::is_trivially_copyable_v<T>);
    scratch = std::move(column);
    const auto& values = std::as_const(scratch);
    StoreArena::Slice slice;
    if (m_arena != nullptr && !values.empty())
        slice = m_arena->take(values.size() * sizeof(T));
    if (slice.data != nullptr) {
        std::memcpy(slice.data, values.data(), values.size() * sizeof(T));
        column = Column<T>::view(
            static_cast<const T*>(slice.data), values.size(), std::move(slice.keep));
    } else {
        column = std::vector<T>(values.begin(), values.end());
    }
    scratch.clear();
    t_scratchBytes += scratch.capacity() * sizeof(T);
}

template <typename W, typename N, W B, bool F>
void PeTraceBuilder::exactFromScratch(
    PackedColumn<W, N, B, F>& column, PackedColumn<W, N, B, F>& scratch)
{
    column.widenIfMostlyEscaped();
    exactFromScratch(column.narrow, scratch.narrow);
    exactFromScratch(column.escapeRow, scratch.escapeRow);
    exactFromScratch(column.escapeValue, scratch.escapeValue);
    exactFromScratch(column.base, scratch.base);
}

template <typename T, T D>
void PeTraceBuilder::exactFromScratch(SparseColumn<T, D>& column, SparseColumn<T, D>&)
{
    column.row.shrink_to_fit();
    column.value.shrink_to_fit();
}

void PeTraceBuilder::exactIntervals(IntervalColumns& c, IntervalColumns& scratch)
{
    exactFromScratch(c.begin, scratch.begin);
    exactFromScratch(c.end, scratch.end);
}

PeTraceBuilder::PeTraceBuilder(
    PeId pe, const RunMetadata& metadata, std::string fileName, ImportReport& report)
    : m_meta(metadata)
    , m_fileName(std::move(fileName))
    , m_report(report)
    , m_papiCount(metadata.version >= 6.6 ? metadata.papiEvents.size() : 0)
{
    auto& scratch = t_scratch;
    m_trace.executions = std::move(scratch.executions);
    m_trace.sends = std::move(scratch.sends);
    m_trace.idles = std::move(scratch.idles);
    m_trace.packs = std::move(scratch.packs);
    m_trace.unpacks = std::move(scratch.unpacks);
    m_trace.objects = std::move(scratch.objects);
    m_objectHashes.swap(scratch.objectHashes);
    m_objectLengths.swap(scratch.objectLengths);
    m_objectValues.swap(scratch.objectValues);
    m_objectSlots.swap(scratch.objectSlots);
    m_trace.pe = pe;
    m_trace.hasLog = true;
}

void PeTraceBuilder::issue(Issue kind, std::string message)
{
    m_report.add(kind, m_fileName, m_line, std::move(message));
}

void PeTraceBuilder::noteTime(TimeUs t)
{
    if (m_trace.firstTime < 0 || t < m_trace.firstTime)
        m_trace.firstTime = t;
    if (t > m_trace.lastTime)
        m_trace.lastTime = t;
}

// Executions, idles and pack intervals must stay sorted and non-overlapping for the interval
// index, so a record that opens or closes one of them never moves time backwards: an earlier
// timestamp is clamped to the previous one and counted.
TimeUs PeTraceBuilder::intervalTime(TimeUs t)
{
    if (t < m_lastIntervalTime) {
        issue(Issue::TimeWentBackwards,
            "time " + std::to_string(t) + " us is before the previous record's "
                + std::to_string(m_lastIntervalTime) + " us; clamped");
        m_clamped = true;
        return m_lastIntervalTime;
    }
    m_clamped = false;
    m_lastIntervalTime = t;
    return t;
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
    m_objectHashes.push_back(static_cast<std::uint32_t>(hash));
    m_objectLengths.push_back(static_cast<std::uint8_t>(length));
    m_objectValues.insert(m_objectValues.end(), ids.data(), ids.data() + length);
}

// Executions are recorded in begin order, one per BEGIN_PROCESSING, so the k-th noted object id
// is execution k's; objects are numbered in order of first appearance, as they were when each
// was interned at its BEGIN.
void PeTraceBuilder::internObjects()
{
    const std::size_t n = m_objectHashes.size();
    // At most one new object per execution, so a table of twice that never fills past half and
    // never regrows: the slot of an id further on can be prefetched.
    std::size_t size = 64;
    while (size < 2 * (n + 1))
        size *= 2;
    m_objectSlots.assign(size, 0);
    const std::size_t mask = size - 1;
    auto& column = m_trace.executions.object;
    column.clear(); // keeps the scratch capacity
    column.resize(m_trace.executions.size());
    std::uint32_t* out = column.data();
    const std::size_t count = std::min(n, column.size());
    constexpr std::size_t kAhead = 16;
    std::size_t valueAt = 0;
    ObjectId object;
    for (std::size_t i = 0; i < count; ++i) {
        if (i + kAhead < n)
            __builtin_prefetch(&m_objectSlots[m_objectHashes[i + kAhead] & mask]);
        const auto key = m_objectHashes[i];
        object.length = m_objectLengths[i];
        std::copy_n(m_objectValues.data() + valueAt, object.length, object.values.begin());
        valueAt += object.length;
        std::size_t at = key & mask;
        constexpr auto kNotFound = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t index = kNotFound;
        while (const auto slot = m_objectSlots[at]) {
            if ((slot >> 32) == key
                && m_trace.objects.matches(static_cast<std::uint32_t>(slot) - 1, object)) {
                index = static_cast<std::uint32_t>(slot) - 1;
                break;
            }
            at = (at + 1) & mask;
        }
        if (index == kNotFound) {
            index = static_cast<std::uint32_t>(m_trace.objects.size());
            m_trace.objects.push_back(object);
            m_objectSlots[at] = (std::uint64_t { key } << 32) | (index + 1);
        }
        out[i] = index;
    }
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
        closeInterval(m_idle, m_trace.idles, t);
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
    auto& e = m_trace.executions;
    e.begin.push_back(m_exec.begin);
    e.end.push_back(std::max(t, m_exec.begin));
    e.entry.push_back(static_cast<std::uint16_t>(m_exec.entry));
    e.sourcePe.push_back(m_exec.sourcePe);
    e.msgBytes.push_back(m_exec.msgBytes);
    e.eventId.push_back(m_exec.eventId);
    e.cpuBegin.push_back(m_exec.cpuBegin);
    std::uint32_t cpuDuration = 0;
    if (end != nullptr && end->hasCpuTime && end->cpuTime > m_exec.cpuBegin) {
        const auto d = end->cpuTime - m_exec.cpuBegin;
        cpuDuration = d > std::numeric_limits<std::uint32_t>::max()
            ? std::numeric_limits<std::uint32_t>::max()
            : static_cast<std::uint32_t>(d);
    }
    e.cpuDuration.push_back(cpuDuration);
    e.flags.push_back(static_cast<std::uint8_t>(m_exec.flags | flags));
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

void PeTraceBuilder::closeInterval(OpenInterval& open, IntervalColumns& into, TimeUs t)
{
    into.begin.push_back(open.begin);
    into.end.push_back(std::max(t, open.begin));
    open.open = false;
}

void PeTraceBuilder::addSend(const LogRecord& r, SendKind kind)
{
    auto& s = m_trace.sends;
    const auto index = static_cast<std::uint32_t>(s.time.size());
    s.time.push_back(r.time);
    s.entry.push_back(static_cast<std::uint16_t>(std::max(r.entry, 0)));
    s.kind.push_back(kind);
    s.messageType.push_back(static_cast<std::uint8_t>(std::clamp(r.messageType, 0, 255)));
    s.msgBytes.push_back(r.msgBytes);
    s.eventId.push_back(r.eventId);
    s.destinationCount.push_back(kind == SendKind::PointToPoint ? 1 : r.destinationCount);
    const auto begun = m_trace.executions.size() + (m_exec.open ? 1U : 0U);
    if (begun == 0)
        s.execution.push_back(kNoExecution);
    else if (m_exec.open)
        s.execution.push_back(static_cast<std::uint32_t>(begun - 1));
    else
        s.execution.push_back(static_cast<std::uint32_t>(begun - 1) | kSendAfterExecution);
    s.sendDuration.push_back(static_cast<std::int32_t>(std::clamp<std::int64_t>(r.sendDuration,
        std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())));
    if (kind == SendKind::Multicast && !r.destinations.empty()) {
        if (s.multicastOffset.empty())
            s.multicastOffset.push_back(0);
        s.multicastSend.push_back(index);
        s.multicastPes.insert(s.multicastPes.end(), r.destinations.begin(), r.destinations.end());
        s.multicastOffset.push_back(static_cast<std::uint32_t>(s.multicastPes.size()));
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
            closeInterval(m_idle, m_trace.idles, t);
            m_trace.lastIdleFlags = kClosedAtEndComputation;
        }
        if (m_pack.open)
            closeInterval(m_pack, m_trace.packs, t);
        if (m_unpack.open)
            closeInterval(m_unpack, m_trace.unpacks, t);
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
        closeInterval(m_idle, m_trace.idles, t);
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
        closeInterval(open, pack ? m_trace.packs : m_trace.unpacks, t);
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
            closeInterval(m_flush, f, r.time);
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
            closeInterval(m_idle, m_trace.idles, t);
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

template <typename C> void permute(C& v, const std::vector<std::uint32_t>& order)
{
    if constexpr (requires(std::vector<typename C::value_type> & x) { v.swap(x); }) {
        std::vector<typename C::value_type> out;
        out.reserve(v.size());
        for (auto i : order)
            out.push_back(v[i]);
        v.swap(out);
    } else { // a packed or sparse column
        C out;
        for (auto i : order)
            out.push_back(v[i]);
        v = std::move(out);
    }
}

// Sends are appended in file order, which is almost but not always time order
// (docs/format.md §2.1).
void sortSends(SendColumns& s)
{
    if (std::is_sorted(s.time.begin(), s.time.end()))
        return;
    std::vector<std::uint32_t> order(s.time.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(
        order.begin(), order.end(), [&](auto a, auto b) { return s.time[a] < s.time[b]; });
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
    permute(s.time, order);
    permute(s.entry, order);
    permute(s.kind, order);
    permute(s.messageType, order);
    permute(s.msgBytes, order);
    permute(s.eventId, order);
    permute(s.destinationCount, order);
    permute(s.sendDuration, order);
    permute(s.execution, order);
}

template <typename... V> void shrinkAll(V&... v)
{
    (v.shrink_to_fit(), ...);
}

} // namespace

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
            closeInterval(m_idle, m_trace.idles, t);
            m_trace.lastIdleFlags = kClosedAtEof;
        }
        if (m_pack.open)
            closeInterval(m_pack, m_trace.packs, t);
        if (m_unpack.open)
            closeInterval(m_unpack, m_trace.unpacks, t);
    }
    if (m_pendingPair.present)
        m_report.increment(Issue::UnmatchedUserEventPair);
    if (m_openBracketCount > 0)
        m_report.increment(Issue::UnmatchedUserEventPair, m_openBracketCount);

    sortSends(m_trace.sends);
    sortStable(m_trace.userEvents, [](const auto& x) { return x.time; });
    sortStable(m_trace.userBrackets, [](const auto& x) { return x.begin; });
    sortStable(m_trace.notes, [](const auto& x) { return x.begin; });
    sortStable(m_trace.stats, [](const auto& x) { return x.time; });
    sortStable(m_trace.memory, [](const auto& x) { return x.time; });
    sortStable(m_trace.userSupplied, [](const auto& x) { return x.time; });

    internObjects();
    auto& e = m_trace.executions;
    auto& scratch = t_scratch;
    t_scratchBytes = 0;
    auto& x = scratch.executions;
    exactFromScratch(e.begin, x.begin);
    exactFromScratch(e.end, x.end);
    exactFromScratch(e.entry, x.entry);
    exactFromScratch(e.sourcePe, x.sourcePe);
    exactFromScratch(e.msgBytes, x.msgBytes);
    exactFromScratch(e.eventId, x.eventId);
    exactFromScratch(e.object, x.object);
    exactFromScratch(e.cpuBegin, x.cpuBegin);
    exactFromScratch(e.cpuDuration, x.cpuDuration);
    exactFromScratch(e.flags, x.flags);
    e.papi.shrink_to_fit();
    exactIntervals(m_trace.idles, scratch.idles);
    exactIntervals(m_trace.packs, scratch.packs);
    exactIntervals(m_trace.unpacks, scratch.unpacks);
    shrinkAll(m_trace.flushes.begin, m_trace.flushes.end);
    auto& s = m_trace.sends;
    auto& y = scratch.sends;
    exactFromScratch(s.time, y.time);
    exactFromScratch(s.entry, y.entry);
    exactFromScratch(s.kind, y.kind);
    exactFromScratch(s.messageType, y.messageType);
    exactFromScratch(s.msgBytes, y.msgBytes);
    exactFromScratch(s.eventId, y.eventId);
    exactFromScratch(s.destinationCount, y.destinationCount);
    exactFromScratch(s.sendDuration, y.sendDuration);
    exactFromScratch(s.execution, y.execution);
    exactFromScratch(m_trace.objects.offset, scratch.objects.offset);
    exactFromScratch(m_trace.objects.values, scratch.objects.values);
    shrinkAll(s.multicastSend, s.multicastOffset, s.multicastPes);
    shrinkAll(m_trace.userEvents, m_trace.userBrackets, m_trace.notes, m_trace.stats,
        m_trace.memory, m_trace.userSupplied, m_trace.traceGaps, m_trace.phaseEnds);
    m_objectHashes.clear();
    m_objectLengths.clear();
    m_objectValues.clear();
    t_scratchBytes += m_objectSlots.capacity() * sizeof(std::uint64_t)
        + m_objectHashes.capacity() * sizeof(std::uint32_t) + m_objectLengths.capacity()
        + m_objectValues.capacity() * sizeof(std::int32_t);
    if (t_scratchBytes <= kMaxScratchBytes) {
        scratch.objectHashes.swap(m_objectHashes);
        scratch.objectLengths.swap(m_objectLengths);
        scratch.objectValues.swap(m_objectValues);
        scratch.objectSlots.swap(m_objectSlots);
    } else {
        scratch = BuilderScratch {};
    }
    m_objectHashes = {};
    m_objectLengths = {};
    m_objectValues = {};
    m_objectSlots = {};
    return std::move(m_trace);
}

} // namespace parallax::core
