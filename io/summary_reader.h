#pragma once

#include "core/import_report.h"
#include "core/summary_data.h"

#include <optional>
#include <string>

namespace parallax::io {

// Reads NAME.N.sum (docs/format.md §3.1, every ver from 1.0 to 7.1, with or without RLE and
// labels).
// Damage inside the file is counted in `report` and the values read so far are kept; returns
// nullopt only when the file cannot be read or has no valid header.
std::optional<core::PeSummary> readSummary(
    const std::string& path, core::PeId pe, core::ImportReport& report);

// Reads NAME.N.sumd (docs/format.md §3.2): per-entry, per-interval time and call counts.
std::optional<core::PeSummaryDetail> readSummaryDetail(
    const std::string& path, core::PeId pe, core::ImportReport& report);

// Reads NAME.projrc; returns RC_GLOBAL_END_TIME (0 when absent or unreadable).
core::TimeUs readProjrcEndTime(const std::string& path, core::ImportReport& report);

} // namespace parallax::io
