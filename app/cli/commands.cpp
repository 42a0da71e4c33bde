#include "commands.h"

#include "analysis_commands.h"
#include "arg_parser.h"
#include "cluster_commands.h"
#include "command_support.h"
#include "compare_commands.h"
#include "core/analysis/csv_export.h"
#include "core/text_args.h"
#include "core/trace.h"
#include "event_commands.h"
#include "export_commands.h"
#include "group_commands.h"
#include "heatmap_commands.h"
#include "io/run_loader.h"
#include "profile_commands.h"
#include "reduce_commands.h"
#include "series_commands.h"
#include "stream_commands.h"
#include "timeline_commands.h"
#include "why_commands.h"

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
  timeline RUN --pe LIST     PEs' executions, idle, pack and unpack intervals as CSV
      [--range B:E]          time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us)
  message-path RUN --pe N --at T
                             the message that started PE N's execution at T, back to its send
  usage RUN                  per-PE % of time per entry method, idle, overhead, pack, unpack
  time-profile RUN           time per entry method summed over PEs, per interval
  overview RUN               per PE and time column: utilization, idle, dominant activity
  histogram RUN              executions by duration, messages by size, PEs by idle %
  comm RUN                   messages and bytes sent/received per interval
  comm-matrix RUN            messages and bytes per pair of PEs (or nodes), or per PE
  msg-size-evolution RUN     messages per time interval and size bin (a histogram over time)
  animation RUN              every PE's utilization per frame (render animation: an APNG)
  extrema RUN --criterion C  the PEs that stand out (least-idle, clustering, ...)
  clusters RUN [--k N|auto]  equivalence classes of PEs by k-means (exemplars, outliers)
  groups RUN --by node|block:N|signature
                             usage aggregated over groups of PEs (sum, set, key)
  reduce RUN --keep 5% -o OUT
                             write a reduced run (logs of a few PEs, summaries of all) with
                             its quality report
  export RUN --format otf2|perfetto -o OUT
                             write the run as an OTF2 archive or a Perfetto JSON trace
  entry-profile RUN          per entry method: executions, total/mean/min/max/sd time, share
  call-table RUN             per entry method: the entry methods and PEs that sent its messages
  user-events RUN            user events (instants, brackets) per event id and PE
  log RUN --pe N             one PE's log decoded record by record (View Log Files)
  noise RUN                  executions far longer than usual, grouped into noise events
  user-stats RUN             user statistics (STAT records) over time, per PE or as samples
  memory RUN                 memory in use over time: min, mean, max over the PEs, or per PE
  counters RUN               hardware counters per entry method or PE: totals and rates
                             (PAPI values in the logs, or the old NAME.count files)
  compare RUN_A RUN_B ...     entry methods of runs (or two ranges of one) side by side,
                             matched by name; --profile: busy % on a common time axis
  iterations RUN             the run's time steps, the busiest PE in each against the median
  critical-path RUN          the chain of executions and messages that made the range long
  model RUN --entry ID       an entry method's durations against message size, iteration or a
                             user value: fits (linear, power, quadratic), groups, modes
  idle-blame RUN             who made the PEs idle: the messages (and senders) ending idle
  stream HOST:PORT           a running Charm++ program's utilization, live over CCS, as CSV
                             (--replay FILE: a recording; --record FILE: record while polling)
  stream-serve [--port P]    a simulated program serving a utilization stream over CCS
  render VIEW RUN -o F.png   draw a view offscreen as the app does (builds with the GUI)

common options:
  --threads N                worker threads for reading logs (default: all cores)
  --no-cache                 parse the logs even when the index cache is up to date
  --cache-dir DIR            index cache directory (default: $PARALLAX_CACHE_DIR, else
                             $XDG_CACHE_HOME/parallax, else ~/.cache/parallax)
  --index DIR                open RUN through this index only (e.g. parallax-index's output);
                             fails when it is missing, damaged, stale or of another run
  --memory-budget SIZE       when the logs' store would need more (e.g. 4G), open the run
                             from its summary files instead (default: no limit)
  --help                     help for a command
  --version                  the version of parallax-cli

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
        out << id << "," << core::analysis::csvField(m.entryName(entry)) << ","
            << core::analysis::csvField(m.chareNameOfEntry(entry)) << "\n";
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
    if (command == "--version") {
        out << "parallax-cli " << PARALLAX_VERSION << "\n";
        return kExitOk;
    }
    if (command == "info")
        return runInfo(rest, out, err);
    if (command == "entries")
        return runEntries(rest, out, err);
    if (command == "timeline")
        return runTimeline(rest, out, err);
    if (command == "message-path")
        return runMessagePath(rest, out, err);
    if (command == "histogram")
        return runHistogram(rest, out, err);
    if (command == "comm")
        return runComm(rest, out, err);
    if (command == "comm-matrix")
        return runCommMatrix(rest, out, err);
    if (command == "msg-size-evolution")
        return runMsgSizeEvolution(rest, out, err);
    if (command == "animation")
        return runAnimation(rest, out, err);
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
    if (command == "clusters")
        return runClusters(rest, out, err);
    if (command == "overview")
        return runOverview(rest, out, err);
    if (command == "usage")
        return runUsage(rest, out, err);
    if (command == "time-profile")
        return runTimeProfile(rest, out, err);
    if (command == "groups")
        return runGroups(rest, out, err);
    if (command == "reduce")
        return runReduce(rest, out, err);
    if (command == "export")
        return runExport(rest, out, err);
    if (command == "entry-profile")
        return runEntryProfile(rest, out, err);
    if (command == "call-table")
        return runCallTable(rest, out, err);
    if (command == "user-events")
        return runUserEvents(rest, out, err);
    if (command == "log")
        return runLog(rest, out, err);
    if (command == "noise")
        return runNoise(rest, out, err);
    if (command == "user-stats")
        return runUserStats(rest, out, err);
    if (command == "memory")
        return runMemory(rest, out, err);
    if (command == "counters")
        return runCounters(rest, out, err);
    if (command == "compare")
        return runCompare(rest, out, err);
    if (command == "model")
        return runModel(rest, out, err);
    if (command == "iterations")
        return runIterations(rest, out, err);
    if (command == "critical-path")
        return runCriticalPath(rest, out, err);
    if (command == "idle-blame")
        return runIdleBlame(rest, out, err);
    if (command == "stream")
        return runStream(rest, out, err);
    if (command == "stream-serve")
        return runStreamServe(rest, out, err);
    err << "parallax-cli: unknown command '" << command
        << "' (commands: info, entries, timeline; see parallax-cli --help)\n";
    return kExitUsage;
}

} // namespace parallax::cli
