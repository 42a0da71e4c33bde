#include "profile_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/call_table.h"
#include "core/analysis/entry_profile.h"
#include "core/analysis/noise.h"
#include "core/analysis/result_table.h"
#include "core/text_args.h"

#include <exception>
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

// entry-profile and call-table: the shared start, the analysis (`compute`), its error said, and
// `table` of its result as CSV (which may add a note on err).
template <typename Result, typename Table>
int runTableCommand(const std::string& command, const std::string& help,
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
    std::optional<Result> (*compute)(const core::Trace&, const core::analysis::AnalysisRequest&,
        const core::analysis::Progress&),
    Table table)
{
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc
        = prepareAnalysisCommand(command, args, {}, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    const auto result = compute(*trace, request, {});
    if (const int rc = analysisFailed(command, result, err); rc >= 0)
        return rc;
    out << core::analysis::resultTableCsv(table(*result, trace->metadata));
    return kExitOk;
}

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
    return runTableCommand("entry-profile", help, args, out, err,
        &core::analysis::computeEntryProfile,
        [&err](const core::analysis::EntryProfile& profile, const core::RunMetadata& metadata) {
            if (profile.fromSummaries)
                err << "parallax-cli: note: the profile comes from the .sum files (the logs are "
                       "absent or were left unread) and covers the whole run (no min_us, sd_us)\n";
            return core::analysis::entryProfileTable(profile, metadata);
        });
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
    return runTableCommand("call-table", help, args, out, err, &core::analysis::computeCallTable,
        &core::analysis::callTableTable);
}

namespace {

bool parseNonNegative(const std::string& text, double& value)
{
    try {
        std::size_t used = 0;
        value = std::stod(text, &used);
        return used == text.size() && value >= 0 && value < 1e15;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

int runNoise(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli noise RUN [--k K] [--min-excess T] [--min-samples N]\n"
              "                  [--list events|executions|baselines] [options]\n\n"
              "The Noise Miner: executions much longer than their entry method's typical\n"
              "duration, grouped into noise events. Typical = the median of the entry's\n"
              "durations in the range; noisy = longer than median + max(K x 1.4826 x MAD,\n"
              "min-excess), MAD = median absolute deviation; time lost = duration - median.\n"
              "Noisy executions whose lost time falls in the same power-of-two band are one\n"
              "event; events are ranked by time lost. CSV (--list events, the default)\n"
              "rank,lost_us,occurrences,pes,pe_list,median_lost_us,period_us,concurrent,entries,"
              "worst_pe,worst_begin_us\n"
              "period_us = median gap between an event's consecutive occurrences on one PE;\n"
              "concurrent = occurrences overlapping one on another PE. --list executions: one\n"
              "row per noisy execution; --list baselines: each entry's median, MAD, threshold.\n\n"
              "options:\n"
              "  --k K              scaled MADs above the median (default 5)\n"
              "  --min-excess T     at least this much longer than the median (default 10us)\n"
              "  --min-samples N    executions an entry method needs for a baseline (default 8)\n")
        + kSelectionHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand("noise", args,
            { "k", "min-excess", "min-samples", "list" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::NoiseOptions options;
    if (const auto k = cl.parser.value("k");
        k && (!parseNonNegative(*k, options.k) || options.k <= 0))
        return usageError(err, "noise", "--k needs a positive number, got '" + *k + "'");
    if (const auto t = cl.parser.value("min-excess")) {
        std::string error;
        const auto excess = core::parseTime(*t, &error);
        if (!excess || *excess < 0)
            return usageError(err, "noise",
                "--min-excess: " + (excess ? std::string("must not be negative") : error));
        options.minExcessUs = static_cast<double>(*excess);
    }
    std::int64_t samples = static_cast<std::int64_t>(options.minSamples);
    if (const int rc = readIntOption("noise", cl, "min-samples", 1, 1'000'000'000, samples, err);
        rc != kExitOk)
        return rc;
    options.minSamples = static_cast<std::uint64_t>(samples);
    const std::string list = cl.parser.value("list").value_or("events");
    if (list != "events" && list != "executions" && list != "baselines")
        return usageError(
            err, "noise", "--list takes events, executions or baselines, got '" + list + "'");
    const auto report = core::analysis::computeNoise(*trace, request, options);
    if (const int rc = analysisFailed("noise", report, err); rc >= 0)
        return rc;
    const auto& m = trace->metadata;
    const auto table = list == "executions" ? core::analysis::noisyExecutionsTable(*report, m)
        : list == "baselines"               ? core::analysis::noiseBaselinesTable(*report, m)
                                            : core::analysis::noiseEventsTable(*report, m);
    out << core::analysis::resultTableCsv(table);
    return kExitOk;
}

} // namespace parallax::cli
