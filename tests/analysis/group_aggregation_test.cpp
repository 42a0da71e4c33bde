// Aggregation of the usage profile over PE groups (core/analysis/group_aggregation.h) in the
// modes SUM, SET, KEY and SIGNATURE, on the hand-made run of group_test_run.h (every value
// below is worked out from its table) and on a real SMP run.

#include "core/analysis/group_aggregation.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "group_test_run.h"
#include "io/run_loader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace {

constexpr int kA = 0;
constexpr int kB = 1;

struct Fixture {
    TracePtr trace = test::makeGroupRun();
    UsageProfile usage;

    explicit Fixture(bool includeCommThreads = false)
    {
        auto u = computeUsageProfile(*trace, test::wholeGroupRun(includeCommThreads));
        REQUIRE(u);
        usage = std::move(*u);
    }
    [[nodiscard]] int idle() const { return usage.columns.idle(); }
    [[nodiscard]] int overhead() const { return usage.columns.overhead(); }
};

const GroupValues& role(const GroupAggregate& g, ValueRole r)
{
    const auto* v = g.find(r);
    INFO("role " << valueRoleName(r) << " of " << g.name);
    REQUIRE(v != nullptr);
    return *v;
}

double at(const GroupValues& v, int column)
{
    return v.us[static_cast<std::size_t>(column)];
}

// A profile made by hand: `busy[k]` µs of entry 0 for PE k over a 100 µs range, the rest idle.
UsageProfile handProfile(const std::vector<double>& busy)
{
    UsageProfile u;
    u.range = { 0, 100 };
    u.columns.entryCount = 1;
    for (std::size_t k = 0; k < busy.size(); ++k) {
        u.pes.push_back(static_cast<PeId>(k));
        u.percent.insert(u.percent.end(), { busy[k], 0.0, 100.0 - busy[k], 0.0, 0.0 });
    }
    return u;
}

} // namespace

TEST_CASE("SUM gives the members' total and mean, comm threads get a row of their own", "[groups]")
{
    const Fixture f;
    const auto groups = groupByNode(f.trace->metadata, f.usage.pes);
    const auto a = aggregateGroups(f.usage, groups, AggregationMode::Sum, nullptr, 1);
    REQUIRE(a.groups.size() == 4);
    const auto& node0 = a.groups[0];
    CHECK(node0.name == "node 0");
    CHECK(node0.pes == std::vector<PeId> { 0, 1 });
    CHECK_FALSE(node0.commThreads);
    const auto& sum = role(node0, ValueRole::Sum);
    CHECK(sum.pe == kNoPe);
    CHECK(sum.peCount == 2);
    CHECK(at(sum, kA) == Approx(60)); // 40 + 20
    CHECK(at(sum, kB) == Approx(10));
    CHECK(at(sum, f.idle()) == Approx(130)); // 50 + 80
    CHECK(sum.percent(kA, 100) == Approx(30)); // per member
    const auto& mean = role(node0, ValueRole::Mean);
    CHECK(at(mean, kA) == Approx(30));
    CHECK(mean.percent(kA, 100) == Approx(30));

    const auto& comm0 = a.groups[1];
    CHECK(comm0.name == "node 0 comm threads");
    CHECK(comm0.commThreads);
    CHECK(comm0.pes == std::vector<PeId> { 4 });
    CHECK(at(role(comm0, ValueRole::Sum), kB) == Approx(10));
    CHECK(at(role(comm0, ValueRole::Sum), f.overhead()) == Approx(90));

    CHECK(a.groups[2].name == "node 1");
    CHECK(at(role(a.groups[2], ValueRole::Sum), kA) == Approx(90)); // 60 + 30
    CHECK(a.groups[3].pes == std::vector<PeId> { 5 });
}

TEST_CASE("with comm threads included they are summed with their node's workers", "[groups]")
{
    const Fixture f(true);
    const auto groups = groupByNode(f.trace->metadata, f.usage.pes);
    const auto a = aggregateGroups(f.usage, groups, AggregationMode::Sum, nullptr, 1);
    REQUIRE(a.groups.size() == 2);
    CHECK(a.groups[0].pes == std::vector<PeId> { 0, 1, 4 });
    CHECK(at(role(a.groups[0], ValueRole::Sum), kB) == Approx(20)); // 10 + 10
    CHECK(role(a.groups[0], ValueRole::Sum).percent(kB, 100) == Approx(20.0 / 3));
}

TEST_CASE("SET gives min, max, mean and population sigma per activity", "[groups]")
{
    const Fixture f;
    const auto a
        = aggregateGroups(f.usage, groupByBlock(f.usage.pes, 4), AggregationMode::Set, nullptr, 1);
    REQUIRE(a.groups.size() == 2); // PEs 0-3, then PEs 4-7 (comm threads, their own row)
    const auto& g = a.groups[0];
    CHECK(g.pes == std::vector<PeId> { 0, 1, 2, 3 });
    // a: 40, 20, 60, 30. b: 10, 0, 0, 0. idle: 50, 80, 40, 70.
    CHECK(at(role(g, ValueRole::Min), kA) == Approx(20));
    CHECK(at(role(g, ValueRole::Max), kA) == Approx(60));
    CHECK(at(role(g, ValueRole::Mean), kA) == Approx(37.5));
    CHECK(at(role(g, ValueRole::Sd), kA) == Approx(std::sqrt(218.75)));
    CHECK(at(role(g, ValueRole::Min), kB) == Approx(0));
    CHECK(at(role(g, ValueRole::Max), kB) == Approx(10));
    CHECK(at(role(g, ValueRole::Sd), kB) == Approx(std::sqrt(18.75)));
    CHECK(at(role(g, ValueRole::Min), f.idle()) == Approx(40));
    CHECK(at(role(g, ValueRole::Sd), f.idle()) == Approx(std::sqrt(250.0)));
    CHECK(role(g, ValueRole::Sd).peCount == 4);
    CHECK(role(g, ValueRole::Max).pe == kNoPe); // a statistic, not one PE's value
    CHECK(a.groups[1].commThreads);
    CHECK(at(role(a.groups[1], ValueRole::Sd), kB) == Approx(2.5)); // 10 and 5
    // Entry-method time per member (a + b): 50, 20, 60, 30.
    CHECK(g.busy.minUs == Approx(20));
    CHECK(g.busy.minPe == 1);
    CHECK(g.busy.maxUs == Approx(60));
    CHECK(g.busy.maxPe == 2);
    CHECK(g.busy.meanUs == Approx(40));
    CHECK(g.busy.sdUs == Approx(std::sqrt(250.0)));
}

TEST_CASE(
    "KEY keeps the first PE and names the slowest and fastest, the rest is averaged", "[groups]")
{
    const Fixture f(true);
    const auto a
        = aggregateGroups(f.usage, groupByBlock(f.usage.pes, 8), AggregationMode::Key, nullptr, 1);
    REQUIRE(a.groups.size() == 1);
    const auto& g = a.groups[0];
    REQUIRE(g.values.size() == 4);
    // Entry-method time after the first PE: 1: 20, 2: 60, 3: 30, 4: 10, 5: 5.
    const auto& first = role(g, ValueRole::First);
    CHECK(first.pe == 0);
    CHECK(at(first, kA) == Approx(40)); // PE 0's own data
    CHECK(at(first, kB) == Approx(10));
    CHECK(first.percent(kA, 100) == Approx(40));
    const auto& slowest = role(g, ValueRole::Slowest);
    CHECK(slowest.pe == 2);
    CHECK(at(slowest, kA) == Approx(60));
    CHECK(at(slowest, f.idle()) == Approx(40));
    const auto& fastest = role(g, ValueRole::Fastest);
    CHECK(fastest.pe == 5);
    CHECK(at(fastest, kB) == Approx(5));
    CHECK(at(fastest, f.overhead()) == Approx(95));
    const auto& rest = role(g, ValueRole::Rest);
    CHECK(rest.pe == kNoPe);
    CHECK(rest.peCount == 3); // PEs 1, 3, 4
    CHECK(at(rest, kA) == Approx(50.0 / 3));
    CHECK(at(rest, kB) == Approx(10.0 / 3));
    CHECK(at(rest, f.idle()) == Approx(50));
    CHECK(at(rest, f.overhead()) == Approx(30));
    CHECK(rest.percent(kA, 100) == Approx(50.0 / 3));
}

TEST_CASE("KEY on small groups and ties: lower PE wins, missing roles are left out", "[groups]")
{
    const auto u = handProfile({ 10, 30, 30, 5, 5, 10 });
    const std::vector<PeGroup> groups = { { "one", { 0 }, {}, {}, {} },
        { "two", { 0, 1 }, {}, {}, {} }, { "ties", { 0, 1, 2, 3, 4 }, {}, {}, {} } };
    const auto a = aggregateGroups(u, groups, AggregationMode::Key, nullptr, 1);
    REQUIRE(a.groups.size() == 3);
    REQUIRE(a.groups[0].values.size() == 1);
    CHECK(a.groups[0].values[0].role == ValueRole::First);
    REQUIRE(a.groups[1].values.size() == 2);
    CHECK(role(a.groups[1], ValueRole::Slowest).pe == 1);
    const auto& ties = a.groups[2];
    CHECK(role(ties, ValueRole::Slowest).pe == 1); // 30 µs on PEs 1 and 2
    CHECK(role(ties, ValueRole::Fastest).pe == 3); // 5 µs on PEs 3 and 4
    CHECK(role(ties, ValueRole::Rest).peCount == 2);
    CHECK(at(role(ties, ValueRole::Rest), 0) == Approx(17.5)); // PEs 2 and 4
}

TEST_CASE("SIGNATURE splits each group by executed entry set, then sums each part", "[groups]")
{
    const Fixture f;
    const auto signatures = computeSignatures(*f.trace, test::wholeGroupRun());
    REQUIRE(signatures);
    const auto groups = groupByNode(f.trace->metadata, f.usage.pes);
    const auto a = aggregateGroups(f.usage, groups, AggregationMode::Signature, &*signatures, 1);
    // node 0: PE 0 {a, b} and PE 1 {a} apart; its comm thread; node 1: PEs 2 and 3 {a}.
    REQUIRE(a.groups.size() == 5);
    CHECK(a.groups[0].name == "node 0 / signature 1");
    CHECK(a.groups[0].pes == std::vector<PeId> { 0 });
    CHECK(a.groups[0].signature == std::vector<EntryId> { 0, 1 });
    CHECK(a.groups[1].name == "node 0 / signature 2");
    CHECK(a.groups[1].pes == std::vector<PeId> { 1 });
    CHECK(a.groups[2].name == "node 0 comm threads / signature 3");
    CHECK(a.groups[3].name == "node 1 / signature 2");
    CHECK(a.groups[3].pes == std::vector<PeId> { 2, 3 });
    CHECK(at(role(a.groups[3], ValueRole::Sum), kA) == Approx(90));
    CHECK(at(role(a.groups[3], ValueRole::Mean), kA) == Approx(45));
    // Without signatures the mode falls back to SUM over the whole group.
    const auto plain = aggregateGroups(f.usage, groups, AggregationMode::Signature, nullptr, 1);
    CHECK(plain.groups.size() == 4);
}

TEST_CASE("PEs outside the profile are ignored and empty groups left out", "[groups]")
{
    const auto u = handProfile({ 10, 20 });
    const std::vector<PeGroup> groups
        = { { "far", { 7, 8 }, {}, {}, {} }, { "near", { 1, 9 }, {}, {}, {} } };
    const auto a = aggregateGroups(u, groups, AggregationMode::Sum, nullptr, 2);
    REQUIRE(a.groups.size() == 1);
    CHECK(a.groups[0].name == "near");
    CHECK(a.groups[0].pes == std::vector<PeId> { 1 });
}

TEST_CASE("the groups CSV has one row per non-zero value with role, PE and percent", "[groups]")
{
    const Fixture f;
    const auto a = aggregateGroups(
        f.usage, groupByNode(f.trace->metadata, f.usage.pes), AggregationMode::Key, nullptr, 1);
    const auto lines = test::splitLines(groupAggregationCsv(a));
    REQUIRE(lines.size() > 1);
    CHECK(lines[0]
        == "group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,value_us,percent");
    CHECK(std::find(lines.begin(), lines.end(), "node 0,0,1,2,key,first,0,0,Main::a(),40,40")
        != lines.end());
    CHECK(std::find(lines.begin(), lines.end(), "node 1,2,3,2,key,slowest,3,idle,idle,70,70")
        != lines.end());
    CHECK(std::find(lines.begin(), lines.end(),
              "node 0 comm threads,4,4,1,key,first,4,overhead,overhead,90,90")
        != lines.end());
    const auto sum = test::splitLines(groupAggregationCsv(aggregateGroups(
        f.usage, groupByNode(f.trace->metadata, f.usage.pes), AggregationMode::Sum, nullptr, 1)));
    CHECK(
        std::find(sum.begin(), sum.end(), "node 1,2,3,2,sum,sum,,0,Main::a(),90,45") != sum.end());
    // Without the header: the rows alone, to append to a CSV already started.
    const auto rows = test::splitLines(groupAggregationCsv(a, false));
    CHECK(rows.size() == lines.size() - 1);
    CHECK(rows.front() == lines[1]);
}

TEST_CASE("node aggregation of a real SMP run adds up to its usage profile", "[groups][real]")
{
    io::LoadOptions options;
    options.threads = 2;
    const auto result = io::loadRun(test::realLog("gen-leanmd-smp").string(), options);
    REQUIRE(result.trace);
    AnalysisRequest request;
    request.threads = 2;
    const auto usage = computeUsageProfile(*result.trace, request);
    REQUIRE(usage);
    const auto groups = groupByNode(result.trace->metadata, usage->pes);
    const auto a = aggregateGroups(*usage, groups, AggregationMode::Sum, nullptr, 2);
    REQUIRE(a.groups.size() == 4); // 2 nodes, each with its comm-thread row
    const double length = static_cast<double>(usage->range.length());
    for (int c = 0; c < usage->columns.count(); ++c) {
        double total = 0;
        for (std::size_t k = 0; k < usage->pes.size(); ++k)
            total += usage->at(k, c) * length / 100.0;
        double grouped = 0;
        for (const auto& g : a.groups)
            grouped += at(role(g, ValueRole::Sum), c);
        CHECK(grouped == Approx(total).margin(1e-6));
    }
    // The worker mean of node 0 is the mean of PEs 0 and 1.
    const int entry = usage->columns.idle();
    CHECK(at(role(a.groups[0], ValueRole::Mean), entry)
        == Approx((usage->at(0, entry) + usage->at(1, entry)) * length / 200.0));
    const auto key = aggregateGroups(*usage, groups, AggregationMode::Key, nullptr, 2);
    CHECK(role(key.groups[0], ValueRole::First).pe == 0);
    CHECK(role(key.groups[0], ValueRole::Slowest).pe == 1);
}
