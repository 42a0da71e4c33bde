#pragma once

#include "core/trace.h"
#include "store_estimate.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace parallax::core {
class StoreArena;
}

namespace parallax::io {

struct LoadProgress {
    std::string stage; // "reading symbol table", "reading logs 12/64", ...
    std::uint64_t bytesDone = 0; // on-disk bytes consumed (compressed bytes for .gz)
    std::uint64_t bytesTotal = 0;
    std::size_t filesDone = 0;
    std::size_t filesTotal = 0;
};

struct LoadOptions {
    // Worker threads for the per-PE logs; 0 = one per hardware thread.
    unsigned threads = 0;
    bool readLogs = true;
    bool readSummaries = true;
    // Bytes the store of the logs may take (0: no limit). When the estimate made before reading
    // them (io/store_estimate.h) is larger, the logs are left unread: the run opens from its
    // summaries and Trace::detailSource reads single PEs on demand (holding at most a quarter
    // of the budget, 64 MiB at least, of the most recently used ones).
    std::uint64_t memoryBudget = 0;
    // Called from worker threads (throttled, at most every ~4 MB and once per file); the
    // receiver must be thread-safe. May be empty.
    std::function<void(const LoadProgress&)> progress;
    // Polled between chunks of every file; returning true stops the load. May be empty.
    std::function<bool()> cancelled;
};

struct LoadResult {
    core::TracePtr trace; // null when the load failed or was cancelled
    bool cancelled = false;
    std::string error; // fatal problem: names the file (and line) and what to do
    bool fromCache = false; // read from the index cache (io/index_cache.h), not parsed
    std::string cacheNote; // why the index cache was rebuilt or not written; empty when fine
};

// Opens a run (directory, NAME.sts or NAME.sum.sts): reads the symbol table, then every PE's
// log (in parallel) and the summary files into an immutable Trace. Recoverable problems are
// in trace->report. Never throws.
LoadResult loadRun(const std::string& path, const LoadOptions& options = {});

// The first steps of loadRun, for a caller that looks at the run before its logs are read
// (loadRunCached: the memory budget and the cache key): the run's files found, its symbol
// table read and, when `options` has a memory budget, the store estimated. Never throws.
struct FoundRun {
    std::string path; // as given
    std::shared_ptr<core::Trace> trace; // files, metadata and their issues; null on error
    std::string error;
    std::optional<StoreEstimate> estimate; // when options.readLogs and options.memoryBudget
    // The logs are left unread (see LoadOptions::memoryBudget).
    [[nodiscard]] bool overBudget(const LoadOptions& options) const
    {
        return estimate && estimate->storeBytes > options.memoryBudget;
    }
};
FoundRun findRun(const std::string& path, const LoadOptions& options = {});
// The rest of loadRun (loadRun(path) is loadFoundRun(findRun(path))). Never throws.
LoadResult loadFoundRun(FoundRun run, const LoadOptions& options = {});

// The last step of a load, once the logs and summaries are read and their reports merged: the
// reduced run's manifest (reduction.json) attached, and the PEs lacking a file of a kind the
// others have reported (shared with the MPI indexer, io/index_build.h).
void finishLoadReport(core::Trace& trace);

// Reads one PE's log into a PeTrace (used by loadRun; exposed for tests and benchmarks).
// Returns false when cancelled. `onChunk` hears the bytes and lines read since its last call,
// every 16,384 lines and once at the end; returning false stops the read. With `arena` the
// PE's columns are put there (a whole run's load, see core::StoreArena).
bool readPeLog(const std::string& path, core::PeId pe, const core::RunMetadata& metadata,
    core::PeTrace& out, core::ImportReport& report,
    const std::function<bool(std::uint64_t bytesDelta, std::uint64_t linesDelta)>& onChunk = {},
    core::StoreArena* arena = nullptr);

} // namespace parallax::io
