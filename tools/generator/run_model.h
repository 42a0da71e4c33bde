#pragma once

#include "generator_options.h"
#include "planted_classes.h"
#include "prng.h"
#include "symbol_table.h"
#include "trace_types.h"

#include <array>
#include <cstdint>
#include <vector>

namespace parallax::gen {

// How big the simulated program is: Worker elements per PE and iterations.
struct RunSize {
    int elementsPerPe = 8;
    int iterations = 1;
};

// Picks the run size so that each PE writes about `eventsPerPe` log records: with
// --iterations the elements per PE follow, otherwise 8 elements per PE and the iterations.
RunSize chooseRunSize(const GeneratorOptions& options);

// The static description of the simulated Charm++ program and machine: which PE owns which
// array elements, who talks to whom, the reduction spanning tree, message latencies and the
// duration distributions of the entry methods, including the planted problems. Immutable
// and shared by all threads.
class RunModel {
public:
    RunModel(const GeneratorOptions& options, const SymbolTable& symbols, RunSize size);

    const SymbolTable& symbols() const { return m_symbols; }
    std::uint64_t seed() const { return m_seed; }
    PeId numPes() const { return m_numPes; }
    int elementsPerPe() const { return m_elementsPerPe; }
    int patchesPerPe() const { return m_patchesPerPe; }
    int iterations() const { return m_iterations; }
    // PEs per SMP node; 1 for a non-SMP run.
    int nodeSize() const { return m_nodeSize; }
    bool isSmp() const { return m_smp; }

    // Reduction spanning tree: a binary heap over the PEs, PE 0 is the root (and hosts Main).
    PeId parentOf(PeId pe) const { return (pe - 1) / 2; }
    bool isLeaf(PeId pe) const { return 2 * static_cast<std::int64_t>(pe) + 1 >= m_numPes; }
    // Children of `pe` in the reduction tree (0, 1 or 2 PEs).
    int childrenOf(PeId pe, std::array<PeId, 2>& children) const;

    PeId leftNeighbour(PeId pe) const { return (pe + m_numPes - 1) % m_numPes; }
    PeId rightNeighbour(PeId pe) const { return (pe + 1) % m_numPes; }
    // Distinct PEs whose Worker elements send ghosts to `pe`, ascending.
    void ghostSources(PeId pe, std::vector<PeId>& sources) const;

    // Planted problems.
    bool isOverloaded(PeId pe) const { return m_overloaded[static_cast<std::size_t>(pe)]; }
    bool hasHeavySender() const { return m_heavySender >= 0; }
    PeId heavySender() const { return m_heavySender; }
    const std::vector<PeId>& heavyTargets() const { return m_heavyTargets; }
    bool isHeavyTarget(PeId pe) const;

    // Planted classes.
    const std::vector<PeClass>& peClasses() const { return m_classes; }
    PeClass peClassOf(PeId pe) const { return m_classes[static_cast<std::size_t>(pe)]; }
    bool isAnomalous(PeId pe) const { return peClassOf(pe) == PeClass::Anomalous; }
    bool hasPe0Roles(PeId pe) const { return pe == 0 && m_specialPe0; }
    bool hasAlternatingPhases() const { return m_alternatingPhases; }
    bool hasDistinctIndices() const { return m_distinctIndices; }
    // Load balancing (CentralLB::LoadBalance on PE 0) after this iteration.
    static bool balancesAfter(int iteration) { return iteration % 4 == 3; }
    // The phase entry method (computeBonded or computeNonbonded) of phase task `task` of
    // `pe` in `iteration`: the first half of the PEs runs computeBonded in the first half of
    // the iterations, the second half the reverse; the middle iteration of an odd count runs
    // half of its tasks of each, so that every PE's whole-run totals are alike.
    EntryId phaseEntry(PeId pe, int iteration, int task) const;
    EntryId rebuildPairlistEntry() const { return m_rebuildPairlist; }

    // Section of WorkerMgr reached by the occasional CREATION_MULTICAST from Main.
    const std::vector<PeId>& multicastSection() const { return m_multicastSection; }
    bool isMulticastTarget(PeId pe) const;
    // Whether Main multicasts an update after iteration `iteration` (read in iteration+1).
    bool multicastsAfter(int iteration) const;

    // Array element indices: Worker element `element` of `pe` is 1-D index pe*W+element;
    // Patch `patch` of `pe` is a 3-D index of an 8 x 8 x Z block.
    std::int32_t workerIndex(PeId pe, int element) const;
    std::array<std::int32_t, 3> patchIndex(PeId pe, int patch) const;

    TimeUs beginComputationTime(PeId pe) const;
    // Process CPU time already used when tracing starts (the base of the cpu fields).
    std::int64_t cpuTimeBase(PeId pe) const;

    // Latency of the spanning-tree delivery of broadcast/multicast `tag` of `iteration`
    // (-1 = start-up) to `target`. Pure function, so the sender need not know it.
    TimeUs broadcastLatency(int iteration, int tag, PeId target) const;
    // Network latency of a point-to-point message; jitter is drawn from the sender's stream.
    TimeUs messageLatency(PeId from, PeId to, int length, Prng& rng) const;
    // Arrival time at the parent of the reduction contribution `child` created at `created`.
    TimeUs contributionArrival(PeId child, int iteration, TimeUs created) const;

    // Duration of one Worker::compute (planted bimodality, overload and heavy PEs applied).
    TimeUs computeDuration(PeId pe, int iteration, Prng& rng) const;
    // Duration of a queued local task other than Worker::compute (Patch::integrate, a mix
    // entry, the anomalous and the phase entries), heavy PEs' factor applied.
    TimeUs taskDuration(PeId pe, EntryId entry, Prng& rng) const;
    // Applies the heavy PEs' work factor to a duration drawn for `pe`.
    TimeUs scaledWork(PeId pe, TimeUs duration) const;
    // A mix entry method: a few are picked often, most rarely (Zipf-like).
    bool hasMixEntries() const { return !m_mixCumulativeWeight.empty(); }
    EntryId pickMixEntry(Prng& rng) const;
    TimeUs mixDuration(EntryId entry, Prng& rng) const;

    // Tags of broadcastLatency: the step broadcast and the multicast of an iteration (the
    // start-up group creations use their slot number 0..3 with iteration -1).
    static constexpr int kStepBroadcastTag = 0;
    static constexpr int kMulticastTag = 1;

    static constexpr int kHeavyExtraMessagesPerElement = 36;
    static constexpr int kBimodalSlowPerMille = 200;
    static constexpr int kBimodalSlowFactor = 4;
    static constexpr int kPhaseTasksPerIteration = 4;

private:
    bool sameNode(PeId a, PeId b) const { return a / m_nodeSize == b / m_nodeSize; }

    const SymbolTable& m_symbols;
    std::uint64_t m_seed;
    PeId m_numPes;
    int m_elementsPerPe;
    int m_patchesPerPe;
    int m_iterations;
    int m_nodeSize;
    bool m_smp;
    int m_treeDepth;
    std::vector<bool> m_overloaded;
    double m_overloadFactor;
    std::vector<PeId> m_slowIterations;
    double m_slowIterationFactor;
    bool m_bimodal;
    PeId m_heavySender = -1;
    std::vector<PeId> m_heavyTargets; // sorted
    std::vector<PeId> m_multicastSection; // sorted
    std::vector<std::uint64_t> m_mixCumulativeWeight;
    std::vector<PeClass> m_classes;
    double m_heavyFactor;
    bool m_specialPe0;
    bool m_alternatingPhases;
    bool m_distinctIndices;
    EntryId m_rebuildPairlist; // -1 unless anomalous PEs are planted
    EntryId m_computeBonded; // -1 unless the phases are planted
    EntryId m_computeNonbonded;
};

} // namespace parallax::gen
