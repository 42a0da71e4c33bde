#pragma once

// Helpers to assert on an ImportReport: "counted, with an example naming file and line".

#include "core/import_report.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace parallax::test {

// The first example of `issue` in `report` whose file is `file` (any file when empty).
inline std::optional<core::IssueExample> findExample(
    const core::ImportReport& report, core::Issue issue, std::string_view file = {})
{
    for (const auto& example : report.examples())
        if (example.issue == issue && (file.empty() || example.file == file))
            return example;
    return std::nullopt;
}

// Every example, one per line, for failure messages.
inline std::string describe(const core::ImportReport& report)
{
    std::ostringstream out;
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        if (report.count(issue) > 0)
            out << core::issueKey(issue) << " = " << report.count(issue) << "\n";
    }
    for (const auto& e : report.examples())
        out << "  [" << core::issueKey(e.issue) << "] " << e.file << ":" << e.line << ": "
            << e.message << "\n";
    return out.str();
}

// Counts of every kind except the listed ones are zero.
inline bool onlyIssues(const core::ImportReport& report, std::initializer_list<core::Issue> allowed)
{
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<core::Issue>(k);
        bool ok = false;
        for (auto a : allowed)
            ok = ok || a == issue;
        if (!ok && report.count(issue) != 0)
            return false;
    }
    return true;
}

} // namespace parallax::test
