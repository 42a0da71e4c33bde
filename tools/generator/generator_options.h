#pragma once

#include "trace_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::gen {

// Everything the command line can set. Defaults are the documented ones of `--help`.
struct GeneratorOptions {
    std::string outDir;
    std::string name = "run";
    PeId pes = 4;
    std::int64_t eventsPerPe = 20000;
    std::optional<int> iterations; // derived from eventsPerPe when absent
    int entries = 40;
    std::uint64_t seed = 1;
    bool gzip = false;
    int smpNodeSize = 0; // 0 = not an SMP run
    int threads = 0; // 0 = hardware concurrency
    TimeUs binSize = 1000;
    bool summaries = true;
    std::vector<PeId> overloadedPes; // sorted, unique
    double overloadFactor = 2.0;
    std::vector<PeId> slowIterations; // sorted, unique iteration numbers (0-based)
    double slowIterationFactor = 3.0;
    bool bimodalEntry = false;
    std::optional<PeId> heavySender;
    // Planted PE classes (planted_classes.h).
    double heavyFraction = 0.0; // 0 = no heavy PEs
    double heavyFactor = 3.0;
    int anomalousPes = 0;
    bool specialPe0 = false;
    bool alternatingPhases = false;
    std::string truthFile; // empty = write no truth file
    // --shape realistic: every execution of a Worker or Patch element carries an array index
    // of its own (as on a run with many objects per PE), not one of a few repeated elements.
    bool distinctIndices = false;
    // --like NAME: a template measured on a real run (leanmd_template.h) instead of the
    // simulated stencil program; empty = the stencil program.
    std::string like;
};

struct ParsedCommandLine {
    GeneratorOptions options;
    bool showHelp = false;
    bool showVersion = false;
    std::string error; // one line, without program name; empty when parsing succeeded
};

ParsedCommandLine parseCommandLine(const std::vector<std::string_view>& arguments);

std::string usageText();

// Formats a factor so that it always has a decimal point: 2 -> "2.0", 1.75 -> "1.75".
std::string formatFactor(double factor);

} // namespace parallax::gen
