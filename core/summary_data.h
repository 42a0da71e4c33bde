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

// Per-phase per-entry totals of a .sum file (ver >= 3.0, `[p]` lines).
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

// One cell of a .sumd file: an entry method's time and call count in one interval.
struct SummaryDetailCell {
    std::uint32_t interval = 0;
    std::uint32_t entry = 0;
    std::int64_t timeUs = 0;
    std::int64_t calls = 0; // executions that started in the interval
};

// One NAME.N.sumd file (+sumDetail): per entry, per interval time and calls, stored sparse
// (only non-zero cells) in entry-major order.
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
