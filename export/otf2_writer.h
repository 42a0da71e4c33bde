#pragma once

#include "export_run.h"

#include <string>

namespace parallax::exporter {

// The OTF2 archive of a planned export, written with the reference OTF2 library (docs/otf2.md):
// the system tree machine → SMP node, one location group per node and one location (CPU
// thread) per PE; one region per entry method ("Chare::method", grouped per chare) plus
// Overhead, Idle, Pack and Unpack; Enter/Leave per activity (executions carry the object
// index, message size and sender as attributes); each paired message as MpiSend/MpiRecv with a
// unique tag and the byte size; user stats, memory and user-supplied values as metrics; user
// events, notes and unmatched sends as markers; the run's metadata as archive properties.
//
// Writes the archive `traces` into the existing directory `directory` (exportRun stages it).
// Never throws; without the OTF2 library (otf2Available() false) returns an error.
ExportResult writeOtf2(const core::Trace& trace, const ExportPlan& plan,
    const std::string& directory, const core::analysis::Progress& progress);

} // namespace parallax::exporter
