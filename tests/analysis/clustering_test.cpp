// k-means equivalence classes of PEs (core/analysis/clustering.h): hand-checked small cases for
// the seeds, ties, empty clusters, exemplars and the outlier allotment; the automatic k on
// well-separated data; the feature vectors of a hand-written run; the planted classes of a
// generated run.

#include "core/analysis/clustering.h"
#include "core/analysis/pe_features.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

using namespace parallax::core;
using namespace parallax::core::analysis;

namespace {

TracePtr load(const std::string& path)
{
    auto result = parallax::io::loadRun(path);
    REQUIRE(result.trace);
    return result.trace;
}

std::vector<ClusterRole> roles(std::initializer_list<char> letters)
{
    std::vector<ClusterRole> out;
    for (char c : letters)
        out.push_back(c == 'e' ? ClusterRole::Exemplar
                : c == 'o'     ? ClusterRole::Outlier
                               : ClusterRole::Member);
    return out;
}

// A clustering given by hand (assignment and distances), for assignRoles alone.
PeClustering handMade(std::vector<int> cluster, std::vector<double> distance, int k)
{
    PeClustering c;
    c.k = k;
    c.cluster = std::move(cluster);
    c.distance = std::move(distance);
    c.sizes.assign(static_cast<std::size_t>(k), 0);
    for (int j : c.cluster)
        ++c.sizes[static_cast<std::size_t>(j)];
    return c;
}

int outliersIn(const PeClustering& c, int cluster)
{
    int count = 0;
    for (std::size_t i = 0; i < c.cluster.size(); ++i)
        count += c.cluster[i] == cluster && c.role[i] == ClusterRole::Outlier ? 1 : 0;
    return count;
}

// Deterministic pseudo-random numbers in [0, 1).
struct Lcg {
    std::uint64_t state = 12345;
    double next()
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    }
};

} // namespace

TEST_CASE("two groups on a line: seeds on the diagonal, means, distances, exemplars, outliers",
    "[clustering]")
{
    // Box 0..12; seeds at 3 and 9. {0,1,2} go to 3, {10,11,12} to 9; the means are 1 and 11;
    // the second pass moves nobody.
    const std::vector<double> v { 0, 1, 2, 10, 11, 12 };
    auto c = kMeansDiagonal(v, 6, 1, 2, 1);
    CHECK(c.k == 2);
    CHECK(c.nonEmpty == 2);
    CHECK(c.iterations == 2);
    CHECK(c.converged);
    CHECK(c.cluster == std::vector<int> { 0, 0, 0, 1, 1, 1 });
    CHECK(c.centroids == std::vector<double> { 1, 11 });
    CHECK(c.distance == std::vector<double> { 1, 0, 1, 1, 0, 1 });
    CHECK(c.sizes == std::vector<int> { 3, 3 });
    CHECK(c.wcss == 4.0);
    // Two outliers, one per cluster (3/6 each); within a cluster the two at distance 1 tie and
    // the lower PE goes first.
    assignRoles(c, 2);
    CHECK(c.role == roles({ 'o', 'e', 'm', 'o', 'e', 'm' }));
}

TEST_CASE("a PE as far from two centroids goes to the lower cluster", "[clustering]")
{
    // Box 0..8, seeds 2 and 6: the 4 is 2 from each and joins cluster 0 (mean 2, then still
    // 2 away from it and 4 from the 8).
    const auto c = kMeansDiagonal({ 0, 4, 8 }, 3, 1, 2, 1);
    CHECK(c.cluster == std::vector<int> { 0, 0, 1 });
    CHECK(c.centroids == std::vector<double> { 2, 8 });
}

TEST_CASE("a seed no PE is nearest stays an empty cluster and is not reseeded", "[clustering]")
{
    // Box 0..10, seeds at 10/6, 5 and 50/6: nobody is nearest the middle one.
    auto c = kMeansDiagonal({ 0, 0, 0, 10 }, 4, 1, 3, 1);
    CHECK(c.k == 3);
    CHECK(c.nonEmpty == 2);
    CHECK(c.sizes == std::vector<int> { 3, 0, 1 });
    CHECK(c.cluster == std::vector<int> { 0, 0, 0, 2 });
    CHECK(c.centroids[1] == 5.0);
    assignRoles(c, 10);
    // The cluster of one PE gives its exemplar only; the other cluster gives its 2 non-exemplars
    // (outliers are capped by what the clusters can give). The exemplar is the lowest PE of the
    // tie at distance 0.
    CHECK(c.role == roles({ 'e', 'o', 'o', 'e' }));
}

TEST_CASE("a PE far from everyone is split off into a cluster of its own", "[clustering]")
{
    // Two dimensions: PEs 0-9 at (i, 0), PEs 10-19 at (100 + i, 0), PE 20 at (50, 40).
    std::vector<double> v;
    for (int i = 0; i < 10; ++i)
        v.insert(v.end(), { static_cast<double>(i), 0 });
    for (int i = 0; i < 10; ++i)
        v.insert(v.end(), { 100.0 + i, 0 });
    v.insert(v.end(), { 50, 40 });
    // Diagonal seeds (27.25, 10) and (81.75, 30): PE 20 first joins the right, then the left
    // (its squared distances 3670.25 against 3777), and stays there: centroid (95/11, 40/11).
    auto two = kMeansDiagonal(v, 21, 2, 2, 1);
    REQUIRE(two.cluster[20] == 0);
    CHECK(two.sizes == std::vector<int> { 11, 10 });
    // Its distance, 55.1, is 9.4 times the median of the left cluster's 11 distances (5.87);
    // the right cluster's farthest are 4.5 / 2.5 = 1.8 times theirs. One split, then none.
    const auto c = splitOffFarPes(v, 21, 2, two, 20, 1);
    REQUIRE(c);
    CHECK(c->k == 3);
    CHECK(c->nonEmpty == 3);
    CHECK(c->splitOff == 1);
    CHECK(c->converged);
    std::vector<int> expected(21, 0);
    std::fill(expected.begin() + 10, expected.begin() + 20, 1);
    expected[20] = 2;
    CHECK(c->cluster == expected);
    CHECK(c->centroids == std::vector<double> { 4.5, 0, 104.5, 0, 50, 40 });
    CHECK(c->distance[20] == 0.0);

    SECTION("no split above the largest k")
    {
        const auto capped = splitOffFarPes(v, 21, 2, two, 2, 1);
        REQUIRE(capped);
        CHECK(capped->k == 2);
        CHECK(capped->splitOff == 0);
        CHECK(capped->cluster == two.cluster);
    }
    SECTION("the median distance counts as at least 1 µs: identical PEs and one 3 µs away")
    {
        // Centroid 38 / 7: six distances of 3 / 7 and one of 18 / 7, 2.57 times 1 µs.
        const std::vector<double> w { 5, 5, 5, 5, 5, 5, 8 };
        const auto one = splitOffFarPes(w, 7, 1, kMeansDiagonal(w, 7, 1, 1, 1), 20, 1);
        REQUIRE(one);
        CHECK(one->k == 1);
    }
}

TEST_CASE("automatic k splits off a far PE the elbow leaves in a big cluster", "[clustering]")
{
    // The same points as above through clusterFeatures: auto k, then the split.
    PeFeatures f;
    for (int i = 0; i < 21; ++i)
        f.pes.push_back(i);
    f.dims = { 1, 2 };
    for (int i = 0; i < 10; ++i)
        f.values.insert(f.values.end(), { static_cast<double>(i), 0 });
    for (int i = 0; i < 10; ++i)
        f.values.insert(f.values.end(), { 100.0 + i, 0 });
    f.values.insert(f.values.end(), { 50, 40 });
    const auto c = clusterFeatures(f, {}, 1);
    REQUIRE(c);
    REQUIRE(c->error.empty());
    CHECK(c->nonEmpty == 3);
    CHECK(c->cluster[20] != c->cluster[0]);
    CHECK(c->cluster[20] != c->cluster[10]);
    CHECK(c->sizes[static_cast<std::size_t>(c->cluster[20])] == 1);
    ClusterOptions given;
    given.k = 2;
    CHECK(clusterFeatures(f, given, 1)->splitOff == 0); // a given k is kept
}

TEST_CASE("the same vectors cluster the same way with any number of threads", "[clustering]")
{
    Lcg random;
    const std::size_t n = 3000;
    const std::size_t dims = 20;
    std::vector<double> v(n * dims);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < dims; ++d)
            v[i * dims + d] = random.next() * 1000.0 * static_cast<double>(1 + (i % 5) * (d % 3));
    const auto one = kMeansDiagonal(v, n, dims, 7, 1);
    const auto four = kMeansDiagonal(v, n, dims, 7, 4);
    const auto again = kMeansDiagonal(v, n, dims, 7, 4);
    CHECK(one.cluster == four.cluster);
    CHECK(one.distance == four.distance);
    CHECK(one.centroids == four.centroids);
    CHECK(four.cluster == again.cluster);
    CHECK(one.converged);
    CHECK(one.nonEmpty >= 2);
}

TEST_CASE("outliers are shared in proportion to cluster size by largest remainder", "[clustering]")
{
    SECTION("sizes 6, 3 and 1 with 4 outliers: 8/3 and 4/3 round to 3 and 1, the single PE none")
    {
        // The lone PE of cluster 2 counts in no share: 4 x 6/9 = 2.67, 4 x 3/9 = 1.33.
        auto c = handMade({ 0, 0, 0, 0, 0, 0, 1, 1, 1, 2 }, { 6, 5, 4, 3, 2, 1, 1, 2, 3, 9 }, 3);
        assignRoles(c, 4);
        CHECK(c.role == roles({ 'o', 'o', 'o', 'm', 'm', 'e', 'e', 'm', 'o', 'e' }));
        CHECK(outliersIn(c, 0) == 3);
        CHECK(outliersIn(c, 1) == 1);
        CHECK(outliersIn(c, 2) == 0);
    }
    SECTION("equal remainders: the lower cluster gets the extra outlier")
    {
        auto c = handMade({ 0, 0, 0, 1, 1, 1 }, { 0, 1, 2, 0, 1, 2 }, 2);
        assignRoles(c, 1);
        CHECK(outliersIn(c, 0) == 1);
        CHECK(outliersIn(c, 1) == 0);
        CHECK(c.role[2] == ClusterRole::Outlier);
    }
    SECTION("a cluster that cannot take its share passes it on")
    {
        // Sizes 2 and 4, 4 outliers: shares 1.33 and 2.67; cluster 0 has one non-exemplar only,
        // so cluster 1 takes the remaining 3.
        auto c = handMade({ 0, 0, 1, 1, 1, 1 }, { 1, 2, 1, 2, 3, 4 }, 2);
        assignRoles(c, 4);
        CHECK(outliersIn(c, 0) == 1);
        CHECK(outliersIn(c, 1) == 3);
    }
    SECTION("no outliers asked: exemplars only")
    {
        auto c = handMade({ 1, 1, 0 }, { 2, 1, 0 }, 2);
        assignRoles(c, 0);
        CHECK(c.role == roles({ 'm', 'e', 'e' }));
    }
}

TEST_CASE(
    "the default outlier count is 5 % of the PEs rounded up, minus the exemplars", "[clustering]")
{
    CHECK(defaultOutliers(16384, 15) == 820 - 15);
    CHECK(defaultOutliers(100, 3) == 2);
    CHECK(defaultOutliers(12, 2) == 0);
    CHECK(defaultOutliers(0, 0) == 0);
}

TEST_CASE("the elbow rule picks the k whose log WCSS falls farthest past the chord", "[clustering]")
{
    // TSS 100; WCSS drops to 10 at k = 3 then barely moves: in log(1 + WCSS) the fall from
    // k = 1 is 0.15, 0.59, 0.64, 0.68, 0.72 of the whole at x = 0.2 ... 1: the elbow is 3.
    std::vector<ClusterSweepRow> rows { { 2, 2, 50, false }, { 3, 3, 10, false },
        { 4, 4, 9, false }, { 5, 5, 8, false }, { 6, 6, 7, false } };
    CHECK(chooseElbow(rows, 100) == 3);
    // No spread at all: the first k of the sweep.
    CHECK(chooseElbow(rows, 0) == 2);
    // Rows are compared by their non-empty clusters: k = 4 and 5 found only 3, so they add
    // nothing; the best row with 4 non-empty clusters is k = 7 (WCSS 1), found past a plateau.
    std::vector<ClusterSweepRow> plateau { { 2, 2, 5000, false }, { 3, 3, 900, false },
        { 4, 3, 900, false }, { 5, 3, 900, false }, { 6, 4, 2, false }, { 7, 4, 1, false },
        { 8, 5, 0.9, false } };
    CHECK(chooseElbow(plateau, 100000) == 7);
}

TEST_CASE("automatic k finds well-separated groups of different load", "[clustering]")
{
    // Four groups of PEs doing more and more of three entry methods, with jitter. The diagonal
    // seeds for k = 4 put the two light groups with one seed (3 non-empty clusters); the sweep
    // finds the four groups at a larger k, and the elbow picks that k.
    Lcg random;
    const std::vector<std::vector<double>> centres { { 100, 100, 50 }, { 400, 300, 350 },
        { 900, 1000, 800 }, { 2000, 1800, 2100 } };
    std::vector<double> v;
    for (int i = 0; i < 200; ++i)
        for (double x : centres[static_cast<std::size_t>(i % 4)])
            v.push_back(x + random.next() * 20.0);
    std::vector<ClusterSweepRow> rows;
    for (int k = 2; k <= 12; ++k) {
        const auto c = kMeansDiagonal(v, 200, 3, k, 1);
        rows.push_back({ k, c.nonEmpty, c.wcss, false });
    }
    CHECK(rows[2].nonEmpty == 3); // k = 4
    const auto whole = kMeansDiagonal(v, 200, 3, 1, 1);
    const int k = chooseElbow(rows, whole.wcss);
    const auto c = kMeansDiagonal(v, 200, 3, k, 1);
    REQUIRE(c.nonEmpty == 4);
    // The same cluster for PEs of the same group, different clusters for different groups.
    for (std::size_t i = 4; i < 200; ++i)
        CHECK(c.cluster[i] == c.cluster[i % 4]);
    CHECK(std::set<int> { c.cluster[0], c.cluster[1], c.cluster[2], c.cluster[3] }.size() == 4);
}

TEST_CASE(
    "features are the µs per entry method over the range, all-zero entries dropped", "[clustering]")
{
    const auto trace = load(std::string(PARALLAX_TEST_DATA_DIR) + "/runs/tiny");
    SECTION("whole run: entry 0 never runs")
    {
        const auto f = computePeFeatures(*trace, {});
        REQUIRE(f);
        CHECK(f->pes == std::vector<PeId> { 0, 1 });
        CHECK(f->dims == std::vector<EntryId> { 1, 2, 3, 4 });
        // PE 0: Main 1100-1200, compute 1500-2000 less 10 µs of pack, halo 2000-2500;
        // PE 1: say"hi 1200-1300.
        CHECK(f->values == std::vector<double> { 100, 490, 0, 500, 0, 0, 100, 0 });
    }
    SECTION("one phase: [1100, 1600) holds no halo")
    {
        AnalysisRequest request;
        request.range = { 1100, 1600 };
        const auto f = computePeFeatures(*trace, request);
        REQUIRE(f);
        CHECK(f->dims == std::vector<EntryId> { 1, 2, 3 });
        CHECK(f->values == std::vector<double> { 100, 100, 0, 0, 0, 100 });
    }
}

TEST_CASE("a run with one PE selected cannot be clustered", "[clustering]")
{
    const auto trace = load(std::string(PARALLAX_TEST_DATA_DIR) + "/runs/tiny");
    AnalysisRequest request;
    request.pes = { 0 };
    const auto c = clusterPes(*trace, request, {});
    REQUIRE(c);
    CHECK(c->error.find("at least 2 PEs") != std::string::npos);
    CHECK(c->cluster.empty());
}

TEST_CASE("the generated run's overloaded PEs 3 and 9 form their own cluster", "[clustering]")
{
    const auto trace = load(parallax::test::sampleRun("imbalance").string());
    const auto c = clusterPes(*trace, {}, {});
    REQUIRE(c);
    REQUIRE(c->error.empty());
    CHECK(c->k == 2);
    CHECK(c->sweep.size() == 11); // 2..20 capped at the 12 PEs
    std::set<PeId> heavy;
    const auto& pes = c->features.pes;
    const int heavyCluster = c->cluster[3];
    for (std::size_t i = 0; i < pes.size(); ++i)
        if (c->cluster[i] == heavyCluster)
            heavy.insert(pes[i]);
    CHECK(heavy == std::set<PeId> { 3, 9 });
    // One exemplar per cluster; 5 % of 12 rounds up to 1, which the 2 exemplars already cover.
    CHECK(std::count(c->role.begin(), c->role.end(), ClusterRole::Exemplar) == 2);
    CHECK(std::count(c->role.begin(), c->role.end(), ClusterRole::Outlier) == 0);
}

TEST_CASE("a real SMP run clusters its worker PEs and keeps the comm threads apart", "[clustering]")
{
    const auto trace = load(parallax::test::realLog("gen-leanmd-smp").string());
    const auto c = clusterPes(*trace, {}, { 2, 2, 20, -1 });
    REQUIRE(c);
    REQUIRE(c->error.empty());
    CHECK(c->features.pes == std::vector<PeId> { 0, 1, 2, 3 });
    CHECK(c->features.apart == std::vector<PeId> { 4, 5 });
    CHECK(c->nonEmpty == 2);
    AnalysisRequest all;
    all.includeCommThreads = true;
    const auto withComm = clusterPes(*trace, all, { 2, 2, 20, -1 });
    REQUIRE(withComm);
    CHECK(withComm->features.pes.size() == 6);
    CHECK(withComm->features.apart.empty());
}

TEST_CASE(
    "clustering given feature vectors checks k and the sweep and marks the given k", "[clustering]")
{
    PeFeatures f;
    f.pes = { 0, 1, 2, 3, 4, 5 };
    f.dims = { 7 };
    f.values = { 0, 1, 2, 10, 11, 12 };
    ClusterOptions given;
    given.k = 2;
    given.sweep = true;
    given.sweepMin = 1;
    given.sweepMax = 4;
    const auto c = clusterFeatures(f, given, 1);
    REQUIRE(c);
    REQUIRE(c->error.empty());
    CHECK(c->cluster == std::vector<int> { 0, 0, 0, 1, 1, 1 });
    REQUIRE(c->sweep.size() == 4);
    // k = 1: the total sum of squares about the mean 6: 36 + 25 + 16 + 16 + 25 + 36.
    CHECK(c->sweep[0].wcss == 154.0);
    CHECK(c->sweep[1].chosen);
    CHECK(c->sweep[1].wcss == 4.0);
    // 5 % of 6 rounds up to 1, less the 2 exemplars: no outliers by default.
    CHECK(std::count(c->role.begin(), c->role.end(), ClusterRole::Outlier) == 0);

    ClusterOptions tooMany;
    tooMany.k = 7;
    CHECK(clusterFeatures(f, tooMany)->error == "k = 7 is more than the 6 PEs clustered");
    ClusterOptions badSweep;
    badSweep.sweepMin = 7;
    CHECK(clusterFeatures(f, badSweep)->error.find("sweep starts at k = 7") != std::string::npos);
    PeFeatures one;
    one.pes = { 4 };
    one.dims = { 7 };
    one.values = { 3 };
    CHECK(clusterFeatures(one, {})->error.find("at least 2 PEs") != std::string::npos);
}
