// The quality figures of a reduced run (core/analysis/reduction_quality.h): the seed's histogram
// proportionality on hand-made histograms and on runs, least-idle retention, the random control;
// and the random PE selection and --keep amounts it rests on (core/analysis/pe_selection.h).

#include "core/analysis/clustering.h"
#include "core/analysis/extrema.h"
#include "core/analysis/pe_selection.h"
#include "core/analysis/reduction_quality.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

using namespace parallax;
using namespace parallax::core::analysis;

TEST_CASE(
    "proportionality averages the ratios over the bars the original has", "[analysis][reduction]")
{
    // Bars 0, 2, 3 have executions in the original: ratios 5/10 = 0.5, 1/4 = 0.25, 0/2 = 0.
    // Bar 1 is empty in the original, so its 3 reduced executions do not count (m = 4 - 1 = 3).
    // H̄ = 0.75 / 3 = 0.25; σ = sqrt((0.25² + 0² + 0.25²) / 3) = sqrt(0.125 / 3).
    const auto p = histogramProportionality({ 10, 0, 4, 2 }, { 5, 3, 1, 0 });
    CHECK(p.bars == 3);
    CHECK(p.mean == Approx(0.25));
    CHECK(p.sd == Approx(std::sqrt(0.125 / 3.0)));
}

TEST_CASE("an exactly proportional reduction has no spread", "[analysis][reduction]")
{
    const auto half = histogramProportionality({ 8, 4, 0, 2 }, { 4, 2, 0, 1 });
    CHECK(half.bars == 3);
    CHECK(half.mean == Approx(0.5));
    CHECK(half.sd == Approx(0.0).margin(1e-12));
    const auto none = histogramProportionality({ 0, 0 }, { 0, 0 });
    CHECK(none.bars == 0);
    CHECK(none.mean == 0);
}

TEST_CASE(
    "keep amounts: a share above 0 and up to 100 %, or a whole count", "[analysis][reduction]")
{
    std::string error;
    const auto five = parseKeepAmount("5%", &error);
    REQUIRE(five);
    CHECK(five->percent);
    CHECK(five->value == 5);
    CHECK(parseKeepAmount("12")->value == 12);
    for (const auto* bad : { "0%", "200%", "0", "-3", "1.5", "abc", "%", "" }) {
        INFO(bad);
        error.clear();
        CHECK_FALSE(parseKeepAmount(bad, &error));
        CHECK_FALSE(error.empty());
    }
    // Shares round up, at least one PE; counts may not exceed the candidates.
    CHECK(*keptCount(*five, 6) == 1);
    CHECK(*keptCount({ true, 50 }, 6) == 3);
    CHECK(*keptCount({ true, 30 }, 10) == 3);
    CHECK(*keptCount({ true, 100 }, 7) == 7);
    CHECK(*keptCount({ false, 4 }, 4) == 4);
    CHECK_FALSE(keptCount({ false, 5 }, 4, &error));
    CHECK(error.find("4 PEs") != std::string::npos);
}

TEST_CASE("random selection is a deterministic draw without repeats", "[analysis][reduction]")
{
    std::vector<core::PeId> candidates(100);
    std::iota(candidates.begin(), candidates.end(), 0);
    const auto a = selectRandomPes(candidates, 10, 7);
    const auto b = selectRandomPes(candidates, 10, 7);
    const auto c = selectRandomPes(candidates, 10, 8);
    REQUIRE(a.size() == 10);
    CHECK(keptPeIds(a) == keptPeIds(b));
    CHECK(keptPeIds(a) != keptPeIds(c));
    const auto ids = keptPeIds(a);
    CHECK(ids.size() == 10); // no PE twice
    for (const auto& k : a) {
        CHECK(k.role == "random");
        CHECK(k.cluster == -1);
    }
    CHECK(keptPeIds(selectRandomPes(candidates, 100, 3)) == candidates);
    // Only candidates are drawn.
    const std::vector<core::PeId> odd { 1, 3, 5, 7 };
    for (const auto& k : selectRandomPes(odd, 2, 11))
        CHECK(k.pe % 2 == 1);
}

TEST_CASE("the quality of keeping one PE of the tiny run, by hand", "[analysis][reduction]")
{
    // tiny (tests/data/runs/tiny/README): PE 0 executes 100, 500 and 500 µs, PE 1 100 µs, so the
    // longest execution is 500 µs and the bins are 500/99 µs wide: 100 µs falls in bar 19,
    // 500 µs in the overflow bar 99. H_o = {19: 2, 99: 2}. Keeping PE 1: H_r = {19: 1, 99: 0},
    // ratios 0.5 and 0: H̄ = 0.25, σ = 0.25. PE 1 never idles, PE 0 idles 800 µs: PE 1 is the
    // least idle, and both PEs make up the top-5 stratum, so keeping PE 1 retains 50 %.
    const auto trace = parallax::test::loadOk(parallax::test::dataDir() / "runs" / "tiny");
    const auto q = computeReductionQuality(*trace, {}, { 1 }, { 282, 109 });
    REQUIRE(q);
    CHECK(q->originalPes == 2);
    CHECK(q->keptPes == 1);
    CHECK(q->peFraction() == Approx(0.5));
    CHECK(q->longestExecutionUs == 500);
    CHECK(q->binWidthUs == Approx(500.0 / 99));
    REQUIRE(q->originalBars.size() == 100);
    CHECK(q->originalBars[19] == 2);
    CHECK(q->originalBars[99] == 2);
    CHECK(std::accumulate(q->originalBars.begin(), q->originalBars.end(), 0.0) == 4);
    CHECK(q->reducedBars[19] == 1);
    CHECK(q->reducedBars[99] == 0);
    CHECK(q->kept.proportionality.bars == 2);
    CHECK(q->kept.proportionality.mean == Approx(0.25));
    CHECK(q->kept.proportionality.sd == Approx(0.25));
    REQUIRE(q->leastIdle.size() == 2);
    CHECK(q->leastIdle[0] == 1);
    CHECK(q->strataSizes[0] == 2);
    CHECK(q->kept.retention[0] == Approx(50));
    CHECK(q->kept.logByteFraction == Approx(109.0 / 391));
    CHECK(q->logBytesKept == 109);
    // The control: either PE alone. PE 0 alone has ratios 1 and 1 (H̄ 1, σ 0), PE 1 alone
    // 0.5 and 0 (H̄ 0.25): the mean of 20 draws lies between, and retention is always 50 %.
    CHECK(q->controlDraws == 20);
    CHECK(q->control.proportionality.mean >= 0.25);
    CHECK(q->control.proportionality.mean <= 1.0);
    CHECK(q->control.retention[0] == Approx(50));
}

TEST_CASE(
    "the seed's bins run from 0.1 ms to 10 ms and drop shorter executions", "[analysis][reduction]")
{
    // tiny's executions of 100 µs fall in the first bar [100, 200), those of 500 µs in bar 4.
    const auto trace = parallax::test::loadOk(parallax::test::dataDir() / "runs" / "tiny");
    QualityOptions options;
    options.bins = QualityBins::SeedRange;
    const auto q = computeReductionQuality(*trace, {}, { 0 }, {}, options);
    REQUIRE(q);
    CHECK(q->minimumUs == 100);
    CHECK(q->binWidthUs == 100);
    CHECK(q->originalBars[0] == 2);
    CHECK(q->originalBars[4] == 2);
    CHECK(q->reducedBars[0] == 1);
    CHECK(q->reducedBars[4] == 2);
    CHECK(q->kept.proportionality.mean == Approx(0.75));
    CHECK(q->kept.logByteFraction == 0); // no sizes given
}

TEST_CASE("keeping every PE of a real run is perfectly proportional", "[analysis][reduction]")
{
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    const auto all = trace->validPes();
    REQUIRE(all.size() == 6);
    const auto q = computeReductionQuality(*trace, {}, all, {});
    REQUIRE(q);
    CHECK(q->kept.proportionality.mean == Approx(1.0));
    CHECK(q->kept.proportionality.sd == Approx(0.0).margin(1e-12));
    CHECK(q->kept.proportionality.bars > 10);
    CHECK(q->originalBars == q->reducedBars);
    for (double r : q->kept.retention)
        CHECK(r == 100);
    // Every execution that begins in the range is in a bar (nothing below the minimum).
    std::size_t executions = 0;
    for (const auto& pe : trace->pes)
        for (std::size_t k = 0; k < pe.executions.size(); ++k)
            executions += pe.executions.begin[k] >= q->range.begin
                    && pe.executions.begin[k] <= q->range.end
                ? 1U
                : 0U;
    CHECK(std::accumulate(q->originalBars.begin(), q->originalBars.end(), 0.0)
        == static_cast<double>(executions));
}

TEST_CASE(
    "the least-idle ranking is Extrema's and the control is repeatable", "[analysis][reduction]")
{
    // gen-leanmd-smp: 4 worker PEs and 2 comm threads (4, 5), which are not ranked.
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-leanmd-smp"));
    ExtremaOptions leastIdle;
    leastIdle.count = 1;
    const auto extrema = computeExtrema(*trace, {}, leastIdle);
    REQUIRE(extrema);
    REQUIRE(extrema->extremes.size() == 1);
    const auto q = computeReductionQuality(*trace, {}, { 0, 4 }, {});
    REQUIRE(q);
    REQUIRE(q->leastIdle.size() == 4);
    CHECK(q->leastIdle[0] == extrema->extremes[0]);
    for (auto pe : q->leastIdle)
        CHECK_FALSE(trace->metadata.isCommThread(pe));
    CHECK(q->strataSizes[0] == 4);
    CHECK(q->kept.retention[0] == Approx(25)); // PE 0 is one of the 4 ranked PEs
    const auto again = computeReductionQuality(*trace, {}, { 0, 4 }, {});
    REQUIRE(again);
    CHECK(again->control.proportionality.mean == q->control.proportionality.mean);
    CHECK(again->control.retention == q->control.retention);
    // Random pairs of 6 PEs keep a third of the executions on average, about P_r/P_o.
    CHECK(q->control.proportionality.mean > 0.1);
    CHECK(q->control.proportionality.mean < 0.6);
}

TEST_CASE("computing the quality can be cancelled", "[analysis][reduction]")
{
    const auto trace = parallax::test::loadOk(parallax::test::dataDir() / "runs" / "tiny");
    Progress progress;
    progress.cancelled = [] {
        return true;
    };
    CHECK_FALSE(computeReductionQuality(*trace, {}, { 1 }, {}, {}, progress));
}

TEST_CASE("a clustering's exemplars and outliers are kept, by cluster, exemplar first",
    "[analysis][reduction]")
{
    // Two clusters of PEs 10-13 and 20-22; hand-set roles as assignRoles leaves them.
    PeClustering c;
    c.features.pes = { 10, 11, 12, 13, 20, 21, 22 };
    c.cluster = { 1, 1, 1, 1, 0, 0, 0 };
    c.distance = { 4, 1, 9, 7, 2, 0.5, 3 };
    c.role = { ClusterRole::Member, ClusterRole::Exemplar, ClusterRole::Outlier,
        ClusterRole::Outlier, ClusterRole::Member, ClusterRole::Exemplar, ClusterRole::Member };
    const auto kept = keptFromClustering(c);
    REQUIRE(kept.size() == 4);
    CHECK(kept[0].pe == 21);
    CHECK(kept[0].role == "exemplar");
    CHECK(kept[0].cluster == 0);
    CHECK(kept[0].distance == 0.5);
    CHECK(kept[1].pe == 11);
    CHECK(kept[1].role == "exemplar");
    CHECK(kept[2].pe == 12); // the farthest outlier first
    CHECK(kept[2].role == "outlier");
    CHECK(kept[3].pe == 13);
    CHECK(keptPeIds(kept) == std::vector<core::PeId> { 11, 12, 13, 21 });
}
