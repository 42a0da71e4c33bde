#pragma once

#include "core/import_report.h"
#include "core/trace.h"

#include <string>

namespace parallax::io {

struct DiscoveryResult {
    bool ok = false;
    core::RunFiles files;
    std::string error; // fatal: no symbol table could be found
};

// Finds the files of a run given a directory, a NAME.sts or a NAME.sum.sts (docs/format.md §0).
// A directory must hold exactly one run (one .sts). Opening NAME.sum.sts uses NAME.sts instead
// when it exists (its VERSION is needed to read the logs). Logs are NAME.<pe>.log[.gz] exactly
// (also inside NAME.projdir.K sub-directories); files whose PE is >= `processors` are skipped
// with a warning. Call locateSymbolTable first, then collectFiles once PROCESSORS is known.
DiscoveryResult locateSymbolTable(const std::string& path);
// Returns the PE count the file tables were made for: `processors`, or fewer (reported) when
// it is far beyond what the files found can justify (65,536 PEs, or 64 per file, at most).
core::PeId collectFiles(core::RunFiles& files, core::PeId processors, core::ImportReport& report);

} // namespace parallax::io
