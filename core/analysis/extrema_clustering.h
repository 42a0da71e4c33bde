#pragma once

#include <cstddef>
#include <vector>

namespace parallax::core::analysis {

// The k-means clustering behind the Extrema tool's clustering criterion (FORMAT.md §4.6).
struct Clusters {
    std::vector<int> assignment; // per PE position, its cluster (0..k-1)
    std::vector<double> distance; // per PE position, distance to its cluster's centre
    int k = 0;
};

// k-means as the reference tool does it over n vectors of `dims` values: every dimension
// shifted by its minimum, initial centroids from java.util.Random(11337), Euclidean distance
// (ties to the lowest cluster), empty clusters keep their centroid, until no PE moves.
Clusters kMeans(const std::vector<double>& vectors, std::size_t n, std::size_t dims, int k);

// The reference's choice of `slots` notable PEs from a clustering, as PE positions in
// ascending significance (its left-to-right bar order). Every non-empty cluster gets one
// representative while slots remain, the rest are outliers shared among the clusters in
// proportion to their size. Representatives are then taken from all PEs in increasing distance
// to their centre and placed from the left; outliers in decreasing distance, placed from the
// right. `nonEmpty` receives the number of non-empty clusters.
std::vector<std::size_t> javaRepresentatives(const Clusters& c, std::size_t slots, int& nonEmpty);

} // namespace parallax::core::analysis
