#pragma once

#include "cache_file.h"
#include "core/trace.h"
#include "index_writer.h"

namespace parallax::io {

// The index's serialisation of what is not a column (io/index_writer.cpp writes the sections):
// the manifest's run section (symbol table, file tables, import report, row counts) and each
// PE's .sum and .sumd, decoded when first read. The readers throw CacheFormatError on anything
// they cannot take; they check lengths, io/cache_validation.h the values.
void putRun(CacheWriter& w, const core::Trace& t, const IndexRows& rows);
IndexRows getRun(CacheReader& r, core::Trace& t);
void putSummary(CacheWriter& w, const core::PeSummary& s);
void getSummary(CacheReader& r, core::PeSummary& s);
void putDetail(CacheWriter& w, const core::PeSummaryDetail& d);
void getDetail(CacheReader& r, core::PeSummaryDetail& d);

} // namespace parallax::io
