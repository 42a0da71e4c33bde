#include "timeline_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/message_links.h"
#include "core/text_args.h"
#include "core/trace.h"

#include <algorithm>
#include <optional>
#include <ostream>

namespace parallax::cli {

namespace {

// --range B:E as a window; an open end reaches the run's first or last record.
int readWindow(
    const std::string& command, const CommandLine& cl, core::TimeRange& window, std::ostream& err)
{
    window = { 0, core::kTimeMax };
    const auto text = cl.parser.value("range");
    if (!text)
        return kExitOk;
    std::string error;
    const auto range = core::parseTimeRange(*text, &error);
    if (!range)
        return usageError(err, command, "--range: " + error);
    window = { range->begin.value_or(0), range->end.value_or(core::kTimeMax) };
    return kExitOk;
}

// The PEs named by --pe (one or a list), each checked to have a log in this run.
int readLoggedPes(const std::string& command, const std::string& text, const core::Trace& trace,
    std::vector<core::PeId>& pes, std::ostream& err)
{
    std::string error;
    const auto list = core::parsePeList(text, &error);
    if (!list)
        return usageError(err, command, "--pe: " + error);
    for (const auto pe : *list) {
        if (pe >= trace.metadata.processors)
            return usageError(err, command,
                "PE " + std::to_string(pe) + " is not in this run (PEs 0-"
                    + std::to_string(trace.metadata.processors - 1) + ")");
        if (static_cast<std::size_t>(pe) >= trace.pes.size()
            || !trace.pes[static_cast<std::size_t>(pe)].hasLog)
            return usageError(err, command,
                "PE " + std::to_string(pe)
                    + " has no log (PEs with logs: " + core::formatPeList(trace.validPes()) + ")");
    }
    pes = *list;
    return kExitOk;
}

const char* statusName(core::analysis::MessageLink::Status status)
{
    using Status = core::analysis::MessageLink::Status;
    switch (status) {
    case Status::Linked:
        return "linked";
    case Status::Weak:
        return "weak";
    case Status::NoSource:
        return "no-source";
    case Status::NotFound:
        return "not-found";
    case Status::SentAfterBegin:
        return "stale-event-id";
    }
    return "not-found";
}

} // namespace

int runTimeline(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    const char* help = "usage: parallax-cli timeline RUN --pe LIST [--range B:E]\n\n"
                       "Prints the entry-method executions and idle, pack and unpack intervals\n"
                       "of the PEs in LIST (e.g. 3 or 0-3,8) that overlap the range, PE by PE in\n"
                       "time order, as CSV\n"
                       "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n"
                       "(kind exec, idle, pack or unpack): the same file as the Timeline's\n"
                       "CSV export. Times take units: 100us, 12ms, 3.5s.\n";
    if (const int rc = parseCommand("timeline", args, { "pe", "range" }, cl, out, err, help);
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    const auto peText = cl.parser.value("pe");
    if (!peText)
        return usageError(err, "timeline", "missing --pe LIST");
    core::TimeRange window;
    if (const int rc = readWindow("timeline", cl, window, err); rc != kExitOk)
        return rc;
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    std::vector<core::PeId> pes;
    if (const int bad = readLoggedPes("timeline", *peText, *trace, pes, err); bad != kExitOk)
        return bad;
    out << core::analysis::timelineCsv(*trace, pes, window);
    return kExitOk;
}

int runMessagePath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    const char* help
        = "usage: parallax-cli message-path RUN --pe N --at T [--messages K]\n\n"
          "Why did this execution start when it did? Follows the message that started the\n"
          "execution running on PE N at time T (or the first one beginning after T) back to\n"
          "the send that caused it, through SMP comm threads, and with --messages K further\n"
          "back, K messages in all (default 1, at most 64): the execution that made each send\n"
          "and the message that started it. CSV, one row per hop, the execution first:\n"
          "hop,pe,begin_us,end_us,entry_name,sender_pe,send_us,latency_us,link,reason\n"
          "(link: linked, weak, no-source, not-found or stale-event-id). The same links as the\n"
          "Timeline's arrows.\n";
    if (const int rc
        = parseCommand("message-path", args, { "pe", "at", "messages" }, cl, out, err, help);
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    const auto peText = cl.parser.value("pe");
    const auto atText = cl.parser.value("at");
    if (!peText || !atText)
        return usageError(err, "message-path", "needs --pe N and --at T");
    std::string error;
    const auto at = core::parseTime(*atText, &error);
    if (!at)
        return usageError(err, "message-path", "--at: " + error);
    std::int64_t messages = 1;
    if (const int bad = readIntOption("message-path", cl, "messages", 1, 64, messages, err);
        bad != kExitOk)
        return bad;
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    std::vector<core::PeId> pes;
    if (const int bad = readLoggedPes("message-path", *peText, *trace, pes, err); bad != kExitOk)
        return bad;
    if (pes.size() != 1)
        return usageError(err, "message-path", "--pe needs one PE number, got '" + *peText + "'");
    const auto pe = pes.front();
    const auto& p = trace->pes[static_cast<std::size_t>(pe)];
    // The execution running at T, else the first that begins after it.
    const auto& begins = p.executions.begin;
    auto index = static_cast<std::size_t>(
        std::upper_bound(begins.begin(), begins.end(), *at) - begins.begin());
    if (index > 0 && p.executions.end[index - 1] > *at)
        --index;
    if (index >= begins.size())
        return usageError(err, "message-path",
            "PE " + std::to_string(pe) + " runs no entry method at or after "
                + core::formatDuration(*at));

    const auto path = core::analysis::findMessagePath(*trace, pe, index,
        6 * static_cast<std::size_t>(messages), static_cast<std::size_t>(messages));
    const auto& meta = trace->metadata;
    const auto executionRow = [&](std::size_t hop, core::PeId rowPe, std::size_t execution) {
        const auto& e = trace->pes[static_cast<std::size_t>(rowPe)].executions;
        return std::to_string(hop) + ',' + std::to_string(rowPe) + ','
            + std::to_string(e.begin[execution]) + ',' + std::to_string(e.end[execution]) + ','
            + core::analysis::csvField(
                meta.entryName(static_cast<core::EntryId>(e.entry[execution])));
    };
    out << "hop,pe,begin_us,end_us,entry_name,sender_pe,send_us,latency_us,link,reason\n";
    std::size_t hop = 0;
    for (const auto& link : path) {
        std::string line = executionRow(hop++, link.pe, link.execution) + ',';
        if (link.senderPe != core::kNoPe)
            line += std::to_string(link.senderPe);
        line += ',';
        if (link.send) {
            const auto& sender = trace->pes[static_cast<std::size_t>(link.senderPe)];
            const auto sent = sender.sends.time[*link.send];
            const auto begin
                = trace->pes[static_cast<std::size_t>(link.pe)].executions.begin[link.execution];
            line += std::to_string(sent) + ',' + std::to_string(begin - sent);
        } else {
            line += ',';
        }
        line += std::string(",") + statusName(link.status) + ','
            + core::analysis::csvField(link.reason) + '\n';
        out << line;
    }
    if (path.empty())
        out << executionRow(0, pe, index) << ",,,,no-source,\n";
    return kExitOk;
}

} // namespace parallax::cli
