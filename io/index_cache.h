#pragma once

#include "run_loader.h"

#include <cstdint>
#include <functional>
#include <string>

namespace parallax::io {

// The index cache: after a full load, the store of a run is written as an index (a directory
// with a manifest and shard files, docs/index.md) in a cache directory (never next to the logs),
// so the next open of the unchanged run maps that index instead of parsing the logs.
struct CacheOptions {
    // Empty = $PARALLAX_CACHE_DIR, else $XDG_CACHE_HOME/parallax, else $HOME/.cache/parallax.
    std::string directory;
    bool enabled = true;
    // After writing, the least recently used indexes are removed until the directory holds at
    // most this many bytes of them (the index just written is always kept).
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

// Path of the index directory the cache keeps for the run `path` (directory, NAME.sts or
// NAME.sum.sts) loaded with `options`; empty when the run's symbol table cannot be located or
// there is no cache directory.
std::string cacheFilePath(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache);

// Like loadRun, but first tries to open the run's index in the cache (io/mapped_index.h). It is
// used only when its headers (magic, format version, byte order, layout), the run key (the load
// options, the size and modification time in nanoseconds of every file that was read and of
// the directories holding them), the checksums of the manifest and of the shards' PE directories
// and every structural check pass; otherwise the run is loaded in full and the index rewritten
// (shards, then the manifest, each through a temporary file and a rename). A damaged, foreign or
// stale index is never trusted: LoadResult::cacheNote says why it was rebuilt. A PE whose data
// fails its check when first read is left out and reported (Trace::lateIssues), and the index is
// dropped so that the next open rebuilds it. Files changed less than two seconds before the load
// are not cached (their timestamps cannot yet tell a later change apart). A run over the memory
// budget opens from its index when it has one (mapped pages are not the store the budget
// limits). Never throws.
LoadResult loadRunCached(
    const std::string& path, const LoadOptions& options, const CacheOptions& cache = {});

// Opens the run `path` through the index in `indexDir` only (parallax-cli --index, an index
// written by parallax-index): never parses, never writes. LoadResult::error says why the index
// cannot be used (missing, damaged, of another run or version, stale). Never throws.
LoadResult loadRunFromIndex(
    const std::string& path, const std::string& indexDir, const LoadOptions& options);

} // namespace parallax::io
