#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// `parallax-cli groups`: the usage profile aggregated over groups of PEs (nodes, blocks,
// signatures) in one of the modes SUM, SET, KEY or SIGNATURE, as CSV.
int runGroups(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
