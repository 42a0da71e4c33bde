// Group rows of the Overview on a hand-made run: every number below follows from makeRun().

#include "core/analysis/group_overview.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"

#include <catch2/catch.hpp>

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

} // namespace parallax_test_group_overview_test
