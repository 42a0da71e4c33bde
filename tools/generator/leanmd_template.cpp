#include "leanmd_template.h"

#include "prng.h"

#include <algorithm>

namespace parallax::gen {

namespace {

using Kind = LeanMdModel::Kind;
using Phase = LeanMdModel::Phase;
using Route = LeanMdModel::Route;
namespace ep = leanmd_entry;

constexpr int kSdagMessageType = 65535; // mtype of SDAG serial blocks and SDAG_RTS
constexpr EventId kNoEvent = -1;
constexpr EventId kFirstStepEvent = 1000; // start-up creations use the events below
constexpr EventId kSendBlock = LeanMdModel::kKinds * LeanMdModel::kSlotsPerKind;
constexpr EventId kRelayBlock = 2 * LeanMdModel::kNodeSize * 2 * LeanMdModel::kSlotsPerKind;
constexpr int kRouteSpread = 3; // other-node messages go to one of the next 3 nodes

// Shares of the real run's messages (per mille): to the sending PE itself, to the other PE
// of its node; the rest crosses nodes through the comm threads.
constexpr std::uint64_t kSamePePerMille = 230;
constexpr std::uint64_t kSameNodePerMille = 255;
// Pack after a send to another PE, unpack before executing a message from another PE.
constexpr std::uint64_t kPackPerMille = 700;
// Long gaps between two executions of a PE (the process descheduled on the busy machine).
constexpr std::uint64_t kLongGapPerMille = 13;

constexpr std::int32_t kParticleDataLength = 7360;
constexpr std::int32_t kForcesLength = 7328;
constexpr std::int32_t kParticlesLength = 128;
constexpr std::int32_t kConstructorLength = 96;

// Measured quantiles of an entry method's durations on the real run (µs): minimum, 10th, 50th,
// 90th, 99th percentile and a top chosen so that the mean matches the measured one.
using Quantiles = std::array<std::int64_t, 6>;
constexpr Quantiles kSdagRtsTime = { 0, 1, 1, 2, 6, 289 };
constexpr Quantiles kCellCtorTime = { 53, 59, 67, 107, 112, 112 };
constexpr Quantiles kShortTime = { 0, 0, 1, 2, 7, 14 }; // run(), Compute(), createComputes()
constexpr Quantiles kReceiveParticlesTime = { 0, 1, 1, 2, 7, 7 };
constexpr Quantiles kReceiveForcesTime = { 0, 1, 1, 2, 6, 294 };
constexpr Quantiles kCellSerialTime[6] = {
    { 41, 58, 75, 111, 2071, 2071 }, // Cell_serial_0: packs and sends the particles
    { 0, 1, 2, 3, 7, 261 }, // Cell_serial_1: adds one Compute's forces
    { 1, 2, 3, 4, 9, 393 }, // Cell_serial_2: integrates
    { 22, 34, 52, 79, 914, 914 }, // Cell_serial_3: migrates particles
    { 0, 0, 1, 1, 5, 5 }, // Cell_serial_4: takes migrated particles
    { 1, 1, 2, 5, 7, 7 }, // Cell_serial_5
};
constexpr Quantiles kCalculateForcesTime = { 0, 1, 2, 3, 8, 292 };
constexpr Quantiles kComputeSerialTime[3] = {
    { 0, 0, 1, 1, 6, 7 }, // Compute_serial_0: first of a pair's two messages
    { 136, 221, 294, 498, 8599, 8923 }, // Compute_serial_1: pair force kernel
    { 424, 473, 506, 1611, 11398, 11398 }, // Compute_serial_2: self force kernel
};
constexpr Quantiles kGapTime = { 0, 0, 1, 2, 7, 40 };
constexpr Quantiles kRelayTime = { 0, 0, 1, 1, 2, 2 };

// Random stream tags.
constexpr std::uint64_t kTemplateStartupStream = 11;
constexpr std::uint64_t kTemplatePhaseStream = 12;
constexpr std::uint64_t kTemplateRelayStream = 13;
constexpr std::uint64_t kTemplateRouteStream = 14;

std::int64_t draw(Prng& rng, const Quantiles& q)
{
    const std::uint64_t u = rng.below(1000);
    if (u < 100) {
        return rng.between(q[0], q[1]);
    }
    if (u < 500) {
        return rng.between(q[1], q[2]);
    }
    if (u < 900) {
        return rng.between(q[2], q[3]);
    }
    if (u < 990) {
        return rng.between(q[3], q[4]);
    }
    return rng.between(q[4], q[5]);
}

EntryId entryOf(Kind kind)
{
    switch (kind) {
    case Kind::CalculateForces:
        return ep::kCalculateForces;
    case Kind::ReceiveForces:
        return ep::kReceiveForces;
    case Kind::ReceiveParticles:
        break;
    }
    return ep::kReceiveParticles;
}

std::int32_t lengthOf(Kind kind)
{
    switch (kind) {
    case Kind::CalculateForces:
        return kParticleDataLength;
    case Kind::ReceiveForces:
        return kForcesLength;
    case Kind::ReceiveParticles:
        break;
    }
    return kParticlesLength;
}

// Array dimensions of the chare receiving a kind (the id values a BEGIN_PROCESSING carries).
std::int32_t dimensionsOf(Kind kind)
{
    return kind == Kind::CalculateForces ? 6 : 3;
}

SymbolTable leanMdSymbols()
{
    std::vector<ChareType> chares
        = { { "dummy_thread_chare", -1 }, { "dummy_pack_chare", -1 }, { "dummy_unpack_chare", -1 },
              { "SDAG", -1 }, { "Main", -1 }, { "Cell", 3 }, { "Compute", 6 } };
    constexpr int kMain = 4;
    constexpr int kCell = 5;
    constexpr int kCompute = 6;
    std::vector<EntryMethod> entries = {
        { "dummy_thread_ep", 0, 0 },
        { "dummy_pack_ep", 1, 1 },
        { "dummy_unpack_ep", 2, 2 },
        { "SDAG_RTS", 3, 3 },
        { "Main(CkArgMsg* impl_msg)", kMain, 4 },
        { "run()", kMain, 0 },
        { "Main_serial_0", kMain, 0 },
        { "Main_serial_1", kMain, 0 },
        { "Cell()", kCell, 0 },
        { "createComputes()", kCell, 0 },
        { "receiveParticles(const CkVec<Particle> &updates)", kCell, 5 },
        { "receiveForces(int iter, const vec3 *forces, int n)", kCell, 5 },
        { "run()", kCell, 0 },
        { "Cell(CkMigrateMessage* impl_msg)", kCell, 0 },
    };
    for (int serial = 0; serial < 6; ++serial) {
        entries.push_back({ "Cell_serial_" + std::to_string(serial), kCell, 0 });
    }
    entries.push_back({ "Compute()", kCompute, 0 });
    entries.push_back({ "calculateForces(ParticleDataMsg* impl_msg)", kCompute, 6 });
    entries.push_back({ "run()", kCompute, 0 });
    entries.push_back({ "Compute(CkMigrateMessage* impl_msg)", kCompute, 0 });
    for (int serial = 0; serial < 3; ++serial) {
        entries.push_back({ "Compute_serial_" + std::to_string(serial), kCompute, 0 });
    }
    return SymbolTable(std::move(chares), std::move(entries), { 0, 0, 0, 0, 16, 8, 56 });
}

// One message a worker PE executes in a phase.
struct Incoming {
    TimeUs arrival = 0;
    PeId source = 0;
    EventId event = 0;
    Kind kind = Kind::CalculateForces;
    std::int32_t slot = 0;
    bool fromOtherPe = false;
};

// Writes one PE's records.
class LeanMdPe {
public:
    LeanMdPe(const LeanMdModel& model, PeId pe, std::vector<TraceRecord>& records,
        const RecordFlush& flush)
        : m_model(model)
        , m_pe(pe)
        , m_records(records)
        , m_flush(flush)
    { }

    void runWorker();
    void runCommThread();

private:
    struct ObjectValues {
        std::array<std::int32_t, 6> values {};
        std::int32_t count = 4;
    };

    TraceRecord& push(RecordType type);
    void flushRecords()
    {
        m_flush(m_records);
        m_records.clear();
    }
    void waitUntil(TimeUs time);
    void advance(TimeUs duration) { m_now += duration; }
    TimeUs work(Prng& rng, const Quantiles& q) { return draw(rng, q) * m_scale / 1000; }
    void gap(Prng& rng, bool mayBeLong);
    void begin(std::uint16_t messageType, EntryId entry, EventId event, PeId source,
        std::int32_t length, const ObjectValues& object);
    void end();
    void creation(std::uint16_t messageType, EntryId entry, EventId event, std::int32_t length);
    void send(Kind kind, int step, int slot, Prng& rng);
    void serialBlock(EntryId entry, const ObjectValues& object, TimeUs duration);
    void sdagRts(Prng& rng);
    ObjectValues cellObject(int cell) const;
    ObjectValues computeObject(int compute) const;

    // Runs `body` and, if the PE would still be busy at `deadline`, runs it again with all
    // drawn durations scaled down, so that every message of a phase exists by the fixed time
    // its receivers assume.
    template <typename Body> void fitBefore(TimeUs deadline, Body&& body);

    void startup();
    void cellsPhase(int step);
    void incomingPhase(int step, Phase phase);
    void execute(const Incoming& message, int step, Prng& rng, std::vector<int>& received);
    void relayPhase(int step, Phase phase);

    const LeanMdModel& m_model;
    PeId m_pe;
    std::vector<TraceRecord>& m_records;
    const RecordFlush& m_flush;
    TimeUs m_now = 0;
    std::int64_t m_busy = 0;
    std::int64_t m_scale = 1000; // per mille
    EventId m_nextStartupEvent = 0;
    EntryId m_openEntry = 0;
    EventId m_openEvent = 0;
    PeId m_openSource = 0;
    TimeUs m_openBegin = 0;
    std::vector<Incoming> m_incoming;
    std::vector<int> m_received;
};

TraceRecord& LeanMdPe::push(RecordType type)
{
    TraceRecord& record = m_records.emplace_back();
    record.type = type;
    record.time = m_now;
    record.pe = m_pe;
    return record;
}

void LeanMdPe::waitUntil(TimeUs time)
{
    if (time > m_now) {
        push(RecordType::BeginIdle);
        m_now = time;
        push(RecordType::EndIdle);
    }
}

void LeanMdPe::gap(Prng& rng, bool mayBeLong)
{
    if (mayBeLong && rng.chance(kLongGapPerMille)) {
        advance(rng.between(1000, 17000) * m_scale / 1000);
        return;
    }
    advance(work(rng, kGapTime));
}

void LeanMdPe::begin(std::uint16_t messageType, EntryId entry, EventId event, PeId source,
    std::int32_t length, const ObjectValues& object)
{
    TraceRecord& record = push(RecordType::BeginProcessing);
    setMessageFields(record, messageType, entry, event, source, length);
    record.count = object.count;
    std::copy(object.values.begin(), object.values.end(), record.values.begin());
    record.value = m_busy * 9 / 10;
    m_openEntry = entry;
    m_openEvent = event;
    m_openSource = source;
    m_openBegin = m_now;
}

void LeanMdPe::end()
{
    m_busy += m_now - m_openBegin;
    TraceRecord& record = push(RecordType::EndProcessing);
    record.messageType = message_type::kNone;
    record.entry = m_openEntry;
    record.event = m_openEvent;
    record.pe = m_openSource;
    record.value = m_busy * 9 / 10;
}

void LeanMdPe::creation(
    std::uint16_t messageType, EntryId entry, EventId event, std::int32_t length)
{
    TraceRecord& record = push(RecordType::Creation);
    record.messageType = messageType;
    record.entry = entry;
    record.event = event;
    record.length = length;
}

void LeanMdPe::send(Kind kind, int step, int slot, Prng& rng)
{
    advance(rng.between(0, 2));
    creation(message_type::kForArrayElt, entryOf(kind), LeanMdModel::sendEvent(step, kind, slot),
        lengthOf(kind));
    if (m_model.targetOf(m_pe, kind, slot) != m_pe && rng.chance(kPackPerMille)) {
        push(RecordType::BeginPack);
        advance(rng.between(0, 1));
        push(RecordType::EndPack);
    }
}

void LeanMdPe::serialBlock(EntryId entry, const ObjectValues& object, TimeUs duration)
{
    begin(kSdagMessageType, entry, kNoEvent, m_pe, 0, object);
    advance(duration);
    end();
}

void LeanMdPe::sdagRts(Prng& rng)
{
    advance(rng.between(0, 1));
    serialBlock(ep::kSdagRts, {}, work(rng, kSdagRtsTime));
}

LeanMdPe::ObjectValues LeanMdPe::cellObject(int cell) const
{
    ObjectValues object;
    const auto index = m_model.cellIndex(m_pe, cell);
    std::copy(index.begin(), index.end(), object.values.begin());
    object.count = 3;
    return object;
}

LeanMdPe::ObjectValues LeanMdPe::computeObject(int compute) const
{
    ObjectValues object;
    object.values = m_model.computeIndex(m_pe, compute);
    object.count = 6;
    return object;
}

template <typename Body> void LeanMdPe::fitBefore(TimeUs deadline, Body&& body)
{
    const std::size_t mark = m_records.size();
    const TimeUs now = m_now;
    const std::int64_t busy = m_busy;
    for (const std::int64_t scale : { 1000, 960, 920, 880, 840, 800, 700, 500, 300, 0 }) {
        m_records.resize(mark);
        m_now = now;
        m_busy = busy;
        m_scale = scale;
        body();
        if (m_now < deadline) {
            break;
        }
    }
    m_scale = 1000;
}

// Each PE builds its own Cells and Computes (in the real run PE 0 inserts them all).
void LeanMdPe::startup()
{
    Prng rng(streamSeed(m_model.seed(), kTemplateStartupStream, static_cast<std::uint64_t>(m_pe)));
    const auto local = [&](EntryId entry, const ObjectValues& object, const Quantiles& time) {
        const EventId event = m_nextStartupEvent++;
        creation(message_type::kForChare, entry, event, kConstructorLength);
        advance(rng.between(1, 3));
        begin(message_type::kForChare, entry, event, m_pe, kConstructorLength, object);
        advance(work(rng, time));
        end();
        gap(rng, false);
    };
    constexpr int kComputes = LeanMdModel::kPairComputesPerPe + LeanMdModel::kSelfComputesPerPe;
    fitBefore(m_model.phaseStart(0, Phase::Cells), [&]() {
        m_nextStartupEvent = 0;
        if (m_pe == 0) {
            serialBlock(ep::kMainSerial0, {}, work(rng, kShortTime));
            gap(rng, false);
        }
        for (int cell = 0; cell < LeanMdModel::kCellsPerPe; ++cell) {
            local(ep::kCellCtor, cellObject(cell), kCellCtorTime);
        }
        for (int cell = 0; cell < LeanMdModel::kCellsPerPe; ++cell) {
            local(ep::kCreateComputes, cellObject(cell), kShortTime);
        }
        for (int compute = 0; compute < kComputes; ++compute) {
            local(ep::kComputeCtor, computeObject(compute), kShortTime);
            local(ep::kComputeRun, computeObject(compute), kShortTime);
        }
        for (int cell = 0; cell < LeanMdModel::kCellsPerPe; ++cell) {
            local(ep::kCellRun, cellObject(cell), kShortTime);
        }
    });
}

void LeanMdPe::cellsPhase(int step)
{
    waitUntil(m_model.phaseStart(step, Phase::Cells));
    const auto stream = static_cast<std::uint64_t>(step) * 3;
    fitBefore(m_model.phaseStart(step, Phase::Computes), [&]() {
        Prng rng(streamSeed(
            m_model.seed(), kTemplatePhaseStream, static_cast<std::uint64_t>(m_pe), stream));
        for (int cell = 0; cell < LeanMdModel::kCellsPerPe; ++cell) {
            const ObjectValues object = cellObject(cell);
            const auto sendAll = [&](EntryId serial, Kind kind) {
                const TimeUs duration = work(rng, kCellSerialTime[serial - ep::kCellSerial0]);
                begin(kSdagMessageType, serial, kNoEvent, m_pe, 0, object);
                const TimeUs begun = m_now;
                advance(duration / 2);
                for (int m = 0; m < LeanMdModel::kNeighbours; ++m) {
                    send(kind, step, cell * LeanMdModel::kNeighbours + m, rng);
                }
                // The drawn duration includes the sends.
                advance(std::max<TimeUs>(1, begun + duration - m_now));
                end();
                sdagRts(rng);
                gap(rng, false);
            };
            if (LeanMdModel::migrates(step)) {
                sendAll(ep::kCellSerial0 + 3, Kind::ReceiveParticles);
            }
            sendAll(ep::kCellSerial0, Kind::CalculateForces);
        }
    });
}

void LeanMdPe::incomingPhase(int step, Phase phase)
{
    const TimeUs start = m_model.phaseStart(step, phase);
    m_incoming.clear();
    const auto collect = [&](Kind kind) {
        for (int slot = 0; slot < LeanMdModel::kSlotsPerKind; ++slot) {
            Incoming message;
            message.kind = kind;
            message.slot = slot;
            message.source = m_model.sourceOf(m_pe, kind, slot);
            message.event = LeanMdModel::sendEvent(step, kind, slot);
            const auto jitter = static_cast<TimeUs>(
                mix64(static_cast<std::uint64_t>(slot) * 7919U + static_cast<std::uint64_t>(m_pe))
                % 5);
            switch (m_model.routeOf(kind, slot)) {
            case Route::SamePe:
                message.arrival = start;
                break;
            case Route::SameNode:
                message.arrival = start + 2 + jitter;
                message.fromOtherPe = true;
                break;
            case Route::OtherNode: {
                const int index
                    = (m_pe % LeanMdModel::kNodeSize) * m_model.relayedCount(step, phase)
                    + m_model.relayRank(step, kind, slot);
                message.arrival = m_model.relayTime(step, phase, index) + 2 + jitter;
                message.source = m_model.commThreadOf(m_pe);
                message.event = LeanMdModel::relayEvent(step, phase, index);
                message.fromOtherPe = true;
                break;
            }
            }
            m_incoming.push_back(message);
        }
    };
    if (phase == Phase::Computes) {
        collect(Kind::CalculateForces);
    } else {
        collect(Kind::ReceiveForces);
        if (LeanMdModel::migrates(step)) {
            collect(Kind::ReceiveParticles);
        }
    }
    std::stable_sort(m_incoming.begin(), m_incoming.end(),
        [](const Incoming& a, const Incoming& b) { return a.arrival < b.arrival; });

    const Phase next = phase == Phase::Computes ? Phase::Integrate : Phase::Cells;
    const int nextStep = phase == Phase::Computes ? step : step + 1;
    const auto stream = static_cast<std::uint64_t>(step) * 3 + static_cast<std::uint64_t>(phase);
    waitUntil(start);
    fitBefore(m_model.phaseStart(nextStep, next), [&]() {
        Prng rng(streamSeed(
            m_model.seed(), kTemplatePhaseStream, static_cast<std::uint64_t>(m_pe), stream));
        m_received.assign(LeanMdModel::kPairComputesPerPe, 0);
        for (const Incoming& message : m_incoming) {
            execute(message, step, rng, m_received);
        }
        if (phase == Phase::Integrate) {
            for (int cell = 0; cell < LeanMdModel::kCellsPerPe; ++cell) {
                serialBlock(ep::kCellSerial0 + 2, cellObject(cell), work(rng, kCellSerialTime[2]));
                gap(rng, false);
            }
        }
    });
}

void LeanMdPe::execute(const Incoming& message, int step, Prng& rng, std::vector<int>& received)
{
    waitUntil(message.arrival);
    if (message.fromOtherPe && rng.chance(kPackPerMille)) {
        push(RecordType::BeginUnpack);
        advance(rng.between(0, 1));
        push(RecordType::EndUnpack);
    }
    const std::int32_t slot = message.slot;
    const EntryId entry = entryOf(message.kind);
    if (message.kind == Kind::CalculateForces) {
        constexpr int kPairSlots = 2 * LeanMdModel::kPairComputesPerPe;
        const bool pair = slot < kPairSlots;
        const int compute = pair ? slot / 2 : LeanMdModel::kPairComputesPerPe + slot - kPairSlots;
        const ObjectValues object = computeObject(compute);
        begin(message_type::kForChare, entry, message.event, message.source, kParticleDataLength,
            object);
        advance(work(rng, kCalculateForcesTime));
        end();
        advance(rng.between(0, 1));
        if (pair && ++received[static_cast<std::size_t>(compute)] == 1) {
            serialBlock(ep::kComputeSerial0, object, work(rng, kComputeSerialTime[0]));
        } else {
            const int serial = pair ? 1 : 2;
            const TimeUs duration = work(rng, kComputeSerialTime[serial]);
            begin(kSdagMessageType, ep::kComputeSerial0 + serial, kNoEvent, m_pe, 0, object);
            const TimeUs begun = m_now;
            advance(duration * 9 / 10);
            if (pair) {
                send(Kind::ReceiveForces, step, 2 * compute, rng);
                send(Kind::ReceiveForces, step, 2 * compute + 1, rng);
            } else {
                send(Kind::ReceiveForces, step, slot, rng);
            }
            advance(std::max<TimeUs>(1, begun + duration - m_now));
            end();
        }
    } else {
        const ObjectValues object = cellObject(slot % LeanMdModel::kCellsPerPe);
        const bool forces = message.kind == Kind::ReceiveForces;
        begin(message_type::kForChare, entry, message.event, message.source, lengthOf(message.kind),
            object);
        advance(work(rng, forces ? kReceiveForcesTime : kReceiveParticlesTime));
        end();
        advance(rng.between(0, 1));
        const int serial = forces ? 1 : 4;
        serialBlock(ep::kCellSerial0 + serial, object, work(rng, kCellSerialTime[serial]));
    }
    sdagRts(rng);
    gap(rng, message.kind == Kind::CalculateForces);
}

void LeanMdPe::runWorker()
{
    m_now = m_model.startupTime() + m_pe % 7;
    push(RecordType::BeginComputation);
    startup();
    flushRecords();
    for (int step = 0; step < m_model.steps(); ++step) {
        cellsPhase(step);
        incomingPhase(step, Phase::Computes);
        incomingPhase(step, Phase::Integrate);
        flushRecords();
    }
    waitUntil(m_model.endTime());
    push(RecordType::EndComputation);
    flushRecords();
}

// The comm thread of a node relays, in a fixed order, every message its workers receive from
// other nodes: a BEGIN_PROCESSING from the sender, the CREATION of the local copy, an END.
void LeanMdPe::relayPhase(int step, Phase phase)
{
    Prng rng(streamSeed(m_model.seed(), kTemplateRelayStream, static_cast<std::uint64_t>(m_pe),
        static_cast<std::uint64_t>(step) * 3 + static_cast<std::uint64_t>(phase)));
    const PeId firstWorker = (m_pe - m_model.workerPes()) * LeanMdModel::kNodeSize;
    int index = 0;
    for (int rank = 0; rank < LeanMdModel::kNodeSize; ++rank) {
        const PeId worker = firstWorker + rank;
        for (const Kind kind :
            { Kind::CalculateForces, Kind::ReceiveForces, Kind::ReceiveParticles }) {
            const bool inPhase = phase == Phase::Computes ? kind == Kind::CalculateForces
                                                          : kind == Kind::ReceiveForces
                    || (kind == Kind::ReceiveParticles && LeanMdModel::migrates(step));
            if (!inPhase) {
                continue;
            }
            for (int slot = 0; slot < LeanMdModel::kSlotsPerKind; ++slot) {
                if (m_model.relayRank(step, kind, slot) < 0) {
                    continue;
                }
                m_now = m_model.relayTime(step, phase, index);
                ObjectValues zeros;
                zeros.count = dimensionsOf(kind);
                begin(message_type::kForArrayElt, entryOf(kind),
                    LeanMdModel::sendEvent(step, kind, slot), m_model.sourceOf(worker, kind, slot),
                    lengthOf(kind), zeros);
                creation(message_type::kForArrayElt, entryOf(kind),
                    LeanMdModel::relayEvent(step, phase, index), lengthOf(kind));
                advance(draw(rng, kRelayTime));
                end();
                ++index;
            }
        }
    }
}

void LeanMdPe::runCommThread()
{
    m_now = m_model.startupTime() + 10;
    push(RecordType::BeginComputation);
    for (int step = 0; step < m_model.steps(); ++step) {
        relayPhase(step, Phase::Computes);
        relayPhase(step, Phase::Integrate);
        flushRecords();
    }
    m_now = std::max(m_now, m_model.endTime());
    push(RecordType::EndComputation);
    flushRecords();
}

} // namespace

LeanMdModel::LeanMdModel(const GeneratorOptions& options)
    : m_symbols(leanMdSymbols())
    , m_seed(options.seed)
    , m_workers(options.pes)
    , m_steps(options.iterations
              ? *options.iterations
              : static_cast<int>(std::max<std::int64_t>(
                  1, (options.eventsPerPe + kRecordsPerStep / 2) / kRecordsPerStep)))
{
    // The routes are part of the template: the same whatever the seed.
    for (int kind = 0; kind < kKinds; ++kind) {
        auto& routes = m_routes[static_cast<std::size_t>(kind)];
        auto& distances = m_distances[static_cast<std::size_t>(kind)];
        auto& ranks = m_relayRanks[static_cast<std::size_t>(kind)];
        int& relayed = m_relayed[static_cast<std::size_t>(kind)];
        for (int slot = 0; slot < kSlotsPerKind; ++slot) {
            const std::uint64_t hash = streamSeed(kTemplateRouteStream,
                static_cast<std::uint64_t>(kind), static_cast<std::uint64_t>(slot));
            const std::uint64_t share = hash % 1000;
            Route route = share < kSamePePerMille             ? Route::SamePe
                : share < kSamePePerMille + kSameNodePerMille ? Route::SameNode
                                                              : Route::OtherNode;
            if (route == Route::OtherNode && nodes() < 2) {
                route = Route::SameNode;
            }
            routes.push_back(route);
            distances.push_back(1
                + static_cast<int>((hash / 1000)
                    % std::min<std::uint64_t>(
                        kRouteSpread, static_cast<std::uint64_t>(std::max(1, nodes() - 1)))));
            ranks.push_back(route == Route::OtherNode ? relayed++ : -1);
        }
    }
}

TimeUs LeanMdModel::phaseStart(int step, Phase phase) const
{
    constexpr TimeUs kStep = kCellsPhase + kComputesPhase + kIntegratePhase;
    TimeUs time = kStartupBegin + kStartupLength + static_cast<TimeUs>(step) * kStep;
    if (phase != Phase::Cells) {
        time += kCellsPhase;
    }
    if (phase == Phase::Integrate) {
        time += kComputesPhase;
    }
    return time;
}

LeanMdModel::Route LeanMdModel::routeOf(Kind kind, int slot) const
{
    return m_routes[static_cast<std::size_t>(kind)][static_cast<std::size_t>(slot)];
}

PeId LeanMdModel::alongRoute(PeId pe, Kind kind, int slot, int direction) const
{
    const PeId node = pe / kNodeSize;
    const PeId rank = pe % kNodeSize;
    switch (routeOf(kind, slot)) {
    case Route::SamePe:
        return pe;
    case Route::SameNode:
        return node * kNodeSize + (rank + kNodeSize + direction) % kNodeSize;
    case Route::OtherNode:
        break;
    }
    const int distance
        = m_distances[static_cast<std::size_t>(kind)][static_cast<std::size_t>(slot)];
    return ((node + nodes() + direction * (distance % nodes())) % nodes()) * kNodeSize + rank;
}

PeId LeanMdModel::targetOf(PeId sender, Kind kind, int slot) const
{
    return alongRoute(sender, kind, slot, +1);
}

PeId LeanMdModel::sourceOf(PeId receiver, Kind kind, int slot) const
{
    return alongRoute(receiver, kind, slot, -1);
}

EventId LeanMdModel::sendEvent(int step, Kind kind, int slot)
{
    return kFirstStepEvent + step * kSendBlock + static_cast<EventId>(kind) * kSlotsPerKind + slot;
}

int LeanMdModel::relayedCount(int step, Phase phase) const
{
    if (phase == Phase::Computes) {
        return m_relayed[static_cast<std::size_t>(Kind::CalculateForces)];
    }
    return m_relayed[static_cast<std::size_t>(Kind::ReceiveForces)]
        + (migrates(step) ? m_relayed[static_cast<std::size_t>(Kind::ReceiveParticles)] : 0);
}

int LeanMdModel::relayRank(int /*step*/, Kind kind, int slot) const
{
    const int rank = m_relayRanks[static_cast<std::size_t>(kind)][static_cast<std::size_t>(slot)];
    if (rank < 0 || kind != Kind::ReceiveParticles) {
        return rank;
    }
    return m_relayed[static_cast<std::size_t>(Kind::ReceiveForces)] + rank;
}

TimeUs LeanMdModel::relayTime(int step, Phase phase, int index) const
{
    return phaseStart(step, phase) + kRelayLead + static_cast<TimeUs>(index) * kRelaySpacing;
}

EventId LeanMdModel::relayEvent(int step, Phase phase, int index)
{
    return kFirstStepEvent + step * kRelayBlock + (phase == Phase::Integrate ? kRelayBlock / 2 : 0)
        + index;
}

std::array<std::int32_t, 3> LeanMdModel::cellIndex(PeId pe, int cell) const
{
    const std::int64_t global = static_cast<std::int64_t>(pe) * kCellsPerPe + cell;
    return { static_cast<std::int32_t>(global % 3), static_cast<std::int32_t>((global / 3) % 3),
        static_cast<std::int32_t>(global / 9) };
}

// Pair Compute i joins the PE's Cell i % 7 with a Cell a little further on; self Compute j
// joins Cell j with itself.
std::array<std::int32_t, 6> LeanMdModel::computeIndex(PeId pe, int compute) const
{
    const int cell = compute % kCellsPerPe;
    const auto first = cellIndex(pe, cell);
    std::array<std::int32_t, 3> second = first;
    if (compute < kPairComputesPerPe) {
        const std::int64_t cells = static_cast<std::int64_t>(m_workers) * kCellsPerPe;
        const std::int64_t other
            = (static_cast<std::int64_t>(pe) * kCellsPerPe + cell + 1 + compute / kCellsPerPe)
            % cells;
        second = cellIndex(
            static_cast<PeId>(other / kCellsPerPe), static_cast<int>(other % kCellsPerPe));
    }
    return { first[0], first[1], first[2], second[0], second[1], second[2] };
}

void simulateLeanMdPe(
    const LeanMdModel& model, PeId pe, std::vector<TraceRecord>& buffer, const RecordFlush& flush)
{
    buffer.clear();
    LeanMdPe simulator(model, pe, buffer, flush);
    if (model.isCommThread(pe)) {
        simulator.runCommThread();
    } else {
        simulator.runWorker();
    }
}

} // namespace parallax::gen
