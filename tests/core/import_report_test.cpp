// ImportReport: named counters with a severity and the first few examples per kind.

#include "core/import_report.h"

#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>
#include <utility>

using namespace parallax;
using core::Issue;

TEST_CASE("every issue kind has a distinct snake_case key and a description")
{
    std::set<std::string> keys;
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        const auto issue = static_cast<Issue>(k);
        const std::string key(core::issueKey(issue));
        INFO("issue " << k << " key '" << key << "'");
        CHECK_FALSE(key.empty());
        for (char c : key)
            CHECK((std::islower(static_cast<unsigned char>(c)) != 0 || c == '_'));
        CHECK(keys.insert(key).second);
        CHECK_FALSE(core::issueDescription(issue).empty());
    }
    CHECK(core::issueKey(Issue::MalformedLine) == "malformed_lines");
}

TEST_CASE("report keeps at most five examples per kind but counts every occurrence")
{
    core::ImportReport report;
    CHECK(report.empty());
    for (int i = 1; i <= 8; ++i)
        report.add(Issue::MalformedLine, "run.0.log", static_cast<std::uint64_t>(i), "bad");
    report.add(Issue::UnmatchedEnd, "run.1.log", 3, "end");
    CHECK(std::as_const(report).count(Issue::MalformedLine) == 8);
    CHECK(std::as_const(report).count(Issue::UnmatchedEnd) == 1);
    CHECK(report.examples().size() == core::ImportReport::kExamplesPerKind + 1);
    CHECK(report.examples().front().line == 1);
    CHECK(report.examples().front().file == "run.0.log");
    CHECK_FALSE(report.empty());
}

TEST_CASE("count without example adds to the counter only")
{
    core::ImportReport report;
    report.increment(Issue::BufferFlush, 11);
    CHECK(std::as_const(report).count(Issue::BufferFlush) == 11);
    CHECK(report.examples().empty());
}

TEST_CASE("merge adds counters and keeps the example cap")
{
    core::ImportReport a;
    core::ImportReport b;
    for (int i = 0; i < 4; ++i) {
        a.add(Issue::MalformedLine, "a.log", 1, "x");
        b.add(Issue::MalformedLine, "b.log", 2, "y");
    }
    b.increment(Issue::GzipError, 2);
    a.merge(b);
    CHECK(std::as_const(a).count(Issue::MalformedLine) == 8);
    CHECK(std::as_const(a).count(Issue::GzipError) == 2);
    CHECK(a.examples().size() == core::ImportReport::kExamplesPerKind);
}

TEST_CASE("total counts issues at or above a severity")
{
    core::ImportReport report;
    report.increment(Issue::BlankLine, 3); // info
    report.increment(Issue::MalformedLine, 2); // warning
    report.increment(Issue::FileError, 1); // error
    CHECK(core::issueSeverity(Issue::BlankLine) == core::Severity::Info);
    CHECK(core::issueSeverity(Issue::MalformedLine) == core::Severity::Warning);
    CHECK(core::issueSeverity(Issue::FileError) == core::Severity::Error);
    CHECK(report.total(core::Severity::Info) == 6);
    CHECK(report.total(core::Severity::Warning) == 3);
    CHECK(report.total(core::Severity::Error) == 1);
    CHECK(core::severityName(core::Severity::Warning) == "warning");
}
