#include "event_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/log_listing.h"
#include "core/analysis/result_table.h"
#include "core/analysis/user_events.h"
#include "core/text_args.h"
#include "io/pe_log_listing.h"
#include "io/run_loader.h"

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
    if (const int rc = prepareAnalysisCommand("user-events", args, { "events" }, help, cl, trace,
            request, out, err, { "occurrences" });
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
    if (const int rc = analysisFailed("user-events", summary, err); rc >= 0)
        return rc;
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

int runLog(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const char* help
        = "usage: parallax-cli log RUN --pe N [--range B:E] [--types LIST] [--search TEXT]\n"
          "                  [--limit N]\n\n"
          "One PE's log record by record (View Log Files), decoded with the names of the\n"
          "symbol table, as CSV\n"
          "line,time_us,type,entry,entry_name,chare,pe,event,bytes,user_event,user_event_name,"
          "details\n"
          "line = the line number in the (decompressed) log file, the header being line 1;\n"
          "pe = the record's PE field (the sender of a BEGIN_PROCESSING, ...); event = the\n"
          "message's event number; lines that cannot be decoded are type MALFORMED. Only that\n"
          "PE's log is read.\n\n"
          "options:\n"
          "  --pe N             the PE whose log to list (required)\n"
          "  --range B:E        records with B <= time < E (default: the whole log)\n"
          "  --types LIST       record types by name or number, e.g.\n"
          "                     BEGIN_PROCESSING,END_PROCESSING,13 (default: all)\n"
          "  --search TEXT      records whose type, names or details contain TEXT (any case)\n"
          "  --limit N          at most N records\n";
    CommandLine cl;
    if (const int rc = parseCommand(
            "log", args, { "pe", "range", "types", "search", "limit" }, cl, out, err, help);
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    core::analysis::LogFilter filter;
    std::int64_t pe = -1;
    if (!cl.parser.value("pe"))
        return usageError(err, "log", "missing --pe N (the PE whose log to list)");
    if (const int rc = readIntOption("log", cl, "pe", 0, 10'000'000, pe, err); rc != kExitOk)
        return rc;
    std::string error;
    if (const auto r = cl.parser.value("range")) {
        const auto range = core::parseTimeRange(*r, &error);
        if (!range)
            return usageError(err, "log", "--range: " + error);
        filter.range = { range->begin.value_or(0), range->end.value_or(core::kTimeMax) };
        if (filter.range.empty())
            return usageError(err, "log", "empty --range");
    }
    if (const auto types = cl.parser.value("types")) {
        std::size_t start = 0;
        while (start <= types->size()) {
            const auto comma = std::min(types->find(',', start), types->size());
            const auto name = types->substr(start, comma - start);
            const auto type = core::analysis::parseRecordType(name);
            if (!type)
                return usageError(err, "log", "--types: unknown record type '" + name + "'");
            filter.types.push_back(*type);
            start = comma + 1;
        }
    }
    filter.search = cl.parser.value("search").value_or("");
    std::int64_t limit = 0;
    if (const int rc = readIntOption("log", cl, "limit", 1, 1'000'000'000, limit, err);
        rc != kExitOk)
        return rc;
    filter.limit = static_cast<std::size_t>(limit);
    // The symbol table and the list of files only: the other PEs' logs are not read.
    io::LoadOptions options;
    options.readLogs = false;
    options.readSummaries = false;
    const auto loaded = io::loadRun(cl.run, options);
    if (!loaded.trace) {
        err << "parallax-cli: " << loaded.error << "\n";
        return kExitFatal;
    }
    const auto listing = io::readLogListing(*loaded.trace, static_cast<core::PeId>(pe), filter);
    if (!listing.error.empty()) {
        err << "parallax-cli log: " << listing.error << "\n";
        return kExitFatal;
    }
    out << core::analysis::resultTableCsv(
        core::analysis::logListingTable(listing, loaded.trace->metadata));
    if (listing.truncated)
        err << "parallax-cli: note: stopped after --limit " << limit << " records\n";
    return kExitOk;
}

} // namespace parallax::cli
