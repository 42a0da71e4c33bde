#include "index_cache.h"

#include "cache_hash.h"
#include "file_info.h"
#include "index_format.h"
#include "index_writer.h"
#include "mapped_index.h"
#include "reduction_manifest.h"
#include "run_discovery.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

// Files changed more recently than this before the load started are not cached: a change in
// the same timestamp tick would otherwise go unseen.
constexpr std::int64_t kRacyNs = 2'000'000'000;

std::string hex16(std::uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[static_cast<std::size_t>(i)] = digits[v & 15U];
    return s;
}

std::string keyString(const std::string& stsPath, const LoadOptions& options)
{
    std::error_code ec;
    auto absolute = fs::absolute(fs::path(stsPath), ec);
    const auto path = ec ? stsPath : absolute.lexically_normal().string();
    return path + (options.readLogs ? "\n1" : "\n0") + (options.readSummaries ? "1" : "0");
}

std::string indexDirFor(
    const std::string& directory, const core::RunFiles& files, const LoadOptions& options)
{
    const auto key = keyString(files.stsPath, options);
    return (fs::path(directory)
        / (files.baseName + "-" + hex16(CacheHash::of(key.data(), key.size())) + ".pxindex"))
        .string();
}

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::int64_t mtimeNs(const fs::path& path)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0)
        return 0;
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000
        + static_cast<std::int64_t>(st.st_mtim.tv_nsec);
}

// Writes the index of `trace` into `indexDir`. Returns an empty string or why it was not written;
// `tooRecent` tells the expected case of files changed just before the load (not a problem).
std::string writeCache(const std::string& indexDir, const core::Trace& trace,
    const LoadOptions& options, std::int64_t loadStartNs, bool& tooRecent)
{
    std::string error;
    const auto key = indexKeyOf(trace.files, error);
    if (key.empty())
        return error;
    for (const auto& e : key) {
        if (e.mtimeNs > loadStartNs - kRacyNs) {
            tooRecent = true;
            return fileNameOf(e.path) + " changed less than 2 s before the load";
        }
    }
    // An index cache of an older Parallax was one file of this name.
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(indexDir, ec)))
        fs::remove(indexDir, ec);
    try {
        writeIndex(indexDir, trace, indexOptionFlags(options.readLogs, options.readSummaries), key);
    } catch (const std::exception& e) {
        return std::string("cannot write the index cache (") + e.what() + ")";
    }
    return {};
}

// Bytes of the files in an index directory.
std::uint64_t directoryBytes(const fs::path& dir)
{
    std::uint64_t total = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        struct stat st { };
        if (::lstat(entry.path().c_str(), &st) == 0 && S_ISREG(st.st_mode))
            total += static_cast<std::uint64_t>(st.st_size);
    }
    return total;
}

// Removes the least recently used indexes (their manifest's time: a read counts as a use), and
// what a crashed writer left behind more than an hour ago, until at most `maxBytes` of them
// remain; `keep` stays in any case.
void pruneCache(const std::string& directory, const std::string& keep, std::uint64_t maxBytes)
{
    struct Entry {
        fs::path path;
        std::uint64_t size;
        std::int64_t used;
    };
    std::vector<Entry> indexes;
    std::error_code ec;
    const auto hourAgo = nowNs() - 3'600'000'000'000;
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        const auto name = entry.path().filename().string();
        if (!name.ends_with(".pxindex"))
            continue;
        struct stat st { };
        if (::lstat(entry.path().c_str(), &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            fs::remove(entry.path(), ec); // a cache file of an older Parallax
            continue;
        }
        for (const auto& file : fs::directory_iterator(entry.path(), ec))
            if (file.path().filename().string().starts_with(".tmp-")
                && mtimeNs(file.path()) < hourAgo)
                fs::remove(file.path(), ec);
        const auto manifest = entry.path() / index::kManifestName;
        const auto used = fs::exists(manifest, ec) ? mtimeNs(manifest) : mtimeNs(entry.path());
        indexes.push_back({ entry.path(), directoryBytes(entry.path()), used });
    }
    std::sort(indexes.begin(), indexes.end(),
        [](const Entry& a, const Entry& b) { return a.used > b.used; });
    std::uint64_t total = 0;
    bool full = false; // once one index does not fit, every older one goes too
    for (const auto& e : indexes) {
        if (e.path == fs::path(keep)) {
            total += e.size;
            continue;
        }
        full = full || total + e.size > maxBytes;
        if (full)
            fs::remove_all(e.path, ec);
        else
            total += e.size;
    }
}

LoadResult loaded(std::shared_ptr<core::Trace> trace, const LoadOptions& options)
{
    LoadResult result;
    attachReducedRun(*trace); // not in the index: read from the run each time
    result.trace = std::move(trace);
    result.fromCache = true;
    if (options.progress)
        options.progress({ "done", 0, 0, 0, 0 });
    return result;
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
    return indexDirFor(directory, located.files, options);
}

LoadResult loadRunFromIndex(
    const std::string& path, const std::string& indexDir, const LoadOptions& options)
{
    LoadResult result;
    auto located = locateSymbolTable(path);
    if (!located.ok) {
        result.error = located.error;
        return result;
    }
    if (options.progress)
        options.progress({ "opening index", 0, 0, 0, 0 });
    auto opened = openIndex(indexDir, located.files, options);
    if (opened.outcome == IndexOutcome::Loaded)
        return loaded(std::move(opened.trace), options);
    result.error = "index " + indexDir + " cannot be used for " + path + ": " + opened.why;
    return result;
}

LoadResult loadRunCached(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache)
{
    if (!cache.enabled)
        return loadRun(path, options);
    const auto start = nowNs();
    std::string directory;
    std::string indexDir;
    std::string note;
    std::optional<core::RunFiles> located;
    try {
        directory = cacheDirectory(cache);
        if (!directory.empty()) {
            if (options.progress)
                options.progress({ "checking index cache", 0, 0, 0, 0 });
            auto discovered = locateSymbolTable(path);
            if (!discovered.ok)
                return loadRun(path, options); // reports the same error
            located = std::move(discovered.files);
            indexDir = indexDirFor(directory, *located, options);
            // A damaged PE found after the open: the index is dropped, the next open rebuilds it.
            auto onDamage = [indexDir] {
                removeManifest(indexDir);
            };
            auto opened = openIndex(indexDir, *located, options, onDamage);
            if (options.cancelled && options.cancelled()) {
                LoadResult result;
                result.cancelled = true;
                return result;
            }
            switch (opened.outcome) {
            case IndexOutcome::Loaded:
                // Marks the index as recently used for pruneCache (errors do not matter here).
                ::utimensat(
                    AT_FDCWD, (fs::path(indexDir) / index::kManifestName).c_str(), nullptr, 0);
                return loaded(std::move(opened.trace), options);
            case IndexOutcome::Stale:
                note = "index cache was out of date (" + opened.why + "), rebuilt";
                break;
            case IndexOutcome::Damaged:
                note = "index cache was damaged (" + opened.why + "), rebuilt";
                break;
            case IndexOutcome::Missing:
                break;
            }
        }
    } catch (const std::exception& e) {
        note = std::string("index cache not used (") + e.what() + ")";
    }

    // A run too big for the memory budget and without an index opens from its summaries; the
    // cache holds whole stores only, which that run must not be given.
    auto result = loadRun(path, options);
    if (!result.trace || indexDir.empty() || !located
        || result.trace->files.stsPath != located->stsPath || result.trace->detailSource) {
        result.cacheNote = note;
        return result;
    }
    // The write needs only the immutable trace and the key, so it can run later elsewhere.
    LoadOptions keyOptions;
    keyOptions.readLogs = options.readLogs;
    keyOptions.readSummaries = options.readSummaries;
    auto write = [directory, indexDir, trace = result.trace, keyOptions, start,
                     maxBytes = cache.maxBytes, replacing = !note.empty()]() -> std::string {
        std::string why;
        bool tooRecent = false;
        try {
            why = writeCache(indexDir, *trace, keyOptions, start, tooRecent);
        } catch (const std::exception& e) {
            why = e.what();
        }
        if (why.empty()) {
            try {
                pruneCache(directory, indexDir, maxBytes);
            } catch (const std::exception&) {
                // Pruning is housekeeping: a failure costs disk space, not correctness.
            }
            return {};
        }
        // A stale or damaged index must not stay behind to be tried again.
        if (replacing)
            removeManifest(indexDir);
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
