#include "cache_store.h"

#include "cache_validation.h"

#include <array>
#include <string>
#include <vector>

namespace parallax::io {

namespace {

// A run section may announce at most this many PE sections (PROCESSORS is at most 2^24).
constexpr std::uint64_t kMaxPeSections = 1U << 24;

// ---- Serialization of the store ----

// Structs with padding bytes are written field by field: a raw copy would put uninitialised
// padding into the file (different bytes for the same run, heap contents leaked to disk).
// CacheWriter::vec refuses any type that has padding.
void putItem(CacheWriter& w, const core::ObjectId& o)
{
    w.put(o.values);
    w.put(o.length);
}
void getItem(CacheReader& r, core::ObjectId& o)
{
    o.values = r.get<decltype(o.values)>();
    o.length = r.get<std::uint8_t>();
}
void putItem(CacheWriter& w, const core::UserEventBracket& b)
{
    w.put(b.begin);
    w.put(b.end);
    w.put(b.id);
    w.put(b.nestedId);
    w.put(b.kind);
}
void getItem(CacheReader& r, core::UserEventBracket& b)
{
    b.begin = r.get<core::TimeUs>();
    b.end = r.get<core::TimeUs>();
    b.id = r.get<core::UserEventId>();
    b.nestedId = r.get<std::int32_t>();
    b.kind = r.get<core::BracketKind>();
}
void putItem(CacheWriter& w, const core::StatSample& x)
{
    w.put(x.time);
    w.put(x.userTime);
    w.put(x.value);
    w.put(x.statId);
}
void getItem(CacheReader& r, core::StatSample& x)
{
    x.time = r.get<core::TimeUs>();
    x.userTime = r.get<double>();
    x.value = r.get<double>();
    x.statId = r.get<std::int32_t>();
}
void putItem(CacheWriter& w, const core::TraceGap& g)
{
    w.put(g.begin);
    w.put(g.end);
    w.put(g.openEntry);
    w.put(g.resumedEnd);
}
void getItem(CacheReader& r, core::TraceGap& g)
{
    g.begin = r.get<core::TimeUs>();
    g.end = r.get<core::TimeUs>();
    g.openEntry = r.get<core::EntryId>();
    g.resumedEnd = r.get<core::TimeUs>();
}
void putItem(CacheWriter& w, const core::PhaseEnd& x)
{
    w.put(x.time);
    w.put(x.phase);
}
void getItem(CacheReader& r, core::PhaseEnd& x)
{
    x.time = r.get<core::TimeUs>();
    x.phase = r.get<std::int32_t>();
}
void putItem(CacheWriter& w, const core::SummaryMark& x)
{
    w.put(x.type);
    w.put(x.time);
}
void getItem(CacheReader& r, core::SummaryMark& x)
{
    x.type = r.get<std::int32_t>();
    x.time = r.get<core::TimeUs>();
}
void putItem(CacheWriter& w, const core::SummaryDetailCell& c)
{
    w.put(c.interval);
    w.put(c.entry);
    w.put(c.timeUs);
    w.put(c.calls);
    w.put(c.length);
}
void getItem(CacheReader& r, core::SummaryDetailCell& c)
{
    c.interval = r.get<std::uint32_t>();
    c.entry = r.get<std::uint32_t>();
    c.timeUs = r.get<std::int64_t>();
    c.calls = r.get<std::int64_t>();
    c.length = r.get<std::uint32_t>();
}

// Bytes putItem writes for one item (the least a count of them can occupy).
template <typename T> constexpr std::size_t kItemBytes = 0;
template <> constexpr std::size_t kItemBytes<core::ObjectId> = 25;
template <> constexpr std::size_t kItemBytes<core::UserEventBracket> = 25;
template <> constexpr std::size_t kItemBytes<core::StatSample> = 28;
template <> constexpr std::size_t kItemBytes<core::TraceGap> = 28;
template <> constexpr std::size_t kItemBytes<core::PhaseEnd> = 12;
template <> constexpr std::size_t kItemBytes<core::SummaryMark> = 12;
template <> constexpr std::size_t kItemBytes<core::SummaryDetailCell> = 28;

template <typename C> void putList(CacheWriter& w, const C& v)
{
    w.put<std::uint64_t>(v.size());
    for (const auto& x : v)
        putItem(w, x);
}
template <typename C> void getList(CacheReader& r, C& v)
{
    using T = typename C::value_type;
    static_assert(kItemBytes<T> > 0);
    v.resize(r.count(kItemBytes<T>));
    for (auto& x : v)
        getItem(r, x);
}

void putMetadata(CacheWriter& w, const core::RunMetadata& m)
{
    w.put(m.version);
    w.str(m.machine);
    w.put(m.processors);
    w.put<std::uint8_t>(m.smp ? 1 : 0);
    w.put<std::int32_t>(m.nodeSize);
    w.put<std::int32_t>(m.numNodes);
    w.put<std::int32_t>(m.commThreadsPerNode);
    for (const auto* s :
        { &m.userName, &m.hostName, &m.commandLine, &m.timestamp, &m.charmVersion })
        w.str(*s);
    w.put<std::int32_t>(m.totalPhases);
    w.put<std::uint64_t>(m.chares.size());
    for (const auto& c : m.chares) {
        w.str(c.name);
        w.put<std::int32_t>(c.ndims);
    }
    w.put<std::uint64_t>(m.entries.size());
    for (const auto& e : m.entries) {
        w.str(e.name);
        w.put(e.chare);
        w.put(e.message);
    }
    w.vec(m.messages);
    for (const auto* map : { &m.userEvents, &m.stats }) {
        w.put<std::uint64_t>(map->size());
        for (const auto& [id, name] : *map) {
            w.put(id);
            w.str(name);
        }
    }
    w.put<std::uint64_t>(m.papiEvents.size());
    for (const auto& s : m.papiEvents)
        w.str(s);
    w.put(m.projrcEndTime);
}

void getMetadata(CacheReader& r, core::RunMetadata& m)
{
    m.version = r.get<double>();
    r.str(m.machine);
    m.processors = r.get<core::PeId>();
    m.smp = r.get<std::uint8_t>() != 0;
    m.nodeSize = r.get<std::int32_t>();
    m.numNodes = r.get<std::int32_t>();
    m.commThreadsPerNode = r.get<std::int32_t>();
    for (auto* s : { &m.userName, &m.hostName, &m.commandLine, &m.timestamp, &m.charmVersion })
        r.str(*s);
    m.totalPhases = r.get<std::int32_t>();
    m.chares.resize(r.count(12));
    for (auto& c : m.chares) {
        r.str(c.name);
        c.ndims = r.get<std::int32_t>();
    }
    m.entries.resize(r.count(16));
    for (auto& e : m.entries) {
        r.str(e.name);
        e.chare = r.get<std::int32_t>();
        e.message = r.get<std::int32_t>();
    }
    r.vec(m.messages);
    for (auto* map : { &m.userEvents, &m.stats }) {
        const auto n = r.count(12);
        for (std::size_t i = 0; i < n; ++i) {
            const auto id = r.get<std::int32_t>();
            r.str((*map)[id]);
        }
    }
    m.papiEvents.resize(r.count(8));
    for (auto& s : m.papiEvents)
        r.str(s);
    m.projrcEndTime = r.get<core::TimeUs>();
}

void putStrings(CacheWriter& w, const std::vector<std::string>& v)
{
    w.put<std::uint64_t>(v.size());
    for (const auto& s : v)
        w.str(s);
}

void getStrings(CacheReader& r, std::vector<std::string>& v)
{
    v.resize(r.count(8));
    for (auto& s : v)
        r.str(s);
}

void putFiles(CacheWriter& w, const core::RunFiles& f)
{
    for (const auto* s : { &f.directory, &f.baseName, &f.stsPath, &f.projrcPath })
        w.str(*s);
    for (const auto* v : { &f.logPaths, &f.sumPaths, &f.sumdPaths })
        putStrings(w, *v);
    w.put(f.logBytes);
    w.put(f.sumBytes);
}

void getFiles(CacheReader& r, core::RunFiles& f)
{
    for (auto* s : { &f.directory, &f.baseName, &f.stsPath, &f.projrcPath })
        r.str(*s);
    for (auto* v : { &f.logPaths, &f.sumPaths, &f.sumdPaths })
        getStrings(r, *v);
    f.logBytes = r.get<std::uint64_t>();
    f.sumBytes = r.get<std::uint64_t>();
}

void putReport(CacheWriter& w, const core::ImportReport& report)
{
    w.put<std::uint64_t>(core::kIssueKinds);
    for (std::size_t k = 0; k < core::kIssueKinds; ++k)
        w.put(report.count(static_cast<core::Issue>(k)));
    w.put<std::uint64_t>(report.examples().size());
    for (const auto& e : report.examples()) {
        w.put(static_cast<std::uint8_t>(e.issue));
        w.str(e.file);
        w.put(e.line);
        w.str(e.message);
    }
}

void getReport(CacheReader& r, core::ImportReport& report)
{
    if (r.get<std::uint64_t>() != core::kIssueKinds)
        throw CacheFormatError("written with another list of import issues");
    std::array<std::uint64_t, core::kIssueKinds> counts {};
    for (auto& c : counts)
        c = r.get<std::uint64_t>();
    std::array<std::uint64_t, core::kIssueKinds> examples {};
    const auto n = r.count(25);
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = r.get<std::uint8_t>();
        if (k >= core::kIssueKinds)
            throw CacheFormatError("an unknown import issue");
        core::IssueExample e;
        r.str(e.file);
        e.line = r.get<std::uint64_t>();
        r.str(e.message);
        // add() counts the example too; the rest of the count is added below.
        report.add(static_cast<core::Issue>(k), e.file, e.line, std::move(e.message));
        ++examples[k];
    }
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        if (examples[k] > counts[k] || examples[k] > core::ImportReport::kExamplesPerKind)
            throw CacheFormatError("inconsistent import report");
        report.increment(static_cast<core::Issue>(k), counts[k] - examples[k]);
    }
}

void putSummary(CacheWriter& w, const core::PeSummary& s)
{
    w.put(s.pe);
    w.put(s.version);
    w.put(s.numPes);
    w.put(s.intervalUs);
    w.vec(s.utilization);
    w.vec(s.idlePercent);
    w.vec(s.entryTime);
    w.vec(s.entryCalls);
    w.vec(s.entryMaxTime);
    putList(w, s.marks);
    w.put<std::uint64_t>(s.phases.size());
    for (const auto& p : s.phases) {
        w.vec(p.entryCalls);
        w.vec(p.entryTime);
        w.vec(p.entryMaxTime);
    }
}

void getSummary(CacheReader& r, core::PeSummary& s)
{
    s.pe = r.get<core::PeId>();
    s.version = r.get<double>();
    s.numPes = r.get<core::PeId>();
    s.intervalUs = r.get<core::TimeUs>();
    r.vec(s.utilization);
    r.vec(s.idlePercent);
    r.vec(s.entryTime);
    r.vec(s.entryCalls);
    r.vec(s.entryMaxTime);
    getList(r, s.marks);
    s.phases.resize(r.count(24));
    for (auto& p : s.phases) {
        r.vec(p.entryCalls);
        r.vec(p.entryTime);
        r.vec(p.entryMaxTime);
    }
}

void putDetail(CacheWriter& w, const core::PeSummaryDetail& d)
{
    w.put(d.pe);
    w.put(d.version);
    w.put(d.intervalUs);
    w.put(d.intervalCount);
    w.put(d.entryCount);
    putList(w, d.cells);
}

void getDetail(CacheReader& r, core::PeSummaryDetail& d)
{
    d.pe = r.get<core::PeId>();
    d.version = r.get<double>();
    d.intervalUs = r.get<core::TimeUs>();
    d.intervalCount = r.get<std::int64_t>();
    d.entryCount = r.get<std::int32_t>();
    getList(r, d.cells);
}

template <typename C> void putIntervals(CacheWriter& w, const C& c)
{
    w.vec(c.begin);
    w.vec(c.end);
}

template <typename C> void getIntervals(CacheReader& r, C& c)
{
    r.vec(c.begin);
    r.vec(c.end);
    if (c.begin.size() != c.end.size())
        throw CacheFormatError("interval columns of different lengths");
}

} // namespace

void putRun(CacheWriter& w, const core::Trace& t)
{
    putMetadata(w, t.metadata);
    putFiles(w, t.files);
    putReport(w, t.report);
    w.put<std::uint64_t>(t.summaries.size());
    for (const auto& s : t.summaries) {
        w.put<std::uint8_t>(s ? 1 : 0);
        if (s)
            putSummary(w, *s);
    }
    w.put<std::uint64_t>(t.details.size());
    for (const auto& d : t.details) {
        w.put<std::uint8_t>(d ? 1 : 0);
        if (d)
            putDetail(w, *d);
    }
    w.put<std::uint64_t>(t.pes.size());
}

std::size_t getRun(CacheReader& r, core::Trace& t)
{
    getMetadata(r, t.metadata);
    validateMetadata(t.metadata);
    getFiles(r, t.files);
    getReport(r, t.report);
    t.summaries.resize(r.count(1));
    for (auto& s : t.summaries)
        if (r.get<std::uint8_t>() != 0)
            getSummary(r, s.emplace());
    t.details.resize(r.count(1));
    for (auto& d : t.details)
        if (r.get<std::uint8_t>() != 0)
            getDetail(r, d.emplace());
    const auto pes = r.get<std::uint64_t>();
    if (pes > kMaxPeSections)
        throw CacheFormatError("an impossible number of PEs");
    return static_cast<std::size_t>(pes);
}

void putPe(CacheWriter& w, const core::PeTrace& p)
{
    w.put(p.pe);
    w.put<std::uint8_t>(p.hasLog ? 1 : 0);
    w.put(p.beginComputation);
    w.put(p.endComputation);
    w.put(p.firstTime);
    w.put(p.lastTime);
    w.put(p.recordCount);
    w.put(p.lastIdleFlags);
    const auto& e = p.executions;
    w.vec(e.begin);
    w.vec(e.end);
    w.vec(e.entry);
    w.vec(e.sourcePe);
    w.vec(e.msgBytes);
    w.vec(e.eventId);
    w.vec(e.object);
    w.vec(e.cpuBegin);
    w.vec(e.cpuDuration);
    w.vec(e.flags);
    w.vec(e.papi);
    putIntervals(w, p.idles);
    putIntervals(w, p.packs);
    putIntervals(w, p.unpacks);
    putIntervals(w, p.flushes);
    const auto& s = p.sends;
    w.vec(s.time);
    w.vec(s.entry);
    w.vec(s.kind);
    w.vec(s.messageType);
    w.vec(s.msgBytes);
    w.vec(s.eventId);
    w.vec(s.destinationCount);
    w.vec(s.sendDuration);
    w.vec(s.execution);
    w.vec(s.multicastSend);
    w.vec(s.multicastOffset);
    w.vec(s.multicastPes);
    putList(w, p.objects);
    w.vec(p.userEvents);
    putList(w, p.userBrackets);
    w.put<std::uint64_t>(p.notes.size());
    for (const auto& n : p.notes) {
        w.put(n.begin);
        w.put(n.end);
        w.put(n.id);
        w.str(n.text);
    }
    putList(w, p.stats);
    w.vec(p.memory);
    w.vec(p.userSupplied);
    putList(w, p.traceGaps);
    putList(w, p.phaseEnds);
}

void getPe(CacheReader& r, core::PeTrace& p)
{
    p.pe = r.get<core::PeId>();
    p.hasLog = r.get<std::uint8_t>() != 0;
    p.beginComputation = r.get<core::TimeUs>();
    p.endComputation = r.get<core::TimeUs>();
    p.firstTime = r.get<core::TimeUs>();
    p.lastTime = r.get<core::TimeUs>();
    p.recordCount = r.get<std::uint64_t>();
    p.lastIdleFlags = r.get<std::uint8_t>();
    auto& e = p.executions;
    r.vec(e.begin);
    r.vec(e.end);
    r.vec(e.entry);
    r.vec(e.sourcePe);
    r.vec(e.msgBytes);
    r.vec(e.eventId);
    r.vec(e.object);
    r.vec(e.cpuBegin);
    r.vec(e.cpuDuration);
    r.vec(e.flags);
    r.vec(e.papi);
    getIntervals(r, p.idles);
    getIntervals(r, p.packs);
    getIntervals(r, p.unpacks);
    getIntervals(r, p.flushes);
    auto& s = p.sends;
    r.vec(s.time);
    r.vec(s.entry);
    r.vec(s.kind);
    r.vec(s.messageType);
    r.vec(s.msgBytes);
    r.vec(s.eventId);
    r.vec(s.destinationCount);
    r.vec(s.sendDuration);
    r.vec(s.execution);
    r.vec(s.multicastSend);
    r.vec(s.multicastOffset);
    r.vec(s.multicastPes);
    getList(r, p.objects);
    r.vec(p.userEvents);
    getList(r, p.userBrackets);
    p.notes.resize(r.count(32));
    for (auto& n : p.notes) {
        n.begin = r.get<core::TimeUs>();
        n.end = r.get<core::TimeUs>();
        n.id = r.get<core::UserEventId>();
        r.str(n.text);
    }
    getList(r, p.stats);
    r.vec(p.memory);
    r.vec(p.userSupplied);
    getList(r, p.traceGaps);
    getList(r, p.phaseEnds);
}

} // namespace parallax::io
