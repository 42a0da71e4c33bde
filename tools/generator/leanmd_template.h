#pragma once

#include "generator_options.h"
#include "symbol_table.h"
#include "trace_types.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace parallax::gen {

// `--like leanmd-smp`: a run shaped like a measured LeanMD run on SMP nodes (Charm++'s
// examples/charm++/leanmd, 3-D Cell and 6-D Compute arrays written with SDAG, on nodes of 2
// worker PEs and a comm thread), at any even number of worker PEs. docs/generator.md lists
// what the template reproduces and how it was checked against the real run.
//
// Every time step has three phases at fixed times, the same on every PE, so that any PE can
// tell when and under which event number another PE created a message without simulating it:
//   A  every Cell runs Cell_serial_0, which sends its particles to the 27 Computes around it
//      (calculateForces, 7360 bytes); every 20th step Cell_serial_3 also migrates particles
//      to the 27 neighbouring Cells (receiveParticles, 128 bytes);
//   B  every Compute runs calculateForces per message; a pair Compute runs Compute_serial_0
//      after its first message and Compute_serial_1 (the force kernel) after its second, a
//      self Compute Compute_serial_2 after its only one; each sends the forces back to its
//      Cells (receiveForces, 7328 bytes); SDAG_RTS after every serial block;
//   C  every Cell runs receiveForces and Cell_serial_1 per message (and receiveParticles and
//      Cell_serial_4 per migration message), then Cell_serial_2.
// Message slot q of a kind sent by PE s goes to the PE routeOf(kind, q) away from s, where it
// is received in slot q: the same-PE, same-node and other-node shares of the real run. A
// message from another node is relayed by the receiving node's comm thread (BEGIN, CREATION,
// END on the comm-thread PE), at a time and event number fixed by its slot. Durations are
// drawn from the measured quantiles of each entry method.
class LeanMdModel {
public:
    enum class Kind { CalculateForces = 0, ReceiveForces = 1, ReceiveParticles = 2 };
    enum class Phase { Cells = 0, Computes = 1, Integrate = 2 };
    enum class Route { SamePe, SameNode, OtherNode };

    static constexpr int kNodeSize = 2; // worker PEs per SMP node
    static constexpr int kCellsPerPe = 7;
    static constexpr int kNeighbours = 27; // Computes per Cell, Cells to migrate to
    static constexpr int kPairComputesPerPe = 13 * kCellsPerPe;
    static constexpr int kSelfComputesPerPe = kCellsPerPe;
    static constexpr int kSlotsPerKind = kNeighbours * kCellsPerPe; // = 2 pair + 1 self per Cell
    static constexpr int kMigrateEvery = 20; // steps
    static constexpr int kKinds = 3;
    // Records a worker PE writes per step, on average (measured on generated runs), to turn
    // --events-per-pe into a number of steps.
    static constexpr int kRecordsPerStep = 3600;

    explicit LeanMdModel(const GeneratorOptions& options);

    const SymbolTable& symbols() const { return m_symbols; }
    std::uint64_t seed() const { return m_seed; }
    PeId workerPes() const { return m_workers; }
    PeId totalPes() const { return m_workers + nodes(); }
    PeId nodes() const { return m_workers / kNodeSize; }
    int steps() const { return m_steps; }
    bool isCommThread(PeId pe) const { return pe >= m_workers; }
    PeId commThreadOf(PeId worker) const { return m_workers + worker / kNodeSize; }
    static bool migrates(int step) { return (step + 1) % kMigrateEvery == 0; }

    TimeUs phaseStart(int step, Phase phase) const;
    TimeUs endTime() const { return phaseStart(m_steps, Phase::Cells); }
    TimeUs startupTime() const { return kStartupBegin; }

    // Routing of slot `slot` of a kind (the same for every sender).
    Route routeOf(Kind kind, int slot) const;
    PeId targetOf(PeId sender, Kind kind, int slot) const;
    PeId sourceOf(PeId receiver, Kind kind, int slot) const;
    // Event number of the sender's CREATION of slot `slot` in `step`.
    static EventId sendEvent(int step, Kind kind, int slot);
    // Messages from other nodes a worker receives in a phase, and the position of a slot
    // among them (-1 when that slot is not relayed).
    int relayedCount(int step, Phase phase) const;
    int relayRank(int step, Kind kind, int slot) const;
    // The comm thread's relay `index` of `phase` in `step`: its time and event number.
    TimeUs relayTime(int step, Phase phase, int index) const;
    static EventId relayEvent(int step, Phase phase, int index);

    // Array indices: Cell `cell` of `pe` (3-D), and Compute `compute` of `pe` (6-D: the two
    // Cells it joins).
    std::array<std::int32_t, 3> cellIndex(PeId pe, int cell) const;
    std::array<std::int32_t, 6> computeIndex(PeId pe, int compute) const;

    // Fixed time layout of a step (µs).
    static constexpr TimeUs kStartupBegin = 50000;
    static constexpr TimeUs kStartupLength = 5000;
    static constexpr TimeUs kCellsPhase = 4000;
    static constexpr TimeUs kComputesPhase = 120000;
    static constexpr TimeUs kIntegratePhase = 5000;
    static constexpr TimeUs kRelayLead = 4;
    static constexpr TimeUs kRelaySpacing = 3;

private:
    // The PE `direction` (+1: receiver, -1: sender) away from `pe` along slot `slot`.
    PeId alongRoute(PeId pe, Kind kind, int slot, int direction) const;

    SymbolTable m_symbols;
    std::uint64_t m_seed;
    PeId m_workers;
    int m_steps;
    std::array<std::vector<Route>, kKinds> m_routes;
    std::array<std::vector<int>, kKinds> m_distances; // node distance of an OtherNode slot
    std::array<std::vector<int>, kKinds> m_relayRanks;
    std::array<int, kKinds> m_relayed {};
};

// Entry method ids of the template's symbol table.
namespace leanmd_entry {
inline constexpr EntryId kSdagRts = 3;
inline constexpr EntryId kMainCtor = 4;
inline constexpr EntryId kMainSerial0 = 6;
inline constexpr EntryId kCellCtor = 8;
inline constexpr EntryId kCreateComputes = 9;
inline constexpr EntryId kReceiveParticles = 10;
inline constexpr EntryId kReceiveForces = 11;
inline constexpr EntryId kCellRun = 12;
inline constexpr EntryId kCellSerial0 = 14; // ..5 follow
inline constexpr EntryId kComputeCtor = 20;
inline constexpr EntryId kCalculateForces = 21;
inline constexpr EntryId kComputeRun = 22;
inline constexpr EntryId kComputeSerial0 = 24; // ..2 follow
} // namespace leanmd_entry

// Receives a PE's records a step at a time, in order; the buffer is emptied after each call.
using RecordFlush = std::function<void(const std::vector<TraceRecord>&)>;

// Generates every log record of PE `pe` (worker or comm thread), BEGIN_COMPUTATION to
// END_COMPUTATION, into `buffer`, handing them to `flush` after the start-up and after every
// step, so that a PE of any length needs only one step's records in memory.
void simulateLeanMdPe(
    const LeanMdModel& model, PeId pe, std::vector<TraceRecord>& buffer, const RecordFlush& flush);

} // namespace parallax::gen
