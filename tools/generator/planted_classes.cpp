#include "planted_classes.h"

#include "output_file.h"
#include "prng.h"
#include "text_buffer.h"

#include <algorithm>
#include <cmath>

namespace parallax::gen {

namespace {

constexpr std::uint64_t kHeavyTag = 0x4EA7F;
constexpr std::uint64_t kAnomalousTag = 0xA40A1;

// The first PE at or after `pe` (wrapping) that is still normal. One exists: the option
// checks leave at least one normal PE.
PeId nextNormal(const std::vector<PeClass>& classes, PeId pe)
{
    const auto count = static_cast<PeId>(classes.size());
    for (PeId step = 0; step < count; ++step) {
        const PeId candidate = (pe + step) % count;
        if (classes[static_cast<std::size_t>(candidate)] == PeClass::Normal) {
            return candidate;
        }
    }
    return pe;
}

} // namespace

std::string_view peClassName(PeClass peClass)
{
    switch (peClass) {
    case PeClass::Normal:
        return "normal";
    case PeClass::Heavy:
        return "heavy";
    case PeClass::Anomalous:
        return "anomalous";
    case PeClass::Pe0:
        return "pe0";
    case PeClass::PhaseA:
        return "phase-a";
    case PeClass::PhaseB:
        return "phase-b";
    case PeClass::Overloaded:
        return "overloaded";
    }
    return "normal";
}

PlantedEntrySet plantedEntriesOf(const GeneratorOptions& options)
{
    PlantedEntrySet set;
    set.pe0Roles = options.specialPe0;
    set.anomalous = options.anomalousPes > 0;
    set.phases = options.alternatingPhases;
    return set;
}

PeId heavyPeCount(const GeneratorOptions& options)
{
    if (!(options.heavyFraction > 0.0)) {
        return 0;
    }
    const double count = std::round(options.heavyFraction * static_cast<double>(options.pes));
    return std::max<PeId>(1, static_cast<PeId>(count));
}

std::vector<PeClass> plantPeClasses(const GeneratorOptions& options)
{
    const PeId pes = options.pes;
    std::vector<PeClass> classes(static_cast<std::size_t>(pes), PeClass::Normal);
    if (options.specialPe0) {
        classes[0] = PeClass::Pe0;
    }
    for (const PeId pe : options.overloadedPes) {
        if (classes[static_cast<std::size_t>(pe)] == PeClass::Normal) {
            classes[static_cast<std::size_t>(pe)] = PeClass::Overloaded;
        }
    }

    // The anomalous PEs are placed before the heavy ones so that their choice does not
    // depend on the heavy fraction.
    for (int index = 0; index < options.anomalousPes; ++index) {
        const std::uint64_t hash
            = streamSeed(options.seed, kAnomalousTag, static_cast<std::uint64_t>(index));
        const auto start = static_cast<PeId>(hash % static_cast<std::uint64_t>(pes));
        classes[static_cast<std::size_t>(nextNormal(classes, start))] = PeClass::Anomalous;
    }

    const PeId heavy = heavyPeCount(options);
    for (PeId stratum = 0; stratum < heavy; ++stratum) {
        const auto first = static_cast<PeId>(static_cast<std::int64_t>(stratum) * pes / heavy);
        const auto last = static_cast<PeId>(static_cast<std::int64_t>(stratum + 1) * pes / heavy);
        const std::uint64_t hash
            = streamSeed(options.seed, kHeavyTag, static_cast<std::uint64_t>(stratum));
        const auto offset = static_cast<PeId>(hash % static_cast<std::uint64_t>(last - first));
        classes[static_cast<std::size_t>(nextNormal(classes, first + offset))] = PeClass::Heavy;
    }

    if (options.alternatingPhases) {
        for (PeId pe = 0; pe < pes; ++pe) {
            PeClass& peClass = classes[static_cast<std::size_t>(pe)];
            if (peClass == PeClass::Normal) {
                peClass = pe < pes / 2 ? PeClass::PhaseA : PeClass::PhaseB;
            }
        }
    }
    return classes;
}

std::vector<PeId> pesOfClass(const std::vector<PeClass>& classes, PeClass peClass)
{
    std::vector<PeId> pes;
    for (std::size_t pe = 0; pe < classes.size(); ++pe) {
        if (classes[pe] == peClass) {
            pes.push_back(static_cast<PeId>(pe));
        }
    }
    return pes;
}

std::optional<std::string> writeTruthFile(
    const std::string& path, const std::vector<PeClass>& classes)
{
    TextBuffer text(16 * classes.size() + 16);
    text.append("pe,class\n");
    for (std::size_t pe = 0; pe < classes.size(); ++pe) {
        text.appendInt(static_cast<std::int64_t>(pe));
        text.append(',');
        text.append(peClassName(classes[pe]));
        text.append('\n');
    }
    return writeFileAtomically(path, text.view());
}

} // namespace parallax::gen
