#pragma once

// Running parallax-cli in-process (runCli with string streams) and as a real process.

#include "app/cli/commands.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace parallax::test {

struct CliRun {
    int exitCode = -1;
    std::string out;
    std::string err;

    [[nodiscard]] std::vector<std::string> outLines() const { return splitLines(out); }
    // stderr's lines, less the note that an index cache was rebuilt: whether it appears depends
    // on what the build tree's cache held before (a run re-created with new times, an index of
    // an older format), not on the command under test.
    [[nodiscard]] std::vector<std::string> errLines() const
    {
        auto lines = splitLines(err);
        std::erase_if(lines, [](const std::string& line) {
            return line.find(": note: index cache was ") != std::string::npos;
        });
        return lines;
    }
};

inline CliRun runCliInProcess(const std::vector<std::string>& args)
{
    std::ostringstream out;
    std::ostringstream err;
    CliRun run;
    run.exitCode = cli::runCli(args, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

// A usage error: exit code 2, nothing on stdout and exactly one line on stderr (holding
// `expected` when given).
inline void requireUsageError(
    const std::vector<std::string>& args, const std::string& expected = {})
{
    std::string joined;
    for (const auto& a : args)
        joined += a + " ";
    INFO("parallax-cli " << joined);
    const auto run = runCliInProcess(args);
    INFO("stderr: " << run.err);
    CHECK(run.exitCode == 2);
    CHECK(run.out.empty());
    CHECK(run.errLines().size() == 1);
    if (!expected.empty())
        CHECK(run.err.find(expected) != std::string::npos);
}

inline std::string shellQuote(const std::string& s)
{
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

// Runs the real parallax-cli binary (path from CMake) with stdout/stderr captured in files.
inline CliRun cliProcess(const std::vector<std::string>& args)
{
    TempDir dir;
    std::string command = shellQuote(PARALLAX_CLI_PATH);
    for (const auto& a : args) {
        command += ' ';
        command += shellQuote(a);
    }
    command += " >";
    command += shellQuote((dir / "out").string());
    command += " 2>";
    command += shellQuote((dir / "err").string());
    const int status = std::system(command.c_str());
    REQUIRE(status != -1);
    REQUIRE(WIFEXITED(status));
    CliRun run;
    run.exitCode = WEXITSTATUS(status);
    run.out = readFile(dir / "out");
    run.err = readFile(dir / "err");
    return run;
}

// "key: value" lines of `info`, in order.
inline std::vector<std::pair<std::string, std::string>> keyValues(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& line : splitLines(text)) {
        const auto colon = line.find(": ");
        if (colon == std::string::npos)
            out.emplace_back(line, "");
        else
            out.emplace_back(line.substr(0, colon), line.substr(colon + 2));
    }
    return out;
}

// The same, by key (for looking values up).
inline std::map<std::string, std::string> keyValueMap(const std::string& text)
{
    std::map<std::string, std::string> out;
    for (auto& [k, v] : keyValues(text))
        out[k] = std::move(v);
    return out;
}

// A minimal RFC-4180 CSV line splitter (quoted fields with "" escapes).
inline std::vector<std::string> csvSplit(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

inline std::string tinyRun()
{
    return (dataDir() / "runs" / "tiny").string();
}

} // namespace parallax::test
