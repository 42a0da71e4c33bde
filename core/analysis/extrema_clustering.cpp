#include "extrema_clustering.h"

#include "java_random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace parallax::core::analysis {

// k-means as the reference tool does it: dimensions shifted by their minimum, initial centroids
// from java.util.Random(11337), Euclidean distance (ties to the lowest cluster), empty clusters
// keep their centroid, until no PE moves.
Clusters kMeans(const std::vector<double>& vectors, std::size_t n, std::size_t dims, int k)
{
    std::vector<double> data = vectors;
    for (std::size_t d = 0; d < dims; ++d) {
        double lo = INFINITY;
        for (std::size_t p = 0; p < n; ++p)
            lo = std::min(lo, data[p * dims + d]);
        for (std::size_t p = 0; p < n; ++p)
            data[p * dims + d] -= lo;
    }
    Clusters c;
    c.k = k;
    JavaRandom random(11337);
    std::vector<std::size_t> picks;
    while (picks.size() < static_cast<std::size_t>(k)) {
        const auto x = static_cast<std::size_t>(random.nextInt(static_cast<std::int32_t>(n)));
        if (std::find(picks.begin(), picks.end(), x) == picks.end())
            picks.push_back(x);
    }
    std::vector<double> centroids(static_cast<std::size_t>(k) * dims);
    for (std::size_t j = 0; j < picks.size(); ++j)
        std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(picks[j] * dims), dims,
            centroids.begin() + static_cast<std::ptrdiff_t>(j * dims));
    c.assignment.assign(n, -1);
    c.distance.assign(n, 0.0);
    for (int iteration = 0; iteration < 1000; ++iteration) {
        bool changed = false;
        for (std::size_t p = 0; p < n; ++p) {
            int best = 0;
            double bestDistance = INFINITY;
            for (int j = 0; j < k; ++j) {
                double d2 = 0;
                for (std::size_t d = 0; d < dims; ++d) {
                    const double diff
                        = data[p * dims + d] - centroids[static_cast<std::size_t>(j) * dims + d];
                    d2 += diff * diff;
                }
                const double dist = std::sqrt(d2);
                if (dist < bestDistance) {
                    bestDistance = dist;
                    best = j;
                }
            }
            if (c.assignment[p] != best)
                changed = true;
            c.assignment[p] = best;
            c.distance[p] = bestDistance;
        }
        if (!changed)
            break;
        for (int j = 0; j < k; ++j) {
            std::vector<double> sum(dims, 0.0);
            std::size_t members = 0;
            for (std::size_t p = 0; p < n; ++p)
                if (c.assignment[p] == j) {
                    ++members;
                    for (std::size_t d = 0; d < dims; ++d)
                        sum[d] += data[p * dims + d];
                }
            if (members > 0)
                for (std::size_t d = 0; d < dims; ++d)
                    centroids[static_cast<std::size_t>(j) * dims + d]
                        = sum[d] / static_cast<double>(members);
        }
    }
    return c;
}

std::vector<std::size_t> javaRepresentatives(const Clusters& c, std::size_t slots, int& nonEmpty)
{
    const std::size_t n = c.assignment.size();
    const auto k = static_cast<std::size_t>(std::max(c.k, 0));
    std::vector<std::int64_t> counts(k, 0);
    for (const int a : c.assignment)
        if (a >= 0 && static_cast<std::size_t>(a) < k)
            ++counts[static_cast<std::size_t>(a)];
    std::int64_t nonZero = 0;
    for (const auto m : counts)
        nonZero += m > 0 ? 1 : 0;
    nonEmpty = static_cast<int>(nonZero);

    const auto threshold = static_cast<std::int64_t>(slots);
    std::int64_t left = threshold;
    const std::int64_t outliers = threshold > nonZero ? threshold - nonZero : 0;
    // One representative per non-empty cluster, in cluster order, while slots remain.
    std::vector<std::int64_t> reps(k, 0);
    for (std::size_t j = 0; j < k; ++j)
        if (left > 0 && counts[j] > 0) {
            reps[j] = 1;
            --left;
        }
    // Outliers in proportion to the cluster sizes (whole parts first, then one each in cluster
    // order). Without outliers the reference divides 0 by 0 here; its result is 0.
    std::vector<std::int64_t> extra(k, 0);
    if (outliers > 0 && static_cast<std::int64_t>(n) > nonZero) {
        for (std::size_t j = 0; j < k; ++j)
            if (counts[j] > 0) {
                extra[j] = static_cast<std::int64_t>(std::floor(static_cast<double>(outliers)
                    * (static_cast<double>(counts[j])
                        / static_cast<double>(static_cast<std::int64_t>(n) - nonZero))));
                left -= extra[j];
            }
    }
    for (std::size_t j = 0; j < k; ++j)
        if (left > 0 && counts[j] > 0) {
            ++extra[j];
            --left;
        }

    // All PEs by increasing distance (a stable sort, as the reference's bubble sort).
    std::vector<std::size_t> byDistance(n);
    std::iota(byDistance.begin(), byDistance.end(), 0U);
    std::stable_sort(byDistance.begin(), byDistance.end(),
        [&](auto a, auto b) { return c.distance[a] < c.distance[b]; });
    // The reference fills an array of `slots` positions (initially PE position 0):
    // representatives from the left, outliers from the right; a later write wins.
    std::vector<std::size_t> chosen(slots, 0);
    std::size_t next = 0;
    for (const auto p : byDistance) {
        const auto j = static_cast<std::size_t>(c.assignment[p]);
        if (j < k && reps[j] > 0 && next < slots) {
            chosen[next++] = p;
            --reps[j];
        }
    }
    std::size_t back = slots;
    for (auto it = byDistance.rbegin(); it != byDistance.rend() && back > 0; ++it) {
        const auto j = static_cast<std::size_t>(c.assignment[*it]);
        if (j < k && extra[j] > 0) {
            chosen[--back] = *it;
            --extra[j];
        }
    }
    return chosen;
}

} // namespace parallax::core::analysis
