#pragma once

#include "cache_file.h"
#include "core/trace.h"

#include <cstddef>

namespace parallax::io {

// The index cache's serialisation of the store (io/index_cache.cpp writes the sections): the
// run section (symbol table, files, import report, summaries, the number of PEs) and one
// section per PE. The readers throw CacheFormatError on anything they cannot take; they check
// lengths and cross-references, io/cache_validation.h the values.
void putRun(CacheWriter& w, const core::Trace& t);
// Returns the number of PE sections the run section announces.
std::size_t getRun(CacheReader& r, core::Trace& t);
void putPe(CacheWriter& w, const core::PeTrace& p);
void getPe(CacheReader& r, core::PeTrace& p);

} // namespace parallax::io
