#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The record-level tools, CSV on stdout: `user-events` (user events per event id and PE, or
// each occurrence) and `log` (one PE's log decoded record by record, View Log Files).
int runUserEvents(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runLog(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
