#include "index_writer.h"

#include "cache_file.h"
#include "cache_hash.h"
#include "cache_store.h"
#include "index_format.h"
#include "unique_fd.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace parallax::io {

namespace fs = std::filesystem;

// The shard writer's state holds these, so they cannot live in an anonymous namespace (a unity
// build would see a type with internal linkage inside one with external linkage).
namespace index_files {

std::string errnoText()
{
    return std::strerror(errno);
}

// A temporary file next to `finalPath`, renamed over it by commit().
class AtomicFile {
public:
    explicit AtomicFile(std::string finalPath)
        : m_final(std::move(finalPath))
        , m_temp((fs::path(m_final).parent_path() / ".tmp-XXXXXX").string())
        , m_fd(::mkstemp(m_temp.data()))
    {
        if (m_fd.get() < 0)
            throw std::runtime_error("cannot create a file in "
                + fs::path(m_final).parent_path().string() + " (" + errnoText() + ")");
        ::fchmod(m_fd.get(), 0644);
    }
    ~AtomicFile()
    {
        if (!m_committed)
            ::unlink(m_temp.c_str());
    }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    [[nodiscard]] int fd() const { return m_fd.get(); }
    void commit()
    {
        if (::close(m_fd.release()) != 0 || ::rename(m_temp.c_str(), m_final.c_str()) != 0)
            throw std::runtime_error("cannot write " + m_final + " (" + errnoText() + ")");
        m_committed = true;
    }

private:
    std::string m_final;
    std::string m_temp;
    UniqueFd m_fd;
    bool m_committed = false;
};

// An unnamed scratch file in `directory` (unlinked at once: it vanishes with its descriptor).
class ScratchFile {
public:
    explicit ScratchFile(const std::string& directory)
        : m_fd(create(directory))
    { }
    [[nodiscard]] int fd() const { return m_fd.get(); }

private:
    static int create(const std::string& directory)
    {
        std::string path = (fs::path(directory) / ".tmp-XXXXXX").string();
        const int fd = ::mkstemp(path.data());
        if (fd < 0)
            throw std::runtime_error(
                "cannot create a file in " + directory + " (" + errnoText() + ")");
        ::unlink(path.c_str());
        return fd;
    }
    UniqueFd m_fd;
};

} // namespace index_files

namespace {

using namespace index;

// ---- Structs stored raw, with their padding bytes zeroed ----

// Copies field `m` of `v` to where it lies in a T at `out` (a zeroed buffer of sizeof(T)), so
// padding bytes stay zero: the files of the same run are identical and no heap bytes leak.
template <typename T, typename M> void field(unsigned char* out, const T& v, M T::*m)
{
    const auto offset = reinterpret_cast<const unsigned char*>(&(v.*m))
        - reinterpret_cast<const unsigned char*>(&v);
    std::memcpy(out + offset, &(v.*m), sizeof(M));
}

void pack(unsigned char* out, const core::UserEventPoint& x)
{
    field(out, x, &core::UserEventPoint::time);
    field(out, x, &core::UserEventPoint::id);
    field(out, x, &core::UserEventPoint::eventId);
}
void pack(unsigned char* out, const core::UserEventBracket& x)
{
    field(out, x, &core::UserEventBracket::begin);
    field(out, x, &core::UserEventBracket::end);
    field(out, x, &core::UserEventBracket::id);
    field(out, x, &core::UserEventBracket::nestedId);
    field(out, x, &core::UserEventBracket::kind);
}
void pack(unsigned char* out, const core::StatSample& x)
{
    field(out, x, &core::StatSample::time);
    field(out, x, &core::StatSample::userTime);
    field(out, x, &core::StatSample::value);
    field(out, x, &core::StatSample::statId);
}
void pack(unsigned char* out, const core::MemorySample& x)
{
    field(out, x, &core::MemorySample::time);
    field(out, x, &core::MemorySample::bytes);
}
void pack(unsigned char* out, const core::UserSuppliedValue& x)
{
    field(out, x, &core::UserSuppliedValue::time);
    field(out, x, &core::UserSuppliedValue::value);
}
void pack(unsigned char* out, const core::TraceGap& x)
{
    field(out, x, &core::TraceGap::begin);
    field(out, x, &core::TraceGap::end);
    field(out, x, &core::TraceGap::openEntry);
    field(out, x, &core::TraceGap::resumedEnd);
}
void pack(unsigned char* out, const core::PhaseEnd& x)
{
    field(out, x, &core::PhaseEnd::time);
    field(out, x, &core::PhaseEnd::phase);
}

// ---- Columns ----

struct ColumnWriter {
    CacheWriter& w;
    std::uint64_t (&counts)[kColumnCount];

    template <typename C> void raw(Column c, const C& values)
    {
        using T = typename C::value_type;
        static_assert(CacheWriter::kRaw<T>);
        static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
        begin(c, values.size(), sizeof(T));
        w.bytes(values.data(), values.size() * sizeof(T));
    }
    // A packed column's four parts, from `first` on (index_format.h).
    template <typename W, typename N, W B, bool F>
    void narrow(Column first, const core::PackedColumn<W, N, B, F>& values)
    {
        raw(first, values.narrow);
        raw(static_cast<Column>(first + 1), values.escapeRow);
        raw(static_cast<Column>(first + 2), values.escapeValue);
        raw(static_cast<Column>(first + 3), values.base);
    }
    template <typename T, T D> void sparse(Column first, const core::SparseColumn<T, D>& values)
    {
        raw(first, values.row);
        raw(static_cast<Column>(first + 1), values.value);
    }
    template <typename T> void packed(Column c, const core::Column<T>& values)
    {
        begin(c, values.size(), sizeof(T));
        constexpr std::size_t kChunk = 4096;
        std::vector<unsigned char> buffer;
        for (std::size_t i = 0; i < values.size(); i += kChunk) {
            const auto n = std::min(kChunk, values.size() - i);
            buffer.assign(n * sizeof(T), 0);
            for (std::size_t k = 0; k < n; ++k)
                pack(buffer.data() + k * sizeof(T), values[i + k]);
            w.bytes(buffer.data(), buffer.size());
        }
    }
    void begin(Column c, std::size_t count, std::size_t elementBytes)
    {
        if (elementBytes != kColumnElementBytes[c])
            throw std::logic_error("index column of the wrong width");
        w.pad(kAlign);
        counts[c] = count;
    }
};

void putColumns(CacheWriter& w, const core::PeTrace& p, std::uint64_t (&counts)[kColumnCount])
{
    ColumnWriter c { w, counts };
    const auto& e = p.executions;
    c.narrow(kExecBegin, e.begin);
    c.narrow(kExecEnd, e.end);
    c.raw(kExecEntry, e.entry);
    c.raw(kExecSourcePe, e.sourcePe);
    c.narrow(kExecMsgBytes, e.msgBytes);
    c.raw(kExecEventId, e.eventId);
    c.raw(kExecObject, e.object);
    c.narrow(kExecCpuBegin, e.cpuBegin);
    c.raw(kExecCpuDuration, e.cpuDuration);
    c.raw(kExecFlags, e.flags);
    c.raw(kExecPapi, e.papi);
    c.narrow(kIdleBegin, p.idles.begin);
    c.narrow(kIdleEnd, p.idles.end);
    c.narrow(kPackBegin, p.packs.begin);
    c.narrow(kPackEnd, p.packs.end);
    c.narrow(kUnpackBegin, p.unpacks.begin);
    c.narrow(kUnpackEnd, p.unpacks.end);
    c.narrow(kFlushBegin, p.flushes.begin);
    c.narrow(kFlushEnd, p.flushes.end);
    const auto& s = p.sends;
    c.narrow(kSendTime, s.time);
    c.raw(kSendEntry, s.entry);
    c.raw(kSendKind, s.kind);
    c.raw(kSendMessageType, s.messageType);
    c.narrow(kSendMsgBytes, s.msgBytes);
    c.raw(kSendEventId, s.eventId);
    c.sparse(kSendDestinationCount, s.destinationCount);
    c.narrow(kSendDuration, s.sendDuration);
    c.raw(kSendExecution, s.execution);
    c.raw(kMulticastSend, s.multicastSend);
    c.raw(kMulticastOffset, s.multicastOffset);
    c.raw(kMulticastPes, s.multicastPes);
    c.raw(kObjectOffset, p.objects.offset);
    c.narrow(kObjectValues, p.objects.values);
    c.packed(kUserEvents, p.userEvents);
    c.packed(kUserBrackets, p.userBrackets);
    c.packed(kStats, p.stats);
    c.packed(kMemory, p.memory);
    c.packed(kUserSupplied, p.userSupplied);
    c.packed(kTraceGaps, p.traceGaps);
    c.packed(kPhaseEnds, p.phaseEnds);
    std::vector<core::TimeUs> noteBegin;
    std::vector<core::TimeUs> noteEnd;
    std::vector<core::UserEventId> noteId;
    std::vector<std::uint64_t> textOffset;
    std::string text;
    for (const auto& n : p.notes) {
        if (textOffset.empty())
            textOffset.push_back(0);
        noteBegin.push_back(n.begin);
        noteEnd.push_back(n.end);
        noteId.push_back(n.id);
        text += n.text;
        textOffset.push_back(text.size());
    }
    c.raw(kNoteBegin, noteBegin);
    c.raw(kNoteEnd, noteEnd);
    c.raw(kNoteId, noteId);
    c.raw(kNoteTextOffset, textOffset);
    c.raw(kNoteText, text);
}

void putKey(CacheWriter& w, std::uint8_t optionFlags, const std::vector<IndexKeyEntry>& key)
{
    w.put(optionFlags);
    w.put<std::uint64_t>(key.size());
    for (const auto& e : key) {
        w.str(e.path);
        w.put(e.size);
        w.put(e.mtimeNs);
    }
}

} // namespace

std::uint64_t IndexRows::total() const
{
    return std::max({ pes, summaries, details });
}

void IndexRows::addEntryTimes(const core::PeTrace& pe, std::size_t entries)
{
    entryTimes.resize(entries, 0);
    const auto& ex = pe.executions;
    for (std::size_t k = 0; k < ex.size(); ++k) {
        const auto entry = static_cast<std::size_t>(ex.entry[k]);
        if (entry < entries) {
            entryTimes[entry] += std::max<core::TimeUs>(0, ex.end[k] - ex.begin[k]);
            ++timedExecutions;
        }
    }
}

IndexRows indexRowsOf(const core::Trace& trace)
{
    IndexRows rows { trace.pes.size(), trace.summaries.size(), trace.details.size(),
        trace.storeBytes(), {}, 0 };
    for (const auto& pe : trace.pes)
        rows.addEntryTimes(pe, trace.metadata.entryCount());
    return rows;
}

std::uint8_t indexOptionFlags(bool readLogs, bool readSummaries)
{
    return static_cast<std::uint8_t>((readLogs ? 1U : 0U) | (readSummaries ? 2U : 0U));
}

std::string shardFileName(std::size_t index, std::size_t count)
{
    return "shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".pxshard";
}

// The PEs' columns go straight into the shard; their .sum and .sumd blobs into two scratch
// files appended at the end, so that all the summaries of a shard lie together (reading every
// PE's .sum, as the app's summary graph does, then touches a few MB, not every PE's pages).
struct ShardWriter::State {
    index_files::AtomicFile file;
    CacheWriter w;
    index_files::ScratchFile sumFile;
    CacheWriter sums;
    index_files::ScratchFile detailFile;
    CacheWriter details;
    ShardHeader header {};
    std::vector<PeRecord> directory;
    std::size_t next = 0;
    std::string name;

    State(const std::string& dir, std::string shardName)
        : file((fs::path(dir) / shardName).string())
        , w(file.fd())
        , sumFile(dir)
        , sums(sumFile.fd())
        , detailFile(dir)
        , details(detailFile.fd())
        , name(std::move(shardName))
    { }

    // Appends what `from` wrote to its scratch file `fd`; returns where it begins in the shard.
    std::uint64_t append(CacheWriter& from, int fd)
    {
        from.flush();
        w.pad(kAlign);
        const auto base = w.position();
        std::vector<char> buffer(1U << 20);
        for (std::uint64_t at = 0; at < from.position();) {
            const auto n = ::pread(fd, buffer.data(),
                static_cast<std::size_t>(
                    std::min<std::uint64_t>(buffer.size(), from.position() - at)),
                static_cast<off_t>(at));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                throw std::runtime_error(
                    "cannot read back a scratch file (" + index_files::errnoText() + ")");
            w.bytes(buffer.data(), static_cast<std::size_t>(n));
            at += static_cast<std::uint64_t>(n);
        }
        return base;
    }
};

ShardWriter::ShardWriter(const std::string& directory, std::uint64_t buildId,
    std::size_t shardIndex, std::size_t shardCount, std::uint64_t firstPe, std::uint64_t peCount)
    : m_state(std::make_unique<State>(directory, shardFileName(shardIndex, shardCount)))
{
    auto& h = m_state->header;
    std::memcpy(h.magic, kShardMagic, sizeof h.magic);
    h.version = kFormatVersion;
    h.byteOrder = kByteOrderMark;
    h.layout = layoutFingerprint();
    h.buildId = buildId;
    h.shardIndex = shardIndex;
    h.shardCount = shardCount;
    h.firstPe = firstPe;
    h.peCount = peCount;
    m_state->directory.assign(static_cast<std::size_t>(peCount), PeRecord {});
    // Header and directory first, written again once the PEs are known.
    m_state->w.bytes(&h, sizeof h);
    m_state->w.bytes(m_state->directory.data(), m_state->directory.size() * sizeof(PeRecord));
}

ShardWriter::~ShardWriter() = default;

void ShardWriter::add(
    const core::PeTrace* pe, const core::PeSummary* summary, const core::PeSummaryDetail* detail)
{
    auto& s = *m_state;
    if (s.next >= s.directory.size())
        throw std::logic_error("more PEs than the shard holds");
    auto& r = s.directory[s.next];
    r.pe = static_cast<std::int32_t>(s.header.firstPe + s.next);
    ++s.next;
    r.beginComputation = -1;
    r.endComputation = -1;
    r.firstTime = -1;
    r.lastTime = -1;
    s.w.pad(kAlign);
    r.dataOffset = s.w.position();
    s.w.beginSection();
    if (pe != nullptr) {
        if (pe->pe != r.pe)
            throw std::logic_error("PEs out of order");
        r.hasLog = pe->hasLog ? 1 : 0;
        r.lastIdleFlags = pe->lastIdleFlags;
        r.beginComputation = pe->beginComputation;
        r.endComputation = pe->endComputation;
        r.firstTime = pe->firstTime;
        r.lastTime = pe->lastTime;
        r.recordCount = pe->recordCount;
        r.storeBytes = pe->memoryBytes();
        putColumns(s.w, *pe, r.counts);
    }
    const auto data = s.w.endSection();
    r.dataBytes = data.size;
    r.dataHash = data.hash;
    if (summary != nullptr) {
        r.hasSummary = 1;
        r.summaryVersionBits = std::bit_cast<std::uint64_t>(summary->version);
        r.summaryIntervalUs = summary->intervalUs;
        r.summaryNumPes = summary->numPes;
        s.sums.beginSection();
        putSummary(s.sums, *summary);
        const auto section = s.sums.endSection();
        r.summaryOffset = section.offset;
        r.summaryBytes = section.size;
        r.summaryHash = section.hash;
    }
    if (detail != nullptr) {
        r.hasDetail = 1;
        r.detailVersionBits = std::bit_cast<std::uint64_t>(detail->version);
        r.detailIntervalUs = detail->intervalUs;
        r.detailIntervalCount = detail->intervalCount;
        r.detailEntryCount = detail->entryCount;
        s.details.beginSection();
        putDetail(s.details, *detail);
        const auto section = s.details.endSection();
        r.detailOffset = section.offset;
        r.detailBytes = section.size;
        r.detailHash = section.hash;
    }
}

ShardInfo ShardWriter::finish()
{
    auto& s = *m_state;
    if (s.next != s.directory.size())
        throw std::logic_error("a shard written with PEs missing");
    const auto sumBase = s.append(s.sums, s.sumFile.fd());
    const auto detailBase = s.append(s.details, s.detailFile.fd());
    for (auto& r : s.directory) {
        if (r.hasSummary != 0)
            r.summaryOffset += sumBase;
        if (r.hasDetail != 0)
            r.detailOffset += detailBase;
    }
    s.w.flush();
    auto& h = s.header;
    h.fileBytes = s.w.position();
    h.directoryHash = CacheHash::of(s.directory.data(), s.directory.size() * sizeof(PeRecord));
    h.headerHash = CacheHash::of(&h, kShardHeaderHashAt);
    s.w.writeAt(sizeof h, s.directory.data(), s.directory.size() * sizeof(PeRecord));
    s.w.writeAt(0, &h, sizeof h);
    s.file.commit();
    return { s.name, h.firstPe, h.peCount, h.fileBytes, h.headerHash };
}

void writeManifest(const std::string& directory, const core::Trace& run, const IndexRows& rows,
    std::uint8_t optionFlags, const std::vector<IndexKeyEntry>& key, std::uint64_t buildId,
    const std::vector<ShardInfo>& shards)
{
    index_files::AtomicFile file((fs::path(directory) / kManifestName).string());
    CacheWriter w(file.fd());
    ManifestHeader header {};
    Section table[kManifestSections] {};
    w.bytes(&header, sizeof header);
    w.bytes(table, sizeof table);

    w.beginSection();
    putKey(w, optionFlags, key);
    const auto keySection = w.endSection();
    table[kKeySection] = { keySection.offset, keySection.size, keySection.hash };

    w.beginSection();
    putRun(w, run, rows);
    const auto runSection = w.endSection();
    table[kRunSection] = { runSection.offset, runSection.size, runSection.hash };

    w.beginSection();
    w.put(buildId);
    w.put<std::uint64_t>(shards.size());
    for (const auto& s : shards) {
        w.str(s.name);
        w.put(s.firstPe);
        w.put(s.peCount);
        w.put(s.fileBytes);
        w.put(s.headerHash);
    }
    const auto shardSection = w.endSection();
    table[kShardSection] = { shardSection.offset, shardSection.size, shardSection.hash };
    w.flush();

    std::memcpy(header.magic, kManifestMagic, sizeof header.magic);
    header.version = kFormatVersion;
    header.byteOrder = kByteOrderMark;
    header.layout = layoutFingerprint();
    header.sectionCount = kManifestSections;
    header.tableHash = CacheHash::of(table, sizeof table);
    header.headerHash = CacheHash::of(&header, kManifestHeaderHashAt);
    w.writeAt(sizeof header, table, sizeof table);
    w.writeAt(0, &header, sizeof header);
    file.commit();
}

std::uint64_t buildIdOf(
    std::uint8_t optionFlags, const std::vector<IndexKeyEntry>& key, std::size_t shardCount)
{
    CacheHash h;
    h.update(&optionFlags, 1);
    for (const auto& e : key) {
        h.update(e.path.data(), e.path.size() + 1);
        h.update(&e.size, sizeof e.size);
        h.update(&e.mtimeNs, sizeof e.mtimeNs);
    }
    const std::uint64_t shards = shardCount;
    h.update(&shards, sizeof shards);
    return h.digest();
}

void removeManifest(const std::string& directory)
{
    ::unlink((fs::path(directory) / kManifestName).c_str());
}

void writeIndex(const std::string& directory, const core::Trace& trace, std::uint8_t optionFlags,
    const std::vector<IndexKeyEntry>& key)
{
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        throw std::runtime_error("cannot create " + directory + " (" + ec.message() + ")");
    removeManifest(directory);
    const auto rows = indexRowsOf(trace);
    const auto buildId = buildIdOf(optionFlags, key, 1);
    ShardWriter shard(directory, buildId, 0, 1, 0, rows.total());
    for (std::size_t p = 0; p < rows.total(); ++p) {
        const core::PeSummary* summary = nullptr;
        if (p < trace.summaries.size() && trace.summaries[p])
            summary = &*trace.summaries[p];
        const core::PeSummaryDetail* detail = nullptr;
        if (p < trace.details.size() && trace.details[p])
            detail = &*trace.details[p];
        shard.add(p < trace.pes.size() ? &trace.pes[p] : nullptr, summary, detail);
    }
    const auto info = shard.finish();
    writeManifest(directory, trace, rows, optionFlags, key, buildId, { info });
    // Shards of an earlier index with another shard count are no longer named by the manifest.
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        const auto name = entry.path().filename().string();
        if (name != info.name && name.ends_with(".pxshard"))
            fs::remove(entry.path(), ec);
    }
}

// ---- The layout fingerprint ----

namespace index {

namespace {
template <typename T, typename M> std::uint64_t offsetOf(M T::*m)
{
    static const T v {};
    return static_cast<std::uint64_t>(reinterpret_cast<const unsigned char*>(&(v.*m))
        - reinterpret_cast<const unsigned char*>(&v));
}
} // namespace

std::uint64_t layoutFingerprint()
{
    using namespace core;
    const std::uint64_t facts[] = { sizeof(TimeUs), sizeof(PeId), sizeof(double),
        sizeof(std::size_t), sizeof(SendKind), sizeof(BracketKind), kIssueKinds, kColumnCount,
        sizeof(PeRecord), sizeof(ShardHeader), sizeof(ManifestHeader), sizeof(ObjectId),
        alignof(ObjectId), offsetOf(&ObjectId::values), offsetOf(&ObjectId::length),
        sizeof(UserEventPoint), offsetOf(&UserEventPoint::time), offsetOf(&UserEventPoint::id),
        offsetOf(&UserEventPoint::eventId), sizeof(UserEventBracket),
        offsetOf(&UserEventBracket::begin), offsetOf(&UserEventBracket::end),
        offsetOf(&UserEventBracket::id), offsetOf(&UserEventBracket::nestedId),
        offsetOf(&UserEventBracket::kind), sizeof(StatSample), offsetOf(&StatSample::time),
        offsetOf(&StatSample::userTime), offsetOf(&StatSample::value),
        offsetOf(&StatSample::statId), sizeof(MemorySample), offsetOf(&MemorySample::time),
        offsetOf(&MemorySample::bytes), sizeof(UserSuppliedValue),
        offsetOf(&UserSuppliedValue::time), offsetOf(&UserSuppliedValue::value), sizeof(TraceGap),
        offsetOf(&TraceGap::begin), offsetOf(&TraceGap::end), offsetOf(&TraceGap::openEntry),
        offsetOf(&TraceGap::resumedEnd), sizeof(PhaseEnd), offsetOf(&PhaseEnd::time),
        offsetOf(&PhaseEnd::phase), sizeof(SummaryMark), sizeof(SummaryDetailCell),
        sizeof(MessageType) };
    return CacheHash::of(facts, sizeof facts);
}

} // namespace index

} // namespace parallax::io
