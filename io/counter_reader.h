#pragma once

#include "core/analysis/counters.h"
#include "core/run_metadata.h"

#include <string>
#include <vector>

namespace parallax::io {

// The output of Charm++'s old hardware-counter tracemode (`-tracemode counter`): a symbol table
// NAME.count.sts (an unquoted .sts without VERSION) and one NAME.<pe>.count per PE, which holds
// per entry method, for each counter, the number of calls, the mean counter value per call and
// the total execution time (docs/format.md, "Counter files"):
//
//   ver:1.0 0/4 ep:158 counters:2
//   [INSTR {Issued instructions}]
//   [INSTR num_called] 405 0 0 ...
//   [INSTR avg_count] 946062.560494 0.000000 ...
//   [INSTR total_time(us)] 2396115.999669 0.000000 ...
//   [GR_FLOPS {Graduated floating point instructions}]
//   ...
struct CounterRun {
    std::string name; // NAME
    std::string directory;
    core::RunMetadata metadata; // from NAME.count.sts
    core::analysis::CounterTable table; // totals = calls × mean count
    std::vector<std::string> warnings; // PE files missing, counters differing between PEs
};

struct CounterRunResult {
    bool ok = false;
    CounterRun run;
    std::string error; // naming the file (and line) and what was expected
};

// Whether `path` names counter files rather than a run: a NAME.count.sts or NAME.<pe>.count
// file, or a directory with a NAME.count.sts and no other .sts.
bool isCounterRunPath(const std::string& path);

// Reads the counter run `path` names (as for isCounterRunPath). A directory with several
// NAME.count.sts (phases of one job) is an error that lists them. A damaged .count file is an
// error naming its line; a PE without a file is a warning.
CounterRunResult readCounterRun(const std::string& path);

} // namespace parallax::io
