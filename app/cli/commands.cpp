#include "commands.h"

#include "analysis_commands.h"
#include "arg_parser.h"
#include "command_support.h"
#include "core/text_args.h"
#include "core/trace.h"
#include "io/run_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <set>

namespace parallax::cli {

namespace {

const char* const kUsage = R"(usage: parallax-cli COMMAND RUN [options]

RUN is a run directory, a NAME.sts or a NAME.sum.sts file.

commands:
  info RUN                   what the run holds and what was odd about it (key: value lines)
  entries RUN                entry methods as CSV id,name,chare
  timeline RUN --pe N        one PE's executions, idle, pack and unpack intervals as CSV
      [--range B:E]          time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us)
  usage RUN                  per-PE % of time per entry method, idle, overhead, pack, unpack
  time-profile RUN           time per entry method summed over PEs, per interval
  overview RUN               per PE and time column: utilization, idle, dominant activity
  histogram RUN              executions by duration, messages by size, PEs by idle %
  comm RUN                   messages and bytes sent/received per interval
  extrema RUN --criterion C  the PEs that stand out (least-idle, clustering, ...)
  render VIEW RUN -o F.png   draw a view offscreen as the app does (builds with the GUI)

common options:
  --threads N                worker threads for reading logs (default: all cores)
  --no-cache                 parse the logs even when the index cache is up to date
  --cache-dir DIR            index cache directory (default: $PARALLAX_CACHE_DIR, else
                             $XDG_CACHE_HOME/parallax, else ~/.cache/parallax)
  --memory-budget SIZE       when the logs' store would need more (e.g. 4G), open the run
                             from its summary files instead (default: no limit)
  --help                     help for a command

exit codes: 0 success, 1 the run could not be opened, 2 bad arguments
)";

std::string versionText(double v)
{
    char buf[32];
    const double tenths = v * 10.0;
    if (tenths == static_cast<double>(static_cast<long long>(tenths)))
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void printIssueExamples(const core::ImportReport& report, std::ostream& err)
{
    for (const auto& example : report.examples()) {
        if (core::issueSeverity(example.issue) == core::Severity::Info)
            continue;
        err << core::severityName(core::issueSeverity(example.issue)) << ": " << example.file;
        if (example.line > 0)
            err << ":" << example.line;
        err << ": " << example.message << "\n";
    }
}

} // namespace

int runInfo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    const char* help = "usage: parallax-cli info RUN [--threads N]\n\n"
                       "Prints key: value lines: version, pes, entries, begin_us, end_us, events,\n"
                       "has_logs, has_sum, has_sumd, missing_pes, warnings, then one line per\n"
                       "import-report counter, then store figures. Problems found while reading\n"
                       "are listed on stderr with file and line.\n";
    if (const int rc = parseCommand("info", args, {}, cl, out, err, help); rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    int rc = kExitOk;
    double seconds = 0;
    const auto trace = load(cl, err, rc, &seconds);
    if (!trace)
        return rc;
    const auto& m = trace->metadata;
    const auto missing = trace->missingPes();
    out << "version: " << versionText(m.version) << "\n";
    out << "pes: " << m.processors << "\n";
    out << "entries: " << m.entries.size() << "\n";
    out << "begin_us: " << trace->beginTime() << "\n";
    out << "end_us: " << trace->endTime() << "\n";
    out << "events: " << trace->eventCount() << "\n";
    out << "has_logs: " << (trace->hasLogs() ? "true" : "false") << "\n";
    out << "has_sum: " << (trace->hasSummaries() ? "true" : "false") << "\n";
    out << "has_sumd: " << (trace->hasSummaryDetails() ? "true" : "false") << "\n";
    out << "missing_pes: " << (missing.empty() ? std::string("none") : core::formatPeList(missing))
        << "\n";
    out << "warnings: " << trace->report.total(core::Severity::Warning) << "\n";
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        out << core::issueKey(issue) << ": " << trace->report.count(issue) << "\n";
    }
    out << "name: " << trace->files.baseName << "\n";
    out << "smp_nodes: " << m.numNodes << "\n";
    out << "comm_thread_pes: " << (m.commThreadsPerNode * m.numNodes) << "\n";
    out << "projrc_end_us: " << m.projrcEndTime << "\n";
    out << "log_bytes: " << trace->files.logBytes << "\n";
    out << "store_bytes: " << trace->storeBytes() << "\n";
    out << "logs_on_demand: " << (trace->logsOnDemand() ? "true" : "false") << "\n";
    out << "deferred_store_bytes: " << trace->deferredStoreBytes << "\n";
    const auto events = trace->eventCount();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f",
        events == 0 ? 0.0 : static_cast<double>(trace->storeBytes()) / static_cast<double>(events));
    out << "bytes_per_event: " << buf << "\n";
    std::snprintf(buf, sizeof buf, "%.3f", seconds);
    out << "load_seconds: " << buf << "\n";
    printIssueExamples(trace->report, err);
    return kExitOk;
}

int runEntries(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    const char* help = "usage: parallax-cli entries RUN\n\n"
                       "Prints the entry methods of the run's symbol table as CSV id,name,chare.\n";
    if (const int rc = parseCommand("entries", args, {}, cl, out, err, help); rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    io::LoadOptions options;
    options.readLogs = false;
    options.readSummaries = false;
    auto result = io::loadRun(cl.run, options);
    if (!result.trace) {
        err << "parallax-cli: " << result.error << "\n";
        return kExitFatal;
    }
    const auto& m = result.trace->metadata;
    out << "id,name,chare\n";
    for (std::size_t id = 0; id < m.entries.size(); ++id) {
        const auto entry = static_cast<core::EntryId>(id);
        out << id << "," << csvField(m.entryName(entry)) << ","
            << csvField(m.chareNameOfEntry(entry)) << "\n";
    }
    return kExitOk;
}

int runTimeline(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CommandLine cl;
    const char* help = "usage: parallax-cli timeline RUN --pe N [--range B:E]\n\n"
                       "Prints PE N's entry-method executions and idle, pack and unpack intervals\n"
                       "that overlap the range, in time order, as CSV\n"
                       "begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n"
                       "(kind exec, idle, pack or unpack). Times take units: 100us, 12ms, 3.5s.\n";
    if (const int rc = parseCommand("timeline", args, { "pe", "range" }, cl, out, err, help);
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    const auto peText = cl.parser.value("pe");
    if (!peText)
        return usageError(err, "timeline", "missing --pe N");
    std::string error;
    const auto peList = core::parsePeList(*peText, &error);
    if (!peList || peList->size() != 1 || peText->find_first_of(",-:") != std::string::npos)
        return usageError(err, "timeline", "--pe needs one PE number, got '" + *peText + "'");
    std::optional<core::TimeRangeArg> range;
    if (const auto r = cl.parser.value("range")) {
        range = core::parseTimeRange(*r, &error);
        if (!range)
            return usageError(err, "timeline", "--range: " + error);
    }
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    const auto pe = peList->front();
    if (pe >= trace->metadata.processors)
        return usageError(err, "timeline",
            "PE " + std::to_string(pe) + " is not in this run (PEs 0-"
                + std::to_string(trace->metadata.processors - 1) + ")");
    if (static_cast<std::size_t>(pe) >= trace->pes.size()
        || !trace->pes[static_cast<std::size_t>(pe)].hasLog)
        return usageError(err, "timeline",
            "PE " + std::to_string(pe)
                + " has no log (PEs with logs: " + core::formatPeList(trace->validPes()) + ")");
    const auto& p = trace->pes[static_cast<std::size_t>(pe)];
    const core::TimeUs t0 = range && range->begin ? *range->begin : 0;
    const core::TimeUs t1 = range && range->end ? *range->end : core::kTimeMax;
    const auto& meta = trace->metadata;

    struct Row {
        core::TimeUs begin;
        core::TimeUs end;
        int kind; // 0 exec, 1 idle, 2 pack, 3 unpack
        std::size_t index;
    };
    std::vector<Row> rows;
    const auto execs = p.executionsOverlapping(t0, t1);
    for (auto i = execs.first; i < execs.last; ++i)
        rows.push_back({ p.executions.begin[i], p.executions.end[i], 0, i });
    const core::IntervalColumns* others[] = { &p.idles, &p.packs, &p.unpacks };
    for (int k = 0; k < 3; ++k) {
        const auto& c = *others[k];
        const auto r = core::overlappingRange(c.begin, c.end, t0, t1);
        for (auto i = r.first; i < r.last; ++i)
            rows.push_back({ c.begin[i], c.end[i], k + 1, i });
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.kind < b.kind;
    });
    static const char* const kKinds[] = { "exec", "idle", "pack", "unpack" };
    std::string line;
    out << "begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n";
    for (const auto& row : rows) {
        line.clear();
        line += std::to_string(row.begin);
        line += ',';
        line += std::to_string(row.end);
        line += ',';
        line += kKinds[row.kind];
        if (row.kind == 0) {
            const auto entry = static_cast<core::EntryId>(p.executions.entry[row.index]);
            line += ',' + std::to_string(entry) + ',' + csvField(meta.entryName(entry)) + ','
                + std::to_string(p.executions.sourcePe[row.index]) + ','
                + std::to_string(p.executions.msgBytes[row.index]);
        } else {
            line += ",,,,";
        }
        line += '\n';
        out << line;
    }
    return kExitOk;
}

namespace {
std::map<std::string, ExtraCommand>& extraCommands()
{
    static std::map<std::string, ExtraCommand> commands;
    return commands;
}
} // namespace

void registerCommand(const std::string& name, ExtraCommand command)
{
    extraCommands()[name] = command;
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.empty()) {
        err << kUsage;
        return kExitUsage;
    }
    const auto& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--help" || command == "-h" || command == "help") {
        out << kUsage;
        return kExitOk;
    }
    if (command == "info")
        return runInfo(rest, out, err);
    if (command == "entries")
        return runEntries(rest, out, err);
    if (command == "timeline")
        return runTimeline(rest, out, err);
    if (command == "histogram")
        return runHistogram(rest, out, err);
    if (command == "comm")
        return runComm(rest, out, err);
    if (const auto it = extraCommands().find(command); it != extraCommands().end())
        return it->second(rest, out, err);
    if (command == "render") {
        // Only a build with the GUI registers the offscreen renderer.
        if (!rest.empty() && (rest.front() == "--help" || rest.front() == "-h")) {
            out << "usage: parallax-cli render VIEW RUN -o OUT.png [options]\n\n"
                   "Not available in this build: build with -DPARALLAX_BUILD_GUI=ON (Qt 6).\n";
            return kExitOk;
        }
        err << "parallax-cli render: not available in this build (built without the GUI)\n";
        return kExitFatal;
    }
    if (command == "extrema")
        return runExtrema(rest, out, err);
    if (command == "overview")
        return runOverview(rest, out, err);
    if (command == "usage")
        return runUsage(rest, out, err);
    if (command == "time-profile")
        return runTimeProfile(rest, out, err);
    err << "parallax-cli: unknown command '" << command
        << "' (commands: info, entries, timeline; see parallax-cli --help)\n";
    return kExitUsage;
}

} // namespace parallax::cli
