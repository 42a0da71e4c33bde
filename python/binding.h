#pragma once

// The Python module's shared pieces (python/module.cpp, events.cpp, analyses.cpp). The module
// links the Qt-free libraries only: io reads the run, core analyses it, and the CLI library
// parses options exactly as `parallax-cli` does, so messages and numbers are the CLI's.

#include "app/cli/command_support.h"
#include "core/analysis/analysis_request.h"
#include "core/trace.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace parallax::python {

namespace py = pybind11;

// Raised as parallax.Error: the text is the line the CLI prints on stderr.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An opened run, shared by every call on a parallax.Run.
struct Run {
    core::TracePtr trace;
    std::string path;
};

// CLI-style arguments (`--range 10ms:20ms --pes 0-3 --include-comm-threads`) for `command`,
// with the command's own value options and flags besides the shared analysis ones (--range,
// --pes, --entries, --compat, --include-comm-threads, --threads), parsed and checked against the
// run as parallax-cli does. Throws Failure with the CLI's message.
struct ParsedArgs {
    cli::CommandLine cl;
    core::analysis::AnalysisRequest request;
};
ParsedArgs parseArgs(const std::string& command, const Run& run,
    const std::vector<std::string>& args, std::set<std::string> options = {},
    std::set<std::string> flags = {});

// Throws Failure with the first line of `err` when `rc` is not 0.
void throwIfFailed(int rc, const std::string& err);
// Throws Failure with the CLI's usage-error line for `command`.
[[noreturn]] void usageFailure(const std::string& command, const std::string& message);
// Calls `check(err)`, a CLI helper that prints to `err` and returns an exit code, and throws
// what it printed when the code is not 0.
template <typename F> void cliCheck(F&& check)
{
    std::ostringstream err;
    const int rc = check(err);
    throwIfFailed(rc, err.str());
}

// A NumPy array of `n` values of T, to be filled in place (the only copy of the data).
template <typename T> py::array_t<T> newArray(std::size_t n)
{
    return py::array_t<T>(static_cast<py::ssize_t>(n));
}

void bindEvents(py::class_<Run>& run);
void bindAnalyses(py::module_& module, py::class_<Run>& run);

} // namespace parallax::python
