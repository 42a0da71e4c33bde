#pragma once

#include "summary_accumulator.h"
#include "text_buffer.h"
#include "trace_types.h"

#include <optional>
#include <string>

namespace parallax::gen {

// NAME.N.sum in the ver:7.1 format (docs/format.md §3.1):
//   ver:7.1 3/16 count:412 ep:40 interval:1.000000e-03 phases:0
//      0+2  71 100+5  93 ...                 (utilisation % per bin, "%4d", run-length)
//   EPExeTime: ...  EPCallTime: ...  MaxEPTime: ...  NumMarks: 0
//   IdlePercent:    0+2  28   0+5   6 ...
// Returns an error message naming the file on failure. `text` is a reusable buffer; its
// contents are discarded.
std::optional<std::string> writeSumFile(const std::string& path, const SummaryAccumulator& summary,
    PeId pe, PeId numPes, TextBuffer& text);

// NAME.N.sumd (docs/format.md §3.2): µs and calls per entry method per bin, EP-major, one
// run-length-encoded sequence per line whose runs continue across EP boundaries.
std::optional<std::string> writeSumDetailFile(const std::string& path,
    const SummaryAccumulator& summary, PeId pe, PeId numPes, TextBuffer& text);

} // namespace parallax::gen
