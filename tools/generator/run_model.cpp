#include "run_model.h"

#include <algorithm>
#include <cmath>

namespace parallax::gen {

namespace {

// Stream tags of the hash-derived (not drawn) quantities.
constexpr std::uint64_t kBroadcastTag = 0xB0ADCA57;
constexpr std::uint64_t kContributionTag = 0xC0B7B1B0;
constexpr std::uint64_t kPeConstantTag = 0x9E5EED;

// Approximate log records per PE: start-up, one iteration, and their per-element parts.
// Measured on generated runs; only used to size the run.
constexpr double kStartupRecords = 40.0;
constexpr double kStartupRecordsPerElement = 4.5;
constexpr double kIterationRecords = 15.0;
constexpr double kIterationRecordsPerElement = 13.85;
constexpr int kDefaultElementsPerPe = 8;
// Each phase task of --alternating-phases adds its CREATION, BEGIN and END.
constexpr double kPhaseTaskRecords = 3.0 * RunModel::kPhaseTasksPerIteration;

} // namespace

RunSize chooseRunSize(const GeneratorOptions& options)
{
    RunSize size;
    const auto events = static_cast<double>(options.eventsPerPe);
    const double iterationRecords
        = kIterationRecords + (options.alternatingPhases ? kPhaseTaskRecords : 0.0);
    if (options.iterations) {
        size.iterations = *options.iterations;
        const double iterations = size.iterations;
        const double elements = (events - kStartupRecords - iterationRecords * iterations)
            / (kStartupRecordsPerElement + kIterationRecordsPerElement * iterations);
        size.elementsPerPe = static_cast<int>(std::clamp(std::round(elements), 1.0, 50000.0));
    } else {
        size.elementsPerPe = kDefaultElementsPerPe;
        const double perIteration
            = iterationRecords + kIterationRecordsPerElement * kDefaultElementsPerPe;
        const double startup = kStartupRecords + kStartupRecordsPerElement * kDefaultElementsPerPe;
        size.iterations = static_cast<int>(
            std::clamp(std::round((events - startup) / perIteration), 1.0, 1.0e6));
    }
    return size;
}

RunModel::RunModel(const GeneratorOptions& options, const SymbolTable& symbols, RunSize size)
    : m_symbols(symbols)
    , m_seed(options.seed)
    , m_numPes(options.pes)
    , m_elementsPerPe(size.elementsPerPe)
    , m_patchesPerPe((size.elementsPerPe + 1) / 2)
    , m_iterations(size.iterations)
    , m_nodeSize(options.smpNodeSize > 0 ? options.smpNodeSize : 1)
    , m_smp(options.smpNodeSize > 0)
    , m_treeDepth(0)
    , m_overloaded(static_cast<std::size_t>(options.pes), false)
    , m_overloadFactor(options.overloadFactor)
    , m_slowIterations(options.slowIterations)
    , m_slowIterationFactor(options.slowIterationFactor)
    , m_bimodal(options.bimodalEntry)
    , m_classes(plantPeClasses(options))
    , m_heavyFactor(options.heavyFactor)
    , m_specialPe0(options.specialPe0)
    , m_alternatingPhases(options.alternatingPhases)
    , m_distinctIndices(options.distinctIndices)
    , m_rebuildPairlist(symbols.planted(PlantedEntry::RebuildPairlist))
    , m_computeBonded(symbols.planted(PlantedEntry::ComputeBonded))
    , m_computeNonbonded(symbols.planted(PlantedEntry::ComputeNonbonded))
{
    while ((PeId { 1 } << m_treeDepth) < m_numPes && m_treeDepth < 30) {
        ++m_treeDepth;
    }
    for (const PeId pe : options.overloadedPes) {
        m_overloaded[static_cast<std::size_t>(pe)] = true;
    }
    if (options.heavySender) {
        m_heavySender = *options.heavySender;
        const PeId targets = std::min<PeId>(16, m_numPes - 1);
        for (PeId i = 1; i <= targets; ++i) {
            m_heavyTargets.push_back((m_heavySender + i) % m_numPes);
        }
        if (m_heavyTargets.empty()) {
            m_heavyTargets.push_back(m_heavySender); // a one-PE run sends to itself
        }
        std::sort(m_heavyTargets.begin(), m_heavyTargets.end());
    }
    const PeId sectionSize = std::min<PeId>(8, m_numPes);
    for (PeId i = 0; i < sectionSize; ++i) {
        m_multicastSection.push_back(
            static_cast<PeId>(static_cast<std::int64_t>(i) * m_numPes / sectionSize));
    }
    const int mixCount = symbols.entryCount() - symbols.firstMixEntry();
    std::uint64_t total = 0;
    for (int rank = 0; rank < mixCount; ++rank) {
        total += 1 + 1000 / static_cast<std::uint64_t>(rank + 1);
        m_mixCumulativeWeight.push_back(total);
    }
}

int RunModel::childrenOf(PeId pe, std::array<PeId, 2>& children) const
{
    int count = 0;
    for (std::int64_t child = 2 * static_cast<std::int64_t>(pe) + 1;
         child <= 2 * static_cast<std::int64_t>(pe) + 2 && child < m_numPes; ++child) {
        children[static_cast<std::size_t>(count++)] = static_cast<PeId>(child);
    }
    return count;
}

void RunModel::ghostSources(PeId pe, std::vector<PeId>& sources) const
{
    sources.clear();
    sources.push_back(leftNeighbour(pe));
    sources.push_back(rightNeighbour(pe));
    if (hasHeavySender() && isHeavyTarget(pe)) {
        sources.push_back(m_heavySender);
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
}

bool RunModel::isHeavyTarget(PeId pe) const
{
    return std::binary_search(m_heavyTargets.begin(), m_heavyTargets.end(), pe);
}

bool RunModel::isMulticastTarget(PeId pe) const
{
    return std::binary_search(m_multicastSection.begin(), m_multicastSection.end(), pe);
}

bool RunModel::multicastsAfter(int iteration) const
{
    return iteration >= 0 && iteration % 5 == 2 && iteration < m_iterations - 1;
}

std::int32_t RunModel::workerIndex(PeId pe, int element) const
{
    return static_cast<std::int32_t>(static_cast<std::int64_t>(pe) * m_elementsPerPe + element);
}

std::array<std::int32_t, 3> RunModel::patchIndex(PeId pe, int patch) const
{
    const std::int64_t global = static_cast<std::int64_t>(pe) * m_patchesPerPe + patch;
    return { static_cast<std::int32_t>(global % 8), static_cast<std::int32_t>((global / 8) % 8),
        static_cast<std::int32_t>(global / 64) };
}

TimeUs RunModel::beginComputationTime(PeId pe) const
{
    const std::uint64_t hash
        = mix64(streamSeed(m_seed, kPeConstantTag, 1) ^ static_cast<std::uint64_t>(pe));
    return 2000 + static_cast<TimeUs>(hash % 600);
}

std::int64_t RunModel::cpuTimeBase(PeId pe) const
{
    const std::uint64_t hash
        = mix64(streamSeed(m_seed, kPeConstantTag, 2) ^ static_cast<std::uint64_t>(pe));
    return 40000 + static_cast<std::int64_t>(hash % 30000);
}

TimeUs RunModel::broadcastLatency(int iteration, int tag, PeId target) const
{
    const std::uint64_t hash
        = mix64(streamSeed(m_seed, kBroadcastTag, static_cast<std::uint64_t>(iteration + 1),
                    static_cast<std::uint64_t>(tag))
            ^ static_cast<std::uint64_t>(target));
    if (target == 0) {
        return 1 + static_cast<TimeUs>(hash % 2);
    }
    if (sameNode(0, target)) {
        return 3 + static_cast<TimeUs>(hash % 5);
    }
    return 8 + 3 * static_cast<TimeUs>(m_treeDepth) + static_cast<TimeUs>(hash % 15);
}

TimeUs RunModel::messageLatency(PeId from, PeId to, int length, Prng& rng) const
{
    if (from == to) {
        return 1 + static_cast<TimeUs>(rng.below(2));
    }
    if (sameNode(from, to)) {
        return 2 + length / 4000 + static_cast<TimeUs>(rng.below(4));
    }
    return 10 + length / 800 + static_cast<TimeUs>(rng.below(20));
}

TimeUs RunModel::contributionArrival(PeId child, int iteration, TimeUs created) const
{
    const std::uint64_t hash
        = mix64(streamSeed(m_seed, kContributionTag, static_cast<std::uint64_t>(iteration + 1))
            ^ static_cast<std::uint64_t>(child));
    const TimeUs latency = sameNode(child, parentOf(child)) ? 2 + static_cast<TimeUs>(hash % 4)
                                                            : 10 + static_cast<TimeUs>(hash % 20);
    return created + latency;
}

TimeUs RunModel::computeDuration(PeId pe, int iteration, Prng& rng) const
{
    TimeUs duration = 250 * (700 + static_cast<TimeUs>(rng.below(601))) / 1000;
    // Always drawn, so that planting the bimodality changes nothing else in the run.
    const bool slow = rng.chance(kBimodalSlowPerMille);
    if (m_bimodal && slow) {
        duration *= kBimodalSlowFactor;
    }
    if (isOverloaded(pe)) {
        duration = std::max<TimeUs>(
            1, static_cast<TimeUs>(static_cast<double>(duration) * m_overloadFactor));
    }
    if (std::binary_search(m_slowIterations.begin(), m_slowIterations.end(), iteration)) {
        duration = std::max<TimeUs>(
            1, static_cast<TimeUs>(static_cast<double>(duration) * m_slowIterationFactor));
    }
    return scaledWork(pe, duration);
}

TimeUs RunModel::scaledWork(PeId pe, TimeUs duration) const
{
    if (peClassOf(pe) != PeClass::Heavy) {
        return duration;
    }
    return std::max<TimeUs>(1, std::llround(static_cast<double>(duration) * m_heavyFactor));
}

TimeUs RunModel::taskDuration(PeId pe, EntryId entry, Prng& rng) const
{
    if (entry == entry::kIntegrate) {
        return scaledWork(pe, rng.between(40, 120));
    }
    if (entry == m_rebuildPairlist) {
        return scaledWork(pe, rng.between(400, 800));
    }
    if (entry == m_computeBonded || entry == m_computeNonbonded) {
        return scaledWork(pe, rng.between(150, 350));
    }
    return scaledWork(pe, mixDuration(entry, rng));
}

EntryId RunModel::phaseEntry(PeId pe, int iteration, int task) const
{
    const bool firstHalfOfPes = pe < m_numPes / 2;
    bool firstHalfOfRun = 2 * iteration + 1 < m_iterations;
    if (2 * iteration + 1 == m_iterations) {
        firstHalfOfRun = 2 * task < kPhaseTasksPerIteration; // the middle iteration
    }
    return firstHalfOfPes == firstHalfOfRun ? m_computeBonded : m_computeNonbonded;
}

EntryId RunModel::pickMixEntry(Prng& rng) const
{
    const std::uint64_t pick = rng.below(m_mixCumulativeWeight.back());
    const auto found
        = std::upper_bound(m_mixCumulativeWeight.begin(), m_mixCumulativeWeight.end(), pick);
    return m_symbols.firstMixEntry() + static_cast<EntryId>(found - m_mixCumulativeWeight.begin());
}

TimeUs RunModel::mixDuration(EntryId entry, Prng& rng) const
{
    const auto mean = 15 + static_cast<TimeUs>(mix64(static_cast<std::uint64_t>(entry)) % 150);
    return std::max<TimeUs>(1, mean * (500 + static_cast<TimeUs>(rng.below(1001))) / 1000);
}

} // namespace parallax::gen
