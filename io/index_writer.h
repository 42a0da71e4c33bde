#pragma once

#include "core/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parallax::io {

// Writing an index (docs/index.md): shard files, then the manifest that names them. The local
// index cache (io/index_cache.cpp) writes a whole loaded run at once with writeIndex; the MPI
// indexer (tools/indexer) streams each rank's PEs into its own shard and lets rank 0 write the
// manifest once every shard is in place. Every file is written to a temporary sibling and renamed
// into place; the manifest goes last, so an index whose writer failed or was killed never looks
// complete. Errors are thrown as std::runtime_error with a message naming the file.

// A file the index was made from, as the manifest keys it: its path relative to the run's
// directory (the directory of the .sts; "." for the directory itself), size and modification time.
struct IndexKeyEntry {
    std::string path;
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
};

// What the manifest says of one shard.
struct ShardInfo {
    std::string name; // file name inside the index directory
    std::uint64_t firstPe = 0;
    std::uint64_t peCount = 0;
    std::uint64_t fileBytes = 0;
    std::uint64_t headerHash = 0;
};

// The rows of a run's tables (Trace::pes may be shorter than PROCESSORS: up to the last PE with
// a log) and the store size a fresh load of it reports.
struct IndexRows {
    std::uint64_t pes = 0;
    std::uint64_t summaries = 0;
    std::uint64_t details = 0;
    std::uint64_t storeBytes = 0;
    // Trace::entryTimeTotals: per entry of the symbol table, the summed execution times, and how
    // many executions named a known entry (none: the totals are not recorded).
    std::vector<core::TimeUs> entryTimes;
    std::uint64_t timedExecutions = 0;
    [[nodiscard]] std::uint64_t total() const;
    // Adds one PE's executions to entryTimes (sized to `entries` first).
    void addEntryTimes(const core::PeTrace& pe, std::size_t entries);
};
IndexRows indexRowsOf(const core::Trace& trace);

// The load options an index was written for, as its manifest stores them.
std::uint8_t indexOptionFlags(bool readLogs, bool readSummaries);

// The name of shard `index` of `count` in an index directory.
std::string shardFileName(std::size_t index, std::size_t count);

// Streams the PEs [firstPe, firstPe + peCount) into one shard file, in PE order.
class ShardWriter {
public:
    ShardWriter(const std::string& directory, std::uint64_t buildId, std::size_t shardIndex,
        std::size_t shardCount, std::uint64_t firstPe, std::uint64_t peCount);
    ~ShardWriter();
    ShardWriter(const ShardWriter&) = delete;
    ShardWriter& operator=(const ShardWriter&) = delete;

    // The next PE's data: its store (null for a row past Trace::pes), its .sum and .sumd (null
    // when absent).
    void add(const core::PeTrace* pe, const core::PeSummary* summary,
        const core::PeSummaryDetail* detail);
    // Writes the directory and header, renames the shard into place.
    ShardInfo finish();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Writes the manifest (atomically): the key, the run (metadata, file tables, import report,
// rows) and the shard table.
void writeManifest(const std::string& directory, const core::Trace& run, const IndexRows& rows,
    std::uint8_t optionFlags, const std::vector<IndexKeyEntry>& key, std::uint64_t buildId,
    const std::vector<ShardInfo>& shards);

// A build id derived from the key: the same for the same unchanged run (so that two indexes of
// it are byte for byte the same) and different for any other.
std::uint64_t buildIdOf(
    std::uint8_t optionFlags, const std::vector<IndexKeyEntry>& key, std::size_t shardCount);

// Writes the whole index of a loaded run into `directory` (created if needed; an older index
// there is replaced): one shard, then the manifest.
void writeIndex(const std::string& directory, const core::Trace& trace, std::uint8_t optionFlags,
    const std::vector<IndexKeyEntry>& key);

// Removes the manifest of `directory` (before rewriting an index in place, so that it does not
// look complete meanwhile). Missing is fine.
void removeManifest(const std::string& directory);

} // namespace parallax::io
