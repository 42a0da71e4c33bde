// The CLI's analyses over the opened run: the same core function and the same CSV writer or
// result table as the `parallax-cli` command, so the numbers are the CLI's. Aggregates (usage,
// time profile, histogram, ...) come back as the CLI's CSV text, which is small; result tables
// (entry profile, call table, user events) as whole columns. Any other command runs in-process
// through the CLI itself (`cli`).

#include "app/cli/commands.h"
#include "binding.h"
#include "core/analysis/call_table.h"
#include "core/analysis/communication.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/entry_profile.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/result_table.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/analysis/user_events.h"
#include "core/text_args.h"

#include <cmath>
#include <pybind11/stl.h>
#include <sstream>

namespace parallax::python {

namespace {

namespace an = core::analysis;
using Args = std::vector<std::string>;

// An analysis that returned nothing: the CLI exits with 1 and no message of its own.
template <typename T> const T& computed(const std::optional<T>& result, const std::string& command)
{
    if (!result)
        throw Failure("parallax-cli " + command + ": the analysis failed");
    return *result;
}

std::string usageCsvOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("usage", run, args);
    return an::usageCsv(&computed(an::computeUsageProfile(*run.trace, p.request), "usage"));
}

std::string timeProfileCsvOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("time-profile", run, args, { "interval", "bins" });
    an::TimeProfileOptions options;
    std::ostringstream err;
    int rc = cli::kExitOk;
    if (!cli::parseIntervalOptions(
            "time-profile", p.cl, options.intervalSize, options.bins, err, rc))
        throwIfFailed(rc, err.str());
    return an::timeProfileCsv(
        &computed(an::computeTimeProfile(*run.trace, p.request, options), "time-profile"));
}

std::string commCsvOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("comm", run, args, { "interval", "bins" });
    an::CommOptions options;
    std::ostringstream err;
    int rc = cli::kExitOk;
    if (!cli::parseIntervalOptions("comm", p.cl, options.intervalSize, options.bins, err, rc))
        throwIfFailed(rc, err.str());
    return an::commCsv(&computed(an::computeCommunication(*run.trace, p.request, options), "comm"));
}

std::string overviewCsvOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("overview", run, args, { "columns" });
    an::OverviewOptions options;
    cliCheck([&](std::ostream& err) {
        return cli::readIntOption("overview", p.cl, "columns", 1, 100'000, options.columns, err);
    });
    return an::overviewCsv(
        &computed(an::computeOverview(*run.trace, p.request, options), "overview"));
}

// --bin-size and --min of `histogram`: time units for durations, plain numbers otherwise (the
// CLI's rule and wording).
double histogramQuantity(const std::string& option, const std::string& text, bool time)
{
    std::string error;
    double value = 0;
    if (time) {
        const auto t = core::parseTime(text, &error);
        if (t)
            return static_cast<double>(*t);
    } else {
        std::size_t used = 0;
        try {
            value = std::stod(text, &used);
            if (used == text.size() && value >= 0 && value <= 1e18)
                return value;
            error = "'" + text + "' is not a non-negative number";
        } catch (const std::exception&) {
            error = "'" + text + "' is not a number";
        }
    }
    usageFailure("histogram", "--" + option + ": " + error);
    return 0;
}

std::string histogramCsvOf(const Run& run, const Args& args)
{
    const auto p
        = parseArgs("histogram", run, args, { "metric", "bins", "bin-size", "min", "idle" });
    an::HistogramOptions options;
    const auto metric = p.cl.parser.value("metric").value_or("duration");
    if (metric == "duration")
        options.metric = an::HistogramMetric::Duration;
    else if (metric == "msg-size")
        options.metric = an::HistogramMetric::MessageSize;
    else if (metric == "idle")
        options.metric = an::HistogramMetric::IdlePercent;
    else
        usageFailure(
            "histogram", "--metric takes duration, msg-size or idle, got '" + metric + "'");
    const auto idle = p.cl.parser.value("idle").value_or("off");
    if (idle != "on" && idle != "off")
        usageFailure("histogram", "--idle takes on or off, got '" + idle + "'");
    options.includeIdle = idle == "on";
    cliCheck([&](std::ostream& err) {
        return cli::readIntOption("histogram", p.cl, "bins", 1, 10'000'000, options.bins, err);
    });
    const bool time = options.metric == an::HistogramMetric::Duration;
    if (const auto v = p.cl.parser.value("bin-size")) {
        options.binSize = histogramQuantity("bin-size", *v, time);
        if (options.binSize <= 0)
            usageFailure("histogram", "--bin-size: must be positive");
    }
    if (const auto v = p.cl.parser.value("min"))
        options.minimum = histogramQuantity("min", *v, time);
    return an::histogramCsv(
        &computed(an::computeHistogram(*run.trace, p.request, options), "histogram"));
}

std::string extremaCsvOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("extrema", run, args, { "criterion", "count", "clusters" });
    an::ExtremaOptions options;
    const auto name = p.cl.parser.value("criterion").value_or("least-idle");
    const auto criterion = an::parseExtremaCriterion(name);
    if (!criterion)
        usageFailure("extrema", "unknown criterion '" + name + "'");
    options.criterion = *criterion;
    cliCheck([&](std::ostream& err) {
        return cli::readIntOption("extrema", p.cl, "count", 1, 10'000'000, options.count, err);
    });
    cliCheck([&](std::ostream& err) {
        return cli::readIntOption(
            "extrema", p.cl, "clusters", 1, 10'000'000, options.clusters, err);
    });
    const auto result = an::computeExtrema(*run.trace, p.request, options);
    const auto& x = computed(result, "extrema");
    if (!x.error.empty())
        throw Failure("parallax-cli extrema: " + x.error);
    return an::extremaCsv(&x);
}

// A result table as [(key, kind, values)]: numbers as a float64 array (NaN = empty cell),
// text as a list of str. Kind: "text", "integer" or "number".
py::list tableColumns(const an::ResultTable& table)
{
    py::list columns;
    for (const auto& c : table.columns) {
        if (!c.numeric()) {
            columns.append(py::make_tuple(c.key, "text", py::cast(c.texts)));
            continue;
        }
        auto values = newArray<double>(c.numbers.size());
        std::copy(c.numbers.begin(), c.numbers.end(), values.mutable_data());
        columns.append(
            py::make_tuple(c.key, c.kind == an::CellKind::Integer ? "integer" : "number", values));
    }
    return columns;
}

template <typename R> const R& checked(const std::optional<R>& result, const std::string& command)
{
    const auto& r = computed(result, command);
    if (!r.error.empty())
        throw Failure("parallax-cli " + command + ": " + r.error);
    return r;
}

py::list entryProfileOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("entry-profile", run, args);
    const auto result = an::computeEntryProfile(*run.trace, p.request);
    const auto& profile = checked(result, "entry-profile");
    return tableColumns(an::entryProfileTable(profile, run.trace->metadata));
}

py::list callTableOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("call-table", run, args);
    const auto result = an::computeCallTable(*run.trace, p.request);
    const auto& table = checked(result, "call-table");
    return tableColumns(an::callTableTable(table, run.trace->metadata));
}

py::list userEventStatsOf(const Run& run, const Args& args)
{
    const auto p = parseArgs("user-events", run, args, { "events" }, { "occurrences" });
    an::UserEventOptions options;
    if (const auto text = p.cl.parser.value("events")) {
        std::string error;
        const auto ids = core::parsePeList(*text, &error, 1'000'000);
        if (!ids)
            usageFailure("user-events", "--events: " + error);
        options.events.assign(ids->begin(), ids->end());
    }
    const auto result = an::computeUserEvents(*run.trace, p.request, options);
    const auto& summary = checked(result, "user-events");
    if (const auto unknown = an::unknownUserEvents(*run.trace, options.events); !unknown.empty()) {
        std::vector<core::PeId> known;
        for (const auto& [id, name] : run.trace->metadata.userEvents)
            known.push_back(id);
        usageFailure("user-events",
            "user event " + std::to_string(unknown.front()) + " is not in this run (events: "
                + (known.empty() ? std::string("none declared") : core::formatPeList(known)) + ")");
    }
    const auto& m = run.trace->metadata;
    return tableColumns(p.cl.parser.flag("occurrences") ? an::userEventOccurrencesTable(summary, m)
                                                        : an::userEventStatsTable(summary, m));
}

// `parallax-cli COMMAND RUN ARGS...` in this process: (exit code, stdout, stderr).
py::tuple runCliCommand(const std::vector<std::string>& argv)
{
    std::ostringstream out;
    std::ostringstream err;
    int rc = 0;
    {
        py::gil_scoped_release release;
        rc = cli::runCli(argv, out, err);
    }
    return py::make_tuple(rc, out.str(), err.str());
}

} // namespace

void bindAnalyses(py::module_& module, py::class_<Run>& run)
{
    const auto released = py::call_guard<py::gil_scoped_release>();
    run.def("usage", &usageCsvOf, released)
        .def("time_profile", &timeProfileCsvOf, released)
        .def("comm", &commCsvOf, released)
        .def("overview", &overviewCsvOf, released)
        .def("histogram", &histogramCsvOf, released)
        .def("extrema", &extremaCsvOf, released)
        .def("entry_profile", &entryProfileOf)
        .def("call_table", &callTableOf)
        .def("user_event_stats", &userEventStatsOf);
    module.def("run_cli", &runCliCommand);
}

} // namespace parallax::python
