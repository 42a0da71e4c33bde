#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// The Animation: every PE's utilization in each time interval (a frame), to be played over time.
// Utilization is the Overview's (entry methods, pack and unpack, in % of the interval), from the
// logs, or from the .sum bins when the run has none (frames then never finer than those bins).

struct AnimationOptions {
    TimeUs intervalSize = 0; // one frame per interval of this size
    std::int64_t frames = 0; // or this many frames over the range (0 and no size: 50)
};

struct UtilizationFrames {
    IntervalGrid grid; // frame f covers [grid.begin(f), grid.end(f))
    std::vector<PeId> pes; // the PEs of every frame (comm threads apart unless included)
    std::vector<PeId> apart;
    bool fromSummaries = false;
    // [frame * pes.size() + k]: % of the frame PE pes[k] was busy; NaN where the PE was not traced
    // during the frame.
    std::vector<float> utilization;

    [[nodiscard]] std::int64_t frameCount() const { return grid.count; }
    [[nodiscard]] float at(std::int64_t frame, std::size_t k) const
    {
        return utilization[static_cast<std::size_t>(frame) * pes.size() + k];
    }
    // The mean utilization of a frame over the PEs with data (NaN when none has).
    [[nodiscard]] double meanOf(std::int64_t frame) const;
};

// The frames for a request: its range and PEs (comm threads apart unless included: they have no
// idle records, so their utilization says nothing). The mode does not matter: there is one rule.
std::optional<UtilizationFrames> computeAnimation(const Trace& trace,
    const AnalysisRequest& request, const AnimationOptions& options = {},
    const Progress& progress = {});

// frame,begin_us,end_us,pe,utilization_pct: one row per frame and PE with data.
std::string animationCsv(const UtilizationFrames* frames);

} // namespace parallax::core::analysis
