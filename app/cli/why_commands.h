#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The "why" commands (docs/why.md): the run's iterations, the critical path through a range,
// who made the PEs idle, and an entry method's performance model. CSV on stdout with a header row.
int runIterations(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runModel(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCriticalPath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runIdleBlame(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
