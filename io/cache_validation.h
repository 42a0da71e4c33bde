#pragma once

#include "core/trace.h"

#include <cstddef>

namespace parallax::io {

// What an index cache file holds must satisfy everything the readers guarantee of a fresh load:
// checksums prove the bytes are the ones written, not that they describe a run. Each function
// throws CacheFormatError (io/cache_file.h) naming the first field that breaks a rule, so the
// cache is reported and rebuilt instead of handing views a PE, entry or offset out of range.

// The symbol table: version, PROCESSORS and SMP layout as readSts accepts them, table ids.
void validateMetadata(const core::RunMetadata& meta);

// The run section once read: file tables, summaries and .sumd runs, the number of PE sections.
void validateRun(const core::Trace& trace, std::size_t peSections);

// One PE section: its PE number is its position, columns agree in length, times are ordered as
// the builder orders them, every index points inside its column.
void validatePe(const core::PeTrace& pe, std::size_t index, const core::RunMetadata& meta);

} // namespace parallax::io
