#pragma once

#include "analysis_request.h"
#include "pe_groups.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

struct UsageProfile;

// One row of values per group instead of one per PE, in one of the aggregation modes of the
// CUBE work (seed 001 §4; docs/groups.md):
// - Sum: the members' total and mean, per activity;
// - Set: min, max, mean and σ (population) of the members, per activity (each statistic on
//   its own: the min of one activity and of another need not be the same PE);
// - Key: real PEs whose own data is kept: the first member, the slowest (most entry-method
//   time among the others), the fastest (least entry-method time among the rest), and the
//   mean of the remaining members;
// - Signature: members split by their set of executed entry methods, then Sum in each part.
enum class AggregationMode : std::uint8_t { Sum, Set, Key, Signature };

// "sum", "set", "key", "signature"; nullopt with one sentence in `error` otherwise.
std::optional<AggregationMode> parseAggregationMode(
    std::string_view text, std::string* error = nullptr);
std::string_view aggregationModeName(AggregationMode mode);

// What one row of values stands for.
enum class ValueRole : std::uint8_t { Sum, Min, Max, Mean, Sd, First, Slowest, Fastest, Rest };
// "sum", "min", "max", "mean", "sd", "first", "slowest", "fastest", "rest".
std::string_view valueRoleName(ValueRole role);

struct GroupValues {
    ValueRole role = ValueRole::Sum;
    PeId pe = kNoPe; // the PE whose own data this is (first, slowest, fastest); else kNoPe
    std::size_t peCount = 0; // PEs behind the values (Sum: the members; Rest: the rest)
    std::vector<double> us; // per activity column (ActivityColumns), µs in the range

    // % of the range per member: us / (range length) for one PE's value or a statistic,
    // divided by peCount for Sum.
    [[nodiscard]] double percent(int column, TimeUs rangeLength) const;
};

// How busy the members are: entry-method µs per member (the KEY ranking's measure), for
// drawing a group's spread whatever the mode.
struct BusySpread {
    double minUs = 0;
    double maxUs = 0;
    double meanUs = 0;
    double sdUs = 0; // population σ
    PeId minPe = kNoPe; // the least busy member (lower PE on ties)
    PeId maxPe = kNoPe; // the busiest member
};

struct GroupAggregate {
    std::string name;
    std::vector<PeId> pes; // members aggregated, sorted
    // True for the row of a group's comm threads when the request keeps them apart: they are
    // aggregated among themselves, never with the workers (ResolvedRequest::apart).
    bool commThreads = false;
    std::vector<EntryId> signature; // Signature mode: what every member executed
    std::vector<GroupValues> values;
    BusySpread busy;

    [[nodiscard]] PeId firstPe() const { return pes.empty() ? kNoPe : pes.front(); }
    [[nodiscard]] PeId lastPe() const { return pes.empty() ? kNoPe : pes.back(); }
    [[nodiscard]] const GroupValues* find(ValueRole role) const;
};

struct GroupAggregation {
    AggregationMode mode = AggregationMode::Sum;
    TimeRange range;
    ActivityColumns columns;
    // In the order of the groups given; a group with comm threads kept apart is followed by a
    // row of its own for them ("node 0 comm threads"); groups without a profiled member are
    // left out.
    std::vector<GroupAggregate> groups;
};

// Aggregates a usage profile over groups of its PEs (PEs not in the profile are ignored).
// Signature mode needs `signatures` (computeSignatures on the same request); without it,
// Signature is done as Sum. Parallel over groups with `threads` workers (0 = all cores).
// O(PEs × activities).
GroupAggregation aggregateGroups(const UsageProfile& usage, const std::vector<PeGroup>& groups,
    AggregationMode mode, const PeSignatures* signatures = nullptr, unsigned threads = 0);

// group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,value_us,percent: one row
// per non-zero value; `pe` empty for values that are not one PE's; activity and activity_name
// as in the usage CSV; percent as GroupValues::percent. Without `header`, the rows alone (to
// append the aggregation of more groups).
std::string groupAggregationCsv(const GroupAggregation& aggregation, bool header = true);

} // namespace parallax::core::analysis
