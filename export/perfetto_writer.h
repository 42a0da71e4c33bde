#pragma once

#include "export_run.h"

#include <string>

namespace parallax::exporter {

// The Chrome/Perfetto trace-event JSON of a planned export (docs/otf2.md, "Perfetto"): one
// process per SMP node and one thread per PE; a complete slice ("X") per execution with its
// chare, entry method, object index, message size and sender in args, pack and unpack as child
// slices; a flow ("s" → "f") from each paired send to the execution it started; unmatched sends,
// user events and notes as instant events, bracketed user events as async slices; per-PE
// counters for utilization, user stats, memory and user-supplied values. Times in µs.
//
// Writes `path` itself (exportRun stages it); gzip when `gzip`. Never throws.
ExportResult writePerfetto(const core::Trace& trace, const ExportPlan& plan,
    const std::string& path, bool gzip, const core::analysis::Progress& progress);

} // namespace parallax::exporter
