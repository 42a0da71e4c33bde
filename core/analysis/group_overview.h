#pragma once

#include "overview.h"

#include <optional>
#include <vector>

namespace parallax::core::analysis {

// The Overview of groups of PEs, so that the processor axis keeps a few hundred rows at any PE
// count. Per group and time column: the members' mean, lowest and highest utilization (and the
// PE behind each extreme), their mean idle share and the dominant activity of their summed time.
// Per group, the key PEs — the first member, the busiest and the least busy over the range
// (entry-method time) — with their own rows, and the mean of the rest.
struct GroupOverview {
    IntervalGrid grid;
    ActivityColumns columns;
    // Per group, the members that count: selected by the request, comm threads left out unless
    // the request includes them (as every average does). A group may end up empty.
    std::vector<std::vector<PeId>> members;
    // The PEs drawn from their summary files (a reduced run's PEs without a log,
    // AnalysisRequest::summaryFallback; sorted), and how many of them each group has.
    std::vector<PeId> fromSummary;
    std::vector<std::uint32_t> summaryMembers;

    // [group * grid.count + column]
    std::vector<float> meanUtilization;
    std::vector<float> minUtilization;
    std::vector<float> maxUtilization;
    std::vector<PeId> minPe; // the member with the lowest utilization in that column
    std::vector<PeId> maxPe;
    std::vector<float> meanIdle;
    std::vector<std::int32_t> dominant;

    // Key PEs per group (-1 when the group is too small to have that role: `slowest` needs two
    // members, `fastest` three, `rest` four).
    enum KeyRole : std::uint8_t { First = 0, Slowest = 1, Fastest = 2, Rest = 3 };
    static constexpr int kKeyRoles = 4;
    std::vector<PeId> keyPe; // [group * kKeyRoles + role]; Rest: -1
    std::vector<double> keyBusyUs; // [group * kKeyRoles + role]; Rest: mean over the rest
    // Rows of the key roles: [(group * kKeyRoles + role) * grid.count + column].
    std::vector<float> keyUtilization;
    std::vector<float> keyIdle;
    std::vector<std::int32_t> keyDominant;

    [[nodiscard]] std::size_t groupCount() const { return members.size(); }
    [[nodiscard]] std::size_t index(std::size_t group, std::int64_t column) const
    {
        return group * static_cast<std::size_t>(grid.count) + static_cast<std::size_t>(column);
    }
    [[nodiscard]] std::size_t keyIndex(std::size_t group, int role, std::int64_t column) const
    {
        return (group * kKeyRoles + static_cast<std::size_t>(role))
            * static_cast<std::size_t>(grid.count)
            + static_cast<std::size_t>(column);
    }
};

// Correct mode only (the reference tool has no groups). The grid is the one computeOverview
// would use for the same request and options.
std::optional<GroupOverview> computeGroupOverview(const Trace& trace,
    const AnalysisRequest& request, const std::vector<std::vector<PeId>>& groups,
    const OverviewOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
