#pragma once

#include "index_writer.h"
#include "run_loader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::io {

// Building an index straight from a run's files, one slice of PEs at a time, holding only a few
// PEs' stores at once (parallax-index: one slice per MPI rank, tools/indexer). The parsing is
// loadRun's (readPeLog, readSummary, readSummaryDetail, threads inside the slice); the import
// reports come out in the order a local load merges them, so that the index's report is the one
// `loadRun` gives.

// The rows a load of the found run with `options` has: PEs up to the last one with a log (when
// logs are read), PROCESSORS summaries and details (when summaries are read).
IndexRows indexRowsOfFound(const core::Trace& found, const LoadOptions& options);

// The bytes of each row's files (log, .sum, .sumd as far as `options` reads them), for slicing.
std::vector<std::uint64_t> rowBytes(const core::Trace& found, const LoadOptions& options);

// Cuts rows [0, bytes.size()) into `slices` contiguous, non-empty slices of about equal bytes:
// slices + 1 boundaries from 0 to bytes.size(). Requires 1 <= slices <= bytes.size().
std::vector<std::uint64_t> sliceByBytes(
    const std::vector<std::uint64_t>& bytes, std::size_t slices);

// The build id every shard of one parallax-index run shares: from the .sts's key entry, the load
// options, the row count and the shard count (so every rank computes it alone).
std::uint64_t sliceBuildId(const core::Trace& found, const LoadOptions& options,
    const IndexRows& rows, std::size_t shardCount);

struct SliceResult {
    ShardInfo shard;
    core::ImportReport logReport; // the slice's logs, merged in PE order
    core::ImportReport summaryReport; // its .sum and .sumd files, merged in PE order
    IndexRows totals; // storeBytes, entryTimes and timedExecutions of the slice
    std::uint64_t events = 0;
    std::uint64_t bytesRead = 0; // on-disk bytes of the files read
};

// Parses rows [firstPe, firstPe + peCount) of the found run (findRun) and writes them as shard
// `shardIndex` of `shardCount` into `directory`. Damaged files go into the reports, as a local
// load reports them; throws std::runtime_error only when the shard cannot be written.
SliceResult indexSlice(const core::Trace& found, const LoadOptions& options, const IndexRows& rows,
    const std::string& directory, std::uint64_t buildId, std::size_t shardIndex,
    std::size_t shardCount, std::uint64_t firstPe, std::uint64_t peCount);

// Adds a slice's totals (store bytes, entry times) to the run's rows.
void addSliceTotals(IndexRows& rows, const SliceResult& slice);

// The import report of the whole run as loadRun has it: the found run's own (symbol table, files),
// the slices' log reports in order, their summary reports in order, then the PEs lacking a file.
// `found` receives it (its report is replaced).
void mergeSliceReports(core::Trace& found, const std::vector<core::ImportReport>& logReports,
    const std::vector<core::ImportReport>& summaryReports);

// An import report as bytes and back (to send it from rank to rank). decodeReport throws
// std::runtime_error on bytes it cannot take.
std::string encodeReport(const core::ImportReport& report);
core::ImportReport decodeReport(const std::string& bytes);

} // namespace parallax::io
