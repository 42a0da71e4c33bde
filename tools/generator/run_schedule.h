#pragma once

#include "pe_simulator.h"
#include "run_model.h"
#include "trace_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::gen {

// The cross-PE facts of a run, computed once before any file is written (the schedule
// pass simulates every PE, iteration by iteration, without formatting anything). With it,
// each PE's log can then be written on its own, in any order and on any thread:
//   * when each iteration's broadcast (and multicast) leaves PE 0, with its event number;
//   * each PE's event counter at the start of every iteration, so that a receiver can
//     replay its sender's step setup and learn the event numbers of the ghosts it gets;
//   * when each PE's reduction contribution leaves, for its parent in the spanning tree;
//   * each PE's record count (the log header) and END_COMPUTATION time.
// Memory: two 32-bit values per PE and iteration.
class RunSchedule {
public:
    RunSchedule() = default;
    RunSchedule(PeId numPes, int iterations);

    StartupPlan startup;

    // Iteration `iteration` in [0, iterations]; index `iterations` is the finish broadcast.
    const IterationStart& iterationStart(int iteration) const
    {
        return m_iterationStarts[static_cast<std::size_t>(iteration)];
    }
    // Event counter of `pe` when step setup `iteration` (or the finish) begins.
    EventId stepSetupEvent(PeId pe, int iteration) const
    {
        return m_stepSetupEvent[slot(pe, iteration)];
    }
    // PE 0's clock when its step setup `iteration` begins (PE 0 is still busy with Main's
    // reduction client when its own broadcast arrives).
    TimeUs rootStepSetupTime(int iteration) const
    {
        return m_rootStepSetupTime[static_cast<std::size_t>(iteration)];
    }
    // The contribution of `child` (not PE 0) in the reduction after `iteration` (-1 =
    // start-up), as its parent receives it.
    Contribution contributionOf(const RunModel& model, PeId child, int iteration) const;

    std::uint64_t recordCount(PeId pe) const { return m_recordCount[static_cast<std::size_t>(pe)]; }
    TimeUs endTime(PeId pe) const { return m_endTime[static_cast<std::size_t>(pe)]; }
    TimeUs maxEndTime() const;

private:
    friend class SchedulePass;

    std::size_t slot(PeId pe, int index) const
    {
        return static_cast<std::size_t>(pe) * static_cast<std::size_t>(m_iterations + 1)
            + static_cast<std::size_t>(index);
    }
    TimeUs reductionOrigin(int iteration) const
    {
        return iteration < 0 ? 0 : iterationStart(iteration).broadcastTime;
    }

    int m_iterations = 0;
    std::vector<IterationStart> m_iterationStarts;
    std::vector<TimeUs> m_rootStepSetupTime;
    std::vector<EventId> m_stepSetupEvent; // [pe][iteration 0..iterations]
    // Contribution time after iteration k (k = -1..iterations-1) at slot k+1, relative to
    // the broadcast that started iteration k (absolute for the start-up).
    std::vector<std::uint32_t> m_contributionOffset;
    std::vector<std::uint64_t> m_recordCount;
    std::vector<TimeUs> m_endTime;
};

// Per-thread buffers for replaying other PEs.
struct ReplayBuffers {
    SimulationBuffers simulation;
    std::vector<MessageSend> sends;
    std::vector<PeId> sources;
};

// The ghosts `pe` receives in `iteration`, sorted by arrival: replays the step setup of
// every PE that sends to it. Needs the schedule filled up to the start of `iteration`.
void collectIncomingGhosts(const RunModel& model, const RunSchedule& schedule, PeId pe,
    int iteration, ReplayBuffers& buffers, std::vector<MessageSend>& incoming);

// The contributions of `pe`'s children in the reduction after `iteration`, sorted by arrival.
int collectChildContributions(const RunModel& model, const RunSchedule& schedule, PeId pe,
    int iteration, std::array<Contribution, 2>& children);

// The schedule pass. Returns an error message if the simulation broke one of its own
// invariants (a bug, reported rather than written into the files).
std::optional<std::string> computeSchedule(
    const RunModel& model, int threads, RunSchedule& schedule);

} // namespace parallax::gen
