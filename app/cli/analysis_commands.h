#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The analysis commands: CSV on stdout with a header row, one row per non-zero cell.
int runUsage(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runHistogram(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runComm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runExtrema(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runOverview(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runTimeProfile(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
