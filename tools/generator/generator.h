#pragma once

#include "generator_options.h"

#include <string>
#include <vector>

namespace parallax::gen {

struct GeneratorOutcome {
    int exitCode = 0; // 0 success, 1 a file or directory could not be written
    std::string error; // one line naming the file, when exitCode != 0
    // One line per planted problem, e.g. "planted overloaded-pes 3,17 factor 2.0".
    std::vector<std::string> planted;
};

// Generates the whole run described by `options` into options.outDir.
GeneratorOutcome generateRun(const GeneratorOptions& options);

// An outcome with exit status 1 and `error`.
GeneratorOutcome failedRun(std::string error);

// Threads that write PEs: --threads, or the hardware's.
int writerThreads(const GeneratorOptions& options);

// Generates a run from the template options.like names (leanmd_template.h).
GeneratorOutcome generateLeanMdRun(const GeneratorOptions& options);

} // namespace parallax::gen
