#include "mapped_index.h"

#include "cache_file.h"
#include "cache_hash.h"
#include "cache_store.h"
#include "cache_validation.h"
#include "file_info.h"
#include "index_format.h"
#include "unique_fd.h"

#include <boost/iostreams/device/mapped_file.hpp>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

using namespace index;

// A PE count no manifest may announce (PROCESSORS is at most 2^24).
constexpr std::uint64_t kMaxRows = std::uint64_t { 1 } << 24;
constexpr std::uint64_t kMaxShards = std::uint64_t { 1 } << 20;

void expect(bool ok, const std::string& what)
{
    if (!ok)
        throw CacheFormatError(what);
}

std::int64_t mtimeNsOf(const struct stat& st)
{
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000
        + static_cast<std::int64_t>(st.st_mtim.tv_nsec);
}

// The size of the regular file `path`. O_NONBLOCK: a FIFO (or device) in its place must not
// block the open; only a regular file is accepted. Returns false when it does not exist.
bool regularFileSize(const std::string& path, std::uint64_t& size)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return false;
        throw CacheFormatError(fileNameOf(path) + " cannot be read (" + std::strerror(errno) + ")");
    }
    UniqueFd owner(fd);
    struct stat st { };
    expect(::fstat(fd, &st) == 0, fileNameOf(path) + " cannot be read");
    expect(S_ISREG(st.st_mode), fileNameOf(path) + " is not a regular file");
    size = static_cast<std::uint64_t>(st.st_size);
    return true;
}

std::vector<char> readManifest(const std::string& path, bool& missing)
{
    std::uint64_t size = 0;
    missing = false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        missing = errno == ENOENT;
        if (missing)
            return {};
        throw CacheFormatError(
            std::string("the manifest cannot be read (") + std::strerror(errno) + ")");
    }
    UniqueFd owner(fd);
    struct stat st { };
    expect(::fstat(fd, &st) == 0, "the manifest cannot be read");
    expect(S_ISREG(st.st_mode), "the manifest is not a regular file");
    size = static_cast<std::uint64_t>(st.st_size);
    expect(size >= sizeof(ManifestHeader), "the manifest is truncated");
    expect(size < (std::uint64_t { 1 } << 32), "the manifest is impossibly large");
    std::vector<char> bytes(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const auto n
            = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        expect(n > 0, "the manifest is shorter than it was a moment ago");
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

void checkHeaderCommon(const char* magic, const char (&expected)[8], std::uint32_t byteOrder,
    std::uint32_t version, std::uint64_t layout, const std::string& what)
{
    expect(std::memcmp(magic, expected, 8) == 0, what + " is not a Parallax index (wrong magic)");
    // Byte order, then the version (an index from an older Parallax usually has another layout
    // too, and "another version" is the reason a user can act on), then the layout.
    expect(
        byteOrder == kByteOrderMark, what + " was written on another kind of machine (byte order)");
    if (version != kFormatVersion)
        throw CacheVersionError(what + " was written by another version (format "
            + std::to_string(version) + ", expected " + std::to_string(kFormatVersion) + ")");
    expect(
        layout == layoutFingerprint(), what + " was written on another kind of machine or build");
}

struct MappedShard {
    boost::iostreams::mapped_file_source file;
    std::string name;
    [[nodiscard]] const char* data() const { return file.data(); }
    [[nodiscard]] std::uint64_t size() const { return file.size(); }
};

// What the lazy loaders share: the mapped shards, where each PE is, what the checks need.
struct IndexData {
    struct Row {
        std::uint32_t shard = 0;
        const PeRecord* record = nullptr; // inside the shard's mapping (checked at open)
    };
    std::vector<std::shared_ptr<const MappedShard>> shards;
    std::vector<Row> rows;
    core::RunMetadata metadata;
    std::shared_ptr<core::LateIssues> late;
    std::function<void()> onDamage;
    mutable std::once_flag damageOnce;

    void damaged(std::size_t row, const char* what, const std::string& why) const
    {
        const auto& shard = *shards[rows[row].shard];
        late->add(core::Issue::FileError, shard.name,
            "PE " + std::to_string(row) + ": " + what + " in the index failed its check (" + why
                + "); left out");
        std::call_once(damageOnce, [&] {
            if (onDamage)
                onDamage();
        });
    }
};

template <typename T>
core::Column<T> columnView(const IndexData& data, const IndexData::Row& row, Column c)
{
    const auto& rec = *row.record;
    std::uint64_t at = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(c); ++k)
        at = alignUp(at) + rec.counts[k] * kColumnElementBytes[k];
    at = alignUp(at);
    static_assert(std::is_trivially_copyable_v<T>);
    const auto& shard = data.shards[row.shard];
    const auto* p = reinterpret_cast<const T*>(shard->data() + rec.dataOffset + at);
    return core::Column<T>::view(p, static_cast<std::size_t>(rec.counts[c]), shard);
}

template <typename W, typename N, W B, bool F>
void packedView(const IndexData& data, const IndexData::Row& row, Column first,
    core::PackedColumn<W, N, B, F>& into)
{
    into.narrow = columnView<N>(data, row, first);
    into.escapeRow = columnView<std::uint32_t>(data, row, static_cast<Column>(first + 1));
    into.escapeValue = columnView<W>(data, row, static_cast<Column>(first + 2));
    into.base = columnView<W>(data, row, static_cast<Column>(first + 3));
    into.settle();
}

template <typename T, T D>
void sparseView(const IndexData& data, const IndexData::Row& row, Column first, std::size_t size,
    core::SparseColumn<T, D>& into)
{
    into.assign(size, columnView<std::uint32_t>(data, row, first),
        columnView<T>(data, row, static_cast<Column>(first + 1)));
}

void clearColumns(core::PeTrace& t)
{
    t.executions = {};
    t.idles = {};
    t.packs = {};
    t.unpacks = {};
    t.flushes = {};
    t.sends = {};
    t.objects = {};
    t.userEvents = {};
    t.userBrackets = {};
    t.notes = {};
    t.stats = {};
    t.memory = {};
    t.userSupplied = {};
    t.traceGaps = {};
    t.phaseEnds = {};
}

// Only the column members of `t` are written: the scalar fields were filled in at the open and
// may be read (PeTable::peek) while a row is completed.
void installColumns(const IndexData& data, const IndexData::Row& row, core::PeTrace& t)
{
    auto& e = t.executions;
    packedView(data, row, kExecBegin, e.begin);
    packedView(data, row, kExecEnd, e.end);
    e.entry = columnView<std::uint16_t>(data, row, kExecEntry);
    e.sourcePe = columnView<core::PeId>(data, row, kExecSourcePe);
    packedView(data, row, kExecMsgBytes, e.msgBytes);
    e.eventId = columnView<std::int32_t>(data, row, kExecEventId);
    e.object = columnView<std::uint32_t>(data, row, kExecObject);
    packedView(data, row, kExecCpuBegin, e.cpuBegin);
    e.cpuDuration = columnView<std::uint32_t>(data, row, kExecCpuDuration);
    e.flags = columnView<std::uint8_t>(data, row, kExecFlags);
    e.papi = columnView<std::int64_t>(data, row, kExecPapi);
    packedView(data, row, kIdleBegin, t.idles.begin);
    packedView(data, row, kIdleEnd, t.idles.end);
    packedView(data, row, kPackBegin, t.packs.begin);
    packedView(data, row, kPackEnd, t.packs.end);
    packedView(data, row, kUnpackBegin, t.unpacks.begin);
    packedView(data, row, kUnpackEnd, t.unpacks.end);
    packedView(data, row, kFlushBegin, t.flushes.begin);
    packedView(data, row, kFlushEnd, t.flushes.end);
    auto& s = t.sends;
    packedView(data, row, kSendTime, s.time);
    s.entry = columnView<std::uint16_t>(data, row, kSendEntry);
    s.kind = columnView<core::SendKind>(data, row, kSendKind);
    s.messageType = columnView<std::uint8_t>(data, row, kSendMessageType);
    packedView(data, row, kSendMsgBytes, s.msgBytes);
    s.eventId = columnView<std::int32_t>(data, row, kSendEventId);
    sparseView(data, row, kSendDestinationCount, s.time.size(), s.destinationCount);
    packedView(data, row, kSendDuration, s.sendDuration);
    s.execution = columnView<std::uint32_t>(data, row, kSendExecution);
    s.multicastSend = columnView<std::uint32_t>(data, row, kMulticastSend);
    s.multicastOffset = columnView<std::uint32_t>(data, row, kMulticastOffset);
    s.multicastPes = columnView<core::PeId>(data, row, kMulticastPes);
    t.objects.offset = columnView<std::uint32_t>(data, row, kObjectOffset);
    packedView(data, row, kObjectValues, t.objects.values);
    t.userEvents = columnView<core::UserEventPoint>(data, row, kUserEvents);
    t.userBrackets = columnView<core::UserEventBracket>(data, row, kUserBrackets);
    t.stats = columnView<core::StatSample>(data, row, kStats);
    t.memory = columnView<core::MemorySample>(data, row, kMemory);
    t.userSupplied = columnView<core::UserSuppliedValue>(data, row, kUserSupplied);
    t.traceGaps = columnView<core::TraceGap>(data, row, kTraceGaps);
    t.phaseEnds = columnView<core::PhaseEnd>(data, row, kPhaseEnds);

    // Notes: texts as offsets into one blob.
    const auto begin = columnView<core::TimeUs>(data, row, kNoteBegin);
    const auto end = columnView<core::TimeUs>(data, row, kNoteEnd);
    const auto id = columnView<core::UserEventId>(data, row, kNoteId);
    const auto offset = columnView<std::uint64_t>(data, row, kNoteTextOffset);
    const auto text = columnView<char>(data, row, kNoteText);
    const auto n = begin.size();
    expect(end.size() == n && id.size() == n
            && (n == 0 ? offset.empty() && text.empty() : offset.size() == n + 1),
        "invalid field: note columns of different lengths");
    std::vector<core::Note> notes(n);
    for (std::size_t i = 0; i < n; ++i) {
        expect(offset[i] <= offset[i + 1] && offset[i + 1] <= text.size() && offset[0] == 0,
            "invalid field: note text offsets");
        notes[i] = { begin[i], end[i], id[i],
            std::string(text.data() + offset[i], text.data() + offset[i + 1]) };
    }
    expect(n == 0 || offset[n] == text.size(), "invalid field: note text offsets");
    t.notes = std::move(notes);
}

// Maps a PE's block into the page tables in one call before it is read through (Linux 5.14+):
// cheaper than a page fault every few pages. Anywhere else, or when refused, the faults do it.
void prefault(const char* data, std::size_t size)
{
#if defined(MADV_POPULATE_READ)
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(data) + size;
    if (size > 0)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
    (void)data;
    (void)size;
#endif
}

class PeLoader final : public core::RowLoader<core::PeTrace> {
public:
    explicit PeLoader(std::shared_ptr<const IndexData> data)
        : m_data(std::move(data))
    { }
    void load(std::size_t p, core::PeTrace& t) const noexcept override
    {
        const auto& d = *m_data;
        const auto& row = d.rows[p];
        const auto& rec = *row.record;
        if (rec.dataBytes == 0)
            return; // a row past the PEs with a log
        try {
            const auto* block = d.shards[row.shard]->data() + rec.dataOffset;
            prefault(block, static_cast<std::size_t>(rec.dataBytes));
            expect(CacheHash::of(block, static_cast<std::size_t>(rec.dataBytes)) == rec.dataHash,
                "checksum mismatch");
            installColumns(d, row, t);
            validatePe(t, p, d.metadata);
        } catch (const std::exception& e) {
            try {
                clearColumns(t);
                d.damaged(p, "its columns", e.what());
            } catch (...) {
                // Out of memory while reporting: the columns are cleared in any case.
                clearColumns(t);
            }
        }
    }

private:
    std::shared_ptr<const IndexData> m_data;
};

template <typename T> class SummaryLoader final : public core::RowLoader<std::optional<T>> {
public:
    explicit SummaryLoader(std::shared_ptr<const IndexData> data)
        : m_data(std::move(data))
    { }
    void load(std::size_t p, std::optional<T>& value) const noexcept override
    {
        if (!value)
            return;
        const auto& d = *m_data;
        const auto& row = d.rows[p];
        const auto& rec = *row.record;
        constexpr bool kSummary = std::is_same_v<T, core::PeSummary>;
        try {
            const auto offset = kSummary ? rec.summaryOffset : rec.detailOffset;
            const auto bytes = kSummary ? rec.summaryBytes : rec.detailBytes;
            CacheReader r(d.shards[row.shard]->data() + offset, static_cast<std::size_t>(bytes),
                kSummary ? rec.summaryHash : rec.detailHash);
            T decoded;
            if constexpr (kSummary) {
                getSummary(r, decoded);
                r.finish();
                validateSummary(decoded, p);
                expect(decoded.version == value->version && decoded.numPes == value->numPes
                        && decoded.intervalUs == value->intervalUs,
                    "the summary does not match its directory entry");
                value->utilization = std::move(decoded.utilization);
                value->idlePercent = std::move(decoded.idlePercent);
                value->entryTime = std::move(decoded.entryTime);
                value->entryCalls = std::move(decoded.entryCalls);
                value->entryMaxTime = std::move(decoded.entryMaxTime);
                value->marks = std::move(decoded.marks);
                value->phases = std::move(decoded.phases);
            } else {
                getDetail(r, decoded);
                r.finish();
                validateDetail(decoded, p);
                expect(decoded.version == value->version && decoded.intervalUs == value->intervalUs
                        && decoded.intervalCount == value->intervalCount
                        && decoded.entryCount == value->entryCount,
                    "the summary detail does not match its directory entry");
                value->cells = std::move(decoded.cells);
            }
        } catch (const std::exception& e) {
            try {
                d.damaged(p, kSummary ? "its .sum summary" : "its .sumd detail", e.what());
            } catch (...) {
                // The summary stays without its bins in any case.
            }
        }
    }

private:
    std::shared_ptr<const IndexData> m_data;
};

// The checks a PE's directory entry must pass at the open (its data is checked when read).
void checkRecord(const PeRecord& r, std::uint64_t row, const IndexRows& rows,
    const ShardHeader& header, std::uint64_t dataStart)
{
    const auto where = "PE " + std::to_string(row) + " of the index: ";
    expect(
        r.pe >= 0 && static_cast<std::uint64_t>(r.pe) == row, where + "invalid field: PE number");
    expect(r.hasLog <= 1 && r.hasSummary <= 1 && r.hasDetail <= 1, where + "invalid flags");
    expect(r.beginComputation >= -1 && r.endComputation >= -1,
        where + "invalid field: BEGIN/END_COMPUTATION");
    expect(r.firstTime >= -1 && r.lastTime >= -1
            && (r.firstTime < 0 || r.lastTime < 0 || r.firstTime <= r.lastTime),
        where + "invalid field: first/last time");
    const auto fileBytes = header.fileBytes;
    expect(r.dataOffset % kAlign == 0 && r.dataOffset >= dataStart && r.dataOffset <= fileBytes
            && r.dataBytes <= fileBytes - r.dataOffset,
        where + "truncated (its data ends past the end of the shard)");
    bool overflow = false;
    const auto expected = columnBlockBytes(r.counts, fileBytes, overflow);
    expect(!overflow && expected == r.dataBytes, where + "invalid field: column counts");
    if (row >= rows.pes)
        expect(r.hasLog == 0 && r.dataBytes == 0 && r.recordCount == 0,
            where + "data past the last PE with a log");
    for (const auto& [present, offset, bytes, limit] :
        { std::tuple { r.hasSummary, r.summaryOffset, r.summaryBytes, rows.summaries },
            std::tuple { r.hasDetail, r.detailOffset, r.detailBytes, rows.details } }) {
        if (present != 0) {
            expect(row < limit, where + "a summary past the summary table");
            expect(offset >= dataStart && offset <= fileBytes && bytes <= fileBytes - offset,
                where + "truncated (its summary ends past the end of the shard)");
        } else {
            expect(offset == 0 && bytes == 0, where + "a summary that is not there");
        }
    }
    if (r.hasSummary != 0)
        expect(r.summaryIntervalUs >= 1 && r.summaryNumPes >= 0
                && std::isfinite(std::bit_cast<double>(r.summaryVersionBits))
                && std::bit_cast<double>(r.summaryVersionBits) >= 0,
            where + "invalid field: summary interval");
    if (r.hasDetail != 0)
        expect(r.detailIntervalUs >= 1 && r.detailIntervalCount >= 0 && r.detailEntryCount >= 0
                && std::isfinite(std::bit_cast<double>(r.detailVersionBits))
                && std::bit_cast<double>(r.detailVersionBits) >= 0,
            where + "invalid field: detail interval");
}

std::shared_ptr<const MappedShard> mapShard(
    const std::string& directory, const std::string& name, std::uint64_t expectedBytes)
{
    const auto path = (fs::path(directory) / name).string();
    std::uint64_t size = 0;
    if (!regularFileSize(path, size))
        throw CacheFormatError("the manifest names " + name + ", which is missing");
    expect(size == expectedBytes,
        name + " is truncated or was replaced (" + std::to_string(size)
            + " bytes, the manifest says " + std::to_string(expectedBytes) + ")");
    expect(size >= sizeof(ShardHeader), name + " is truncated");
    auto shard = std::make_shared<MappedShard>();
    shard->name = name;
    try {
        shard->file.open(path);
    } catch (const std::exception& e) {
        throw CacheFormatError(name + " cannot be mapped (" + e.what() + ")");
    }
    expect(shard->file.is_open() && shard->size() == expectedBytes, name + " changed while opened");
    return shard;
}

} // namespace

std::vector<IndexKeyEntry> indexKeyOf(const core::RunFiles& files, std::string& error)
{
    std::vector<std::string> paths;
    std::set<std::string> dirs { files.directory };
    auto add = [&](const std::string& p) {
        if (p.empty())
            return;
        paths.push_back(p);
        dirs.insert(fs::path(p).parent_path().string());
    };
    add(files.stsPath);
    add(files.projrcPath);
    for (const auto* list : { &files.logPaths, &files.sumPaths, &files.sumdPaths })
        for (const auto& p : *list)
            add(p);
    dirs.erase("");
    paths.insert(paths.end(), dirs.begin(), dirs.end());
    std::vector<IndexKeyEntry> key;
    key.reserve(paths.size());
    const fs::path base(files.directory);
    for (const auto& p : paths) {
        struct stat st { };
        if (::stat(p.c_str(), &st) != 0) {
            error = fileNameOf(p) + " disappeared during the load";
            return {};
        }
        auto relative = fs::path(p).lexically_relative(base).string();
        if (relative.empty())
            relative = p;
        key.push_back({ relative, static_cast<std::uint64_t>(st.st_size), mtimeNsOf(st) });
    }
    return key;
}

IndexOpen openIndex(const std::string& directory, const core::RunFiles& located,
    const LoadOptions& options, std::function<void()> onDamage)
{
    IndexOpen result;
    try {
        bool missing = false;
        const auto manifest = readManifest((fs::path(directory) / kManifestName).string(), missing);
        if (missing) {
            result.outcome = IndexOutcome::Missing;
            result.why = "no manifest (not an index, or one whose writing did not finish)";
            return result;
        }
        ManifestHeader header {};
        std::memcpy(&header, manifest.data(), sizeof header);
        checkHeaderCommon(header.magic, kManifestMagic, header.byteOrder, header.version,
            header.layout, "the manifest");
        expect(header.headerHash == CacheHash::of(&header, kManifestHeaderHashAt),
            "checksum mismatch in the manifest header");
        expect(header.sectionCount == kManifestSections, "impossible section count");
        expect(manifest.size() >= sizeof header + sizeof(Section) * kManifestSections,
            "the manifest is truncated");
        Section table[kManifestSections];
        std::memcpy(table, manifest.data() + sizeof header, sizeof table);
        expect(header.tableHash == CacheHash::of(table, sizeof table),
            "checksum mismatch in the manifest's section table");
        for (const auto& s : table)
            expect(s.offset <= manifest.size() && s.size <= manifest.size() - s.offset,
                "truncated (a section ends past the end of the manifest)");
        auto reader = [&](ManifestSection k) {
            return std::make_unique<CacheReader>(manifest.data() + table[k].offset,
                static_cast<std::size_t>(table[k].size), table[k].hash);
        };

        // The key: is this the index of the same, unchanged run, read with the same options?
        {
            auto r = reader(kKeySection);
            const auto flags = r->get<std::uint8_t>();
            std::vector<IndexKeyEntry> entries(r->count(24));
            for (auto& e : entries) {
                r->str(e.path);
                e.size = r->get<std::uint64_t>();
                e.mtimeNs = r->get<std::int64_t>();
            }
            r->finish();
            if (flags != indexOptionFlags(options.readLogs, options.readSummaries)) {
                result.outcome = IndexOutcome::Stale;
                result.why = "written for other load options";
                return result;
            }
            expect(!entries.empty(), "an empty run key");
            const auto sts = fileNameOf(located.stsPath);
            if (entries.front().path != sts) {
                result.outcome = IndexOutcome::Stale;
                result.why
                    = "an index of another run (" + entries.front().path + ", not " + sts + ")";
                return result;
            }
            const fs::path base(located.directory);
            for (const auto& e : entries) {
                expect(
                    !e.path.empty() && fs::path(e.path).is_relative(), "invalid field: a key path");
                struct stat st { };
                const auto path = (base / e.path).lexically_normal();
                if (::stat(path.c_str(), &st) != 0
                    || static_cast<std::uint64_t>(st.st_size) != e.size
                    || mtimeNsOf(st) != e.mtimeNs) {
                    result.outcome = IndexOutcome::Stale;
                    result.why = (e.path == "." ? located.directory : e.path) + " changed";
                    return result;
                }
            }
        }

        auto trace = std::make_shared<core::Trace>();
        IndexRows rows;
        {
            auto r = reader(kRunSection);
            rows = getRun(*r, *trace);
            r->finish();
        }
        validateRunTables(*trace, rows);
        expect(rows.total() <= kMaxRows, "an impossible number of PEs");
        // The same run opened through another spelling of its path: name its files as a fresh
        // load would.
        auto& files = trace->files;
        if (files.directory != located.directory) {
            const auto from = files.directory;
            auto respell = [&](std::string& path) {
                if (!path.empty() && path.compare(0, from.size(), from) == 0)
                    path = located.directory + path.substr(from.size());
            };
            for (auto* s : { &files.directory, &files.stsPath, &files.projrcPath })
                respell(*s);
            for (auto* v : { &files.logPaths, &files.sumPaths, &files.sumdPaths })
                for (auto& s : *v)
                    respell(s);
        }

        // The shards: each mapped, its header and PE directory checked.
        auto data = std::make_shared<IndexData>();
        data->metadata = trace->metadata;
        data->late = std::make_shared<core::LateIssues>();
        data->onDamage = std::move(onDamage);
        data->rows.resize(static_cast<std::size_t>(rows.total()));
        {
            auto r = reader(kShardSection);
            const auto buildId = r->get<std::uint64_t>();
            const auto count = r->count(40);
            expect(count >= 1 && count <= kMaxShards
                    && count <= std::max<std::uint64_t>(rows.total(), 1),
                "impossible shard count");
            std::uint64_t next = 0;
            for (std::size_t k = 0; k < count; ++k) {
                std::string name;
                r->str(name);
                const auto firstPe = r->get<std::uint64_t>();
                const auto peCount = r->get<std::uint64_t>();
                const auto fileBytes = r->get<std::uint64_t>();
                const auto headerHash = r->get<std::uint64_t>();
                expect(!name.empty() && name.find('/') == std::string::npos && name != "."
                        && name != ".." && name.ends_with(".pxshard"),
                    "invalid field: a shard name");
                expect(firstPe == next && peCount <= rows.total() - next,
                    "the shards do not cover the PEs in order");
                next += peCount;
                auto shard = mapShard(directory, name, fileBytes);
                ShardHeader h {};
                std::memcpy(&h, shard->data(), sizeof h);
                checkHeaderCommon(h.magic, kShardMagic, h.byteOrder, h.version, h.layout, name);
                expect(h.headerHash == CacheHash::of(&h, kShardHeaderHashAt),
                    "checksum mismatch in the header of " + name);
                expect(h.headerHash == headerHash && h.buildId == buildId && h.shardIndex == k
                        && h.shardCount == count && h.firstPe == firstPe && h.peCount == peCount
                        && h.fileBytes == fileBytes,
                    name + " belongs to another index than its manifest");
                const auto directoryBytes = peCount * sizeof(PeRecord);
                expect(directoryBytes / sizeof(PeRecord) == peCount
                        && directoryBytes <= fileBytes - sizeof h,
                    name + " is truncated (its PE directory)");
                const auto* records = reinterpret_cast<const PeRecord*>(shard->data() + sizeof h);
                expect(CacheHash::of(records, static_cast<std::size_t>(directoryBytes))
                        == h.directoryHash,
                    "checksum mismatch in the PE directory of " + name);
                const auto dataStart = sizeof h + directoryBytes;
                for (std::uint64_t i = 0; i < peCount; ++i) {
                    checkRecord(records[i], firstPe + i, rows, h, dataStart);
                    data->rows[static_cast<std::size_t>(firstPe + i)]
                        = { static_cast<std::uint32_t>(k), &records[i] };
                }
                data->shards.push_back(std::move(shard));
            }
            expect(next == rows.total(), "the shards do not cover every PE");
            r->finish();
        }

        // The rows: what the directory says now, the rest when first read.
        std::vector<core::PeTrace> pes(static_cast<std::size_t>(rows.pes));
        std::vector<std::optional<core::PeSummary>> summaries(
            static_cast<std::size_t>(rows.summaries));
        std::vector<std::optional<core::PeSummaryDetail>> details(
            static_cast<std::size_t>(rows.details));
        for (std::size_t p = 0; p < data->rows.size(); ++p) {
            const auto& rec = *data->rows[p].record;
            if (p < pes.size()) {
                auto& t = pes[p];
                t.pe = rec.pe;
                t.hasLog = rec.hasLog != 0;
                t.lastIdleFlags = rec.lastIdleFlags;
                t.beginComputation = rec.beginComputation;
                t.endComputation = rec.endComputation;
                t.firstTime = rec.firstTime;
                t.lastTime = rec.lastTime;
                t.recordCount = rec.recordCount;
            }
            if (rec.hasSummary != 0) {
                auto& s = summaries[p].emplace();
                s.pe = rec.pe;
                s.version = std::bit_cast<double>(rec.summaryVersionBits);
                s.numPes = rec.summaryNumPes;
                s.intervalUs = rec.summaryIntervalUs;
            }
            if (rec.hasDetail != 0) {
                auto& d = details[p].emplace();
                d.pe = rec.pe;
                d.version = std::bit_cast<double>(rec.detailVersionBits);
                d.intervalUs = rec.detailIntervalUs;
                d.intervalCount = rec.detailIntervalCount;
                d.entryCount = rec.detailEntryCount;
            }
        }
        trace->mappedStoreBytes = rows.storeBytes;
        trace->entryTimeTotals = std::move(rows.entryTimes);
        trace->lateIssues = data->late;
        trace->pes.setLazy(std::move(pes), std::make_shared<PeLoader>(data));
        trace->summaries.setLazy(
            std::move(summaries), std::make_shared<SummaryLoader<core::PeSummary>>(data));
        trace->details.setLazy(
            std::move(details), std::make_shared<SummaryLoader<core::PeSummaryDetail>>(data));
        result.outcome = IndexOutcome::Loaded;
        result.trace = std::move(trace);
    } catch (const CacheVersionError& e) {
        // Written by another version of Parallax: out of date, not damaged.
        result.outcome = IndexOutcome::Stale;
        result.why = e.what();
        result.trace.reset();
    } catch (const std::exception& e) {
        // CacheFormatError, or out of memory on a damaged file: never trusted.
        result.outcome = IndexOutcome::Damaged;
        result.why = e.what();
        result.trace.reset();
    }
    return result;
}

} // namespace parallax::io
