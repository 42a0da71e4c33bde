#pragma once

#include "core/analysis/pe_selection.h"
#include "core/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::io {

// What a reduced run says about itself in its reduction.json (io/reduction_report.h), read back
// so that Parallax can tell a reduced run from one whose logs went missing, and mark the kept
// PEs (exemplar / outlier / random, and their cluster) in the views.
struct ReductionManifest {
    std::string source; // the run it was reduced from, as the user named it
    std::string select; // "clusters" or "random"
    std::size_t processors = 0;
    std::size_t pesWithLogs = 0; // in the source run
    std::vector<core::analysis::KeptPe> kept; // sorted by PE
    core::TimeRange tracedSpan; // of the source run; empty when the manifest predates it
};

// Reads `directory`/reduction.json. nullopt when there is none (an ordinary run); a file that
// is there but unreadable or not a reduction manifest fills `error` (one sentence) and also
// returns nullopt. Never throws; bounded on hostile input.
std::optional<ReductionManifest> readReductionManifest(
    const std::string& directory, std::string* error = nullptr);

// Reads the run's reduction.json into trace.reduced (nothing when there is none; a damaged one
// goes into the import report). True when the run is a reduced one.
bool attachReducedRun(core::Trace& trace);

// The same from the file's text (for tests and callers that already hold it).
std::optional<ReductionManifest> parseReductionManifest(
    const std::string& text, std::string* error = nullptr);

} // namespace parallax::io
