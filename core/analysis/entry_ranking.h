#pragma once

#include "core/types.h"

#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// How much of the run each entry method took, and the entry methods ordered by it: the basis
// of the colours (the heaviest entry gets the most distinct colour in every view).
struct EntryRanking {
    std::vector<double> time; // per entry id: total execution time (µs) over the whole run
    std::vector<EntryId> order; // entry ids, heaviest first; ties and unused entries by id
    std::vector<int> rank; // per entry id: its position in `order`
};

// From the executions of every PE's log; without logs (summary-only runs, logs left unread)
// from the .sum files' per-entry times. Entries that never ran come last, in id order. One
// pass over the executions: cheap enough to run once per opened run.
EntryRanking rankEntriesByTime(const Trace& trace);

} // namespace parallax::core::analysis
