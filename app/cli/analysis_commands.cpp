#include "analysis_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/communication.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/text_args.h"

#include <exception>
#include <ostream>

namespace parallax::cli {

int runUsage(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string("usage: parallax-cli usage RUN [options]\n\n"
                      "Per PE, the % of the range spent in each entry method, idle, overhead,\n"
                      "pack and unpack, as CSV pe,activity,percent (pe 'avg' = the average over\n"
                      "the selected worker PEs, comm threads apart); one row per non-zero "
                      "cell.\n\noptions:\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc
        = prepareAnalysisCommand("usage", args, {}, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    const auto usage = core::analysis::computeUsageProfile(*trace, request);
    if (!usage)
        return kExitFatal;
    out << core::analysis::usageCsv(&*usage);
    return kExitOk;
}

namespace {

constexpr const char* kIntervalOptionsHelp
    = "  --interval T       interval size, e.g. 1ms\n"
      "  --bins N           number of intervals (default 1000)\n";

// time-profile and comm: an analysis over a grid of intervals (--interval T | --bins N), printed
// as CSV by `csv`.
template <typename Options, typename Result>
int runIntervalCsvCommand(const std::string& command, const std::string& help,
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
    std::optional<Result> (*compute)(const core::Trace&, const core::analysis::AnalysisRequest&,
        const Options&, const core::analysis::Progress&),
    std::string (*csv)(const Result*))
{
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    Options options;
    const IntervalFields intervals { options.intervalSize, options.bins };
    if (const int rc = prepareAnalysisCommand(
            command, args, {}, help, cl, trace, request, out, err, {}, &intervals);
        rc >= 0)
        return rc;
    const auto result = compute(*trace, request, options, {});
    if (!result)
        return kExitFatal;
    out << csv(&*result);
    return kExitOk;
}

} // namespace

int runTimeProfile(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string("usage: parallax-cli time-profile RUN [--interval T | --bins N] [options]\n\n"
                      "Time per entry method (and idle, overhead, pack, unpack) summed over the\n"
                      "selected PEs, per interval, as CSV\n"
                      "interval,begin_us,end_us,activity,time_us,percent\n"
                      "(percent of the interval's processor time); one row per non-zero cell.\n\n"
                      "options:\n")
        + kIntervalOptionsHelp + kAnalysisOptionsHelp;
    return runIntervalCsvCommand<core::analysis::TimeProfileOptions>("time-profile", help, args,
        out, err, core::analysis::computeTimeProfile, core::analysis::timeProfileCsv);
}

int runOverview(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli overview RUN [--columns N] [options]\n\n"
              "Processors x time: per PE and column the dominant activity, the\n"
              "utilization and the idle share, as CSV\n"
              "pe,column,begin_us,end_us,dominant,utilization_pct,idle_pct;\n"
              "cells with neither utilization nor idle are left out.\n\n"
              "options:\n"
              "  --columns N        number of time columns (default 1000; Java: 7000 rule)\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand(
            "overview", args, { "columns" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::OverviewOptions options;
    if (const int rc = readIntOption("overview", cl, "columns", 1, 100'000, options.columns, err);
        rc != kExitOk)
        return rc;
    const auto o = core::analysis::computeOverview(*trace, request, options);
    if (!o)
        return kExitFatal;
    out << core::analysis::overviewCsv(&*o);
    return kExitOk;
}

namespace {

// A number with an optional unit: time units for durations, plain numbers otherwise.
bool parseQuantity(const std::string& text, bool time, double& out, std::string& error)
{
    if (time) {
        const auto t = core::parseTime(text, &error);
        if (!t)
            return false;
        out = static_cast<double>(*t);
        return true;
    }
    try {
        std::size_t used = 0;
        out = std::stod(text, &used);
        if (used != text.size() || !(out >= 0) || out > 1e18) {
            error = "'" + text + "' is not a non-negative number";
            return false;
        }
        return true;
    } catch (const std::exception&) {
        error = "'" + text + "' is not a number";
        return false;
    }
}

} // namespace

int runHistogram(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli histogram RUN [--metric duration|msg-size|idle] [--bins N]\n"
              "                  [--bin-size X] [--min X] [--idle on|off] [options]\n\n"
              "Counts per bin, stacked by entry method, as CSV metric,bin,lo,hi,activity,count\n"
              "(the last bin, hi 'inf', holds everything above). duration: executions by\n"
              "duration (X in time units, default 100 x 1ms; --idle on adds idle periods as\n"
              "activity idle, never with --entries);\n"
              "msg-size: messages by size in bytes (default 200 x 100 B); idle: PEs by idle %\n"
              "over the range (default 100 x 1 %).\n\noptions:\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand("histogram", args,
            { "metric", "bins", "bin-size", "min", "idle" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::HistogramOptions options;
    std::string metricName = cl.parser.value("metric").value_or("duration");
    if (metricName == "duration")
        options.metric = core::analysis::HistogramMetric::Duration;
    else if (metricName == "msg-size")
        options.metric = core::analysis::HistogramMetric::MessageSize;
    else if (metricName == "idle")
        options.metric = core::analysis::HistogramMetric::IdlePercent;
    else
        return usageError(err, "histogram",
            "--metric takes duration, msg-size or idle, got '" + metricName + "'");
    const bool time = options.metric == core::analysis::HistogramMetric::Duration;
    const std::string idle = cl.parser.value("idle").value_or("off");
    if (idle != "on" && idle != "off")
        return usageError(err, "histogram", "--idle takes on or off, got '" + idle + "'");
    options.includeIdle = idle == "on"; // idle periods are not executions: off by default
    std::string error;
    if (const int rc = readIntOption("histogram", cl, "bins", 1, 10'000'000, options.bins, err);
        rc != kExitOk)
        return rc;
    if (const auto v = cl.parser.value("bin-size")) {
        if (!parseQuantity(*v, time, options.binSize, error) || options.binSize <= 0)
            return usageError(err, "histogram",
                "--bin-size: " + (error.empty() ? std::string("must be positive") : error));
    }
    if (const auto v = cl.parser.value("min")) {
        if (!parseQuantity(*v, time, options.minimum, error))
            return usageError(err, "histogram", "--min: " + error);
    }
    const auto h = core::analysis::computeHistogram(*trace, request, options);
    if (!h)
        return kExitFatal;
    out << core::analysis::histogramCsv(&*h);
    return kExitOk;
}

int runComm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli comm RUN [--interval T | --bins N] [options]\n\n"
              "Messages and bytes sent and received per interval and entry method, as CSV\n"
              "interval,begin_us,end_us,metric,activity,value. Metrics: msgs_sent,\n"
              "bytes_sent, msgs_recv, bytes_recv, ext_msgs_recv, ext_bytes_recv (from another\n"
              "PE), ext_node_msgs_recv, ext_node_bytes_recv (from another SMP node). Values\n"
              "are totals per interval (with --compat java: Java's per-millisecond rates).\n\n"
              "options:\n")
        + kIntervalOptionsHelp + kAnalysisOptionsHelp;
    return runIntervalCsvCommand<core::analysis::CommOptions>("comm", help, args, out, err,
        core::analysis::computeCommunication, core::analysis::commCsv);
}

int runExtrema(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string(
              "usage: parallax-cli extrema RUN --criterion C [--count N] [--clusters K] "
              "[options]\n\n"
              "The PEs that stand out. C: least-idle, most-idle, overhead, active-entries,\n"
              "grain-size (average µs per call), msgs-sent, bytes-sent, clustering (k-means\n"
              "outliers). Prints CSV rank,pe,score (rank 1 = most extreme), then\n"
              "group,activity,value rows for the averaged columns avg, non-outliers and\n"
              "outliers (% of the range; with --compat java, µs except for the idle criteria).\n\n"
              "options:\n"
              "  --count N          number of extreme PEs (default: 10 % of the PEs, at most 20 "
              "above 256)\n"
              "  --clusters K       clusters for clustering (default: sqrt of the PE count)\n")
        + kAnalysisOptionsHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareAnalysisCommand("extrema", args, { "criterion", "count", "clusters" },
            help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::ExtremaOptions options;
    const auto name = cl.parser.value("criterion");
    if (!name)
        return usageError(err, "extrema",
            "missing --criterion (least-idle, most-idle, overhead, active-entries, "
            "grain-size, msgs-sent, bytes-sent or clustering)");
    const auto criterion = core::analysis::parseExtremaCriterion(*name);
    if (!criterion)
        return usageError(err, "extrema", "unknown criterion '" + *name + "'");
    options.criterion = *criterion;
    if (const int rc = readIntOption("extrema", cl, "count", 1, 10'000'000, options.count, err);
        rc != kExitOk)
        return rc;
    if (const int rc
        = readIntOption("extrema", cl, "clusters", 1, 10'000'000, options.clusters, err);
        rc != kExitOk)
        return rc;
    const auto x = core::analysis::computeExtrema(*trace, request, options);
    if (const int rc = analysisFailed("extrema", x, err, kExitUsage); rc >= 0)
        return rc;
    out << core::analysis::extremaCsv(&*x);
    return kExitOk;
}

} // namespace parallax::cli
