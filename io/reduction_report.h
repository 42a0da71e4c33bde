#pragma once

#include "core/analysis/pe_selection.h"
#include "core/analysis/reduction_quality.h"
#include "reduced_run_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::io {

// What a reduced run records about itself: reduction.json (for programs, and for Parallax to
// know a run is reduced) and REDUCTION.md (the quality report for a reader).

struct ReductionParameters {
    std::string source; // the run as given
    std::string runName; // NAME of NAME.sts
    std::string keep; // as given: "5%" or "12"
    std::size_t keepCount = 0; // the PEs that amounts to (clusters may keep more: all exemplars)
    std::string select; // "clusters" or "random"
    std::string k; // "auto", a number, or empty for random selection
    int kUsed = 0; // clusters: the k clustered with (chosen by the sweep when k is "auto")
    int clustersNonEmpty = 0; // clusters: non-empty clusters (exemplars)
    std::uint64_t seed = 0;
    core::TimeRange range; // the range the quality figures cover
    bool rangeGiven = false;
};

struct ReductionReport {
    ReductionParameters parameters;
    std::vector<core::analysis::KeptPe> kept;
    std::size_t processors = 0; // PROCESSORS of the run
    // The source run's traced span (core::analysis::tracedRunSpan): the reduced run's default
    // range, which its kept PEs alone may not cover.
    core::TimeRange tracedSpan;
    ReducedRunPlan plan;
    core::analysis::ReductionQuality quality;
};

inline constexpr const char* kReductionJsonName = "reduction.json";
inline constexpr const char* kReductionMarkdownName = "REDUCTION.md";

std::string reductionJson(const ReductionReport& report);
std::string reductionMarkdown(const ReductionReport& report);

// Both files, ready for writeReducedRun.
std::vector<std::pair<std::string, std::string>> reductionReportFiles(
    const ReductionReport& report);

} // namespace parallax::io
