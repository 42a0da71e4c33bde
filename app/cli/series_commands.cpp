#include "series_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/counters.h"
#include "core/analysis/memory_usage.h"
#include "core/analysis/series_csv.h"
#include "core/analysis/user_stats.h"
#include "core/text_args.h"
#include "io/counter_reader.h"

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
    if (const int rc = prepareAnalysisCommand(command, args,
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
    if (const int rc = prepareAnalysisCommand(
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

namespace {

// The counters and entry methods asked for, checked against a table; returns the exit code.
int selectCounters(const std::string& command, const CommandLine& cl,
    core::analysis::CounterTable& table, std::ostream& err)
{
    const auto wanted = cl.parser.value("counters");
    if (!wanted)
        return kExitOk;
    std::vector<std::size_t> keep;
    std::string rest = *wanted;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const auto name = rest.substr(0, comma);
        rest = comma == std::string::npos ? std::string() : rest.substr(comma + 1);
        const auto it = std::find(table.names.begin(), table.names.end(), name);
        if (it == table.names.end()) {
            std::string names;
            for (const auto& n : table.names)
                names += (names.empty() ? "" : ", ") + n;
            return usageError(
                err, command, "no counter '" + name + "' in this run (counters: " + names + ")");
        }
        keep.push_back(static_cast<std::size_t>(it - table.names.begin()));
    }
    core::analysis::CounterTable chosen;
    chosen.pes = table.pes;
    chosen.entryCount = table.entryCount;
    chosen.unmeasured = table.unmeasured;
    for (const auto c : keep)
        chosen.names.push_back(table.names[c]);
    chosen.resize();
    for (std::size_t k = 0; k < keep.size(); ++k) {
        chosen.descriptions[k] = table.descriptions[keep[k]];
        for (std::size_t p = 0; p < table.pes.size(); ++p)
            for (int e = 0; e < table.entryCount; ++e)
                chosen.at(k, p, e) = table.at(keep[k], p, e);
    }
    table = std::move(chosen);
    return kExitOk;
}

} // namespace

int runCounters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli counters RUN [--by entry|pe|pe-entry] [--counters NAMES]\n"
              "                  [options]\n\n"
              "Hardware counters per entry method and PE as CSV: the executions measured, their\n"
              "time, each counter's total over them and its rate per microsecond of execution:\n"
              "  --by entry (default)  entry,entry_name,counter,calls,time_us,total,per_us\n"
              "  --by pe               pe,counter,calls,time_us,total,per_us\n"
              "  --by pe-entry         pe,entry,entry_name,counter,calls,time_us,total,per_us\n"
              "RUN is a run whose logs carry PAPI counters (PAPI_EVENT lines in its .sts; an\n"
              "execution counts when it begins in the range), or the files of the old counter\n"
              "tracemode: NAME.count.sts, NAME.<pe>.count or their directory (whole-run totals:\n"
              "--range does not apply).\n\n"
              "options:\n"
              "  --counters NAMES   counters by name, e.g. PAPI_TOT_INS,PAPI_FP_OPS (default: "
              "all)\n")
        + kAnalysisOptionsHelp;
    const std::string command = "counters";
    CommandLine cl;
    if (const int rc
        = parseCommand(command, args, { "by", "counters", "range", "pes", "entries", "compat" }, cl,
            out, err, help.c_str(), { "include-comm-threads" });
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    core::analysis::AnalysisRequest request;
    if (const int rc = parseAnalysisRequest(command, cl, request, err); rc != kExitOk)
        return rc;
    const std::string byName = cl.parser.value("by").value_or("entry");
    core::analysis::CounterGrouping by = core::analysis::CounterGrouping::Entry;
    if (byName == "pe")
        by = core::analysis::CounterGrouping::Pe;
    else if (byName == "pe-entry")
        by = core::analysis::CounterGrouping::PeEntry;
    else if (byName != "entry")
        return usageError(err, command, "--by takes entry, pe or pe-entry, got '" + byName + "'");

    core::analysis::CounterTable table;
    std::vector<std::string> entryNames;
    if (io::isCounterRunPath(cl.run)) {
        auto counterRun = io::readCounterRun(cl.run);
        if (!counterRun.ok) {
            err << "parallax-cli " << command << ": " << counterRun.error << "\n";
            return kExitFatal;
        }
        for (const auto& w : counterRun.run.warnings)
            err << "parallax-cli " << command << ": note: " << w << "\n";
        if (cl.parser.value("range"))
            return usageError(
                err, command, "--range does not apply: the .count files hold whole-run totals");
        const auto& pes = counterRun.run.table.pes;
        for (const auto pe : request.pes)
            if (!std::binary_search(pes.begin(), pes.end(), pe))
                return usageError(err, command,
                    "PE " + std::to_string(pe)
                        + " has no .count file (PEs: " + core::formatPeList(pes) + ")");
        for (const auto e : request.entries)
            if (e >= counterRun.run.table.entryCount)
                return usageError(err, command,
                    "entry " + std::to_string(e) + " is not in this run (0-"
                        + std::to_string(counterRun.run.table.entryCount - 1) + ")");
        table = std::move(counterRun.run.table);
        for (const auto& e : counterRun.run.metadata.entries)
            entryNames.push_back(e.name);
    } else {
        int rc = kExitOk;
        const auto trace = load(cl, err, rc);
        if (!trace)
            return rc;
        if (const int check = checkRequestAgainstRun(command, *trace, request, err);
            check != kExitOk)
            return check;
        if (!trace->hasLogs())
            return noLogs(command, *trace, err);
        if (!core::analysis::hasCounterValues(*trace)) {
            err << "parallax-cli " << command
                << ": this run has no hardware-counter (PAPI) values: its .sts declares no "
                   "PAPI_EVENT"
                << (trace->metadata.papiEvents.empty() ? "" : " that its logs carry") << "\n";
            return kExitFatal;
        }
        auto fromLogs = core::analysis::countersFromLogs(*trace, request);
        if (!fromLogs)
            return kExitFatal;
        table = std::move(*fromLogs);
        if (table.unmeasured > 0)
            err << "parallax-cli " << command << ": note: " << table.unmeasured
                << " executions in the range have no counters at their end (not counted)\n";
        for (const auto& e : trace->metadata.entries)
            entryNames.push_back(e.name);
        request.pes.clear(); // the table holds the selected PEs and entries already
        request.entries.clear();
    }
    if (const int rc = selectCounters(command, cl, table, err); rc != kExitOk)
        return rc;
    const auto rows = core::analysis::summarizeCounters(table, by, request.pes, request.entries);
    out << core::analysis::countersCsv(table, rows, by, entryNames);
    return kExitOk;
}

} // namespace parallax::cli
