#include "profile_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/entry_profile.h"
#include "core/analysis/result_table.h"

#include <ostream>

namespace parallax::cli {

namespace {

const char* const kSelectionHelp
    = "  --range B:E        time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us);\n"
      "                     default: the traced span of the run\n"
      "  --pes LIST         PEs, e.g. 0-3,5,7-15:2 (default: every PE with data)\n"
      "  --entries LIST     entry method ids (default: all; see parallax-cli entries RUN)\n"
      "  --include-comm-threads\n"
      "                     count the executions of SMP comm threads too (default: apart)\n"
      "  --threads N        worker threads (default: all cores)\n";

} // namespace

int runEntryProfile(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli entry-profile RUN [options]\n\n"
              "Per entry method: the executions that began in the range on the selected PEs,\n"
              "their total, mean, min, max and standard deviation (population) of durations, and\n"
              "the share of the PEs' time in the range, most time first, as CSV\n"
              "entry,entry_name,chare,executions,total_us,mean_us,min_us,max_us,sd_us,share_pct\n"
              "A run without logs is profiled from its .sum files: the whole run, no min or sd.\n\n"
              "options:\n")
        + kSelectionHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepare("entry-profile", args, {}, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    const auto profile = core::analysis::computeEntryProfile(*trace, request);
    if (!profile)
        return kExitFatal;
    if (!profile->error.empty()) {
        err << "parallax-cli entry-profile: " << profile->error << "\n";
        return kExitFatal;
    }
    if (profile->fromSummaries)
        err << "parallax-cli: note: this run has no logs: the profile comes from its .sum files "
               "and covers the whole run (no min_us, sd_us)\n";
    out << core::analysis::resultTableCsv(
        core::analysis::entryProfileTable(*profile, trace->metadata));
    return kExitOk;
}

} // namespace parallax::cli
