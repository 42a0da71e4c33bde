#pragma once

#include "index_writer.h"
#include "run_loader.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace parallax::io {

// Opening a run through its index (docs/index.md): the manifest is read and checked, the shards
// are memory-mapped and their PE directories checked (sizes, counts, offsets, version, the run's
// files' sizes and times), and that is all: no column is read. A PE's columns are checksummed and
// validated the first time something reads that PE (core::PeTable), its summaries decoded the
// first time they are read; a PE that fails is left out (its columns empty) and reported in
// Trace::lateIssues, never shown as data. The index must not be changed in place while it is
// open (every writer replaces files by renaming a new one over them).

enum class IndexOutcome { Loaded, Missing, Stale, Damaged };

struct IndexOpen {
    IndexOutcome outcome = IndexOutcome::Missing;
    std::string why; // what is stale, damaged or missing, in words
    std::shared_ptr<core::Trace> trace; // set when Loaded
};

// Opens the index in `directory` as the index of the run `located` (from locateSymbolTable)
// read with `options` (readLogs and readSummaries must be those the index was written for).
// `onDamage` is called once, from the thread that found it, when a PE's data fails its check
// after the open (the cache then drops the index so that the next open rebuilds it). Never
// throws.
IndexOpen openIndex(const std::string& directory, const core::RunFiles& located,
    const LoadOptions& options, std::function<void()> onDamage = {});

// The key of a loaded run: every file that was read (.sts, .projrc, logs, .sum, .sumd) and every
// directory holding one, relative to the run's directory, with its size and modification time.
// Empty with `error` set when a file cannot be looked at any more.
std::vector<IndexKeyEntry> indexKeyOf(const core::RunFiles& files, std::string& error);

} // namespace parallax::io
