#include "profile_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/call_table.h"
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

int runCallTable(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli call-table RUN [options]\n\n"
              "Per entry method, who sent the messages that started its executions (those that\n"
              "began in the range on the selected PEs): the entry method running on the sending\n"
              "PE when the message was created, and that PE. Messages relayed by SMP comm\n"
              "threads are followed back to the PE that sent them. CSV\n"
              "entry,caller_entry,caller_pe,count,bytes,min_us,mean_us,max_us,entry_name,"
              "caller_name\n"
              "count = executions started, bytes = their message bytes, min/mean/max = latency\n"
              "from the send to the execution's begin (empty when no send was found).\n"
              "caller_entry is an entry id, 'outside' (sent between entry methods), 'none' (no\n"
              "sender recorded: SDAG serial blocks, the main chare) or 'unknown' (the send was\n"
              "not found in the sender's log). --entries selects the entry methods started.\n\n"
              "options:\n")
        + kSelectionHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepare("call-table", args, {}, help, cl, trace, request, out, err); rc >= 0)
        return rc;
    const auto table = core::analysis::computeCallTable(*trace, request);
    if (!table)
        return kExitFatal;
    if (!table->error.empty()) {
        err << "parallax-cli call-table: " << table->error << "\n";
        return kExitFatal;
    }
    out << core::analysis::resultTableCsv(core::analysis::callTableTable(*table, trace->metadata));
    return kExitOk;
}

} // namespace parallax::cli
