#include "run_schedule.h"

#include "parallel_for.h"

#include <algorithm>
#include <limits>
#include <mutex>

namespace parallax::gen {

RunSchedule::RunSchedule(PeId numPes, int iterations)
    : m_iterations(iterations)
    , m_iterationStarts(static_cast<std::size_t>(iterations) + 1)
    , m_rootStepSetupTime(static_cast<std::size_t>(iterations) + 1, 0)
    , m_stepSetupEvent(
          static_cast<std::size_t>(numPes) * (static_cast<std::size_t>(iterations) + 1), 0)
    , m_contributionOffset(m_stepSetupEvent.size(), 0)
    , m_recordCount(static_cast<std::size_t>(numPes), 0)
    , m_endTime(static_cast<std::size_t>(numPes), 0)
{ }

Contribution RunSchedule::contributionOf(const RunModel& model, PeId child, int iteration) const
{
    const std::size_t index = slot(child, iteration + 1);
    const TimeUs created = reductionOrigin(iteration) + m_contributionOffset[index];
    Contribution contribution;
    contribution.source = child;
    // A non-root PE's contribution is the last event it numbers before the next step setup.
    contribution.event = m_stepSetupEvent[index] - 1;
    contribution.arrival = model.contributionArrival(child, iteration, created);
    return contribution;
}

TimeUs RunSchedule::maxEndTime() const
{
    return m_endTime.empty() ? 0 : *std::max_element(m_endTime.begin(), m_endTime.end());
}

void collectIncomingGhosts(const RunModel& model, const RunSchedule& schedule, PeId pe,
    int iteration, ReplayBuffers& buffers, std::vector<MessageSend>& incoming)
{
    incoming.clear();
    model.ghostSources(pe, buffers.sources);
    for (const PeId source : buffers.sources) {
        // Only the event counter and (on PE 0) the clock matter for the sends: any other PE
        // is idle when the broadcast arrives, so its step setup starts at the arrival.
        PeState state;
        state.now = source == 0 ? schedule.rootStepSetupTime(iteration) : 0;
        state.nextEvent = schedule.stepSetupEvent(source, iteration);
        buffers.sends.clear();
        buffers.simulation.records.clear();
        PeSimulator sender(model, source, state, buffers.simulation);
        sender.runStepSetup(iteration, schedule.iterationStart(iteration), &buffers.sends);
        buffers.simulation.records.clear();
        for (const MessageSend& send : buffers.sends) {
            if (send.target == pe) {
                incoming.push_back(send);
            }
        }
    }
    std::sort(incoming.begin(), incoming.end(), [](const MessageSend& a, const MessageSend& b) {
        if (a.arrival != b.arrival) {
            return a.arrival < b.arrival;
        }
        return a.source != b.source ? a.source < b.source : a.event < b.event;
    });
}

int collectChildContributions(const RunModel& model, const RunSchedule& schedule, PeId pe,
    int iteration, std::array<Contribution, 2>& children)
{
    std::array<PeId, 2> childPes {};
    const int count = model.childrenOf(pe, childPes);
    for (int i = 0; i < count; ++i) {
        children[static_cast<std::size_t>(i)]
            = schedule.contributionOf(model, childPes[static_cast<std::size_t>(i)], iteration);
    }
    if (count == 2
        && (children[1].arrival < children[0].arrival
            || (children[1].arrival == children[0].arrival
                && children[1].source < children[0].source))) {
        std::swap(children[0], children[1]);
    }
    return count;
}

// Fills a RunSchedule by simulating all PEs stage by stage: start-up, then per iteration
// the step setups and ghost exchanges of all PEs (in parallel) followed by the reduction
// up the spanning tree (sequential, leaves first), then the finish.
class SchedulePass {
public:
    SchedulePass(const RunModel& model, int threads, RunSchedule& schedule)
        : m_model(model)
        , m_schedule(schedule)
        , m_states(static_cast<std::size_t>(model.numPes()))
        // Threads only pay off when there are enough PEs per iteration to share.
        , m_scratch(static_cast<std::size_t>(model.numPes() >= 64 ? std::max(1, threads) : 1))
    { }

    std::optional<std::string> run()
    {
        {
            PeSimulator root(m_model, 0, state(0), m_scratch[0].simulation);
            root.beginComputation();
            m_schedule.startup = root.runMainPrologue();
            m_scratch[0].simulation.records.clear();
        }
        forEachPe([this](PeId pe, Scratch& scratch) {
            PeSimulator simulator(m_model, pe, state(pe), scratch.simulation);
            if (pe != 0) {
                simulator.beginComputation();
            }
            simulator.runStartup(m_schedule.startup);
            scratch.simulation.records.clear();
        });
        reduce(-1);

        for (int iteration = 0; iteration < m_model.iterations(); ++iteration) {
            const IterationStart& start = m_schedule.iterationStart(iteration);
            forEachPe([&](PeId pe, Scratch& scratch) {
                PeState& peState = state(pe);
                if (pe != 0
                    && start.broadcastTime
                            + m_model.broadcastLatency(iteration, RunModel::kStepBroadcastTag, pe)
                        <= peState.now) {
                    fail("PE " + std::to_string(pe) + " is still busy when iteration "
                        + std::to_string(iteration) + " starts");
                }
                PeSimulator simulator(m_model, pe, peState, scratch.simulation);
                simulator.runStepSetup(iteration, start, nullptr);
                scratch.simulation.records.clear();
                collectIncomingGhosts(
                    m_model, m_schedule, pe, iteration, scratch.replay, scratch.incoming);
                simulator.runGhostExchange(iteration, scratch.incoming);
                scratch.simulation.records.clear();
            });
            reduce(iteration);
        }

        const IterationStart& finish = m_schedule.iterationStart(m_model.iterations());
        forEachPe([&](PeId pe, Scratch& scratch) {
            PeSimulator simulator(m_model, pe, state(pe), scratch.simulation);
            simulator.runFinish(finish);
            scratch.simulation.records.clear();
            m_schedule.m_recordCount[static_cast<std::size_t>(pe)] = state(pe).records;
            m_schedule.m_endTime[static_cast<std::size_t>(pe)] = state(pe).now;
        });
        const std::lock_guard lock(m_errorMutex);
        return m_error;
    }

private:
    struct Scratch {
        SimulationBuffers simulation;
        ReplayBuffers replay;
        std::vector<MessageSend> incoming;
    };

    PeState& state(PeId pe) { return m_states[static_cast<std::size_t>(pe)]; }

    template <typename Body> void forEachPe(Body&& body)
    {
        parallelFor(m_model.numPes(), m_scratch, 16,
            [&](std::int64_t pe, Scratch& scratch) { body(static_cast<PeId>(pe), scratch); });
    }

    void fail(std::string message)
    {
        const std::lock_guard lock(m_errorMutex);
        if (!m_error) {
            m_error = "internal error: " + std::move(message);
        }
    }

    // The reduction after `iteration`: children before parents, so descending PE numbers.
    void reduce(int iteration)
    {
        Scratch& scratch = m_scratch[0];
        std::array<Contribution, 2> children {};
        for (PeId pe = m_model.numPes() - 1; pe >= 0; --pe) {
            const int count
                = collectChildContributions(m_model, m_schedule, pe, iteration, children);
            PeState& peState = state(pe);
            PeSimulator simulator(m_model, pe, peState, scratch.simulation);
            const IterationStart next = simulator.runReduction(iteration,
                std::span<const Contribution>(children.data(), static_cast<std::size_t>(count)));
            scratch.simulation.records.clear();

            const std::size_t index = m_schedule.slot(pe, iteration + 1);
            m_schedule.m_stepSetupEvent[index] = peState.nextEvent;
            const TimeUs offset = peState.contributionTime - m_schedule.reductionOrigin(iteration);
            if (offset < 0 || offset > std::numeric_limits<std::uint32_t>::max()) {
                fail("contribution of PE " + std::to_string(pe) + " out of range");
                return;
            }
            m_schedule.m_contributionOffset[index] = static_cast<std::uint32_t>(offset);
            if (pe != 0 && peState.contributionEvent != peState.nextEvent - 1) {
                fail("contribution of PE " + std::to_string(pe) + " is not its last event");
                return;
            }
            if (pe == 0) {
                m_schedule.m_iterationStarts[static_cast<std::size_t>(iteration + 1)] = next;
                m_schedule.m_rootStepSetupTime[static_cast<std::size_t>(iteration + 1)]
                    = peState.now;
            }
        }
    }

    const RunModel& m_model;
    RunSchedule& m_schedule;
    std::vector<PeState> m_states;
    std::vector<Scratch> m_scratch;
    std::mutex m_errorMutex;
    std::optional<std::string> m_error;
};

std::optional<std::string> computeSchedule(
    const RunModel& model, int threads, RunSchedule& schedule)
{
    schedule = RunSchedule(model.numPes(), model.iterations());
    SchedulePass pass(model, threads, schedule);
    return pass.run();
}

} // namespace parallax::gen
