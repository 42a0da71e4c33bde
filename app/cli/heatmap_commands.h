#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The heat-map tools: CSV on stdout with a header row.
// comm-matrix: messages and bytes per (sender, receiver) PE or node, or per PE.
int runCommMatrix(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// msg-size-evolution: messages per time interval and size bin.
int runMsgSizeEvolution(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// animation: every PE's utilization per frame (time interval).
int runAnimation(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
