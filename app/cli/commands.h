#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFatal = 1; // the run could not be opened
inline constexpr int kExitUsage = 2; // bad arguments

// Each command gets its arguments (after the command name) and writes to out/err.
int runInfo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runEntries(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runTimeline(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// A command added by a part of the program that the CLI library does not link (the offscreen
// `render` command, which needs Qt).
using ExtraCommand
    = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
void registerCommand(const std::string& name, ExtraCommand command);

// Dispatches `parallax-cli COMMAND ...`.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
