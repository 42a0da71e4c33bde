#pragma once

#include "analysis_request.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// How well a reduced run (the detailed logs of a few PEs) stands for the whole run, by the
// measures of seed 000 §4.6.2–§4.6.3 (seed 002 §4): histogram proportionality and least-idle
// retention, next to the same figures for random selections of the same size (the control).

// The 100 bars of the duration histogram the proportionality is measured on.
enum class QualityBins : std::uint8_t {
    // 99 equal bins over [0, longest execution of the original run in the range) plus the
    // overflow bin (which then holds the longest execution(s)): every execution is in a bar.
    LongestExecution,
    // The seed's fixed range: 99 bins of 100 µs over [0.1 ms, 10 ms) plus the overflow bin
    // (>= 10 ms); executions shorter than 0.1 ms are in no bar.
    SeedRange,
};

struct QualityOptions {
    QualityBins bins = QualityBins::LongestExecution;
    int controlDraws = 20; // random selections averaged into the control (>= 1)
    std::uint64_t controlSeed = 1; // draw d uses controlSeed + d
};

// Criterion 1 and 2 of the seed: over the bars i whose original count H_o^i is not 0,
// H̄ = mean of H_r^i / H_o^i and σ = their standard deviation (population: divided by m, the
// number of such bars). A faithful reduction has H̄ ≈ P_r / P_o and a small σ.
struct Proportionality {
    double mean = 0; // H̄
    double sd = 0; // σ
    std::size_t bars = 0; // m = n − bars with H_o^i = 0
};
Proportionality histogramProportionality(
    const std::vector<double>& original, const std::vector<double>& reduced);

// The least-idle strata of the seed: top 5, 10 and 20 PEs (fewer when the run has fewer).
inline constexpr std::array<std::size_t, 3> kRetentionStrata { 5, 10, 20 };

// The figures of one selection.
struct SelectionQuality {
    Proportionality proportionality;
    std::array<double, 3> retention {}; // % of each least-idle stratum among the kept PEs
    double logByteFraction = 0; // log bytes of the kept PEs / log bytes of all PEs
};

struct ReductionQuality {
    std::size_t originalPes = 0; // P_o: PEs with logs in the original run
    std::size_t keptPes = 0; // P_r
    [[nodiscard]] double peFraction() const
    {
        return originalPes == 0 ? 0.0
                                : static_cast<double>(keptPes) / static_cast<double>(originalPes);
    }
    // The histogram: `binCount` equal bins of `binWidthUs` from `minimumUs`, plus overflow.
    QualityBins binRule = QualityBins::LongestExecution;
    std::int64_t binCount = 99;
    double binWidthUs = 0;
    double minimumUs = 0;
    TimeUs longestExecutionUs = 0;
    std::vector<double> originalBars; // H_o, binCount + 1 bars (executions per bar)
    std::vector<double> reducedBars; // H_r
    TimeRange range; // the range the figures cover
    std::array<std::size_t, 3> strataSizes {}; // kRetentionStrata, capped at the ranked PEs
    std::vector<PeId> leastIdle; // worker PEs ranked least idle first (the first 20)
    std::uint64_t logBytesKept = 0;
    std::uint64_t logBytesTotal = 0;
    SelectionQuality kept;
    SelectionQuality control; // mean over the random draws
    Proportionality controlSpread; // mean and σ of H̄ over the draws (how much luck varies)
    int controlDraws = 0;
};

// The quality of keeping the detailed logs of `kept` (PEs of `trace` with logs). `peLogBytes`
// holds each PE's log size on disk (index = PE; may be empty, then the byte fractions are 0).
// The histograms count every execution that begins in the request's range (the histogram's
// correct mode); the least-idle ranking is Extrema's over the worker PEs of the whole run.
// Returns nullopt when cancelled.
std::optional<ReductionQuality> computeReductionQuality(const Trace& trace,
    const AnalysisRequest& request, const std::vector<PeId>& kept,
    const std::vector<std::uint64_t>& peLogBytes, const QualityOptions& options = {},
    const Progress& progress = {});

} // namespace parallax::core::analysis
