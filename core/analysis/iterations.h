#pragma once

#include "core/analysis/analysis_request.h"
#include "core/types.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// Iterations (time steps) of a run, found from what it recorded or set by hand (docs/why.md).
// Each iteration is a time window; iteration k runs from its start to the next one's, the last
// to the end of the range.

// How to find them. At most one of the three explicit ways is set; none = automatic.
struct IterationRequest {
    // By hand: every `every` µs from the range's begin, or at these times (µs, sorted or not;
    // times outside the range are dropped).
    TimeUs every = 0;
    std::vector<TimeUs> starts;
    // A user event that marks the start of each step (its instant occurrences).
    std::optional<UserEventId> userEvent;
    // An entry method that runs once per step on every PE that runs it: step k starts at the
    // earliest k-th execution of it over the PEs.
    std::optional<EntryId> entry;
};

struct Iteration {
    TimeRange range;
    // Entry-method time (executions clipped to the window) of the selected PEs.
    PeId slowestPe = kNoPe; // the busiest PE, the lowest-numbered on ties
    TimeUs slowestBusyUs = 0;
    double medianBusyUs = 0; // the mean of the two middle PEs for an even count
};

struct IterationResult {
    // How the iterations were found: "every", "starts", "user-event", "entry" (with the id in
    // markerId), "note" (notes whose text names a step), or "none" when nothing in the range
    // marks steps.
    std::string source = "none";
    std::int32_t markerId = -1;
    std::vector<Iteration> iterations;
    std::vector<PeId> pes; // the PEs whose busy time was compared
    // Busy time of pes[i] in iterations[k] at busy[k * pes.size() + i].
    std::vector<TimeUs> busy;
    [[nodiscard]] TimeUs busyOf(std::size_t iteration, std::size_t peIndex) const
    {
        return busy[iteration * pes.size() + peIndex];
    }
};

// Automatic detection, in order: a user event whose name speaks of steps or iterations
// ("step", "iter", "phase", "cycle"; the most frequent such event with at least two
// occurrences on one PE), else an entry method executed the same number of times (at least 3)
// on every selected PE that has executions, its executions spread over at least half of the
// range — the one with the fewest executions per PE (the coarsest step), ties broken by more
// total time. Nothing found: no iterations.
IterationResult findIterations(
    const Trace& trace, const AnalysisRequest& request, const IterationRequest& how = {});

// iteration,begin_us,end_us,duration_us,slowest_pe,slowest_busy_us,median_busy_us (a median
// between two whole µs ends in .5).
std::string iterationsCsv(const IterationResult& result);

struct PeGroup;

// The busy time of groups of PEs in each iteration (a strip with more PEs than rows, grouped as
// the Overview groups them: core::analysis::axisGroups): the group's busiest member, the one that
// holds the step back, and the members' mean. Members not in result.pes are left out; a group
// with none of them has no slowest PE and zeros.
struct IterationGroupBusy {
    PeId slowestPe = kNoPe;
    TimeUs maxBusyUs = 0;
    double meanBusyUs = 0;
};
// At [iteration * groups.size() + group].
std::vector<IterationGroupBusy> groupIterationBusy(
    const IterationResult& result, const std::vector<PeGroup>& groups);

// Two runs' iterations paired by index (run-vs-run by iteration):
// iteration,duration_a_us,duration_b_us,ratio,slowest_pe_a,slowest_pe_b, with ratio = B / A
// (4 decimals). When one run has more iterations, its extra rows leave the other side's fields
// empty.
std::string iterationComparisonCsv(const IterationResult& a, const IterationResult& b);

} // namespace parallax::core::analysis
