#include "event_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/result_table.h"
#include "core/analysis/user_events.h"
#include "core/text_args.h"

#include <ostream>

namespace parallax::cli {

int runUserEvents(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = "usage: parallax-cli user-events RUN [--events LIST] [--occurrences] [options]\n\n"
          "User events per event id and PE: instants (traceUserEvent) and brackets (a begin and\n"
          "an end: traceUserBracketEvent, the begin/end pair) that lie (instants) or begin\n"
          "(brackets) in the range, as CSV\n"
          "event,event_name,pe,kind,count,total_us,min_us,mean_us,max_us\n"
          "pe 'all' = the selected PEs together (comm threads apart); kind instant or bracket;\n"
          "durations only for brackets. --occurrences lists each one instead:\n"
          "event,event_name,pe,kind,begin_us,end_us,duration_us\n\n"
          "options:\n"
          "  --events LIST      user event ids, e.g. 10,20 (default: all)\n"
          "  --occurrences      one row per occurrence, by time\n"
          "  --range B:E        time window, e.g. 10ms:25ms (default: the traced span)\n"
          "  --pes LIST         PEs, e.g. 0-3,5 (default: every PE with data)\n"
          "  --include-comm-threads\n"
          "                     count the user events of SMP comm threads too (default: apart)\n"
          "  --threads N        worker threads (default: all cores)\n";
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepare("user-events", args, { "events" }, help, cl, trace, request, out,
            err, { "occurrences" });
        rc >= 0)
        return rc;
    core::analysis::UserEventOptions options;
    if (const auto text = cl.parser.value("events")) {
        std::string error;
        const auto ids = core::parsePeList(*text, &error, 1'000'000);
        if (!ids)
            return usageError(err, "user-events", "--events: " + error);
        options.events.assign(ids->begin(), ids->end());
    }
    const auto summary = core::analysis::computeUserEvents(*trace, request, options);
    if (!summary)
        return kExitFatal;
    if (!summary->error.empty()) {
        err << "parallax-cli user-events: " << summary->error << "\n";
        return kExitFatal;
    }
    if (const auto unknown = core::analysis::unknownUserEvents(*trace, options.events);
        !unknown.empty()) {
        std::vector<core::PeId> known;
        for (const auto& [id, name] : trace->metadata.userEvents)
            known.push_back(id);
        return usageError(err, "user-events",
            "user event " + std::to_string(unknown.front()) + " is not in this run (events: "
                + (known.empty() ? std::string("none declared") : core::formatPeList(known)) + ")");
    }
    const auto& m = trace->metadata;
    out << core::analysis::resultTableCsv(cl.parser.flag("occurrences")
            ? core::analysis::userEventOccurrencesTable(*summary, m)
            : core::analysis::userEventStatsTable(*summary, m));
    return kExitOk;
}

} // namespace parallax::cli
