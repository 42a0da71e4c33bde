#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The series commands: values sampled over time and per PE (user stats, memory usage) and
// hardware counters per entry method and PE. CSV on stdout with a header row.
int runUserStats(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runMemory(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCounters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
