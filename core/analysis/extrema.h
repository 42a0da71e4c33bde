#pragma once

#include "analysis_request.h"

#include <optional>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

enum class ExtremaCriterion : std::uint8_t {
    LeastIdle,
    MostIdle,
    Overhead,
    ActiveEntries,
    GrainSize,
    MsgsSent,
    BytesSent,
    Clustering,
};
// "least-idle", "most-idle", "overhead", "active-entries", "grain-size", "msgs-sent",
// "bytes-sent", "clustering" (the CLI's names).
std::string_view extremaCriterionName(ExtremaCriterion criterion);
std::optional<ExtremaCriterion> parseExtremaCriterion(std::string_view name);

struct ExtremaOptions {
    ExtremaCriterion criterion = ExtremaCriterion::LeastIdle;
    std::int64_t count = 0; // extreme PEs to report; 0: ceil(10 % of PEs) up to 256 PEs, else 20
    std::int64_t clusters = 0; // k for clustering; 0: Java's default (PROCESSORS), else sqrt-ish
};

// The Extrema tool: the PEs that stand out by a criterion, and the averaged activity columns
// of all selected PEs, of the non-outliers and of the outliers (docs/format.md §4.6).
struct Extrema {
    ExtremaCriterion criterion = ExtremaCriterion::LeastIdle;
    ActivityColumns columns;
    std::vector<PeId> pes; // every analysed PE
    std::vector<PeId> apart; // selected PEs neither ranked nor averaged (comm threads, by default)
    // Per analysed PE, the activity vector ([pe * columns.count() + column]): % of the range
    // for the idle criteria, µs otherwise (as Java).
    std::vector<double> vectors;
    std::vector<double> scores; // per analysed PE, the criterion's value
    // The extreme PEs, most extreme first, with their scores.
    std::vector<PeId> extremes;
    std::vector<double> extremeScores;
    std::vector<double> average; // per column, mean over all analysed PEs
    std::vector<double> nonOutliers; // per column, mean over the others
    std::vector<double> outliers; // per column, mean over the extremes
    int clusterCount = 0; // clustering: non-empty clusters
    std::string error; // e.g. "clustering needs at least 3 PEs"
};

std::optional<Extrema> computeExtrema(const Trace& trace, const AnalysisRequest& request,
    const ExtremaOptions& options = {}, const Progress& progress = {});

// The number of extremes reported by default among `candidates` PEs or groups: 10 % of them
// (rounded up) up to 256, else 20.
std::int64_t defaultExtremaCount(std::int64_t candidates);

// The criterion computed over groups of PEs (--by node, block): a group's score is the mean of
// its analysed members' scores and its activity vector the mean of theirs; groups without an
// analysed member are left out. Groups are ranked as PEs are (least idle: the lowest idle
// first; every other criterion: the highest score first; ties keep the groups' order).
struct GroupExtremum {
    std::size_t group = 0; // index into the groups given
    double score = 0;
    std::vector<double> vector; // per activity column, as Extrema::vectors
    std::vector<PeId> members; // the analysed members, most extreme first (ties: lower PE)
    std::vector<double> memberScores;
};
struct GroupExtrema {
    std::size_t ranked = 0; // groups with an analysed member
    std::vector<GroupExtremum> extremes; // the `count` most extreme groups, most extreme first
    // Per activity column: the mean over the members of the extreme groups, and of the others.
    std::vector<double> outliers;
    std::vector<double> nonOutliers;
};
// `count` 0: defaultExtremaCount of the ranked groups. Clustering ranks groups by their members'
// mean distance to their clusters' centres.
GroupExtrema rankGroups(
    const Extrema& extrema, const std::vector<std::vector<PeId>>& groups, std::int64_t count = 0);

} // namespace parallax::core::analysis
