#pragma once

#include "run_model.h"
#include "trace_types.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace parallax::gen {

// Where one PE's simulation stands between two stages.
struct PeState {
    TimeUs now = 0;
    EventId nextEvent = 0;
    std::int64_t busyTime = 0; // µs spent in entry methods so far (drives the cpu fields)
    std::uint64_t records = 0; // log records emitted so far
    // The latest reduction contribution of this PE (CREATION to the parent, or on PE 0 to
    // the Main chare).
    TimeUs contributionTime = 0;
    EventId contributionEvent = -1;
    // Array indices handed out so far with --shape realistic (one per element execution).
    std::int64_t indicesIssued = 0;
};

// A group creation broadcast made by PE 0 at start-up (docs/format.md §2.2, CREATION_BCAST).
struct GroupCreation {
    EntryId entry = 0;
    TimeUs created = 0;
    EventId event = 0;
    std::int32_t length = 0;
};

struct StartupPlan {
    std::array<GroupCreation, 4> groups {};
};

// What starts an iteration on every PE: Main's group broadcast of WorkerMgr::startStep (or
// of WorkerMgr::finish after the last iteration), and the optional multicast.
struct IterationStart {
    TimeUs broadcastTime = 0;
    EventId broadcastEvent = 0;
    TimeUs multicastTime = 0;
    EventId multicastEvent = -1; // -1: no multicast before this iteration
};

// One point-to-point ghost message as its sender created it.
struct MessageSend {
    TimeUs created = 0;
    TimeUs arrival = 0;
    PeId source = 0;
    PeId target = 0;
    EventId event = 0;
    std::int32_t element = 0; // Worker element on the target PE
    std::int32_t length = 0;
    bool packed = false;
};

// A reduction contribution from a child PE in the spanning tree.
struct Contribution {
    PeId source = 0;
    EventId event = 0;
    TimeUs arrival = 0;
};

// A Worker::compute, Patch::integrate or mix task queued by WorkerMgr::startStep.
struct StepTask {
    EntryId entry = 0;
    std::int32_t local = 0; // local element or patch number, -1 for group EPs
    EventId event = 0;
};

// A message waiting in a PE's scheduler queue during start-up.
struct PendingMessage {
    TimeUs arrival = 0;
    std::int64_t order = 0;
    EntryId entry = 0;
    std::int32_t local = 0;
    EventId event = 0;
    PeId source = 0;
    std::int32_t length = 0;
};

// Reusable buffers of one thread, so that simulating allocates nothing per record.
struct SimulationBuffers {
    std::vector<TraceRecord> records;
    std::vector<StepTask> tasks;
    std::vector<PendingMessage> pending;
};

// Simulates one PE's scheduler stage by stage and appends the log records it would write.
// Every stage draws from its own random stream (seed, PE, iteration, stage), so any stage
// can be replayed on its own: the schedule pass and the writing pass produce identical
// records, and a receiver can replay its sender's step setup to learn the (time, event
// number) of every message it receives.
//
// Stages of one PE:
//   beginComputation, [PE 0: runMainPrologue], runStartup, runReduction(-1),
//   for each iteration k: runStepSetup(k), runGhostExchange(k), runReduction(k),
//   runFinish.
class PeSimulator {
public:
    PeSimulator(const RunModel& model, PeId pe, PeState& state, SimulationBuffers& buffers);

    void beginComputation();
    // PE 0: creation of the runtime and application groups and of the Main chare.
    StartupPlan runMainPrologue();
    // Group constructors, array element constructors; a leaf PE contributes at the end.
    void runStartup(const StartupPlan& plan);
    // WorkerMgr::startStep, the optional multicast and all queued local tasks, including
    // the Worker::compute executions that create the ghost messages (collected in `sends`
    // when not null).
    void runStepSetup(int iteration, const IterationStart& start, std::vector<MessageSend>* sends);
    // Worker::recvGhost for every incoming ghost (sorted by arrival), with idle gaps.
    void runGhostExchange(int iteration, std::span<const MessageSend> incoming);
    // Receives the children's contributions (sorted by arrival) and contributes to the
    // parent. On PE 0, also runs Main's reduction client, which broadcasts the start of the
    // next iteration (or the finish): the returned IterationStart. Iteration -1 = start-up.
    IterationStart runReduction(int iteration, std::span<const Contribution> children);
    // WorkerMgr::finish, then END_COMPUTATION.
    void runFinish(const IterationStart& finish);

private:
    struct ObjectId {
        std::array<std::int32_t, 4> values {};
        std::int32_t count = 4;
    };

    TraceRecord& push(RecordType type);
    void advance(TimeUs duration) { m_state.now += duration; }
    void waitUntil(TimeUs time);
    std::int64_t cpuTime() const;
    void beginExecution(std::uint16_t messageType, EntryId entry, EventId event, PeId source,
        std::int32_t length, const ObjectId& object);
    void endExecution();
    EventId creation(
        std::uint16_t messageType, EntryId entry, std::int32_t length, TimeUs sendDuration);
    EventId creationBroadcast(
        std::uint16_t messageType, EntryId entry, std::int32_t length, TimeUs sendDuration);
    EventId creationMulticast(std::uint16_t messageType, EntryId entry, std::int32_t length,
        TimeUs sendDuration, const std::vector<PeId>& targets);
    void userEvent(int id);
    void userStat(int id, std::int64_t value);
    void memoryUsage(std::int64_t bytes);
    void bracketedUserEvent(int id, TimeUs begin, TimeUs end);
    void userEventPairBoundary(RecordType type, int id);
    void pack(TimeUs duration);
    void unpack(TimeUs duration);
    void contribute(int iteration, Prng& rng);
    void runPe0Roles(int iteration);

    ObjectId chareObject() const { return {}; }
    ObjectId workerObject(std::int32_t element);
    ObjectId patchObject(std::int32_t patch);
    ObjectId objectOf(EntryId entry, std::int32_t local);
    std::int64_t distinctIndex();
    std::uint16_t deliveryTypeOf(EntryId entry) const;
    std::uint16_t sendTypeOf(EntryId entry) const;

    void runCompute(
        const StepTask& task, int iteration, Prng& rng, std::vector<MessageSend>* sends);
    void sendGhost(PeId target, std::int32_t element, std::int32_t length, Prng& rng,
        std::vector<MessageSend>* sends);

    const RunModel& m_model;
    PeId m_pe;
    PeState& m_state;
    SimulationBuffers& m_buffers;
    std::int64_t m_cpuBase;
    // The execution between beginExecution and endExecution.
    EntryId m_openEntry = 0;
    EventId m_openEvent = 0;
    PeId m_openSource = 0;
    TimeUs m_openBegin = 0;
};

} // namespace parallax::gen
