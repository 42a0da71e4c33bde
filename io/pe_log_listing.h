#pragma once

#include "core/analysis/log_listing.h"

namespace parallax::io {

// Reads one PE's log for View Log Files (core/analysis/log_listing.h): line by line through the
// same reader and parser as loading, keeping the records that pass `filter` decoded into rows.
// Reads that PE's file only, whatever the size of the run; the trace supplies the file's path
// and the names. Never throws: a PE without a log, or a file that cannot be opened, gives a
// listing whose `error` says so. Matches core::analysis::LogListingReader.
core::analysis::LogListing readLogListing(const core::Trace& trace, core::PeId pe,
    const core::analysis::LogFilter& filter, const core::analysis::Progress& progress = {});

} // namespace parallax::io
