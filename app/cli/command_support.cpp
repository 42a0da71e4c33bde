#include "command_support.h"

#include "commands.h"
#include "core/text_args.h"
#include "io/index_cache.h"
#include "io/run_loader.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ostream>

namespace parallax::cli {

int usageError(std::ostream& err, const std::string& command, const std::string& message)
{
    err << "parallax-cli " << command << ": " << message << " (see parallax-cli " << command
        << " --help)\n";
    return kExitUsage;
}

int parseCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> valueOptions, CommandLine& cl, std::ostream& out, std::ostream& err,
    const char* help, std::set<std::string> flagOptions, bool severalRuns)
{
    valueOptions.insert("threads");
    valueOptions.insert("cache-dir");
    valueOptions.insert("index");
    valueOptions.insert("memory-budget");
    flagOptions.insert({ "help", "no-cache" });
    cl.parser = ArgParser(std::move(valueOptions), std::move(flagOptions));
    if (!cl.parser.parse(args))
        return usageError(err, command, cl.parser.error());
    if (cl.parser.flag("help")) {
        out << help;
        return -1;
    }
    const auto& pos = cl.parser.positionals();
    if (pos.empty())
        return usageError(err, command, "missing RUN (a run directory or .sts file)");
    if (pos.size() > 1 && !severalRuns)
        return usageError(err, command, "unexpected argument '" + pos[1] + "'");
    cl.run = pos[0];
    cl.runs = pos;
    std::int64_t threads = 0;
    if (const int rc = readIntOption(command, cl, "threads", 0, 256, threads, err); rc != kExitOk)
        return rc;
    cl.threads = static_cast<unsigned>(threads);
    if (const auto budget = cl.parser.value("memory-budget")) {
        std::string error;
        const auto bytes = core::parseByteSize(*budget, &error);
        if (!bytes || *bytes == 0)
            return usageError(
                err, command, "--memory-budget: " + (error.empty() ? "must be above 0" : error));
        cl.memoryBudget = *bytes;
    }
    return kExitOk;
}

core::TracePtr load(const CommandLine& cl, std::ostream& err, int& exitCode, double* seconds)
{
    io::LoadOptions options;
    options.threads = cl.threads;
    options.memoryBudget = cl.memoryBudget;
    const auto start = std::chrono::steady_clock::now();
    io::LoadResult result;
    if (const auto index = cl.parser.value("index")) {
        result = io::loadRunFromIndex(cl.run, *index, options);
    } else {
        io::CacheOptions cache;
        cache.enabled = !cl.parser.flag("no-cache");
        cache.directory = cl.parser.value("cache-dir").value_or("");
        result = io::loadRunCached(cl.run, options, cache);
    }
    if (!result.cacheNote.empty())
        err << "parallax-cli: note: " << result.cacheNote << "\n";
    if (result.trace && result.trace->logsOnDemand())
        err << "parallax-cli: note: the logs would need about "
            << core::formatBytes(result.trace->deferredStoreBytes) << " in memory, more than "
            << "--memory-budget " << core::formatBytes(cl.memoryBudget)
            << ": results come from the summary files\n";
    if (seconds != nullptr)
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.trace) {
        err << "parallax-cli: " << result.error << "\n";
        exitCode = kExitFatal;
        return nullptr;
    }
    // A PE of a mapped index whose data fails its check when first read is left out: say so.
    if (result.trace->lateIssues)
        result.trace->lateIssues->setOnIssue([&err](const core::IssueExample& e) {
            err << "parallax-cli: note: " << e.file << ": " << e.message << "\n";
        });
    exitCode = kExitOk;
    return result.trace;
}

int parseAnalysisRequest(const std::string& command, const CommandLine& cl,
    core::analysis::AnalysisRequest& request, std::ostream& err)
{
    std::string error;
    request.threads = cl.threads;
    request.includeCommThreads = cl.parser.flag("include-comm-threads");
    if (const auto r = cl.parser.value("range")) {
        const auto range = core::parseTimeRange(*r, &error);
        if (!range)
            return usageError(err, command, "--range: " + error);
        request.range.begin = range->begin.value_or(0);
        request.range.end = range->end.value_or(core::kTimeMax);
    }
    if (const auto p = cl.parser.value("pes")) {
        const auto pes = core::parsePeList(*p, &error);
        if (!pes)
            return usageError(err, command, "--pes: " + error);
        request.pes = *pes;
    }
    if (const auto e = cl.parser.value("entries")) {
        const auto entries = core::parsePeList(*e, &error, 65536);
        if (!entries)
            return usageError(err, command, "--entries: " + error);
        request.entries.assign(entries->begin(), entries->end());
    }
    if (const auto c = cl.parser.value("compat")) {
        if (*c != "java")
            return usageError(err, command, "--compat takes 'java', got '" + *c + "'");
        request.mode = core::analysis::Mode::JavaCompat;
    }
    return kExitOk;
}

int checkRequestAgainstRun(const std::string& command, const core::Trace& trace,
    const core::analysis::AnalysisRequest& request, std::ostream& err)
{
    const auto valid = trace.validPes();
    for (auto pe : request.pes)
        if (!std::binary_search(valid.begin(), valid.end(), pe))
            return usageError(err, command,
                "PE " + std::to_string(pe)
                    + " has no data in this run (PEs: " + core::formatPeList(valid) + ")");
    for (auto e : request.entries)
        if (static_cast<std::size_t>(e) >= trace.metadata.entries.size())
            return usageError(err, command,
                "entry " + std::to_string(e) + " is not in this run (0-"
                    + std::to_string(trace.metadata.entries.size()) + ")");
    if (!(request.range.begin == 0 && request.range.end == 0)
        && request.range.end <= request.range.begin)
        return usageError(err, command, "empty --range");
    return kExitOk;
}

int readIntOption(const std::string& command, const CommandLine& cl, const std::string& name,
    std::int64_t min, std::int64_t max, std::int64_t& value, std::ostream& err)
{
    const auto text = cl.parser.value(name);
    if (!text)
        return kExitOk;
    std::int64_t parsed = 0;
    const auto* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, parsed);
    if (text->empty() || ec != std::errc() || ptr != end || parsed < min || parsed > max)
        return usageError(err, command,
            "--" + name + " needs a number from " + std::to_string(min) + " to "
                + std::to_string(max));
    value = parsed;
    return kExitOk;
}

const char* const kAnalysisOptionsHelp
    = "  --range B:E        time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us);\n"
      "                     default: the traced span, from the first BEGIN_COMPUTATION to the\n"
      "                     run's end (.projrc), not stretched by comm-thread tails\n"
      "  --pes LIST         PEs, e.g. 0-3,5,7-15:2 (default: every PE with data)\n"
      "  --entries LIST     entry method ids (default: all)\n"
      "  --compat java      the reference tool's rules (see docs/differences.md)\n"
      "  --include-comm-threads\n"
      "                     count SMP comm threads in averages, sums over PEs, Extrema's\n"
      "                     ranking and message counts (default: kept apart)\n"
      "  --threads N        worker threads (default: all cores)\n";

int prepareAnalysisCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> options, const std::string& help, CommandLine& cl, core::TracePtr& trace,
    core::analysis::AnalysisRequest& request, std::ostream& out, std::ostream& err,
    std::set<std::string> flags, const IntervalFields* intervals)
{
    options.insert({ "range", "pes", "entries", "compat" });
    if (intervals != nullptr)
        options.insert({ "interval", intervals->countOption });
    flags.insert("include-comm-threads");
    if (const int rc = parseCommand(
            command, args, std::move(options), cl, out, err, help.c_str(), std::move(flags));
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    if (const int rc = parseAnalysisRequest(command, cl, request, err); rc != kExitOk)
        return rc;
    int rc = kExitOk;
    trace = load(cl, err, rc);
    if (!trace)
        return rc;
    if (const int check = checkRequestAgainstRun(command, *trace, request, err); check != kExitOk)
        return check;
    if (intervals != nullptr
        && !parseIntervalOptions(command, cl, intervals->size, intervals->count, err, rc,
            intervals->countOption, intervals->maxCount))
        return rc;
    return -1;
}

bool parseIntervalOptions(const std::string& command, const CommandLine& cl, core::TimeUs& size,
    std::int64_t& bins, std::ostream& err, int& rc, const std::string& countOption,
    std::int64_t maxCount)
{
    std::string error;
    if (const auto v = cl.parser.value("interval")) {
        const auto t = core::parseTime(*v, &error);
        if (!t || *t <= 0) {
            rc = usageError(
                err, command, "--interval: " + (t ? std::string("must be positive") : error));
            return false;
        }
        size = *t;
    }
    if ((rc = readIntOption(command, cl, countOption, 1, maxCount, bins, err)) != kExitOk)
        return false;
    if (size > 0 && bins > 0) {
        rc = usageError(err, command, "give --interval or --" + countOption + ", not both");
        return false;
    }
    return true;
}

} // namespace parallax::cli
