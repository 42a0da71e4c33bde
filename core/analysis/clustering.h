#pragma once

#include "analysis_request.h"
#include "pe_features.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Equivalence classes of PEs by k-means over their feature vectors (pe_features.h), after
// seed 000 §4.4 and seed 002 §3; docs/clusters.md has the details and the choices made.
//
// - Distance: unweighted Euclidean, in µs; no normalisation.
// - Seeds: k points spread evenly on the diagonal of the bounding box of the data (per-dimension
//   minimum to maximum), seed c at fraction (c + 0.5) / k, so the result is deterministic.
// - Lloyd iterations: each PE goes to the nearest centroid (a tie goes to the lower cluster),
//   each centroid becomes the mean of its members; stops when no PE changes cluster, or after
//   kMaxIterations (then `converged` is false). A cluster that loses all its members stays empty
//   (its centroid stays put); it is counted in k, not in nonEmpty.
// - Automatic k (ClusterOptions::k == 0): k-means for every k of the sweep. Diagonal seeds often
//   leave clusters empty, so what counts is m, the number of non-empty clusters: for each m the
//   sweep's row with the least WCSS (within-cluster sum of squares), and the elbow of
//   log(1 + WCSS) against m, from (1, total sum of squares) to the sweep's least WCSS, both
//   axes scaled to [0, 1]: the m farthest above the chord; its row's k is chosen. The log scale
//   makes a split count by how much it shrinks the spread relatively, so light classes are not
//   drowned by the heaviest. Above kSweepSampleLimit PEs the sweep runs on an evenly spaced
//   sample of that many PEs; the chosen k is then run on every PE. Then small classes far from
//   everyone are split off: the elbow follows the big drops in WCSS, and a handful of PEs
//   unlike all others (an anomalous few, a special PE 0) barely move it. While some PE lies
//   more than kFarFactor times its cluster's median distance from the centroid (and more than
//   kFarFactor × kFarFloorUs), a centroid is added on the PE farthest by that ratio and Lloyd's
//   iterations resume from the centroids so far; at most up to the sweep's largest k.
// - Roles: the exemplar of a non-empty cluster is its member nearest the centroid (ties: lower
//   PE); outliers are the members farthest from their centroid, allotted to clusters in
//   proportion to their size (see assignRoles).

struct ClusterOptions {
    int k = 0; // 0 = automatic
    int sweepMin = 2;
    int sweepMax = 20;
    // -1: the default, ceil(5 % of the PEs clustered) minus the exemplars, at least 0.
    std::int64_t outliers = -1;
    bool sweep = false; // fill PeClustering::sweep even when k is given
};

enum class ClusterRole : std::uint8_t { Member, Exemplar, Outlier };

struct ClusterSweepRow {
    int k;
    int nonEmpty;
    double wcss; // µs²
    bool chosen;
};

inline constexpr int kMaxIterations = 300;
inline constexpr std::size_t kSweepSampleLimit = 2048;
// A PE farther than this many times its cluster's median distance is split off (automatic k).
// Within a class, distances in many dimensions bunch around their median (the generated runs:
// at most 2.6 times it); PEs unlike their class lie an order of magnitude out.
inline constexpr double kFarFactor = 4.0;
// The median distance counted as at least this (µs, the trace's resolution): a class of
// identical PEs does not split over rounding.
inline constexpr double kFarFloorUs = 1.0;

struct PeClustering {
    PeFeatures features; // what was clustered
    int k = 0;
    int nonEmpty = 0;
    std::vector<int> cluster; // per index of features.pes
    std::vector<double> distance; // per index, Euclidean distance to its centroid (µs)
    std::vector<ClusterRole> role; // per index
    std::vector<double> centroids; // [c * dims + d]
    std::vector<int> sizes; // per cluster
    std::vector<ClusterSweepRow> sweep; // filled when k was automatic or a sweep was asked
    std::string error; // e.g. "clustering needs at least 2 PEs"
    double wcss = 0; // sum of squared distances, µs²
    int iterations = 0;
    bool converged = true;
    std::size_t sweepSample = 0; // PEs the sweep ran on (< features.pes.size() when sampled)
    int splitOff = 0; // clusters added to the elbow's k for far PEs (automatic k only)

    [[nodiscard]] std::size_t dimCount() const { return features.dims.size(); }
};

// The deterministic core: k-means with diagonal seeds over `n` vectors of `dims` values
// ([i * dims + d]). Fills k, nonEmpty, cluster, distance, centroids, sizes, wcss, iterations,
// converged; every role is Member. k is at least 1. `threads` workers for the assignment step
// (0 = all cores).
PeClustering kMeansDiagonal(const std::vector<double>& values, std::size_t n, std::size_t dims,
    int k, unsigned threads = 0);

// Sets the roles: one exemplar per non-empty cluster, then `outliers` outliers (at most the
// number of non-exemplar members). Clusters of at least 2 members share the outliers in
// proportion to their size (largest remainder; ties to the lower cluster), each giving at most
// its size minus one; within a cluster the farthest members go first (ties: lower PE). Clusters
// of size 1 give none.
void assignRoles(PeClustering& c, std::size_t outliers);

// The default number of outliers for n PEs and the given number of exemplars.
std::size_t defaultOutliers(std::size_t n, int exemplars);

// The elbow rule above over sweep rows (sorted by k), given the total sum of squares (WCSS at
// k = 1) of the same data. Returns the chosen k (the first row's k when the data has no spread).
int chooseElbow(const std::vector<ClusterSweepRow>& rows, double totalSumOfSquares);

// Automatic k's second step (above): while some PE lies more than kFarFactor times its
// cluster's median distance (at least kFarFloorUs) from its centroid, a centroid is added on
// the PE farthest by that ratio (ties: lower index) and Lloyd's iterations resume from the
// centroids so far; each split adds one to k and to splitOff. Clusters of one PE are not split.
// Stops at maxK clusters. Roles are left to assignRoles. nullopt when cancelled.
std::optional<PeClustering> splitOffFarPes(const std::vector<double>& values, std::size_t n,
    std::size_t dims, PeClustering c, int maxK, unsigned threads = 0,
    const Progress& progress = {});

// Features, then k-means (k given, or automatic), then roles. nullopt when cancelled; `error`
// set (and nothing else) when the request cannot be clustered: fewer than 2 PEs, k above the
// number of PEs, a bad sweep.
std::optional<PeClustering> clusterPes(const Trace& trace, const AnalysisRequest& request,
    const ClusterOptions& options, const Progress& progress = {});

// The same from feature vectors already computed (e.g. kept by a view while the analyst tries
// other k): k-means, the sweep when asked, roles. `threads` workers (0 = all cores).
std::optional<PeClustering> clusterFeatures(PeFeatures features, const ClusterOptions& options,
    unsigned threads = 0, const Progress& progress = {});

std::string_view clusterRoleName(ClusterRole role);

} // namespace parallax::core::analysis
