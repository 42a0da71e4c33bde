#include "command_support.h"

#include "commands.h"
#include "core/text_args.h"
#include "io/run_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

namespace parallax::cli {

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

int usageError(std::ostream& err, const std::string& command, const std::string& message)
{
    err << "parallax-cli " << command << ": " << message << " (see parallax-cli " << command
        << " --help)\n";
    return kExitUsage;
}

int parseCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> valueOptions, CommandLine& cl, std::ostream& out, std::ostream& err,
    const char* help)
{
    valueOptions.insert("threads");
    cl.parser = ArgParser(std::move(valueOptions), { "help" });
    if (!cl.parser.parse(args))
        return usageError(err, command, cl.parser.error());
    if (cl.parser.flag("help")) {
        out << help;
        return -1;
    }
    const auto& pos = cl.parser.positionals();
    if (pos.empty())
        return usageError(err, command, "missing RUN (a run directory or .sts file)");
    if (pos.size() > 1)
        return usageError(err, command, "unexpected argument '" + pos[1] + "'");
    cl.run = pos[0];
    if (const auto t = cl.parser.value("threads")) {
        const auto n = core::parsePeList(*t); // plain non-negative integer check
        if (!n || n->size() != 1 || t->find_first_not_of("0123456789") != std::string::npos
            || n->front() > 256)
            return usageError(err, command, "--threads needs a number from 0 to 256");
        cl.threads = static_cast<unsigned>(n->front());
    }
    return kExitOk;
}

core::TracePtr load(const CommandLine& cl, std::ostream& err, int& exitCode, double* seconds)
{
    io::LoadOptions options;
    options.threads = cl.threads;
    const auto start = std::chrono::steady_clock::now();
    auto result = io::loadRun(cl.run, options);
    if (seconds != nullptr)
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.trace) {
        err << "parallax-cli: " << result.error << "\n";
        exitCode = kExitFatal;
        return nullptr;
    }
    exitCode = kExitOk;
    return result.trace;
}

int parseAnalysisRequest(const std::string& command, const CommandLine& cl,
    core::analysis::AnalysisRequest& request, std::ostream& err)
{
    std::string error;
    request.threads = cl.threads;
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

std::string formatNumber(double value)
{
    char buf[64];
    if (value == static_cast<double>(static_cast<long long>(value)) && value < 1e15
        && value > -1e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(value));
    else
        std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

} // namespace parallax::cli
