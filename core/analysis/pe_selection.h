#pragma once

#include "core/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

struct PeClustering;

// A PE whose detailed log a reduced run keeps, and why (seed 000 §4.4.3: exemplars are the
// members nearest their cluster's centre, outliers the farthest; "random" is the control).
struct KeptPe {
    PeId pe = kNoPe;
    std::string role; // "exemplar", "outlier" or "random"
    int cluster = -1; // -1 when not chosen by clustering
    double distance = 0; // to the cluster's centroid (µs of entry time); 0 when not clustered
};

// How many PEs to keep: `--keep 5%` (a share of the candidates) or `--keep 12` (a count).
struct KeepAmount {
    bool percent = false;
    double value = 0;
};

// "5%", "2.5%", "12". Fills `error` with one sentence on bad text, 0, or a share above 100 %.
std::optional<KeepAmount> parseKeepAmount(std::string_view text, std::string* error = nullptr);

// The number of PEs to keep out of `candidates`: a share is rounded up (at least one PE); a
// count must not exceed the candidates. Fills `error` when the amount cannot be met.
std::optional<std::size_t> keptCount(
    const KeepAmount& amount, std::size_t candidates, std::string* error = nullptr);

// `count` PEs drawn uniformly without replacement from `candidates`, the same for the same
// seed on every platform (own generator, not std::shuffle whose algorithm is unspecified).
// Sorted by PE, role "random".
std::vector<KeptPe> selectRandomPes(
    const std::vector<PeId>& candidates, std::size_t count, std::uint64_t seed);

// The exemplars and outliers of a clustering whose roles are assigned (assignRoles), ordered by
// cluster, the exemplar first, then the outliers farthest first.
std::vector<KeptPe> keptFromClustering(const PeClustering& clustering);

// The PEs of a selection, sorted.
std::vector<PeId> keptPeIds(const std::vector<KeptPe>& kept);

} // namespace parallax::core::analysis
