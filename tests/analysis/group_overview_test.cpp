// Group rows of the Overview on a hand-made run: every number below follows from makeRun().

#include "core/analysis/extrema.h"
#include "core/analysis/group_overview.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "support/busy_idle_run.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace parallax_test_group_overview_test {

// Four PEs traced over [0, 100): each runs entry 0 over [0, busy) and idles the rest.
// Busy: PE 0 40, PE 1 80, PE 2 20, PE 3 70 µs.
TracePtr makeRun()
{
    return parallax::test::busyIdleRun({ 40, 80, 20, 70 }, 100);
}

AnalysisRequest whole()
{
    AnalysisRequest r;
    r.range = { 0, 100 };
    r.threads = 2;
    return r;
}

OverviewOptions oneColumn()
{
    OverviewOptions o;
    o.columns = 1;
    return o;
}

TEST_CASE("group overview: mean, extremes with their PEs, and the dominant summed activity",
    "[analysis][groups]")
{
    const auto trace = makeRun();
    const auto o = computeGroupOverview(*trace, whole(), { { 3, 2, 1, 0 } }, oneColumn());
    REQUIRE(o);
    REQUIRE(o->groupCount() == 1);
    CHECK(o->members[0] == std::vector<PeId> { 0, 1, 2, 3 }); // sorted
    CHECK(o->meanUtilization[o->index(0, 0)] == Approx(52.5F));
    CHECK(o->meanIdle[o->index(0, 0)] == Approx(47.5F));
    CHECK(o->minUtilization[o->index(0, 0)] == Approx(20.0F));
    CHECK(o->minPe[o->index(0, 0)] == 2);
    CHECK(o->maxUtilization[o->index(0, 0)] == Approx(80.0F));
    CHECK(o->maxPe[o->index(0, 0)] == 1);
    // Summed: 210 µs in entry 0 against 190 µs idle.
    CHECK(o->dominant[o->index(0, 0)] == 0);
}

TEST_CASE("group overview KEY: first member, busiest, least busy of the others, rest averaged",
    "[analysis][groups]")
{
    const auto trace = makeRun();
    const auto o = computeGroupOverview(*trace, whole(), { { 0, 1, 2, 3 } }, oneColumn());
    REQUIRE(o);
    using K = GroupOverview;
    CHECK(o->keyPe[K::First] == 0);
    CHECK(o->keyPe[K::Slowest] == 1);
    CHECK(o->keyPe[K::Fastest] == 2);
    CHECK(o->keyPe[K::Rest] == -1);
    CHECK(o->keyBusyUs[K::First] == Approx(40.0));
    CHECK(o->keyBusyUs[K::Slowest] == Approx(80.0));
    CHECK(o->keyBusyUs[K::Fastest] == Approx(20.0));
    CHECK(o->keyBusyUs[K::Rest] == Approx(70.0)); // PE 3 alone
    CHECK(o->keyUtilization[o->keyIndex(0, K::First, 0)] == Approx(40.0F));
    CHECK(o->keyUtilization[o->keyIndex(0, K::Slowest, 0)] == Approx(80.0F));
    CHECK(o->keyUtilization[o->keyIndex(0, K::Fastest, 0)] == Approx(20.0F));
    CHECK(o->keyUtilization[o->keyIndex(0, K::Rest, 0)] == Approx(70.0F));
    CHECK(o->keyIdle[o->keyIndex(0, K::Rest, 0)] == Approx(30.0F));
    CHECK(o->keyDominant[o->keyIndex(0, K::Fastest, 0)] == o->columns.idle());
}

TEST_CASE(
    "group overview: small groups leave roles empty, unselected PEs drop out", "[analysis][groups]")
{
    const auto trace = makeRun();
    auto request = whole();
    request.pes = { 0, 1, 3 };
    const auto o
        = computeGroupOverview(*trace, request, { { 0, 1 }, { 2, 3 }, { 2 } }, oneColumn());
    REQUIRE(o);
    using K = GroupOverview;
    CHECK(o->keyPe[K::First] == 0);
    CHECK(o->keyPe[K::Slowest] == 1);
    CHECK(o->keyPe[K::Fastest] == -1); // no third member
    CHECK(o->members[1] == std::vector<PeId> { 3 }); // PE 2 not selected
    CHECK(o->keyPe[K::kKeyRoles + K::Slowest] == -1);
    CHECK(o->meanUtilization[o->index(1, 0)] == Approx(70.0F));
    CHECK(o->members[2].empty());
    CHECK(o->meanUtilization[o->index(2, 0)] == Approx(0.0F));
}

TEST_CASE("group overview: three members fill first, busiest and least busy, no rest",
    "[analysis][groups]")
{
    const auto trace = makeRun();
    const auto o = computeGroupOverview(*trace, whole(), { { 0, 1, 3 } }, oneColumn());
    REQUIRE(o);
    using K = GroupOverview;
    CHECK(o->keyPe[K::Slowest] == 1);
    CHECK(o->keyPe[K::Fastest] == 3);
    CHECK(o->keyBusyUs[K::Rest] == Approx(0.0)); // nobody left
}

namespace {

// Every group row against the per-PE Overview of its members: the two are computed separately
// (groups sum the members' sparse rows), so they agree only if both account alike.
void checkAgainstPeRows(const Trace& trace, const std::vector<std::vector<PeId>>& groups)
{
    AnalysisRequest request;
    request.threads = 2;
    OverviewOptions options;
    options.columns = 97;
    const auto pes = computeOverview(trace, request, options);
    const auto o = computeGroupOverview(trace, request, groups, options);
    REQUIRE(pes);
    REQUIRE(o);
    REQUIRE(o->grid.count == pes->grid.count);
    const auto rowOf = [&](PeId pe) {
        const auto it = std::find(pes->pes.begin(), pes->pes.end(), pe);
        REQUIRE(it != pes->pes.end());
        return static_cast<std::size_t>(it - pes->pes.begin());
    };
    for (std::size_t g = 0; g < o->groupCount(); ++g) {
        const auto& members = o->members[g];
        REQUIRE(members.size() >= 4);
        for (std::int64_t c = 0; c < o->grid.count; ++c) {
            double sum = 0;
            float low = pes->utilization[pes->index(rowOf(members[0]), c)];
            float high = low;
            for (const PeId pe : members) {
                const float u = pes->utilization[pes->index(rowOf(pe), c)];
                sum += static_cast<double>(u);
                low = std::min(low, u);
                high = std::max(high, u);
            }
            const auto at = o->index(g, c);
            CHECK(o->meanUtilization[at]
                == Approx(sum / static_cast<double>(members.size())).margin(1e-4));
            CHECK(o->minUtilization[at] == low);
            CHECK(o->maxUtilization[at] == high);
            CHECK(pes->utilization[pes->index(rowOf(o->minPe[at]), c)] == low);
            CHECK(pes->utilization[pes->index(rowOf(o->maxPe[at]), c)] == high);
            // KEY rows are their PEs' own rows, bit for bit.
            for (int role = 0; role < GroupOverview::Rest; ++role) {
                const PeId pe
                    = o->keyPe[g * GroupOverview::kKeyRoles + static_cast<std::size_t>(role)];
                REQUIRE(pe >= 0);
                const auto k = o->keyIndex(g, role, c);
                const auto p = pes->index(rowOf(pe), c);
                CHECK(o->keyUtilization[k] == pes->utilization[p]);
                CHECK(o->keyIdle[k] == pes->idle[p]);
                CHECK(o->keyDominant[k] == pes->dominant[p]);
            }
        }
    }
}

} // namespace

TEST_CASE("group overview: groups agree with their members' own Overview rows, from logs and "
          "from summaries",
    "[analysis][groups]")
{
    const std::vector<std::vector<PeId>> groups { { 0, 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10, 11 },
        { 2, 3, 7, 11 } };
    const auto run = parallax::test::sampleRun("imbalance").string();
    const auto logs = io::loadRun(run);
    REQUIRE(logs.trace);
    REQUIRE(logs.trace->hasLogs());
    checkAgainstPeRows(*logs.trace, groups);
    io::LoadOptions summariesOnly;
    summariesOnly.readLogs = false;
    const auto summaries = io::loadRun(run, summariesOnly);
    REQUIRE(summaries.trace);
    REQUIRE_FALSE(summaries.trace->hasLogs());
    checkAgainstPeRows(*summaries.trace, groups);
}

TEST_CASE("extrema over groups: a group's score is its members' mean, ranked as PEs are",
    "[analysis][groups]")
{
    // Idle shares: PE 0 60 %, PE 1 20 %, PE 2 80 %, PE 3 30 %.
    const auto trace = makeRun();
    ExtremaOptions options;
    options.criterion = ExtremaCriterion::LeastIdle;
    const auto x = computeExtrema(*trace, whole(), options);
    REQUIRE(x);
    const auto ranked = rankGroups(*x, { { 2, 3 }, { 0, 1 }, { 7 } }, 1);
    CHECK(ranked.ranked == 2); // the group without an analysed PE is left out
    REQUIRE(ranked.extremes.size() == 1);
    const auto& least = ranked.extremes[0];
    CHECK(least.group == 1); // mean idle 40 % against 55 %
    CHECK(least.score == Approx(40.0));
    CHECK(least.members == std::vector<PeId> { 1, 0 }); // most extreme first
    CHECK(least.memberScores[0] == Approx(20.0));
    CHECK(least.vector[static_cast<std::size_t>(x->columns.idle())] == Approx(40.0));
    CHECK(ranked.outliers[static_cast<std::size_t>(x->columns.idle())] == Approx(40.0));
    CHECK(ranked.nonOutliers[static_cast<std::size_t>(x->columns.idle())] == Approx(55.0));
    // Most idle: the other way round; count 0 takes the default (10 %, at least one).
    options.criterion = ExtremaCriterion::MostIdle;
    const auto most = rankGroups(*computeExtrema(*trace, whole(), options), { { 0, 1 }, { 2, 3 } });
    REQUIRE(most.extremes.size() == 1);
    CHECK(most.extremes[0].group == 1);
    CHECK(most.extremes[0].members == std::vector<PeId> { 2, 3 });
}

} // namespace parallax_test_group_overview_test
