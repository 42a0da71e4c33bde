#pragma once

#include "run_model.h"
#include "symbol_table.h"
#include "trace_types.h"

#include <optional>
#include <string>

namespace parallax::gen {

enum class StsKind {
    Projections, // NAME.sts (docs/format.md §1.2)
    Summary, // NAME.sum.sts: no PROJECTIONS_ID/VERSION/TOTAL_PHASES/TOTAL_STATS/STAT, no events
};

// The run-wide lines of a .sts before the symbols.
struct StsHeader {
    PeId processors = 0; // PROCESSORS: every PE, comm threads included
    int smpNodeSize = 0; // 0: no SMPMODE line
    int smpNodes = 0;
    std::string commandLine; // COMMANDLINE, without quotes
};

// Writes the symbol table of a run. Returns an error naming the file.
std::optional<std::string> writeStsFile(
    const std::string& path, const StsHeader& header, const SymbolTable& symbols, StsKind kind);

// Writes the symbol table of the simulated run. The run metadata (user, host, time stamp)
// is fixed so that the files only depend on the arguments. Returns an error naming the file.
std::optional<std::string> writeStsFile(
    const std::string& path, const RunModel& model, StsKind kind);

// NAME.projrc as Charm++ writes it at exit (docs/format.md §3.4).
std::optional<std::string> writeProjrcFile(const std::string& path, TimeUs globalEndTime);

} // namespace parallax::gen
