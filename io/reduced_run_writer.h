#pragma once

#include "core/trace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace parallax::io {

// Writing a reduced run (seed 000 §4.1): a Projections run directory with the symbol tables,
// every PE's summary files and the detailed logs of a few kept PEs, all copied byte for byte
// under their original names (so Parallax and Java Projections open it as a run), plus the
// report files the caller supplies (reduction.json, REDUCTION.md).

// One file of the reduced run: where it comes from and its path relative to the output.
struct RunFileCopy {
    std::string source;
    std::string relativePath; // the same relative path as in the source run (projdir kept)
    std::uint64_t bytes = 0;
    bool isLog = false;
};

struct ReducedRunPlan {
    std::vector<RunFileCopy> files; // what will be copied
    std::vector<std::uint64_t> peLogBytes; // index = PE: its log's size (0 without a log)
    std::uint64_t runBytes = 0; // every file of the source run that a reduced run would hold
    std::uint64_t copiedBytes = 0; // the files above (logs of the kept PEs only)
    std::uint64_t logBytesTotal = 0;
    std::uint64_t logBytesKept = 0;
    std::size_t pesWithSummary = 0; // PEs with a .sum or a .sumd
    std::vector<std::string> notes; // e.g. "PEs 2-3 have no .sum: their summaries are missing"
    std::string error; // why no reduced run can be made; empty when fine
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// The files to copy for keeping the logs of `kept`. A run whose PEs have no .sum or .sumd is
// an error (the other PEs would be lost entirely) unless `allowNoSummaries`; a kept PE
// without a log is an error.
ReducedRunPlan planReducedRun(
    const core::RunFiles& files, const std::vector<core::PeId>& kept, bool allowNoSummaries);

// Whether `outDir` may receive a reduced run of the run in `files.directory`: it must not be
// that directory, lie inside it or contain it (force would delete the source), must not be a
// file, and must be empty or absent unless `force`.
struct OutputCheck {
    enum class Problem : std::uint8_t { None, SourceRun, NotDirectory, NotEmpty, Unreadable };
    Problem problem = Problem::None;
    std::string message; // one sentence naming the directory; empty when fine
    [[nodiscard]] bool ok() const { return problem == Problem::None; }
};
OutputCheck checkReducedRunOutput(
    const core::RunFiles& files, const std::string& outDir, bool force);

struct ReducedRunWriteOptions {
    bool force = false; // replace a non-empty output directory
    std::function<void(double fraction)> progress; // may be empty
    std::function<bool()> cancelled; // polled between files; may be empty
};

struct ReducedRunWriteResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    std::uint64_t bytesWritten = 0; // the copied files plus the report files
};

// Copies the plan's files and writes `reportFiles` (name → content) into a temporary sibling
// directory of `outDir`, then renames it to `outDir` (replacing it only with force). A failure
// or a cancel removes the temporary directory and leaves `outDir` as it was. Never throws.
ReducedRunWriteResult writeReducedRun(const core::RunFiles& files, const ReducedRunPlan& plan,
    const std::vector<std::pair<std::string, std::string>>& reportFiles, const std::string& outDir,
    const ReducedRunWriteOptions& options = {});

} // namespace parallax::io
