#pragma once

#include "core/trace.h"
#include "index_writer.h"

#include <cstddef>

namespace parallax::io {

// What an index holds must satisfy everything the readers guarantee of a fresh load: checksums
// prove the bytes are the ones written, not that they describe a run. Each function throws
// CacheFormatError (io/cache_file.h) naming the first field that breaks a rule, so the index is
// refused (or, for one PE's data checked when first read, that data left out) instead of handing
// views a PE, entry or offset out of range.

// The symbol table: version, PROCESSORS and SMP layout as readSts accepts them, table ids.
void validateMetadata(const core::RunMetadata& meta);

// The run section once read: file tables and row counts against PROCESSORS.
void validateRunTables(const core::Trace& trace, const IndexRows& rows);

// One PE's .sum and .sumd (index = its PE).
void validateSummary(const core::PeSummary& s, std::size_t index);
void validateDetail(const core::PeSummaryDetail& d, std::size_t index);

// One PE's store: its PE number is its position, columns agree in length, times are ordered as
// the builder orders them, every index points inside its column.
void validatePe(const core::PeTrace& pe, std::size_t index, const core::RunMetadata& meta);

} // namespace parallax::io
