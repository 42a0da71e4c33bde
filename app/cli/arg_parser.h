#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace parallax::cli {

// A small getopt-like parser: `--name value`, `--name=value`, `--flag`, positionals.
// Unknown options are an error so that typos never pass silently.
class ArgParser {
public:
    ArgParser(std::set<std::string> valueOptions, std::set<std::string> flagOptions);

    // Returns false and sets error() on an unknown option or a missing value.
    bool parse(const std::vector<std::string>& args);

    [[nodiscard]] const std::vector<std::string>& positionals() const { return m_positionals; }
    [[nodiscard]] std::optional<std::string> value(const std::string& name) const;
    [[nodiscard]] bool flag(const std::string& name) const { return m_flags.contains(name); }
    [[nodiscard]] const std::string& error() const { return m_error; }

private:
    std::set<std::string> m_valueOptions;
    std::set<std::string> m_flagOptions;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::vector<std::string> m_positionals;
    std::string m_error;
};

} // namespace parallax::cli
