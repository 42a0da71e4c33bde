#include "cache_store.h"

#include "cache_validation.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace parallax::io {

namespace {

// A run section may announce at most this many PE rows (PROCESSORS is at most 2^24).
constexpr std::uint64_t kMaxPeSections = 1U << 24;

// ---- Serialization of the store ----

// Structs with padding bytes are written field by field: a raw copy would put uninitialised
// padding into the file (different bytes for the same run, heap contents leaked to disk).
// CacheWriter::vec refuses any type that has padding.
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

} // namespace

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

void putRun(CacheWriter& w, const core::Trace& t, const IndexRows& rows)
{
    putMetadata(w, t.metadata);
    putFiles(w, t.files);
    putReport(w, t.report);
    w.put(rows.pes);
    w.put(rows.summaries);
    w.put(rows.details);
    w.put(rows.storeBytes);
    w.put(rows.timedExecutions);
    w.vec(rows.timedExecutions > 0 ? rows.entryTimes : std::vector<core::TimeUs> {});
}

IndexRows getRun(CacheReader& r, core::Trace& t)
{
    getMetadata(r, t.metadata);
    validateMetadata(t.metadata);
    getFiles(r, t.files);
    getReport(r, t.report);
    IndexRows rows;
    rows.pes = r.get<std::uint64_t>();
    rows.summaries = r.get<std::uint64_t>();
    rows.details = r.get<std::uint64_t>();
    rows.storeBytes = r.get<std::uint64_t>();
    rows.timedExecutions = r.get<std::uint64_t>();
    r.vec(rows.entryTimes);
    if (std::max({ rows.pes, rows.summaries, rows.details }) > kMaxPeSections)
        throw CacheFormatError("an impossible number of PEs");
    return rows;
}

} // namespace parallax::io
