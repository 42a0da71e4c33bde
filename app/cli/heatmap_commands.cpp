#include "heatmap_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/animation.h"
#include "core/analysis/comm_matrix.h"
#include "core/analysis/msg_size_evolution.h"
#include "core/text_args.h"

#include <ostream>

namespace parallax::cli {

namespace {

constexpr std::int64_t kMaxAnimationFrames = 2000;

// The tools need the logs' records: a run opened from its summaries alone has none.
int requireLogs(const std::string& command, const core::Trace& trace, const std::string& records,
    std::ostream& err)
{
    if (trace.hasLogs())
        return kExitOk;
    err << "parallax-cli " << command << ": this run has no " << records << ": "
        << (trace.logsOnDemand() ? "it was opened from its summary files (its logs need more than "
                                   "--memory-budget)"
                                 : "it has summary files only, no logs")
        << "\n";
    return kExitFatal;
}

} // namespace

int runCommMatrix(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "comm-matrix";
    const std::string help
        = std::string(
              "usage: parallax-cli comm-matrix RUN [--by pe|node] [--per-pe] [--external]\n"
              "                  [options]\n\n"
              "Communication per Processor: messages and bytes per pair of PEs, as CSV\n"
              "src_pe,dst_pe,messages,bytes with one row per pair that exchanged a message.\n"
              "A message counts once, where it was delivered: an execution that received it\n"
              "began in the range on a selected PE (--entries: its entry method is one of\n"
              "these). Its sender is the PE that created it: a message an SMP comm thread\n"
              "handed over counts from the worker that sent it, never also as worker -> comm\n"
              "thread -> worker. Both ends must be selected PEs (the others are counted in a\n"
              "note on stderr).\n\n"
              "options:\n"
              "  --by node          node x node: CSV src_node,dst_node,messages,bytes\n"
              "  --per-pe           per PE: CSV pe,msgs_sent,bytes_sent,msgs_recv,bytes_recv\n"
              "                     (sent = the PE's row of the matrix, received = its column)\n"
              "  --external         only messages between different SMP nodes (without SMP:\n"
              "                     between different PEs)\n"
              "  --include-comm-threads and --compat java count every record as written:\n"
              "                     comm threads are ends of their own, each relay a message;\n"
              "                     with --compat java --per-pe the sent columns are the PEs'\n"
              "                     CREATION records, as the reference tool counts them\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand(
            command, args, { "by" }, help, cl, trace, request, out, err, { "per-pe", "external" });
        rc >= 0)
        return rc;
    const std::string by = cl.parser.value("by").value_or("pe");
    if (by != "pe" && by != "node")
        return usageError(err, command, "--by takes pe or node, got '" + by + "'");
    if (by == "node" && cl.parser.flag("per-pe"))
        return usageError(err, command, "give --by node or --per-pe, not both");
    if (const int rc = requireLogs(command, *trace, "message records", err); rc != kExitOk)
        return rc;
    core::analysis::CommMatrixOptions options;
    options.externalOnly = cl.parser.flag("external");
    const auto matrix = core::analysis::computeCommMatrix(*trace, request, options);
    if (!matrix)
        return kExitFatal;
    if (cl.parser.flag("per-pe"))
        out << core::analysis::commPerPeCsv(&*matrix);
    else if (by == "node")
        out << core::analysis::commNodeMatrixCsv(&*matrix, trace->metadata);
    else
        out << core::analysis::commMatrixCsv(&*matrix);
    const std::string note = "parallax-cli " + command + ": note: ";
    if (matrix->pairs.empty())
        err << note << "no message " << (options.externalOnly ? "between nodes " : "")
            << "was delivered to " << (request.pes.empty() ? "any PE" : "the selected PEs")
            << " in this range\n";
    auto messages = [](std::uint64_t n, const char* one, const char* many) {
        return std::to_string(n) + (n == 1 ? one : many);
    };
    if (matrix->fromOtherPes > 0)
        err << note << messages(matrix->fromOtherPes, " message", " messages")
            << " to the selected PEs came from PEs not selected (not counted)\n";
    if (matrix->unresolvedRelays > 0)
        err << note << messages(matrix->unresolvedRelays, " message", " messages")
            << " handed over by a comm thread could not be traced back to the sender (not "
               "counted)\n";
    if (matrix->invalidSenders > 0)
        err << note
            << messages(
                   matrix->invalidSenders, " received message names", " received messages name")
            << " no PE of this run as the sender (runtime messages; not counted)\n";
    return kExitOk;
}

int runMsgSizeEvolution(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "msg-size-evolution";
    const std::string help
        = std::string(
              "usage: parallax-cli msg-size-evolution RUN [--event send|receive]\n"
              "                  [--sizes log|linear] [--interval T | --bins N] [options]\n\n"
              "Message Size Evolution: how many messages of each size were sent (or received)\n"
              "in each time interval, as CSV\n"
              "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n"
              "with one row per non-empty cell (a message of size s is in the bin\n"
              "size_lo <= s < size_hi; size_hi 'inf' for the open-ended last bin).\n"
              "--entries LIST counts only the messages for those entry methods: a send by its\n"
              "destination entry method, a receive by the one it started.\n\n"
              "options:\n"
              "  --event send       (default) CREATION records at their time, a broadcast or\n"
              "                     multicast once per destination\n"
              "  --event receive    executions that received a message, at their begin\n"
              "  --sizes log        (default) bins of powers of two: [2^k, 2^(k+1)) bytes, from\n"
              "                     the smallest size that occurs to the largest\n"
              "  --sizes linear     --size-bins N bins (default 50) of --size-bin B bytes\n"
              "                     (default 100) from --min-size B (default 0), then one bin for\n"
              "                     everything larger\n"
              "  --interval T       interval size, e.g. 1ms\n"
              "  --bins N           number of intervals (default 100)\n"
              "  comm threads' sends and receives relay the workers' messages: left out unless\n"
              "  --include-comm-threads; --compat java counts every BEGIN_PROCESSING from\n"
              "  another PE, as the reference tool does\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand(command, args,
            { "event", "sizes", "interval", "bins", "size-bin", "size-bins", "min-size" }, help, cl,
            trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::MsgSizeOptions options;
    const std::string event = cl.parser.value("event").value_or("send");
    if (event != "send" && event != "receive")
        return usageError(err, command, "--event takes send or receive, got '" + event + "'");
    options.event = event == "send" ? core::analysis::MessageEvent::Send
                                    : core::analysis::MessageEvent::Receive;
    const std::string sizes = cl.parser.value("sizes").value_or("log");
    if (sizes != "log" && sizes != "linear")
        return usageError(err, command, "--sizes takes log or linear, got '" + sizes + "'");
    options.logScale = sizes == "log";
    std::int64_t binSize = 0;
    std::int64_t minimum = 0;
    for (const char* name : { "size-bin", "size-bins", "min-size" })
        if (options.logScale && cl.parser.value(name))
            return usageError(err, command, std::string("--") + name + " goes with --sizes linear");
    if (const int rc = readIntOption(command, cl, "size-bin", 1, 1'000'000'000, binSize, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption(command, cl, "size-bins", 1, 10'000, options.sizeBins, err);
        rc != kExitOk)
        return rc;
    if (const int rc = readIntOption(command, cl, "min-size", 0, 1'000'000'000, minimum, err);
        rc != kExitOk)
        return rc;
    options.binSize = static_cast<double>(binSize);
    options.minimum = static_cast<double>(minimum);
    int rc = kExitOk;
    if (!parseIntervalOptions(command, cl, options.intervalSize, options.intervals, err, rc))
        return rc;
    if (const int logs = requireLogs(command, *trace, "message records", err); logs != kExitOk)
        return logs;
    const auto evolution = core::analysis::computeMsgSizeEvolution(*trace, request, options);
    if (!evolution)
        return kExitFatal;
    out << core::analysis::msgSizeEvolutionCsv(&*evolution);
    if (evolution->total() == 0)
        err << "parallax-cli " << command << ": note: no message was "
            << (options.event == core::analysis::MessageEvent::Send ? "sent" : "received")
            << (request.entries.empty() ? "" : " for these entry methods") << " in this range\n";
    return kExitOk;
}

int runAnimation(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "animation";
    const std::string help
        = std::string(
              "usage: parallax-cli animation RUN [--frames N | --interval T] [options]\n\n"
              "The Animation's data: every PE's utilization in each frame (an equal time\n"
              "interval of the range), as CSV frame,begin_us,end_us,pe,utilization_pct with one\n"
              "row per frame and PE that was traced during it. Utilization is the Overview's:\n"
              "the time in entry methods, pack and unpack, in % of the frame; from the .sum\n"
              "files when the run has no logs (frames then never finer than their bins).\n"
              "The animated picture: parallax-cli render animation RUN -o OUT.png (an animated\n"
              "PNG; --frames-dir DIR also writes frame-0001.png, ... there).\n\n"
              "options:\n"
              "  --frames N         number of frames over the range (default 50, at most 2000)\n"
              "  --interval T       one frame per interval of T, e.g. 100ms\n"
              "  comm threads have no idle records (always busy): left out unless\n"
              "  --include-comm-threads\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    core::analysis::AnimationOptions options;
    const IntervalFields intervals { options.intervalSize, options.frames, "frames",
        kMaxAnimationFrames };
    if (const int rc = prepareAnalysisCommand(
            command, args, {}, help, cl, trace, request, out, err, {}, &intervals);
        rc >= 0)
        return rc;
    if (!trace->hasLogs() && !trace->hasSummaries()) {
        err << "parallax-cli " << command << ": this run has neither logs nor summary files to "
            << "take utilization from\n";
        return kExitFatal;
    }
    if (options.intervalSize > 0) {
        const auto range = core::analysis::resolve(*trace, request).range;
        const auto count = core::analysis::gridForRange(range, options.intervalSize, 0).count;
        if (count > kMaxAnimationFrames)
            return usageError(err, command,
                "--interval gives " + std::to_string(count) + " frames, more than "
                    + std::to_string(kMaxAnimationFrames) + ": choose a longer interval");
    }
    const auto frames = core::analysis::computeAnimation(*trace, request, options);
    if (!frames)
        return kExitFatal;
    out << core::analysis::animationCsv(&*frames);
    if (frames->pes.empty())
        err << "parallax-cli " << command << ": note: no PE to show (only comm threads were "
            << "selected; --include-comm-threads shows them)\n";
    return kExitOk;
}

} // namespace parallax::cli
