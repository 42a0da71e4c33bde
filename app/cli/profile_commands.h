#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The table tools over executions, CSV on stdout: `entry-profile` (time per entry method),
// `call-table` (who sent the messages that started each entry method) and `noise` (executions
// far longer than their entry method's typical duration).
int runEntryProfile(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCallTable(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runNoise(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
