// locateSymbolTable / collectFiles: which files belong to a run (docs/format.md §0).

#include "io/run_discovery.h"
#include "support/report_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {
void touch(const fs::path& path, std::string_view content = "x\n")
{
    fs::create_directories(path.parent_path());
    writeFile(path, content);
}
} // namespace

TEST_CASE("a run directory with one sts is located with its base name and projrc")
{
    TempDir dir;
    touch(dir / "hello.sts");
    touch(dir / "hello.projrc");
    const auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    CHECK(found.files.baseName == "hello");
    CHECK(found.files.stsPath == (dir / "hello.sts").string());
    CHECK(found.files.projrcPath == (dir / "hello.projrc").string());
    CHECK(fs::equivalent(found.files.directory, dir.path()));
}

TEST_CASE("base names with dots keep everything before .sts")
{
    TempDir dir;
    touch(dir / "pingpong.prj.sts");
    const auto found = io::locateSymbolTable((dir / "pingpong.prj.sts").string());
    REQUIRE(found.ok);
    CHECK(found.files.baseName == "pingpong.prj");
    CHECK(found.files.projrcPath.empty());
}

TEST_CASE("the sts is preferred to the sum.sts of the same run")
{
    TempDir dir;
    touch(dir / "feat.sts");
    touch(dir / "feat.sum.sts");
    auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    CHECK(found.files.stsPath == (dir / "feat.sts").string());
    found = io::locateSymbolTable((dir / "feat.sum.sts").string());
    REQUIRE(found.ok);
    CHECK(found.files.baseName == "feat");
    CHECK(found.files.stsPath == (dir / "feat.sts").string());
}

TEST_CASE("a sum.sts alone is used when there is no sts")
{
    TempDir dir;
    touch(dir / "feat.sum.sts");
    const auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    CHECK(found.files.baseName == "feat");
    CHECK(found.files.stsPath == (dir / "feat.sum.sts").string());
}

TEST_CASE("a directory with two runs is an error naming both")
{
    TempDir dir;
    touch(dir / "a.sts");
    touch(dir / "b.sts");
    const auto found = io::locateSymbolTable(dir.path().string());
    CHECK_FALSE(found.ok);
    CHECK(found.error.find("a.sts") != std::string::npos);
    CHECK(found.error.find("b.sts") != std::string::npos);
}

TEST_CASE("a directory without sts or with only counter tables is an error naming it")
{
    TempDir dir;
    touch(dir / "namd2.phase0.count.sts");
    touch(dir / "namd2.phase0.0.count");
    touch(dir / "run.0.log");
    const auto found = io::locateSymbolTable(dir.path().string());
    CHECK_FALSE(found.ok);
    CHECK(found.error.find(dir.path().string()) != std::string::npos);
    CHECK(found.error.find(".sts") != std::string::npos);
}

TEST_CASE("a missing path or a file that is not an sts is an error naming it")
{
    TempDir dir;
    auto found = io::locateSymbolTable((dir / "nope").string());
    CHECK_FALSE(found.ok);
    CHECK(found.error.find((dir / "nope").string()) != std::string::npos);
    touch(dir / "run.0.log");
    found = io::locateSymbolTable((dir / "run.0.log").string());
    CHECK_FALSE(found.ok);
    CHECK(found.error.find("run.0.log") != std::string::npos);
}

TEST_CASE("logs summaries and details are collected by exact NAME.N.ext names")
{
    TempDir dir;
    touch(dir / "hello.sts");
    touch(dir / "hello.0.log", "abc\n");
    touch(dir / "hello.1.log.gz", "abcdef\n");
    touch(dir / "hello.0.sum");
    touch(dir / "hello.1.sumd");
    touch(dir / "hello2.0.log"); // another run sharing the prefix
    touch(dir / "hello.0.log.bak");
    touch(dir / "hello.sum.sts");
    touch(dir / "hello.projrc");
    touch(dir / "hello.topo");
    auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    core::ImportReport report;
    io::collectFiles(found.files, 3, report);
    const auto& f = found.files;
    REQUIRE(f.logPaths.size() == 3);
    CHECK(f.logPaths[0] == (dir / "hello.0.log").string());
    CHECK(f.logPaths[1] == (dir / "hello.1.log.gz").string());
    CHECK(f.logPaths[2].empty());
    CHECK(f.sumPaths[0] == (dir / "hello.0.sum").string());
    CHECK(f.sumPaths[1].empty());
    CHECK(f.sumdPaths[1] == (dir / "hello.1.sumd").string());
    CHECK(f.logBytes == 4 + 7);
    CHECK(report.empty());
}

TEST_CASE("logs in NAME.projdir.K sub-directories are found")
{
    TempDir dir;
    touch(dir / "big.sts");
    touch(dir / "big.projdir.0" / "big.0.log");
    touch(dir / "big.projdir.1" / "big.1.log.gz");
    touch(dir / "other" / "big.2.log");
    auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    core::ImportReport report;
    io::collectFiles(found.files, 3, report);
    CHECK(found.files.logPaths[0] == (dir / "big.projdir.0" / "big.0.log").string());
    CHECK(found.files.logPaths[1] == (dir / "big.projdir.1" / "big.1.log.gz").string());
    CHECK(found.files.logPaths[2].empty());
}

TEST_CASE("files with a non-numeric PE or a PE beyond PROCESSORS are reported and skipped")
{
    TempDir dir;
    touch(dir / "run.sts");
    touch(dir / "run.0.log");
    touch(dir / "run.foo.log");
    touch(dir / "run.7.log");
    touch(dir / "run.4.sum");
    auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    core::ImportReport report;
    io::collectFiles(found.files, 4, report);
    CHECK(found.files.logPaths[0] == (dir / "run.0.log").string());
    CHECK(std::as_const(report).count(Issue::PeOutOfRange) == 3);
    CHECK(findExample(report, Issue::PeOutOfRange, "run.foo.log"));
    CHECK(findExample(report, Issue::PeOutOfRange, "run.7.log"));
    CHECK(findExample(report, Issue::PeOutOfRange, "run.4.sum"));
}

TEST_CASE("a PE with both a log and a log.gz is reported as a duplicate file")
{
    TempDir dir;
    touch(dir / "run.sts");
    touch(dir / "run.0.log");
    touch(dir / "run.0.log.gz");
    auto found = io::locateSymbolTable(dir.path().string());
    REQUIRE(found.ok);
    core::ImportReport report;
    io::collectFiles(found.files, 1, report);
    CHECK_FALSE(found.files.logPaths[0].empty());
    INFO(describe(report));
    CHECK(std::as_const(report).count(Issue::DuplicateFile) == 1);
    CHECK(std::as_const(report).count(Issue::PeOutOfRange) == 0);
}
