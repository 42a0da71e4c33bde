#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// `parallax-cli export`: writes the run as an OTF2 archive or a Perfetto trace-event JSON file
// (export/), atomically, and prints what was written as key: value lines.
int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
