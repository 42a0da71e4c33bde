#include "pe_simulator.h"

#include "symbol_table.h"

#include <algorithm>
#include <utility>

namespace parallax::gen {

namespace {

// Random stream tags, one per stage (see PeSimulator).
constexpr std::uint64_t kPrologueStream = 1;
constexpr std::uint64_t kStartupStream = 2;
constexpr std::uint64_t kStepSetupStream = 3;
constexpr std::uint64_t kGhostExchangeStream = 4;
constexpr std::uint64_t kReductionStream = 5;
constexpr std::uint64_t kFinishStream = 6;
constexpr std::uint64_t kPe0RolesStream = 7;

// Message lengths in bytes (envelope included), as `len` of CREATION/BEGIN_PROCESSING.
constexpr std::int32_t kGroupCreationLength = 96;
constexpr std::int32_t kArrayCreationLength = 160;
constexpr std::int32_t kMainCreationLength = 120;
constexpr std::int32_t kElementCreationLength = 80;
constexpr std::int32_t kTaskLength = 72;
constexpr std::int32_t kStepBroadcastLength = 128;
constexpr std::int32_t kMulticastLength = 176;
constexpr std::int32_t kReductionLength = 224;

// Min-heap order of the start-up scheduler queue: earliest arrival first, then FIFO.
bool laterMessage(const PendingMessage& a, const PendingMessage& b)
{
    return a.arrival != b.arrival ? a.arrival > b.arrival : a.order > b.order;
}

} // namespace

PeSimulator::PeSimulator(const RunModel& model, PeId pe, PeState& state, SimulationBuffers& buffers)
    : m_model(model)
    , m_pe(pe)
    , m_state(state)
    , m_buffers(buffers)
    , m_cpuBase(model.cpuTimeBase(pe))
{ }

TraceRecord& PeSimulator::push(RecordType type)
{
    TraceRecord& record = m_buffers.records.emplace_back();
    record.type = type;
    record.time = m_state.now;
    ++m_state.records;
    return record;
}

void PeSimulator::waitUntil(TimeUs time)
{
    if (time > m_state.now) {
        push(RecordType::BeginIdle).pe = m_pe;
        m_state.now = time;
        push(RecordType::EndIdle).pe = m_pe;
    }
}

std::int64_t PeSimulator::cpuTime() const
{
    return m_cpuBase + m_state.busyTime * 9 / 10;
}

void PeSimulator::beginExecution(std::uint16_t messageType, EntryId entry, EventId event,
    PeId source, std::int32_t length, const ObjectId& object)
{
    TraceRecord& record = push(RecordType::BeginProcessing);
    setMessageFields(record, messageType, entry, event, source, length);
    record.count = object.count;
    std::copy(object.values.begin(), object.values.end(), record.values.begin());
    record.value = cpuTime();
    m_openEntry = entry;
    m_openEvent = event;
    m_openSource = source;
    m_openBegin = m_state.now;
}

void PeSimulator::endExecution()
{
    m_state.busyTime += m_state.now - m_openBegin;
    TraceRecord& record = push(RecordType::EndProcessing);
    record.messageType = message_type::kNone;
    record.entry = m_openEntry;
    record.event = m_openEvent;
    record.pe = m_openSource;
    record.value = cpuTime();
}

EventId PeSimulator::creation(
    std::uint16_t messageType, EntryId entry, std::int32_t length, TimeUs sendDuration)
{
    TraceRecord& record = push(RecordType::Creation);
    record.messageType = messageType;
    record.entry = entry;
    record.event = m_state.nextEvent++;
    record.pe = m_pe;
    record.length = length;
    record.value = sendDuration;
    advance(sendDuration);
    return record.event;
}

EventId PeSimulator::creationBroadcast(
    std::uint16_t messageType, EntryId entry, std::int32_t length, TimeUs sendDuration)
{
    TraceRecord& record = push(RecordType::CreationBcast);
    record.messageType = messageType;
    record.entry = entry;
    record.event = m_state.nextEvent++;
    record.pe = m_pe;
    record.length = length;
    record.value = sendDuration;
    record.count = m_model.numPes();
    advance(sendDuration);
    return record.event;
}

EventId PeSimulator::creationMulticast(std::uint16_t messageType, EntryId entry,
    std::int32_t length, TimeUs sendDuration, const std::vector<PeId>& targets)
{
    TraceRecord& record = push(RecordType::CreationMulticast);
    record.messageType = messageType;
    record.entry = entry;
    record.event = m_state.nextEvent++;
    record.pe = m_pe;
    record.length = length;
    record.value = sendDuration;
    const std::size_t count = std::min(targets.size(), record.values.size());
    record.count = static_cast<std::int32_t>(count);
    std::copy_n(targets.begin(), count, record.values.begin());
    advance(sendDuration);
    return record.event;
}

void PeSimulator::userEvent(int id)
{
    TraceRecord& record = push(RecordType::UserEvent);
    record.entry = id;
    record.event = m_state.nextEvent++;
    record.pe = m_pe;
}

void PeSimulator::userStat(int id, std::int64_t value)
{
    TraceRecord& record = push(RecordType::UserStat);
    record.entry = id;
    record.value = value;
    record.pe = m_pe;
}

void PeSimulator::memoryUsage(std::int64_t bytes)
{
    push(RecordType::MemoryUsage).value = bytes;
}

// traceUserBracketEvent(id, begin, end) is called after the bracketed work: both lines are
// appended now, the first one carrying the earlier begin time (docs/format.md §2.1). The writer
// leaves the pe field uninitialised; it is observed as 0.
void PeSimulator::bracketedUserEvent(int id, TimeUs begin, TimeUs end)
{
    const EventId event = m_state.nextEvent++;
    for (const TimeUs time : { begin, end }) {
        TraceRecord& record = push(RecordType::UserEventPair);
        record.time = time;
        record.entry = id;
        record.event = event;
        record.pe = 0;
    }
}

void PeSimulator::userEventPairBoundary(RecordType type, int id)
{
    TraceRecord& record = push(type);
    record.entry = id;
    record.event = m_state.nextEvent++;
    record.pe = 0;
}

void PeSimulator::pack(TimeUs duration)
{
    push(RecordType::BeginPack).pe = m_pe;
    advance(duration);
    push(RecordType::EndPack).pe = m_pe;
}

void PeSimulator::unpack(TimeUs duration)
{
    push(RecordType::BeginUnpack).pe = m_pe;
    advance(duration);
    push(RecordType::EndUnpack).pe = m_pe;
}

// The reduction contribution: a message to the parent's CkReductionMgr, or on PE 0 the
// delivery of the reduced result to the Main chare's reduction client.
void PeSimulator::contribute(int iteration, Prng& rng)
{
    const TimeUs created = m_state.now;
    EventId event = 0;
    if (m_pe == 0) {
        event = creation(message_type::kForChare,
            iteration < 0 ? entry::kInitDone : entry::kIterationDone, kReductionLength, 0);
    } else {
        event
            = creation(message_type::kForBoc, entry::kRecvMsg, kReductionLength, rng.between(0, 2));
    }
    m_state.contributionTime = created;
    m_state.contributionEvent = event;
}

// --shape realistic: the n-th element execution of this PE gets global index n * P + pe, so no
// two executions of the run share an index (it stays below 2^31 up to 4 M executions per PE
// on 512 PEs).
std::int64_t PeSimulator::distinctIndex()
{
    return (m_state.indicesIssued++) * m_model.numPes() + m_pe;
}

PeSimulator::ObjectId PeSimulator::workerObject(std::int32_t element)
{
    ObjectId object;
    object.values[0] = m_model.hasDistinctIndices()
        ? static_cast<std::int32_t>(distinctIndex() % 0x7FFFFFFF)
        : m_model.workerIndex(m_pe, element);
    object.count = 1;
    return object;
}

PeSimulator::ObjectId PeSimulator::patchObject(std::int32_t patch)
{
    ObjectId object;
    if (m_model.hasDistinctIndices()) {
        const std::int64_t global = distinctIndex();
        object.values[0] = static_cast<std::int32_t>(global % 64);
        object.values[1] = static_cast<std::int32_t>((global / 64) % 64);
        object.values[2] = static_cast<std::int32_t>((global / 4096) % 0x7FFFFFFF);
    } else {
        const auto index = m_model.patchIndex(m_pe, patch);
        std::copy(index.begin(), index.end(), object.values.begin());
    }
    object.count = 3;
    return object;
}

PeSimulator::ObjectId PeSimulator::objectOf(EntryId entry, std::int32_t local)
{
    switch (m_model.symbols().chareOf(entry)) {
    case chare::kWorker:
        return workerObject(local);
    case chare::kPatch:
        return patchObject(local);
    default:
        return chareObject();
    }
}

// Envelope type seen by BEGIN_PROCESSING: array elements and chares 4, groups 5.
std::uint16_t PeSimulator::deliveryTypeOf(EntryId entry) const
{
    const int owner = m_model.symbols().chareOf(entry);
    return owner == chare::kWorker || owner == chare::kPatch || owner == chare::kMain
        ? message_type::kForChare
        : message_type::kForBoc;
}

// Envelope type of the CREATION: array elements 21, chares 4, groups 5.
std::uint16_t PeSimulator::sendTypeOf(EntryId entry) const
{
    const int owner = m_model.symbols().chareOf(entry);
    if (owner == chare::kWorker || owner == chare::kPatch) {
        return message_type::kForArrayElt;
    }
    return owner == chare::kMain ? message_type::kForChare : message_type::kForBoc;
}

void PeSimulator::beginComputation()
{
    m_state.now = m_model.beginComputationTime(m_pe);
    push(RecordType::BeginComputation);
}

StartupPlan PeSimulator::runMainPrologue()
{
    Prng rng(streamSeed(m_model.seed(), kPrologueStream, static_cast<std::uint64_t>(m_pe)));
    StartupPlan plan;
    const auto broadcast = [&](std::size_t slot, EntryId group, std::int32_t length) {
        GroupCreation& creation = plan.groups[slot];
        creation.entry = group;
        creation.created = m_state.now;
        creation.length = length;
        creation.event
            = creationBroadcast(message_type::kBocInit, group, length, rng.between(2, 30));
    };

    // The runtime creates its groups before the Main chare exists (outside any EP).
    advance(rng.between(30, 80));
    broadcast(0, entry::kReductionMgrCtor, kGroupCreationLength);
    pack(rng.between(0, 1));
    unpack(rng.between(0, 1));
    advance(rng.between(5, 20));
    const EventId mainEvent
        = creation(message_type::kNewChare, entry::kMainCtor, kMainCreationLength, 0);
    advance(rng.between(1, 5));
    beginExecution(message_type::kNewChare, entry::kMainCtor, mainEvent, m_pe, kMainCreationLength,
        chareObject());
    advance(rng.between(100, 300));
    broadcast(1, entry::kWorkerMgrCtor, kGroupCreationLength);
    advance(rng.between(2, 6));
    broadcast(2, entry::kArrayCtor, kArrayCreationLength); // the Worker array
    advance(rng.between(2, 6));
    broadcast(3, entry::kArrayCtor, kArrayCreationLength); // the Patch array
    advance(rng.between(5, 20));
    endExecution();
    return plan;
}

void PeSimulator::runStartup(const StartupPlan& plan)
{
    Prng rng(streamSeed(m_model.seed(), kStartupStream, static_cast<std::uint64_t>(m_pe)));
    std::vector<PendingMessage>& queue = m_buffers.pending;
    queue.clear();
    std::int64_t order = 0;
    for (std::size_t slot = 0; slot < plan.groups.size(); ++slot) {
        const GroupCreation& group = plan.groups[slot];
        PendingMessage message;
        message.arrival
            = group.created + m_model.broadcastLatency(-1, static_cast<int>(slot), m_pe);
        message.order = order++;
        message.entry = group.entry;
        message.local = static_cast<std::int32_t>(slot);
        message.event = group.event;
        message.source = 0;
        message.length = group.length;
        queue.push_back(message);
        std::push_heap(queue.begin(), queue.end(), laterMessage);
    }

    while (!queue.empty()) {
        std::pop_heap(queue.begin(), queue.end(), laterMessage);
        const PendingMessage message = queue.back();
        queue.pop_back();
        waitUntil(message.arrival);
        advance(rng.between(1, 3));
        const bool isElement
            = message.entry == entry::kWorkerCtor || message.entry == entry::kPatchCtor;
        if (isElement) {
            beginExecution(message_type::kForChare, message.entry, message.event, message.source,
                message.length, objectOf(message.entry, message.local));
            advance(rng.between(5, 20));
        } else {
            beginExecution(message_type::kBocInit, message.entry, message.event, message.source,
                message.length, chareObject());
            advance(rng.between(5, 20));
            // The array managers insert their local elements (slot 2: Worker, 3: Patch).
            if (message.entry == entry::kArrayCtor) {
                const bool workers = message.local == 2;
                const int count = workers ? m_model.elementsPerPe() : m_model.patchesPerPe();
                const EntryId constructor = workers ? entry::kWorkerCtor : entry::kPatchCtor;
                for (int local = 0; local < count; ++local) {
                    advance(1);
                    PendingMessage element;
                    element.arrival = m_state.now;
                    element.order = order++;
                    element.entry = constructor;
                    element.local = local;
                    element.event = creation(
                        message_type::kArrayEltInit, constructor, kElementCreationLength, 0);
                    element.source = m_pe;
                    element.length = kElementCreationLength;
                    queue.push_back(element);
                    std::push_heap(queue.begin(), queue.end(), laterMessage);
                }
            }
        }
        if (queue.empty() && m_model.isLeaf(m_pe)) {
            contribute(-1, rng);
        }
        advance(1);
        endExecution();
    }
}

void PeSimulator::runStepSetup(
    int iteration, const IterationStart& start, std::vector<MessageSend>* sends)
{
    Prng rng(streamSeed(m_model.seed(), kStepSetupStream, static_cast<std::uint64_t>(m_pe),
        static_cast<std::uint64_t>(iteration + 1)));
    waitUntil(start.broadcastTime
        + m_model.broadcastLatency(iteration, RunModel::kStepBroadcastTag, m_pe));
    advance(rng.between(1, 3));

    // WorkerMgr::startStep queues this iteration's local work.
    beginExecution(message_type::kForBoc, entry::kStartStep, start.broadcastEvent, 0,
        kStepBroadcastLength, chareObject());
    const TimeUs setupBegin = m_state.now;
    advance(2);
    userEvent(user_event::kIterationStart);
    advance(1);
    userStat(user_event::kIterationStat, iteration);
    if (iteration % 4 == 0) {
        memoryUsage(150'000'000 + static_cast<std::int64_t>(m_pe % 64) * 1'048'576
            + static_cast<std::int64_t>(iteration) * 4096);
    }
    std::vector<StepTask>& tasks = m_buffers.tasks;
    tasks.clear();
    for (int element = 0; element < m_model.elementsPerPe(); ++element) {
        tasks.push_back({ entry::kCompute, element, 0 });
    }
    for (int patch = 0; patch < m_model.patchesPerPe(); ++patch) {
        tasks.push_back({ entry::kIntegrate, patch, 0 });
    }
    if (m_model.hasMixEntries()) {
        const auto mixCount
            = rng.below(static_cast<std::uint64_t>(m_model.elementsPerPe() / 2 + 1));
        for (std::uint64_t i = 0; i < mixCount; ++i) {
            const EntryId mixEntry = m_model.pickMixEntry(rng);
            std::int32_t local = -1;
            const int owner = m_model.symbols().chareOf(mixEntry);
            if (owner == chare::kWorker) {
                local = static_cast<std::int32_t>(
                    rng.below(static_cast<std::uint64_t>(m_model.elementsPerPe())));
            } else if (owner == chare::kPatch) {
                local = static_cast<std::int32_t>(
                    rng.below(static_cast<std::uint64_t>(m_model.patchesPerPe())));
            }
            tasks.push_back({ mixEntry, local, 0 });
        }
    }
    if (m_model.isAnomalous(m_pe)) {
        tasks.push_back({ m_model.rebuildPairlistEntry(), 0, 0 });
    }
    if (m_model.hasAlternatingPhases()) {
        for (int task = 0; task < RunModel::kPhaseTasksPerIteration; ++task) {
            tasks.push_back({ m_model.phaseEntry(m_pe, iteration, task),
                static_cast<std::int32_t>(task % m_model.patchesPerPe()), 0 });
        }
    }
    for (std::size_t i = tasks.size(); i > 1; --i) { // Fisher-Yates
        std::swap(tasks[i - 1], tasks[rng.below(i)]);
    }
    for (StepTask& task : tasks) {
        advance(static_cast<TimeUs>(rng.below(2)));
        task.event = creation(sendTypeOf(task.entry), task.entry, kTaskLength, 0);
    }
    bracketedUserEvent(user_event::kStepSetup, setupBegin + 1, m_state.now);
    advance(rng.between(1, 3));
    endExecution();

    if (start.multicastEvent >= 0 && m_model.isMulticastTarget(m_pe)) {
        waitUntil(start.multicastTime
            + m_model.broadcastLatency(iteration, RunModel::kMulticastTag, m_pe));
        advance(rng.between(1, 2));
        if (rng.chance(500)) {
            unpack(rng.between(1, 3));
        }
        beginExecution(message_type::kForBoc, entry::kMulticastUpdate, start.multicastEvent, 0,
            kMulticastLength, chareObject());
        advance(rng.between(10, 40));
        endExecution();
    }

    for (const StepTask& task : tasks) {
        advance(rng.between(0, 2));
        if (task.entry == entry::kCompute) {
            runCompute(task, iteration, rng, sends);
            continue;
        }
        beginExecution(deliveryTypeOf(task.entry), task.entry, task.event, m_pe, kTaskLength,
            objectOf(task.entry, task.local));
        advance(m_model.taskDuration(m_pe, task.entry, rng));
        endExecution();
    }
}

void PeSimulator::runCompute(
    const StepTask& task, int iteration, Prng& rng, std::vector<MessageSend>* sends)
{
    const std::int32_t element = task.local;
    beginExecution(message_type::kForChare, entry::kCompute, task.event, m_pe, kTaskLength,
        workerObject(element));
    if (element == 0) {
        advance(1);
        userEventPairBoundary(RecordType::BeginUserEventPair, user_event::kComputeKernel);
    }
    advance(m_model.computeDuration(m_pe, iteration, rng));
    if (element == 0) {
        userEventPairBoundary(RecordType::EndUserEventPair, user_event::kComputeKernel);
        advance(1);
    }
    // Ghosts to the same element number on the neighbouring PEs.
    for (const PeId target : { m_model.leftNeighbour(m_pe), m_model.rightNeighbour(m_pe) }) {
        const auto length = static_cast<std::int32_t>(48 + 64 + 1024 + rng.below(3072));
        sendGhost(target, element, length, rng, sends);
    }
    if (m_pe == m_model.heavySender()) {
        const auto& targets = m_model.heavyTargets();
        for (int extra = 0; extra < RunModel::kHeavyExtraMessagesPerElement; ++extra) {
            const auto slot = static_cast<std::size_t>(
                element * RunModel::kHeavyExtraMessagesPerElement + extra);
            const PeId target = targets[slot % targets.size()];
            const auto length = static_cast<std::int32_t>(48 + 64 + 750 + rng.below(1024));
            sendGhost(target, (element + extra) % m_model.elementsPerPe(), length, rng, sends);
        }
    }
    advance(rng.between(1, 3));
    endExecution();
}

void PeSimulator::sendGhost(PeId target, std::int32_t element, std::int32_t length, Prng& rng,
    std::vector<MessageSend>* sends)
{
    const TimeUs created = m_state.now;
    const EventId event
        = creation(message_type::kForArrayElt, entry::kRecvGhost, length, rng.between(0, 2));
    const bool packed = rng.chance(300);
    if (packed) {
        pack(rng.between(1, 4));
    }
    const TimeUs arrival = created + m_model.messageLatency(m_pe, target, length, rng);
    if (sends != nullptr) {
        sends->push_back({ created, arrival, m_pe, target, event, element, length, packed });
    }
}

void PeSimulator::runGhostExchange(int iteration, std::span<const MessageSend> incoming)
{
    Prng rng(streamSeed(m_model.seed(), kGhostExchangeStream, static_cast<std::uint64_t>(m_pe),
        static_cast<std::uint64_t>(iteration + 1)));
    const bool leaf = m_model.isLeaf(m_pe);
    for (std::size_t i = 0; i < incoming.size(); ++i) {
        const MessageSend& message = incoming[i];
        waitUntil(message.arrival);
        advance(rng.between(1, 2));
        if (message.packed) {
            unpack(rng.between(1, 3));
        }
        beginExecution(message_type::kForChare, entry::kRecvGhost, message.event, message.source,
            message.length, workerObject(message.element));
        if (rng.chance(100)) {
            advance(1);
            userEvent(user_event::kGhostReceived);
        }
        advance(m_model.scaledWork(
            m_pe, 15 + static_cast<TimeUs>(rng.below(46)) + message.length / 200));
        if (leaf && i + 1 == incoming.size()) {
            contribute(iteration, rng);
        }
        advance(1);
        endExecution();
    }
    if (leaf && incoming.empty()) {
        contribute(iteration, rng);
    }
}

IterationStart PeSimulator::runReduction(int iteration, std::span<const Contribution> children)
{
    Prng rng(streamSeed(m_model.seed(), kReductionStream, static_cast<std::uint64_t>(m_pe),
        static_cast<std::uint64_t>(iteration + 1)));
    for (std::size_t i = 0; i < children.size(); ++i) {
        const Contribution& child = children[i];
        waitUntil(child.arrival);
        advance(rng.between(1, 2));
        beginExecution(message_type::kForBoc, entry::kRecvMsg, child.event, child.source,
            kReductionLength, chareObject());
        advance(rng.between(5, 15));
        if (i + 1 == children.size()) {
            contribute(iteration, rng);
        }
        advance(1);
        endExecution();
    }
    IterationStart next;
    if (m_pe != 0) {
        return next;
    }
    if (m_model.hasPe0Roles(m_pe) && iteration >= 0) {
        runPe0Roles(iteration);
    }

    // Main's reduction client broadcasts the next iteration (or the finish).
    waitUntil(m_state.contributionTime + 1);
    advance(rng.between(1, 3));
    beginExecution(message_type::kForChare,
        iteration < 0 ? entry::kInitDone : entry::kIterationDone, m_state.contributionEvent, 0,
        kReductionLength, chareObject());
    const TimeUs clientBegin = m_state.now;
    advance(rng.between(10, 40));
    const bool last = iteration + 1 == m_model.iterations();
    next.broadcastTime = m_state.now;
    next.broadcastEvent = creationBroadcast(message_type::kBocBcast,
        last ? entry::kFinish : entry::kStartStep, kStepBroadcastLength, rng.between(1, 20));
    if (rng.chance(500)) {
        pack(rng.between(1, 3));
    }
    if (m_model.multicastsAfter(iteration)) {
        advance(2);
        next.multicastTime = m_state.now;
        next.multicastEvent = creationMulticast(message_type::kForBoc, entry::kMulticastUpdate,
            kMulticastLength, rng.between(1, 5), m_model.multicastSection());
    }
    advance(1);
    bracketedUserEvent(user_event::kReductionClient, clientBegin, m_state.now);
    advance(rng.between(1, 3));
    endExecution();
    return next;
}

// PE 0 as the root of the load balancer's statistics and the Main chare's reporter: each is
// a local message it sends itself and then executes, before Main's reduction client starts
// the next iteration, so every other PE waits for them. Drawn from a stream of its own, so
// planting the roles changes nothing else in the run.
void PeSimulator::runPe0Roles(int iteration)
{
    Prng rng(
        streamSeed(m_model.seed(), kPe0RolesStream, static_cast<std::uint64_t>(iteration + 1)));
    const auto execute = [&](EntryId entry, TimeUs duration) {
        const EventId event = creation(sendTypeOf(entry), entry, kTaskLength, 0);
        advance(rng.between(1, 3));
        beginExecution(deliveryTypeOf(entry), entry, event, m_pe, kTaskLength, chareObject());
        advance(duration);
        endExecution();
    };
    const SymbolTable& symbols = m_model.symbols();
    execute(symbols.planted(PlantedEntry::ReceiveStats), rng.between(150, 300));
    if (RunModel::balancesAfter(iteration)) {
        execute(symbols.planted(PlantedEntry::LoadBalance), rng.between(2000, 4000));
    }
    execute(symbols.planted(PlantedEntry::ReportProgress), rng.between(30, 80));
}

void PeSimulator::runFinish(const IterationStart& finish)
{
    Prng rng(streamSeed(m_model.seed(), kFinishStream, static_cast<std::uint64_t>(m_pe)));
    waitUntil(finish.broadcastTime
        + m_model.broadcastLatency(m_model.iterations(), RunModel::kStepBroadcastTag, m_pe));
    advance(rng.between(1, 3));
    beginExecution(message_type::kForBoc, entry::kFinish, finish.broadcastEvent, 0,
        kStepBroadcastLength, chareObject());
    advance(rng.between(5, 30));
    endExecution();
    advance(rng.between(1, 10));
    push(RecordType::EndComputation);
}

} // namespace parallax::gen
