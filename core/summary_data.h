#pragma once

#include "types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::core {

struct SummaryMark {
    std::int32_t type = 0;
    TimeUs time = 0;
};

// Per-phase per-entry totals of a .sum file (ver >= 3.0, `[p]` lines). Trailing zero entries
// are left out, so a vector may be shorter than the entry table.
struct SummaryPhase {
    std::vector<std::int64_t> entryCalls;
    std::vector<std::int64_t> entryTime;
    std::vector<std::int64_t> entryMaxTime;
};

// One NAME.N.sum file (-tracemode summary): utilisation per bin and per-entry totals.
struct PeSummary {
    PeId pe = kNoPe;
    double version = 0.0;
    PeId numPes = 0; // the header's worker-PE count
    TimeUs intervalUs = 0; // floor(binSize * 1e6)
    // Busy % per bin, (int)(busy * 100 / binSize): 0..100, occasionally a little above.
    std::vector<std::int16_t> utilization;
    // Idle % per bin (ver 7.1 IdlePercent line); empty when the file has none.
    std::vector<std::int16_t> idlePercent;
    std::vector<std::int64_t> entryTime; // total µs per entry method (EPExeTime)
    std::vector<std::int64_t> entryCalls; // calls per entry method (EPCallTime)
    std::vector<std::int64_t> entryMaxTime; // longest single execution (MaxEPTime)
    std::vector<SummaryMark> marks;
    std::vector<SummaryPhase> phases;

    [[nodiscard]] std::size_t binCount() const { return utilization.size(); }
    [[nodiscard]] TimeUs totalTime() const
    {
        return static_cast<TimeUs>(utilization.size()) * intervalUs;
    }
};

// A run of cells of a .sumd file: an entry method's time and call count in each of `length`
// consecutive intervals from `interval` on (the file's run-length encoding, kept as it is so
// that memory follows the file, not the product intervals x entries).
struct SummaryDetailCell {
    std::uint32_t interval = 0;
    std::uint32_t entry = 0;
    std::int64_t timeUs = 0; // in each interval of the run
    std::int64_t calls = 0; // executions that started in each interval of the run
    std::uint32_t length = 1;
};

// One NAME.N.sumd file (+sumDetail): per entry, per interval time and calls, stored sparse
// (only non-zero runs of cells) in entry-major order.
struct PeSummaryDetail {
    PeId pe = kNoPe;
    double version = 0.0;
    TimeUs intervalUs = 0;
    std::int64_t intervalCount = 0;
    std::int32_t entryCount = 0;
    std::vector<SummaryDetailCell> cells;

    [[nodiscard]] TimeUs totalTime() const { return intervalCount * intervalUs; }
};

} // namespace parallax::core
