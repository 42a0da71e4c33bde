#include "series_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/memory_usage.h"
#include "core/analysis/series_csv.h"
#include "core/analysis/user_stats.h"
#include "core/text_args.h"

#include <algorithm>
#include <ostream>

namespace parallax::cli {

namespace {

// A run opened without its logs cannot give records that only the logs hold.
int noLogs(const std::string& command, const core::Trace& trace, std::ostream& err)
{
    err << "parallax-cli " << command << ": "
        << (trace.logsOnDemand() ? "the run was opened from its summary files (--memory-budget): "
                                   "these records are in the logs only"
                                 : "this run has no logs: these records are in the logs only")
        << "\n";
    return kExitFatal;
}

std::string statList(const core::Trace& trace)
{
    std::string text;
    for (const auto& [id, name] : trace.metadata.stats)
        text += (text.empty() ? "" : ", ") + std::to_string(id) + " " + name;
    for (const auto id : core::analysis::statIdsInLogs(trace))
        if (!trace.metadata.stats.contains(id))
            text += (text.empty() ? "" : ", ") + std::to_string(id);
    return text.empty() ? "none" : text;
}

int rejectEntries(const std::string& command, const CommandLine& cl, std::ostream& err)
{
    if (cl.parser.value("entries"))
        return usageError(err, command, "--entries does not apply to " + command);
    return kExitOk;
}

} // namespace

int runUserStats(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli user-stats RUN [--stats IDS] [--aggregate A] [--by B]\n"
              "                  [--interval T | --bins N] [options]\n\n"
              "User statistics (USER_STAT records, STAT lines of the .sts) as CSV:\n"
              "  --by time (default)  per interval and stat, the aggregate of the samples of the\n"
              "                       selected PEs, and the PEs with the lowest and highest own\n"
              "                       aggregate: interval,begin_us,end_us,stat,stat_name,samples,\n"
              "                       value,pe_min,pe_min_value,pe_max,pe_max_value\n"
              "  --by pe              per PE and stat: pe,stat,stat_name,samples,value,sum,mean,\n"
              "                       min,max,last\n"
              "  --by sample          every sample: pe,time_us,user_time,stat,stat_name,value\n"
              "Intervals and PEs without samples are left out.\n\n"
              "options:\n"
              "  --stats IDS        stat ids, e.g. 3,9 (default: every stat of the run)\n"
              "  --aggregate A      sum, mean (default), min, max, count or last\n"
              "  --interval T       interval size, e.g. 1ms\n"
              "  --bins N           number of intervals (default 100)\n")
        + kAnalysisOptionsHelp;
    const std::string command = "user-stats";
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysis(command, args,
            { "stats", "aggregate", "by", "interval", "bins" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    if (const int rc = rejectEntries(command, cl, err); rc != kExitOk)
        return rc;
    core::analysis::UserStatsOptions options;
    int rc = kExitOk;
    if (!parseIntervalOptions(command, cl, options.intervalSize, options.bins, err, rc))
        return rc;
    if (const auto a = cl.parser.value("aggregate");
        a && !core::analysis::parseSampleAggregate(*a, options.aggregate))
        return usageError(
            err, command, "--aggregate takes sum, mean, min, max, count or last, got '" + *a + "'");
    const std::string by = cl.parser.value("by").value_or("time");
    if (by != "time" && by != "pe" && by != "sample")
        return usageError(err, command, "--by takes time, pe or sample, got '" + by + "'");
    if (!trace->hasLogs())
        return noLogs(command, *trace, err);
    const auto inLogs = core::analysis::statIdsInLogs(*trace);
    if (const auto s = cl.parser.value("stats")) {
        std::string error;
        const auto ids = core::parsePeList(*s, &error, 65536);
        if (!ids)
            return usageError(err, command, "--stats: " + error);
        for (const auto id : *ids)
            if (!trace->metadata.stats.contains(id)
                && std::find(inLogs.begin(), inLogs.end(), id) == inLogs.end())
                return usageError(err, command,
                    "stat " + std::to_string(id) + " is not in this run (stats: " + statList(*trace)
                        + ")");
        options.stats.assign(ids->begin(), ids->end());
    }
    if (inLogs.empty()) {
        err << "parallax-cli " << command << ": this run has no user-stat (USER_STAT) records"
            << (trace->metadata.stats.empty() ? "" : " although its .sts declares stats") << "\n";
        return kExitFatal;
    }
    if (by == "sample") {
        out << core::analysis::userStatSamplesCsv(
            core::analysis::userStatSamples(*trace, request, options.stats), trace->metadata.stats);
        return kExitOk;
    }
    const auto stats = core::analysis::computeUserStats(*trace, request, options);
    if (!stats)
        return kExitFatal;
    out << (by == "pe" ? core::analysis::userStatsPeCsv(&*stats)
                       : core::analysis::userStatsTimeCsv(&*stats));
    return kExitOk;
}

int runMemory(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli memory RUN [--by time|pe] [--interval T | --bins N] "
              "[options]\n\n"
              "Memory in use (MEMORY_USAGE records) over time as CSV. Per PE and interval the\n"
              "peak of its samples; an interval without a sample keeps the PE's last level.\n"
              "  --by time (default)  over the selected PEs: interval,begin_us,end_us,pes,\n"
              "                       min_bytes,min_pe,mean_bytes,max_bytes,max_pe,total_bytes\n"
              "  --by pe              interval,begin_us,end_us,pe,bytes,samples (samples 0: the\n"
              "                       level carried from an earlier sample)\n\n"
              "options:\n"
              "  --interval T       interval size, e.g. 1ms\n"
              "  --bins N           number of intervals (default 200)\n")
        + kAnalysisOptionsHelp;
    const std::string command = "memory";
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysis(
            command, args, { "by", "interval", "bins" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    if (const int rc = rejectEntries(command, cl, err); rc != kExitOk)
        return rc;
    core::analysis::MemoryUsageOptions options;
    int rc = kExitOk;
    if (!parseIntervalOptions(command, cl, options.intervalSize, options.bins, err, rc))
        return rc;
    const std::string by = cl.parser.value("by").value_or("time");
    if (by != "time" && by != "pe")
        return usageError(err, command, "--by takes time or pe, got '" + by + "'");
    if (!trace->hasLogs())
        return noLogs(command, *trace, err);
    if (!core::analysis::hasMemoryRecords(*trace)) {
        err << "parallax-cli " << command
            << ": this run has no memory-usage (MEMORY_USAGE) records; the program records them "
               "with traceMemoryUsage()\n";
        return kExitFatal;
    }
    const auto memory = core::analysis::computeMemoryUsage(*trace, request, options);
    if (!memory)
        return kExitFatal;
    out << (by == "pe" ? core::analysis::memoryPerPeCsv(&*memory)
                       : core::analysis::memoryCsv(&*memory));
    return kExitOk;
}

} // namespace parallax::cli
