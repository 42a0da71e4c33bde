#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The per-execution commands: what PEs ran when (timeline) and which messages, sent from where,
// started an execution (message-path). CSV on stdout with a header row.
int runTimeline(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runMessagePath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
