#pragma once

#include "core/import_report.h"
#include "core/run_metadata.h"

#include <string>

namespace parallax::io {

struct StsResult {
    bool ok = false;
    core::RunMetadata metadata;
    std::string error; // fatal problem, naming the file and line
};

// Reads a .sts or .sum.sts symbol table (every VERSION from 1.x to 11.0, docs/format.md §1).
// Unknown keywords and count mismatches are warnings in `report`; an unreadable file, a file
// that is not a symbol table or a VERSION newer than 11.0 is fatal.
StsResult readSts(const std::string& path, core::ImportReport& report);

} // namespace parallax::io
