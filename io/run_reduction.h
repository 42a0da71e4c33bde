#pragma once

#include "core/analysis/analysis_request.h"
#include "core/analysis/pe_selection.h"
#include "core/analysis/reduction_quality.h"
#include "core/trace.h"
#include "reduction_report.h"

#include <cstdint>
#include <functional>
#include <string>

namespace parallax::io {

// The whole of `parallax-cli reduce` and File → Write Reduced Run…, without Qt: choose the PEs
// whose logs to keep, measure the quality of that choice against random ones, and write the
// reduced run with its report.

enum class PeSelectionMethod : std::uint8_t { Clusters, Random };

struct ReductionSettings {
    std::string source; // the run as the user named it (recorded in the report)
    core::analysis::KeepAmount keep;
    std::string keepText; // as given, for the report
    PeSelectionMethod select = PeSelectionMethod::Clusters;
    int k = 0; // clusters: 0 = automatic
    std::uint64_t seed = 1; // random selection; the control uses the seeds after it
    core::analysis::AnalysisRequest request; // range (and threads) for selection and quality
    bool rangeGiven = false;
    core::analysis::QualityOptions quality;
    std::string outDir;
    bool force = false;
    bool allowNoSummaries = false;
};

struct ReductionOutcome {
    enum class Failure : std::uint8_t {
        None,
        BadRequest, // what was asked cannot be done on this run (CLI exit 2)
        WriteFailed, // the files could not be written (CLI exit 1)
        Cancelled,
    };
    Failure failure = Failure::None;
    std::string error; // one sentence
    bool missingSummaries = false; // refused: the run has no .sum/.sumd (allowNoSummaries)
    ReductionReport report;
    std::uint64_t bytesWritten = 0;
    [[nodiscard]] bool ok() const { return failure == Failure::None; }
};

// Progress: fraction of the whole job and what is being done; cancelled is polled between
// steps and files. Both may be empty; called on the calling thread.
struct ReductionProgress {
    std::function<void(double fraction, const std::string& stage)> report;
    std::function<bool()> cancelled;
};

// Runs the reduction on a loaded trace (its logs in memory). Never throws.
ReductionOutcome reduceRun(const core::Trace& trace, const ReductionSettings& settings,
    const ReductionProgress& progress = {});

} // namespace parallax::io
