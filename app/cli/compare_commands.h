#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// `parallax-cli compare RUN_A RUN_B ...`: runs (or two ranges of one run) side by side.
int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
