#pragma once

#include "core/pe_trace.h"
#include "interval_grid.h"
#include "java_event_stream.h"

#include <cstdint>
#include <vector>

namespace parallax::core::analysis {

// The reference tool's per-PE interval engine (Java LogReader, docs/format.md §4.0.1), replayed on
// the store's executions and idles so that Java-compatible Time Profile and Overview numbers
// come out exactly, quirks included: an activity crossing interval boundaries is split at
// them; an entry method still open at END_COMPUTATION is "closed" at its own begin time and
// so not credited at all (checked against golden-java); an idle still open at the
// end is filled to the last interval; a tracing gap is credited to the entry open at END_TRACE.
struct JavaIntervalTimes {
    // µs per interval and entry, row-major [interval * entryCount + entry].
    std::vector<std::int64_t> entryTime;
    std::vector<std::int64_t> idleTime; // µs per interval
    int entryCount = 0;
};

JavaIntervalTimes runJavaIntervalEngine(
    const PeTrace& pe, const IntervalGrid& grid, int entryCount);

} // namespace parallax::core::analysis
