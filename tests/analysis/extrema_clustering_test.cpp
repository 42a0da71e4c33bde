// The reference's choice of representatives and outliers from a clustering (FORMAT.md §4.6,
// ExtremaWindow.selectRepresentatives), on hand-made clusterings.

#include "core/analysis/extrema_clustering.h"

#include <catch2/catch.hpp>

using namespace parallax::core::analysis;

TEST_CASE(
    "compat clustering orders representatives and outliers by distance over all PEs", "[extrema]")
{
    // Two clusters of three PEs. 4 slots: one representative each, 2 outliers split 1 + 1.
    Clusters c;
    c.k = 2;
    c.assignment = { 0, 0, 0, 1, 1, 1 };
    c.distance = { 5.0, 1.0, 3.0, 0.5, 4.0, 2.0 };
    int nonEmpty = 0;
    const auto chosen = javaRepresentatives(c, 4, nonEmpty);
    CHECK(nonEmpty == 2);
    // Representatives from the left by increasing distance: PE 3 (0.5, cluster 1) comes before
    // PE 1 (1.0, cluster 0) although cluster 0 comes first. Outliers from the right by
    // decreasing distance: PE 0 (5.0) rightmost, then PE 4 (4.0).
    CHECK(chosen == std::vector<std::size_t> { 3, 1, 4, 0 });
}

TEST_CASE("compat clustering with one cluster per PE takes the first clusters' PEs in PE order",
    "[extrema]")
{
    // k = N (the reference's default): every PE alone at distance 0. The first `slots` clusters
    // (in cluster order) get a representative; they are listed in PE order, not cluster order.
    Clusters c;
    c.k = 5;
    c.assignment = { 3, 0, 4, 1, 2 };
    c.distance = { 0, 0, 0, 0, 0 };
    int nonEmpty = 0;
    const auto chosen = javaRepresentatives(c, 2, nonEmpty);
    CHECK(nonEmpty == 5);
    // Clusters 0 and 1 hold PEs 1 and 3.
    CHECK(chosen == std::vector<std::size_t> { 1, 3 });
}

TEST_CASE(
    "compat clustering gives leftover outlier slots to clusters in cluster order", "[extrema]")
{
    // Clusters of sizes 1 and 4; 3 slots: 2 representatives and 1 outlier. Whole parts:
    // 1 * 1/3 -> 0 and 1 * 4/3 -> 1, so cluster 1 has the outlier.
    Clusters c;
    c.k = 2;
    c.assignment = { 1, 1, 0, 1, 1 };
    c.distance = { 2.0, 0.1, 0.0, 9.0, 1.0 };
    int nonEmpty = 0;
    const auto chosen = javaRepresentatives(c, 3, nonEmpty);
    CHECK(chosen == std::vector<std::size_t> { 2, 1, 3 });
}
