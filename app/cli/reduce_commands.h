#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// `parallax-cli reduce`: writes a reduced run (the logs of a few representative PEs, the
// summaries of all) with its quality report, and prints the figures as key: value lines.
int runReduce(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
