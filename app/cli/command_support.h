#pragma once

#include "arg_parser.h"
#include "commands.h"
#include "core/analysis/analysis_request.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace parallax::cli {

// Shared pieces of the commands: option parsing and loading a run (CSV quoting is
// core::analysis::csvField).

int usageError(std::ostream& err, const std::string& command, const std::string& message);

struct CommandLine {
    ArgParser parser { {}, {} };
    std::string run; // the (first) RUN
    std::vector<std::string> runs; // every RUN (commands that take several)
    unsigned threads = 0;
    std::uint64_t memoryBudget = 0; // --memory-budget (0: no limit)
};

// Parses options, exactly one RUN (or, with `severalRuns`, one or more) and --help (prints
// `help`, returns -1). Returns 0 or the usage exit code.
int parseCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> valueOptions, CommandLine& cl, std::ostream& out, std::ostream& err,
    const char* help, std::set<std::string> flagOptions = {}, bool severalRuns = false);

core::TracePtr load(
    const CommandLine& cl, std::ostream& err, int& exitCode, double* seconds = nullptr);

// --range, --pes, --entries, --compat java and --include-comm-threads into an AnalysisRequest.
// Returns 0 or the usage exit code (after printing one line).
int parseAnalysisRequest(const std::string& command, const CommandLine& cl,
    core::analysis::AnalysisRequest& request, std::ostream& err);
// Resolves --range end defaults etc. after loading (none needed yet); checks PEs exist.
int checkRequestAgainstRun(const std::string& command, const core::Trace& trace,
    const core::analysis::AnalysisRequest& request, std::ostream& err);

// A whole-number option `--name N` with min <= N <= max: leaves `value` alone when the option is
// absent; returns 0, or the usage exit code after printing "--name needs a number from A to B".
int readIntOption(const std::string& command, const CommandLine& cl, const std::string& name,
    std::int64_t min, std::int64_t max, std::int64_t& value, std::ostream& err);

// The help lines of the options every analysis command takes (--range, --pes, --entries,
// --compat, --include-comm-threads, --threads).
extern const char* const kAnalysisOptionsHelp;

// The grid of a command over intervals of its range: --interval T into `size`, or the count
// option --`countOption` N (1..maxCount) into `count` (parseIntervalOptions()).
struct IntervalFields {
    core::TimeUs& size;
    std::int64_t& count;
    std::string countOption = "bins";
    std::int64_t maxCount = 10'000'000;
};

// An analysis command's start: parses its options (`options` and `flags` plus the shared ones
// above) and the request, loads the run and checks the request against it, then, when given,
// reads the `intervals` fields (their options are added to `options`). Returns -1 to go on, else
// the exit code (0 after --help).
int prepareAnalysisCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> options, const std::string& help, CommandLine& cl, core::TracePtr& trace,
    core::analysis::AnalysisRequest& request, std::ostream& out, std::ostream& err,
    std::set<std::string> flags = {}, const IntervalFields* intervals = nullptr);

// An analysis's end: kExitFatal when it gave no result (cancelled) or, after saying its error in
// one line, `errorCode`; -1 to go on with `result`.
template <typename Result>
int analysisFailed(const std::string& command, const std::optional<Result>& result,
    std::ostream& err, int errorCode = kExitFatal)
{
    if (!result)
        return kExitFatal;
    if (result->error.empty())
        return -1;
    err << "parallax-cli " << command << ": " << result->error << "\n";
    return errorCode;
}

// --interval T and --bins N (or the count option `countOption`, 1..maxCount; not both) into
// `size` and `bins`; false with `rc` set after printing the usage error.
bool parseIntervalOptions(const std::string& command, const CommandLine& cl, core::TimeUs& size,
    std::int64_t& bins, std::ostream& err, int& rc, const std::string& countOption = "bins",
    std::int64_t maxCount = 10'000'000);

} // namespace parallax::cli
