// parallax-cli export (app/cli/export_commands.cpp): the summary it prints, what it writes, and
// bad input: one line on stderr, exit 2 for bad arguments, exit 1 for a run that cannot be
// opened or exported; nothing left at the target when it fails.

#include "cli_support.h"
#include "export/export_run.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

namespace {

// A summary-only copy of a real run (its logs left out).
void copySummaries(const fs::path& from, const fs::path& to)
{
    fs::create_directories(to);
    for (const auto& entry : fs::directory_iterator(from))
        if (entry.path().string().find(".log") == std::string::npos)
            fs::copy_file(entry.path(), to / entry.path().filename());
}

} // namespace

TEST_CASE("cli export refuses bad arguments with one line and exit 2")
{
    TempDir tmp;
    const auto run = realLog("pipit-pingpong-v11").string();
    const auto out = (tmp / "out.json").string();
    requireUsageError({ "export", run, "-o", out }, "missing --format");
    requireUsageError({ "export", run, "--format", "vampir", "-o", out }, "otf2 or perfetto");
    requireUsageError({ "export", run, "--format", "perfetto" }, "missing -o FILE.json");
    requireUsageError(
        { "export", run, "--format", "perfetto", "-o", out, "--range", "9:x" }, "--range");
    requireUsageError({ "export", run, "--format", "perfetto", "-o", out, "--range", "5ms:1ms" },
        "ends before it begins");
    requireUsageError(
        { "export", run, "--format", "perfetto", "-o", out, "--pes", "7" }, "PE 7 has no data");
    // Inside the run directory, existing without --force, a directory for a file.
    requireUsageError({ "export", run, "--format", "perfetto", "-o", run + "/x.json" },
        "inside the run's directory");
    writeFile(out, "mine");
    requireUsageError({ "export", run, "--format", "perfetto", "-o", out }, "--force replaces it");
    CHECK(readFile(out) == "mine");
    requireUsageError(
        { "export", run, "--format", "perfetto", "-o", tmp.path().string(), "--force" },
        "is a directory, not a file");
    if (exporter::otf2Available())
        requireUsageError({ "export", run, "--format", "otf2", "-o", out, "--force" },
            "exists and is not a directory");
}

TEST_CASE("cli export: a run without logs, a missing run and an unwritable target exit 1")
{
    TempDir tmp;
    copySummaries(realLog("gen-feat-smp"), tmp / "summaries");
    auto run = runCliInProcess({ "export", (tmp / "summaries").string(), "--format", "perfetto",
        "-o", (tmp / "s.json").string(), "--no-cache" });
    CHECK(run.exitCode == 1);
    CHECK(run.out.empty());
    CHECK(run.err
        == "parallax-cli export: feat has no logs (summary files only), so there are no "
           "executions to export\n");
    CHECK_FALSE(fs::exists(tmp / "s.json"));

    run = runCliInProcess({ "export", (tmp / "nothing").string(), "--format", "perfetto", "-o",
        (tmp / "n.json").string() });
    CHECK(run.exitCode == 1);
    CHECK(run.errLines().size() == 1);

    // The parent of the target is a file: no user can write there, root included.
    writeFile(tmp / "plain", "x");
    run = runCliInProcess({ "export", realLog("pipit-pingpong-v11").string(), "--format",
        "perfetto", "-o", (tmp / "plain" / "out.json").string() });
    CHECK(run.exitCode == 1);
    CHECK(run.errLines().size() == 1);
    CHECK(run.err.find("cannot create") != std::string::npos);
    CHECK(readFile(tmp / "plain") == "x");
}

TEST_CASE("cli export writes Perfetto JSON and an OTF2 archive and prints what it wrote")
{
    TempDir tmp;
    const auto run = realLog("pipit-pingpong-v11").string();
    const auto json = (tmp / "pingpong.json.gz").string();
    const auto p = cliProcess({ "export", run, "--format", "perfetto", "-o", json });
    INFO(p.err);
    REQUIRE(p.exitCode == 0);
    const auto values = keyValueMap(p.out);
    CHECK(values.at("format") == "perfetto");
    CHECK(values.at("pes") == "0-1");
    CHECK(values.at("executions") == "307");
    CHECK(values.at("messages") == "221");
    CHECK(std::stoull(values.at("bytes")) == fs::file_size(json));
    CHECK(std::stoull(values.at("json_bytes")) > fs::file_size(json)); // gzip-compressed
    if (!exporter::otf2Available())
        return;
    const auto dir = (tmp / "archive").string();
    // A trailing separator names the same directory.
    auto slash = runCliInProcess({ "export", run, "--format", "otf2", "-o", dir + "/" });
    INFO(slash.err);
    REQUIRE(slash.exitCode == 0);
    CHECK(fs::is_regular_file(fs::path(dir) / "traces.otf2"));
    fs::remove_all(dir);
    fs::create_directories(dir);
    requireUsageError({ "export", run, "--format", "otf2", "-o", dir }, "already exists");
    auto o = runCliInProcess({ "export", run, "--format", "otf2", "-o", dir, "--force", "--pes",
        "1", "--range", "78ms:80ms" });
    INFO(o.err);
    REQUIRE(o.exitCode == 0);
    const auto archive = keyValueMap(o.out);
    CHECK(archive.at("format") == "otf2");
    CHECK(archive.at("pes") == "1");
    CHECK(archive.at("range_us") == "78000:80000");
    CHECK(fs::is_regular_file(fs::path(dir) / "traces.otf2"));
    CHECK(fs::is_regular_file(fs::path(dir) / "traces.def"));
    CHECK(fs::is_directory(fs::path(dir) / "traces"));
    for (const auto& entry : fs::directory_iterator(tmp.path()))
        CHECK(entry.path().filename().string().find(".partial-") == std::string::npos);
}
