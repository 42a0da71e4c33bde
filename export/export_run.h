#pragma once

#include "core/analysis/analysis_request.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::exporter {

struct ExportPlan;

// Writing a planned export (export_plan.h) in one format, atomically (staged_output.h).

enum class ExportFormat : std::uint8_t { Otf2, Perfetto };

// "otf2" or "perfetto" (the CLI's --format names).
const char* formatName(ExportFormat format);

// Whether this build can write OTF2 (the OTF2 library was found when it was configured).
bool otf2Available();

struct ExportOptions {
    bool force = false; // replace an existing target
    core::analysis::Progress progress; // fraction of the writing done; cancellation
};

// What an export wrote, for the CLI's summary lines and the tests.
struct ExportCounts {
    std::size_t pes = 0;
    std::size_t executions = 0; // Enter/Leave pairs of entry-method regions (complete slices)
    std::size_t messages = 0; // send/receive pairs (flows)
    std::size_t unmatchedSends = 0;
    std::size_t userEvents = 0; // points, brackets and notes
    std::size_t samples = 0; // metric values (user stats, memory, user-supplied values,
                             // utilization counters)
};

struct ExportResult {
    bool ok = false;
    bool cancelled = false;
    std::string error; // one sentence when !ok ("cancelled" when cancelled)
    std::uint64_t bytes = 0; // on disk
    std::uint64_t uncompressedBytes = 0; // Perfetto: the JSON before gzip
    ExportCounts counts;
};

// Writes the plan to `target` (OTF2: a directory holding traces.otf2, traces.def and traces/;
// Perfetto: a .json file, gzip-compressed when the name ends in .gz). The target is checked
// with checkExportTarget first. Never throws.
ExportResult exportRun(const core::Trace& trace, const ExportPlan& plan, ExportFormat format,
    const std::string& target, const ExportOptions& options = {});

// Perfetto's UI runs in the browser and, in our experience and by its documentation, fails to
// load JSON traces much above this size; larger exports should be cut with a range or PEs, or
// opened through trace_processor.
inline constexpr std::uint64_t kPerfettoUiJsonLimit = 1ULL << 30;

// The uncompressed size of the Perfetto JSON of `plan`, estimated before writing (within a
// few tens of percent).
std::uint64_t estimatePerfettoBytes(const core::Trace& trace, const ExportPlan& plan);

} // namespace parallax::exporter
