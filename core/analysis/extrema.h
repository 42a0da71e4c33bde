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

} // namespace parallax::core::analysis
