#pragma once

#include "analysis_request.h"

#include <optional>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

struct UsageProfile;

// One feature vector per PE for clustering (seed 000 §4.4, 002 §3): the time each entry method
// executed on that PE over a time range, in µs. No normalisation: every dimension is the same
// kind of metric, and the bias toward expensive entry methods is wanted.
struct PeFeatures {
    TimeRange range;
    std::vector<PeId> pes; // the PEs clustered, ascending
    std::vector<EntryId> dims; // entry methods that ran on some PE of `pes`, ascending
    // [i * dims.size() + d]: µs of entry method dims[d] on pes[i] over `range`.
    std::vector<double> values;
    // Selected PEs left out of the clustering (comm threads, unless the request includes them).
    std::vector<PeId> apart;

    [[nodiscard]] double at(std::size_t i, std::size_t d) const
    {
        return values[i * dims.size() + d];
    }
};

// From the logs with the correct-mode accounting (an execution's time split at the range's
// edges, pack and unpack time inside it excluded), or from the .sumd/.sum summaries for runs
// without logs, as the usage profile does. Entry methods outside request.entries and those
// with zero time on every clustered PE are dropped. nullopt when cancelled.
std::optional<PeFeatures> computePeFeatures(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// The same vectors from a usage profile already computed for the same request (its entry
// columns in µs, the PEs it keeps apart left out), so a caller that has one does not read every
// PE's events again.
PeFeatures featuresFromUsage(const UsageProfile& usage);

} // namespace parallax::core::analysis
