// The `parallax._parallax` extension: opening a run, its info and entry methods (docs/python.md).

#include "app/cli/commands.h"
#include "binding.h"
#include "core/analysis/csv_export.h"
#include "core/text_args.h"

#include <pybind11/stl.h>
#include <sstream>

namespace parallax::python {

void throwIfFailed(int rc, const std::string& err)
{
    if (rc == cli::kExitOk)
        return;
    throw Failure(err.substr(0, err.find('\n')));
}

void usageFailure(const std::string& command, const std::string& message)
{
    std::ostringstream err;
    cli::usageError(err, command, message);
    throwIfFailed(cli::kExitUsage, err.str());
    throw Failure(message); // not reached
}

ParsedArgs parseArgs(const std::string& command, const Run& run,
    const std::vector<std::string>& args, std::set<std::string> options,
    std::set<std::string> flags)
{
    ParsedArgs parsed;
    options.insert({ "range", "pes", "entries", "compat", "threads" });
    flags.insert("include-comm-threads");
    parsed.cl.parser = cli::ArgParser(std::move(options), std::move(flags));
    if (!parsed.cl.parser.parse(args))
        usageFailure(command, parsed.cl.parser.error());
    if (!parsed.cl.parser.positionals().empty())
        usageFailure(command, "unexpected argument '" + parsed.cl.parser.positionals()[0] + "'");
    std::int64_t threads = 0;
    auto& cl = parsed.cl;
    cliCheck([&](std::ostream& err) {
        return cli::readIntOption(command, cl, "threads", 0, 256, threads, err);
    });
    cl.threads = static_cast<unsigned>(threads);
    cliCheck([&](std::ostream& err) {
        return cli::parseAnalysisRequest(command, cl, parsed.request, err);
    });
    cliCheck([&](std::ostream& err) {
        return cli::checkRequestAgainstRun(command, *run.trace, parsed.request, err);
    });
    return parsed;
}

namespace {

// Opens a run as `parallax-cli info RUN` does (the index cache unless `cache` is false).
Run openRun(const std::string& path, bool cache, const std::string& cacheDir, unsigned threads,
    const std::string& memoryBudget)
{
    std::vector<std::string> args { path };
    if (threads > 0)
        args.insert(args.end(), { "--threads", std::to_string(threads) });
    if (!memoryBudget.empty())
        args.insert(args.end(), { "--memory-budget", memoryBudget });
    if (!cache)
        args.emplace_back("--no-cache");
    if (!cacheDir.empty())
        args.insert(args.end(), { "--cache-dir", cacheDir });
    cli::CommandLine cl;
    std::ostringstream out;
    std::ostringstream err;
    const int rc = cli::parseCommand("info", args, {}, cl, out, err, "");
    throwIfFailed(rc < 0 ? cli::kExitOk : rc, err.str());
    int loadRc = cli::kExitOk;
    Run run;
    run.trace = cli::load(cl, err, loadRc);
    if (!run.trace)
        throwIfFailed(loadRc == cli::kExitOk ? cli::kExitFatal : loadRc, err.str());
    // cli::load reports late problems into `err`, which dies here: keep them in the report only.
    if (run.trace->lateIssues)
        run.trace->lateIssues->setOnIssue({});
    run.path = path;
    return run;
}

// The keys of `parallax-cli info` (load_seconds aside), as Python values.
py::dict runInfo(const Run& run)
{
    const auto& trace = *run.trace;
    const auto& m = trace.metadata;
    py::dict info;
    info["version"] = m.version;
    info["pes"] = m.processors;
    info["entries"] = m.entries.size();
    info["begin_us"] = trace.beginTime();
    info["end_us"] = trace.endTime();
    info["events"] = trace.eventCount();
    info["has_logs"] = trace.hasLogs();
    info["has_sum"] = trace.hasSummaries();
    info["has_sumd"] = trace.hasSummaryDetails();
    const auto missing = trace.missingPes();
    info["missing_pes"] = missing.empty() ? std::string("none") : core::formatPeList(missing);
    info["warnings"] = trace.report.total(core::Severity::Warning);
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        info[py::str(std::string(core::issueKey(issue)))] = trace.report.count(issue);
    }
    info["name"] = trace.files.baseName;
    info["smp_nodes"] = m.numNodes;
    info["comm_thread_pes"] = m.commThreadsPerNode * m.numNodes;
    info["projrc_end_us"] = m.projrcEndTime;
    info["log_bytes"] = trace.files.logBytes;
    info["store_bytes"] = trace.storeBytes();
    info["logs_on_demand"] = trace.logsOnDemand();
    info["deferred_store_bytes"] = trace.deferredStoreBytes;
    info["valid_pes"] = trace.validPes();
    return info;
}

// id, name, chare of every entry method (`parallax-cli entries`).
py::dict runEntries(const Run& run)
{
    const auto& m = run.trace->metadata;
    const auto n = m.entries.size();
    auto ids = newArray<std::int64_t>(n);
    auto* id = ids.mutable_data();
    py::list names;
    py::list chares;
    for (std::size_t i = 0; i < n; ++i) {
        const auto entry = static_cast<core::EntryId>(i);
        id[i] = static_cast<std::int64_t>(i);
        names.append(m.entryName(entry));
        chares.append(m.chareNameOfEntry(entry));
    }
    py::dict columns;
    columns["id"] = ids;
    columns["name"] = names;
    columns["chare"] = chares;
    return columns;
}

} // namespace

} // namespace parallax::python

PYBIND11_MODULE(_parallax, m)
{
    namespace py = pybind11;
    namespace px = parallax::python;
    m.doc() = "Charm++ Projections runs read by Parallax (use the `parallax` package)";
    py::register_exception<px::Failure>(m, "Error");
    py::class_<px::Run> run(m, "Run");
    run.def_readonly("path", &px::Run::path)
        .def("info", &px::runInfo)
        .def("entries", &px::runEntries);
    m.def("open", &px::openRun, py::arg("path"), py::arg("cache") = true,
        py::arg("cache_dir") = std::string(), py::arg("threads") = 0U,
        py::arg("memory_budget") = std::string(), py::call_guard<py::gil_scoped_release>());
    px::bindEvents(run);
    px::bindAnalyses(m, run);
}
