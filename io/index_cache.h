#pragma once

#include "run_loader.h"

#include <cstdint>
#include <functional>
#include <string>

namespace parallax::io {

// The index cache (issue 6): after a full load, the whole store of a run is written to one
// compact binary file in a cache directory (never next to the logs), so the next open of the
// unchanged run reads that file instead of parsing the logs.
struct CacheOptions {
    // Empty = $PARALLAX_CACHE_DIR, else $XDG_CACHE_HOME/parallax, else $HOME/.cache/parallax.
    std::string directory;
    bool enabled = true;
    // After writing, the least recently used cache files are removed until the directory holds
    // at most this many bytes of them (the file just written is always kept).
    std::uint64_t maxBytes = 8ULL << 30;
    // When set, writing the cache after a full load is not done before loadRunCached returns:
    // the write is handed over as a task (for the app: run it on a worker once the run is
    // shown, so the first open is not slowed down by it). The task never throws; it returns
    // the note the write would have added to LoadResult::cacheNote (empty when written).
    std::function<void(std::function<std::string()> write)> deferWrite;
};

// The cache directory `options` names (see CacheOptions::directory); empty when none can be
// determined (no HOME), which disables the cache.
std::string cacheDirectory(const CacheOptions& options);

// Path of the cache file for the run `path` (directory, NAME.sts or NAME.sum.sts) loaded with
// `options`; empty when the run's symbol table cannot be located or there is no cache directory.
std::string cacheFilePath(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache);

// Like loadRun, but first tries the run's cache file. It is used only when its header (magic,
// format version, byte order, type sizes), the run key (the .sts path as given, the load
// options, the size and modification time in nanoseconds of every file that was read and of
// the directories holding them) and every section's checksum match; otherwise the run is
// loaded in full and the cache rewritten atomically (temporary file + rename). A damaged,
// foreign or stale cache is never trusted: LoadResult::cacheNote says why it was rebuilt.
// Files changed less than two seconds before the load are not cached (their timestamps cannot
// yet tell a later change apart). Never throws.
LoadResult loadRunCached(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache = {});

} // namespace parallax::io
