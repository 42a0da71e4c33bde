#include "index_cache.h"

#include "cache_file.h"
#include "cache_hash.h"
#include "cache_store.h"
#include "cache_validation.h"
#include "file_info.h"
#include "reduction_manifest.h"
#include "run_discovery.h"
#include "run_parallel.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

// Bump whenever what is written changes (a new column, a new field, another order).
constexpr std::uint32_t kFormatVersion = 2;
constexpr char kMagic[8] = { 'P', 'L', 'X', 'I', 'N', 'D', 'E', 'X' };
constexpr std::uint32_t kByteOrderMark = 0x01020304U;
constexpr std::uint64_t kMaxSections = 1U << 24;
// Files changed more recently than this before the load started are not cached: a change in
// the same timestamp tick would otherwise go unseen.
constexpr std::int64_t kRacyNs = 2'000'000'000;

struct FileHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t byteOrder;
    std::uint64_t layout; // fingerprint of the sizes of everything written raw
    std::uint64_t sectionCount;
    std::uint64_t tableHash; // checksum of the section table that follows the header
    std::uint64_t headerHash; // checksum of the fields above
    std::uint64_t reserved[2];
};
static_assert(sizeof(FileHeader) == 64);

std::uint64_t layoutFingerprint()
{
    const std::size_t sizes[] = { sizeof(core::TimeUs), sizeof(core::PeId), sizeof(core::ObjectId),
        alignof(core::ObjectId), sizeof(core::UserEventPoint), sizeof(core::UserEventBracket),
        sizeof(core::StatSample), sizeof(core::MemorySample), sizeof(core::UserSuppliedValue),
        sizeof(core::TraceGap), sizeof(core::PhaseEnd), sizeof(core::SummaryMark),
        sizeof(core::SummaryDetailCell), sizeof(core::MessageType), sizeof(core::SendKind),
        sizeof(core::BracketKind), sizeof(core::PeTrace), sizeof(core::RunMetadata),
        sizeof(core::RunFiles), sizeof(core::PeSummary), sizeof(core::PeSummaryDetail),
        core::kIssueKinds, sizeof(double), sizeof(std::size_t) };
    return CacheHash::of(sizes, sizeof sizes);
}

std::uint64_t headerHashOf(const FileHeader& h)
{
    return CacheHash::of(&h, offsetof(FileHeader, headerHash));
}

// ---- The run key: every file that was read and the directories holding them ----

struct KeyEntry {
    std::string path;
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
};

bool statEntry(const std::string& path, KeyEntry& out)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return false;
    out.path = path;
    out.size = static_cast<std::uint64_t>(st.st_size);
    out.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000
        + static_cast<std::int64_t>(st.st_mtim.tv_nsec);
    return true;
}

std::vector<std::string> keyPaths(const core::RunFiles& files)
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
    return paths;
}

// ---- Files ----

class Fd {
public:
    explicit Fd(int fd)
        : m_fd(fd)
    { }
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    [[nodiscard]] int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

std::string hex16(std::uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[static_cast<std::size_t>(i)] = digits[v & 15U];
    return s;
}

// The load options a cache file was written for, as its key section stores them.
std::uint8_t optionFlags(const LoadOptions& options)
{
    return static_cast<std::uint8_t>(
        (options.readLogs ? 1U : 0U) | (options.readSummaries ? 2U : 0U));
}

std::string keyString(const std::string& stsPath, const LoadOptions& options)
{
    std::error_code ec;
    auto absolute = fs::absolute(fs::path(stsPath), ec);
    const auto path = ec ? stsPath : absolute.lexically_normal().string();
    return path + (options.readLogs ? "\n1" : "\n0") + (options.readSummaries ? "1" : "0");
}

std::string cacheFileFor(
    const std::string& directory, const core::RunFiles& files, const LoadOptions& options)
{
    const auto key = keyString(files.stsPath, options);
    return (fs::path(directory)
        / (files.baseName + "-" + hex16(CacheHash::of(key.data(), key.size())) + ".pxindex"))
        .string();
}

enum class ReadOutcome { Loaded, Missing, Stale, Damaged, Cancelled };

struct ReadAttempt {
    ReadOutcome outcome = ReadOutcome::Missing;
    std::string why;
    std::shared_ptr<core::Trace> trace;
};

// A path of the run as spelled when the cache was written, spelled as `directory` is now.
void respell(std::string& path, const std::string& from, const std::string& to)
{
    if (!path.empty() && path.compare(0, from.size(), from) == 0)
        path = to + path.substr(from.size());
}

ReadAttempt readCache(
    const std::string& cachePath, const core::RunFiles& located, const LoadOptions& options)
{
    ReadAttempt attempt;
    // O_NONBLOCK: a FIFO (or device) in place of the cache file must not block the open; only
    // a regular file is read.
    Fd fd(::open(cachePath.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0)
        return attempt; // no cache yet
    auto isCancelled = [&] {
        return options.cancelled && options.cancelled();
    };
    try {
        struct stat st { };
        if (::fstat(fd.get(), &st) != 0)
            throw CacheFormatError("cannot be read");
        if (!S_ISREG(st.st_mode))
            throw CacheFormatError("not a regular file");
        const auto fileSize = static_cast<std::uint64_t>(st.st_size);
        if (fileSize < sizeof(FileHeader))
            throw CacheFormatError("truncated header");
        FileHeader header {};
        {
            CacheReader r(fd.get(), { 0, sizeof header, 0 });
            r.bytes(&header, sizeof header);
        }
        if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0)
            throw CacheFormatError("not an index cache file (wrong magic)");
        // Byte order, then the version (a cache from an older Parallax usually has another
        // layout too, and "another version" is the reason a user can act on), then the layout.
        if (header.byteOrder != kByteOrderMark)
            throw CacheFormatError("written on another kind of machine (byte order)");
        if (header.version != kFormatVersion)
            throw CacheFormatError("written by another version (format "
                + std::to_string(header.version) + ", expected " + std::to_string(kFormatVersion)
                + ")");
        if (header.layout != layoutFingerprint())
            throw CacheFormatError("written on another kind of machine or build");
        if (header.headerHash != headerHashOf(header))
            throw CacheFormatError("checksum mismatch in the header");
        if (header.sectionCount < 2 || header.sectionCount > kMaxSections
            || header.sectionCount > (fileSize - sizeof header) / sizeof(CacheSection))
            throw CacheFormatError("impossible section count");
        std::vector<CacheSection> table(static_cast<std::size_t>(header.sectionCount));
        {
            const std::uint64_t tableBytes = table.size() * sizeof(CacheSection);
            CacheReader r(fd.get(), { sizeof header, tableBytes, header.tableHash });
            r.bytes(table.data(), tableBytes);
            r.finish();
        }
        for (const auto& s : table)
            if (s.offset > fileSize || s.size > fileSize - s.offset)
                throw CacheFormatError("truncated (a section ends past the end of the file)");

        // The key: is this the cache of the same, unchanged run?
        {
            CacheReader r(fd.get(), table[0]);
            std::string cachedSts; // kept for inspection; the file key below decides
            r.str(cachedSts);
            const auto flags = r.get<std::uint8_t>();
            std::vector<KeyEntry> entries(r.count(24));
            for (auto& e : entries) {
                r.str(e.path);
                e.size = r.get<std::uint64_t>();
                e.mtimeNs = r.get<std::int64_t>();
            }
            r.finish();
            if (flags != optionFlags(options)) {
                attempt.outcome = ReadOutcome::Stale;
                attempt.why = "written for other load options";
                return attempt;
            }
            for (const auto& e : entries) {
                KeyEntry now;
                if (!statEntry(e.path, now) || now.size != e.size || now.mtimeNs != e.mtimeNs) {
                    attempt.outcome = ReadOutcome::Stale;
                    attempt.why = fileNameOf(e.path) + " changed";
                    return attempt;
                }
            }
        }

        if (options.progress)
            options.progress({ "reading index cache", 0, fileSize, 0, table.size() - 2 });
        auto trace = std::make_shared<core::Trace>();
        std::size_t pes = 0;
        {
            CacheReader r(fd.get(), table[1]);
            pes = getRun(r, *trace);
            r.finish();
        }
        // The same run opened through another spelling of its path (relative, "dir/" ...):
        // name its files as a fresh load would.
        auto& files = trace->files;
        if (files.directory != located.directory) {
            const auto from = files.directory;
            for (auto* s : { &files.directory, &files.stsPath, &files.projrcPath })
                respell(*s, from, located.directory);
            for (auto* v : { &files.logPaths, &files.sumPaths, &files.sumdPaths })
                for (auto& s : *v)
                    respell(s, from, located.directory);
        }
        if (pes != table.size() - 2)
            throw CacheFormatError("the section table does not match the run");
        validateRun(*trace, pes);
        trace->pes.resize(pes);

        const unsigned threads = loadThreads(options.threads);
        std::atomic<bool> stop { false };
        std::atomic<std::size_t> done { 0 };
        std::atomic<std::uint64_t> bytesDone { table[0].size + table[1].size };
        std::mutex errorMutex;
        std::string error;
        std::mutex progressMutex;
        runParallel(threads, pes, [&](std::size_t p) {
            if (stop.load())
                return;
            if (isCancelled()) {
                stop = true;
                return;
            }
            try {
                CacheReader r(fd.get(), table[p + 2]);
                getPe(r, trace->pes[p]);
                r.finish();
                validatePe(trace->pes[p], p, trace->metadata);
            } catch (const std::exception& e) {
                std::lock_guard lock(errorMutex);
                if (error.empty())
                    error = e.what();
                stop = true;
                return;
            }
            const auto bytes = bytesDone += table[p + 2].size;
            const auto peCount = ++done;
            if (options.progress && (peCount % 16 == 0 || peCount == pes)) {
                std::lock_guard lock(progressMutex);
                options.progress({ "reading index cache", bytes, fileSize, peCount, pes });
            }
        });
        if (!error.empty())
            throw CacheFormatError(error);
        if (stop.load()) {
            attempt.outcome = ReadOutcome::Cancelled;
            return attempt;
        }
        attempt.outcome = ReadOutcome::Loaded;
        attempt.trace = std::move(trace);
        // Marks the file as recently used for pruneCache (errors do not matter here).
        ::futimens(fd.get(), nullptr);
    } catch (const CacheFormatError& e) {
        attempt.outcome = ReadOutcome::Damaged;
        attempt.why = e.what();
    } catch (const std::exception& e) {
        // Out of memory on a damaged file, or similar: never trusted, rebuilt.
        attempt.outcome = ReadOutcome::Damaged;
        attempt.why = e.what();
    }
    return attempt;
}

// Writes the cache of `trace` atomically. Returns an empty string or why it was not written;
// `tooRecent` tells the expected case of files changed just before the load (not a problem).
std::string writeCache(const std::string& directory, const std::string& cachePath,
    const core::Trace& trace, const LoadOptions& options, std::int64_t loadStartNs, bool& tooRecent)
{
    std::vector<KeyEntry> entries;
    for (const auto& p : keyPaths(trace.files)) {
        KeyEntry e;
        std::error_code ec;
        const auto absolute = fs::absolute(fs::path(p), ec).lexically_normal().string();
        if (ec || !statEntry(absolute, e))
            return fileNameOf(p) + " disappeared during the load";
        if (e.mtimeNs > loadStartNs - kRacyNs) {
            tooRecent = true;
            return fileNameOf(p) + " changed less than 2 s before the load";
        }
        entries.push_back(std::move(e));
    }

    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        return "cannot create " + directory + " (" + ec.message() + ")";
    std::string temp = (fs::path(directory) / ".pxindex-XXXXXX").string();
    Fd fd(::mkstemp(temp.data()));
    if (fd.get() < 0)
        return "cannot create a file in " + directory + " (" + std::strerror(errno) + ")";
    try {
        CacheWriter w(fd.get());
        FileHeader header {};
        std::vector<CacheSection> table(trace.pes.size() + 2);
        // Header and table go first, written again once the sections are known.
        w.bytes(&header, sizeof header);
        w.bytes(table.data(), table.size() * sizeof(CacheSection));

        w.beginSection();
        w.str(trace.files.stsPath);
        w.put(optionFlags(options));
        w.put<std::uint64_t>(entries.size());
        for (const auto& e : entries) {
            w.str(e.path);
            w.put(e.size);
            w.put(e.mtimeNs);
        }
        table[0] = w.endSection();
        w.beginSection();
        putRun(w, trace);
        table[1] = w.endSection();
        for (std::size_t p = 0; p < trace.pes.size(); ++p) {
            w.beginSection();
            putPe(w, trace.pes[p]);
            table[p + 2] = w.endSection();
        }
        w.flush();

        std::memcpy(header.magic, kMagic, sizeof kMagic);
        header.version = kFormatVersion;
        header.byteOrder = kByteOrderMark;
        header.layout = layoutFingerprint();
        header.sectionCount = table.size();
        header.tableHash = CacheHash::of(table.data(), table.size() * sizeof(CacheSection));
        header.headerHash = headerHashOf(header);
        w.writeAt(sizeof header, table.data(), table.size() * sizeof(CacheSection));
        w.writeAt(0, &header, sizeof header);
    } catch (const std::exception& e) {
        ::unlink(temp.c_str());
        return std::string("cannot write the index cache (") + e.what() + ")";
    }
    if (::close(fd.release()) != 0 || ::rename(temp.c_str(), cachePath.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(temp.c_str());
        return "cannot write the index cache (" + why + ")";
    }
    return {};
}

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Removes the least recently used cache files (and temporaries a crashed writer left behind
// more than an hour ago) until at most `maxBytes` of them remain; `keep` stays in any case.
void pruneCache(const std::string& directory, const std::string& keep, std::uint64_t maxBytes)
{
    struct Entry {
        std::string path;
        std::uint64_t size;
        std::int64_t mtimeNs;
    };
    std::vector<Entry> files;
    std::error_code ec;
    const auto now = nowNs();
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        const auto name = entry.path().filename().string();
        KeyEntry k;
        if (!statEntry(entry.path().string(), k))
            continue;
        if (name.rfind(".pxindex-", 0) == 0) {
            if (k.mtimeNs < now - 3'600'000'000'000)
                ::unlink(k.path.c_str());
            continue;
        }
        if (name.size() > 8 && name.compare(name.size() - 8, 8, ".pxindex") == 0)
            files.push_back({ k.path, k.size, k.mtimeNs });
    }
    std::sort(files.begin(), files.end(),
        [](const Entry& a, const Entry& b) { return a.mtimeNs > b.mtimeNs; });
    std::uint64_t total = 0;
    bool full = false; // once one file does not fit, every older one goes too
    for (const auto& f : files) {
        if (f.path == keep) {
            total += f.size;
            continue;
        }
        full = full || total + f.size > maxBytes;
        if (full)
            ::unlink(f.path.c_str());
        else
            total += f.size;
    }
}

} // namespace

std::string cacheDirectory(const CacheOptions& options)
{
    if (!options.directory.empty())
        return options.directory;
    auto env = [](const char* name) -> std::string {
        const char* v = std::getenv(name);
        return v != nullptr ? std::string(v) : std::string();
    };
    if (auto dir = env("PARALLAX_CACHE_DIR"); !dir.empty())
        return dir;
    if (auto xdg = env("XDG_CACHE_HOME"); !xdg.empty())
        return (fs::path(xdg) / "parallax").string();
    if (auto home = env("HOME"); !home.empty())
        return (fs::path(home) / ".cache" / "parallax").string();
    return {};
}

std::string cacheFilePath(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache)
{
    const auto directory = cacheDirectory(cache);
    if (directory.empty())
        return {};
    auto located = locateSymbolTable(path);
    if (!located.ok)
        return {};
    return cacheFileFor(directory, located.files, options);
}

LoadResult loadRunCached(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache)
{
    if (!cache.enabled)
        return loadRun(path, options);
    const auto start = nowNs();
    // With a memory budget the run is found (and its store estimated) once, here, and the
    // load below goes on from there. A run over the budget opens from its summaries (cheap to
    // read); the cache holds whole stores only, which that run must not be given.
    std::optional<FoundRun> found;
    if (options.memoryBudget > 0 && options.readLogs) {
        if (options.progress)
            options.progress({ "finding files", 0, 0, 0, 0 });
        auto quiet = options; // a cache hit shows no stage of a load it did not make
        quiet.progress = {};
        found = findRun(path, quiet);
        if (!found->trace || found->overBudget(options))
            return loadFoundRun(std::move(*found), options);
    }
    std::string directory;
    std::string cachePath;
    std::string stsPath;
    std::string note;
    try {
        directory = cacheDirectory(cache);
        if (directory.empty())
            return loadRun(path, options);
        if (options.progress)
            options.progress({ "checking index cache", 0, 0, 0, 0 });
        core::RunFiles locatedHere;
        const core::RunFiles* located = found ? &found->trace->files : nullptr;
        if (located == nullptr) {
            auto discovered = locateSymbolTable(path);
            if (!discovered.ok)
                return loadRun(path, options); // reports the same error
            locatedHere = std::move(discovered.files);
            located = &locatedHere;
        }
        stsPath = located->stsPath;
        cachePath = cacheFileFor(directory, *located, options);

        auto attempt = readCache(cachePath, *located, options);
        switch (attempt.outcome) {
        case ReadOutcome::Loaded: {
            LoadResult result;
            attachReducedRun(*attempt.trace); // not in the cache: read from the run each time
            result.trace = std::move(attempt.trace);
            result.fromCache = true;
            if (options.progress)
                options.progress({ "done", 0, 0, 0, 0 });
            return result;
        }
        case ReadOutcome::Cancelled: {
            LoadResult result;
            result.cancelled = true;
            return result;
        }
        case ReadOutcome::Stale:
            note = "index cache was out of date (" + attempt.why + "), rebuilt";
            break;
        case ReadOutcome::Damaged:
            note = "index cache was damaged (" + attempt.why + "), rebuilt";
            break;
        case ReadOutcome::Missing:
            break;
        }
    } catch (const std::exception& e) {
        note = std::string("index cache not used (") + e.what() + ")";
    }

    auto result = found ? loadFoundRun(std::move(*found), options) : loadRun(path, options);
    // A run whose logs were left unread while loading (the memory budget) is not a whole store.
    if (!result.trace || cachePath.empty() || result.trace->files.stsPath != stsPath
        || result.trace->detailSource) {
        result.cacheNote = note;
        return result;
    }
    // The write needs only the immutable trace and the key, so it can run later elsewhere.
    LoadOptions keyOptions;
    keyOptions.readLogs = options.readLogs;
    keyOptions.readSummaries = options.readSummaries;
    auto write = [directory, cachePath, trace = result.trace, keyOptions, start,
                     maxBytes = cache.maxBytes, replacing = !note.empty()]() -> std::string {
        std::string why;
        bool tooRecent = false;
        try {
            why = writeCache(directory, cachePath, *trace, keyOptions, start, tooRecent);
        } catch (const std::exception& e) {
            why = e.what();
        }
        if (why.empty()) {
            try {
                pruneCache(directory, cachePath, maxBytes);
            } catch (const std::exception&) {
                // Pruning is housekeeping: a failure costs disk space, not correctness.
            }
            return {};
        }
        // A stale or damaged file must not stay behind to be tried again.
        if (replacing)
            ::unlink(cachePath.c_str());
        return tooRecent ? std::string() : "index cache not written: " + why;
    };
    if (cache.deferWrite) {
        cache.deferWrite(std::move(write));
        result.cacheNote = note;
        return result;
    }
    if (options.progress)
        options.progress({ "writing index cache", 0, 0, 0, 0 });
    const auto written = write();
    if (!written.empty())
        note += (note.empty() ? "" : "; ") + written;
    result.cacheNote = note;
    return result;
}

} // namespace parallax::io
