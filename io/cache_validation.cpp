#include "cache_validation.h"

#include "cache_file.h"
#include "reader_limits.h"

#include <cmath>
#include <initializer_list>
#include <string>

namespace parallax::io {

namespace {

// The limits the readers apply (reader_limits.h, sts_reader.cpp, summary_reader.cpp).
constexpr std::size_t kMaxTableSize = 65536;
constexpr std::size_t kMaxPapiEvents = 1025;
constexpr core::TimeUs kMaxIntervalUs = 1'000'000'000'000'000;

[[noreturn, gnu::cold, gnu::noinline]] void invalidField(const char* what)
{
    throw CacheFormatError(std::string("invalid field: ") + what);
}

// Inline with the throw out of line: the checks run over every element of a mapped PE when it
// is first read, so they must cost a compare each.
inline void require(bool ok, const char* what)
{
    if (!ok) [[unlikely]]
        invalidField(what);
}

// Rows in ascending order below `size`.
bool rowsAscendingBelow(const core::Column<std::uint32_t>& rows, std::size_t size)
{
    bool ok = true;
    for (std::size_t k = 0; k < rows.size(); ++k)
        ok &= rows[k] < size && (k == 0 || rows[k - 1] < rows[k]);
    return ok;
}

// A packed column's parts agree: every escaped row is listed once, with its value.
template <typename W, typename N, W B, bool F>
void requirePacked(const core::PackedColumn<W, N, B, F>& c, const char* what)
{
    if (c.wide()) { // every value whole; the other parts empty
        require(c.narrow.empty() && c.escapeRow.empty() && c.base.empty(), what);
        return;
    }
    std::size_t escapes = 0;
    for (const auto n : c.narrow)
        escapes += n == c.kEscape ? 1U : 0U;
    require(escapes == c.escapeRow.size() && c.escapeValue.size() == escapes
            && rowsAscendingBelow(c.escapeRow, c.size())
            && c.base.size() == (F ? (c.size() + c.kBlockRows - 1) / c.kBlockRows : 0),
        what);
    for (std::size_t k = 0; k < escapes; ++k)
        require(c.narrow[c.escapeRow[k]] == c.kEscape, what);
}

template <typename T, T D> void requireSparse(const core::SparseColumn<T, D>& c, const char* what)
{
    require(c.value.size() == c.row.size() && rowsAscendingBelow(c.row, c.size()), what);
}

// Intervals as the builder leaves them: 0 <= begin <= end, sorted, non-overlapping.
template <typename Columns> void requireIntervals(const Columns& c, const char* what)
{
    require(c.begin.size() == c.end.size(), what);
    const auto n = c.begin.size();
    requirePacked(c.begin, what);
    requirePacked(c.end, what);
    const auto& begin = c.begin;
    const auto& end = c.end;
    bool ok = true;
    core::TimeUs previousEnd = 0; // begin >= 0 makes the first comparison hold
    for (std::size_t i = 0; i < n; ++i) {
        ok &= begin[i] >= previousEnd && begin[i] <= end[i];
        previousEnd = end[i];
    }
    require(ok, what);
}

} // namespace

void validateMetadata(const core::RunMetadata& m)
{
    require(std::isfinite(m.version) && m.version >= 0 && m.version <= 11.0, "VERSION");
    require(m.processors >= 1 && m.processors <= kMaxProcessors, "PROCESSORS");
    if (m.smp) {
        require(m.nodeSize >= 1 && m.numNodes >= 1 && m.nodeSize <= m.processors
                && m.numNodes <= m.processors,
            "SMPMODE");
        const std::int64_t workers = std::int64_t { m.nodeSize } * m.numNodes;
        require(workers <= m.processors, "SMPMODE workers");
        require(m.commThreadsPerNode == (m.processors - workers) / m.numNodes,
            "SMP comm threads per node");
    } else {
        require(m.nodeSize == 1 && m.numNodes == m.processors && m.commThreadsPerNode == 0,
            "non-SMP layout");
    }
    require(m.totalPhases >= 0, "TOTAL_PHASES");
    require(m.chares.size() <= kMaxTableSize && m.entries.size() <= kMaxTableSize
            && m.messages.size() <= kMaxTableSize,
        "table sizes");
    for (const auto& c : m.chares)
        require(c.ndims >= -1 && c.ndims <= 6, "CHARE ndims");
    for (const auto& e : m.entries)
        require(e.chare >= -1 && e.chare < static_cast<std::int32_t>(kMaxTableSize)
                && e.message >= -1 && e.message < static_cast<std::int32_t>(kMaxTableSize),
            "ENTRY chare or message id");
    require(m.papiEvents.size() <= kMaxPapiEvents, "PAPI events");
    require(m.projrcEndTime >= 0 && m.projrcEndTime <= kMaxProjrcTime, "RC_GLOBAL_END_TIME");
}

void validateRunTables(const core::Trace& t, const IndexRows& rows)
{
    const auto processors = static_cast<std::uint64_t>(t.metadata.processors);
    const auto& f = t.files;
    require(f.logPaths.size() == processors && f.sumPaths.size() == processors
            && f.sumdPaths.size() == processors,
        "file tables");
    require(rows.pes <= processors, "number of PE sections");
    require(rows.summaries == 0 || rows.summaries == processors, "summary table");
    require(rows.details == 0 || rows.details == processors, "detail table");
    require(rows.entryTimes.empty() == (rows.timedExecutions == 0)
            && (rows.entryTimes.empty() || rows.entryTimes.size() == t.metadata.entries.size()),
        "entry time totals");
    bool ok = true;
    for (const auto x : rows.entryTimes)
        ok &= x >= 0;
    require(ok, "entry time totals");
}

void validateSummary(const core::PeSummary& s, std::size_t p)
{
    require(s.pe == static_cast<core::PeId>(p), "summary PE");
    require(std::isfinite(s.version) && s.version >= 0, "summary version");
    require(s.numPes >= 0, "summary PE count");
    require(s.intervalUs >= 1 && s.intervalUs <= kMaxIntervalUs, "summary interval");
    for (const auto size : { s.utilization.size(), s.idlePercent.size() })
        require(size <= static_cast<std::size_t>(kMaxSummaryValues), "summary bins");
    for (const auto* v : { &s.entryTime, &s.entryCalls, &s.entryMaxTime }) {
        require(v->size() <= kMaxTableSize, "summary entries");
        for (const auto x : *v)
            require(x >= 0, "summary entry value");
    }
    for (const auto& mark : s.marks)
        require(mark.time >= 0, "summary mark");
}

void validateDetail(const core::PeSummaryDetail& d, std::size_t p)
{
    require(d.pe == static_cast<core::PeId>(p), "detail PE");
    require(std::isfinite(d.version) && d.version >= 0, "detail version");
    require(d.intervalUs >= 1 && d.intervalUs <= kMaxIntervalUs, "detail interval");
    require(d.intervalCount >= 0 && d.intervalCount <= kMaxSummaryValues, "detail interval count");
    require(d.entryCount >= 0 && static_cast<std::size_t>(d.entryCount) <= kMaxTableSize,
        "detail entry count");
    std::int64_t next = 0; // cells are ascending, entry-major, non-overlapping
    for (const auto& c : d.cells) {
        require(c.entry < static_cast<std::uint32_t>(d.entryCount), "detail cell entry");
        require(c.length >= 1 && c.interval < d.intervalCount
                && std::int64_t { c.interval } + c.length <= d.intervalCount,
            "detail cell interval");
        require(c.timeUs >= 0 && c.calls >= 0, "detail cell value");
        const auto position = std::int64_t { c.entry } * d.intervalCount + c.interval;
        require(position >= next, "detail cell order");
        next = position + c.length;
    }
}

void validatePe(const core::PeTrace& p, std::size_t index, const core::RunMetadata& meta)
{
    require(p.pe == static_cast<core::PeId>(index), "PE number");
    require(p.beginComputation >= -1 && p.endComputation >= -1, "BEGIN/END_COMPUTATION");
    require(p.firstTime >= -1 && p.lastTime >= -1
            && (p.firstTime < 0 || p.lastTime < 0 || p.firstTime <= p.lastTime),
        "first/last time");

    const auto& e = p.executions;
    const auto n = e.begin.size();
    for (const auto size :
        { e.end.size(), e.entry.size(), e.sourcePe.size(), e.msgBytes.size(), e.eventId.size(),
            e.object.size(), e.cpuBegin.size(), e.cpuDuration.size(), e.flags.size() })
        require(size == n, "execution columns of different lengths");
    requirePacked(e.msgBytes, "execution message bytes");
    requirePacked(e.cpuBegin, "execution CPU begin");
    requirePacked(p.objects.values, "object id values");
    requireIntervals(e, "execution times");
    // Each loop gathers its verdict without branching (so that it vectorises) and fails after.
    bool ok = true;
    const auto objects = p.objects.size();
    for (const auto o : e.object)
        ok &= o < objects;
    require(ok, "execution object");
    const auto& offset = p.objects.offset;
    require(offset.empty() ? p.objects.values.empty()
                           : offset[0] == 0 && offset.back() == p.objects.values.size(),
        "object id length");
    for (std::size_t k = 1; k < offset.size(); ++k)
        ok &= offset[k] - offset[k - 1] <= 6; // unsigned: a decreasing offset fails too
    require(ok, "object id length");
    const auto papiCount = meta.version >= 6.6 ? meta.papiEvents.size() : 0;
    require(papiCount == 0 ? e.papi.empty() : e.papi.size() == n * 2 * papiCount, "PAPI column");

    requireIntervals(p.idles, "idle times");
    requireIntervals(p.packs, "pack times");
    requireIntervals(p.unpacks, "unpack times");
    requireIntervals(p.flushes, "flush times");

    const auto& s = p.sends;
    const auto m = s.time.size();
    for (const auto size :
        { s.entry.size(), s.kind.size(), s.messageType.size(), s.msgBytes.size(), s.eventId.size(),
            s.destinationCount.size(), s.sendDuration.size(), s.execution.size() })
        require(size == m, "send columns of different lengths");
    requirePacked(s.time, "send times");
    requirePacked(s.msgBytes, "send message bytes");
    requirePacked(s.sendDuration, "send duration");
    requireSparse(s.destinationCount, "send destination count");
    core::TimeUs previous = 0;
    for (std::size_t i = 0; i < m; ++i) {
        ok &= s.time[i] >= previous;
        previous = s.time[i];
    }
    require(ok, "send times");
    for (std::size_t i = 0; i < m; ++i)
        ok &= s.kind[i] <= core::SendKind::Multicast;
    require(ok, "send kind");
    for (const auto count : s.destinationCount.value)
        ok &= count >= 0;
    require(ok, "send destination count");
    for (std::size_t i = 0; i < m; ++i) {
        const auto x = s.execution[i];
        ok &= x == core::kNoExecution || (x & ~core::kSendAfterExecution) < n;
    }
    require(ok, "send execution");
    require(s.multicastOffset.empty() ? s.multicastSend.empty()
                                      : s.multicastOffset.size() == s.multicastSend.size() + 1,
        "multicast columns of different lengths");
    for (std::size_t k = 0; k < s.multicastSend.size(); ++k) {
        require(s.multicastSend[k] < m, "multicast send");
        require(k == 0 || s.multicastSend[k - 1] < s.multicastSend[k], "multicast send order");
    }
    if (!s.multicastOffset.empty()) {
        require(s.multicastOffset.front() == 0 && s.multicastOffset.back() == s.multicastPes.size(),
            "multicast offsets");
        for (std::size_t k = 1; k < s.multicastOffset.size(); ++k)
            require(s.multicastOffset[k - 1] <= s.multicastOffset[k], "multicast offset order");
    }

    for (const auto& u : p.userEvents)
        require(u.time >= 0, "user event time");
    for (const auto& b : p.userBrackets)
        require(b.begin >= 0 && b.begin <= b.end && b.kind <= core::BracketKind::BeginEnd,
            "user event bracket");
    for (const auto& note : p.notes)
        require(note.begin >= 0 && note.begin <= note.end, "note times");
    for (const auto& g : p.traceGaps)
        require(g.begin >= 0 && g.begin <= g.end, "tracing gap");
    for (const auto& x : p.stats)
        require(x.time >= 0, "stat time");
    for (const auto& x : p.memory)
        require(x.time >= 0, "memory sample time");
    for (const auto& x : p.phaseEnds)
        require(x.time >= 0, "phase end time");
}

} // namespace parallax::io
