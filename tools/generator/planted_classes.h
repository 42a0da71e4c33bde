#pragma once

#include "generator_options.h"
#include "symbol_table.h"
#include "trace_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::gen {

// The behaviour class of one PE, planted so that clustering and grouping can be checked
// against a known answer (--truth). A PE has exactly one class: PE 0 (with --special-pe0)
// and the overloaded PEs are fixed, the anomalous and then the heavy PEs are chosen among
// the others, and with --alternating-phases the remaining PEs are phase-a or phase-b by
// half. (Every PE runs its half's phase mix, whatever its class.)
enum class PeClass : std::uint8_t {
    Normal,
    Heavy, // --heavy-fraction: heavy-factor times the work in their entry methods
    Anomalous, // --anomalous: run Patch::rebuildPairlist, which nobody else runs
    Pe0, // --special-pe0: the load-balancer and progress-report roles of PE 0
    PhaseA, // --alternating-phases: computeBonded first, computeNonbonded second
    PhaseB, // --alternating-phases: computeNonbonded first, computeBonded second
    Overloaded, // --overloaded-pes
};

// The name written in the truth file: "normal", "heavy", ...
std::string_view peClassName(PeClass peClass);

// The planted entries a run with these options declares.
PlantedEntrySet plantedEntriesOf(const GeneratorOptions& options);

// Number of heavy PEs for --heavy-fraction: the fraction of the PEs, rounded, at least one.
PeId heavyPeCount(const GeneratorOptions& options);

// One class per PE, a pure function of the options (seed included). Heavy PEs are spread
// over the machine: PE numbers are cut into as many equal strata as there are heavy PEs and
// each stratum gets one at a seed-chosen position. Anomalous PEs are seed-chosen among the
// rest. Requires the counts to fit (parseCommandLine checks it).
std::vector<PeClass> plantPeClasses(const GeneratorOptions& options);

// The PEs of one class, ascending.
std::vector<PeId> pesOfClass(const std::vector<PeClass>& classes, PeClass peClass);

// Writes the CSV "pe,class", one line per PE, atomically (a temporary file renamed over
// `path`). Returns an error message naming the file on failure.
std::optional<std::string> writeTruthFile(
    const std::string& path, const std::vector<PeClass>& classes);

} // namespace parallax::gen
