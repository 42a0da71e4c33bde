// Deliberately broken runs (tests/data/broken/<case>/README says what is broken; a few cases
// are made at test time in a temporary directory). Each test asserts the exact outcome: a fatal
// error naming the file (and line), or a recoverable problem counted in the import report with
// an example naming file and line while the rest of the run stays intact. The CLI exit codes
// for the fatal cases are checked in tests/app/cli_test.cpp.

#include "support/allocation_tracker.h"
#include "support/io_support.h"
#include "support/report_support.h"
#include "support/test_support.h"
#include "trace_compare.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

using namespace parallax;
using namespace parallax::test;
using core::Issue;

namespace {

// The clean run every tests/data/broken case was derived from.
core::TracePtr baseRun()
{
    return loadOk(dataDir() / "runs" / "base");
}

std::uint64_t countOf(const core::Trace& trace, Issue issue)
{
    return trace.report.count(issue);
}

// A copy of the clean base run in a temporary directory, to damage at test time.
void copyBase(const TempDir& dir)
{
    copyFiles(dataDir() / "runs" / "base", dir.path(),
        [](const std::string& name) { return name != "README"; });
}

} // namespace

TEST_CASE("the clean base run of the broken corpus loads without any issue")
{
    const auto base = baseRun();
    INFO(describe(base->report));
    CHECK(base->report.empty());
    REQUIRE(base->pes.size() == 2);
    const auto& x = base->pes[0].executions;
    REQUIRE(x.size() == 2);
    CHECK(x.begin == std::vector<core::TimeUs> { 200, 400 });
    CHECK(x.end == std::vector<core::TimeUs> { 300, 500 });
    CHECK(base->pes[0].idles.size() == 1);
    CHECK(base->pes[0].sends.size() == 1);
    CHECK(base->pes[0].recordCount == 9);
    CHECK(base->endTime() == 600);
}

TEST_CASE("broken: logs without a symbol table are fatal and the error names the directory")
{
    const auto dir = brokenCase("missing-sts");
    const auto error = loadFails(dir);
    CHECK(error.find(dir.string()) != std::string::npos);
    CHECK(error.find(".sts") != std::string::npos);
}

TEST_CASE("broken: VERSION 12.0 is fatal and the error names the file and line")
{
    const auto dir = brokenCase("version-12");
    const auto error = loadFails(dir);
    CHECK(error.find((dir / "run.sts").string() + ":2:") != std::string::npos);
    CHECK(error.find("12.0") != std::string::npos);
}

TEST_CASE("broken: an empty sts is fatal and the error names it")
{
    const auto dir = brokenCase("empty-sts");
    const auto error = loadFails(dir);
    CHECK(error.find((dir / "run.sts").string()) != std::string::npos);
}

TEST_CASE("broken: v11 log lines under a VERSION 3.0 sts are malformed lines and do not crash")
{
    const auto trace = loadOk(brokenCase("wrong-version"));
    INFO(describe(trace->report));
    // Per log: two BEGINs, two ENDs and one CREATION have v11 fields a v3.0 reader rejects.
    CHECK(countOf(*trace, Issue::MalformedLine) == 10);
    const auto example = findExample(trace->report, Issue::MalformedLine);
    REQUIRE(example);
    CHECK((example->file == "run.0.log" || example->file == "run.1.log"));
    CHECK(example->line == 3);
    // The records whose layout did not change are kept.
    const auto& pe0 = trace->pes[0];
    CHECK(pe0.executions.size() == 0);
    CHECK(pe0.idles.size() == 1);
    CHECK(pe0.beginComputation == 100);
    CHECK(pe0.endComputation == 600);
}

TEST_CASE("broken: an empty log opens as a PE without records")
{
    const auto trace = loadOk(brokenCase("empty-log"));
    const auto base = baseRun();
    INFO(describe(trace->report));
    REQUIRE(trace->pes.size() == 2);
    CHECK(trace->pes[0].recordCount == 0);
    CHECK(trace->pes[0].executions.size() == 0);
    CHECK(countOf(*trace, Issue::TruncatedLog) == 0);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
    CHECK(trace->endTime() == 600);
}

TEST_CASE("broken: TOTAL_EPS and TOTAL_CHARES disagreeing with the lines are warnings")
{
    const auto trace = loadOk(brokenCase("sts-count-mismatch"));
    const auto base = baseRun();
    CHECK(countOf(*trace, Issue::StsProblem) == 2);
    const auto example = findExample(trace->report, Issue::StsProblem);
    REQUIRE(example);
    CHECK(example->file == "run.sts");
    CHECK(trace->metadata.entries.size() == 3);
    CHECK(trace->metadata.chares.size() == 2);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
}

TEST_CASE("broken: a log without header line is reported at line 1 and still read")
{
    const auto trace = loadOk(brokenCase("no-header-log"));
    const auto base = baseRun();
    CHECK(countOf(*trace, Issue::MalformedLine) == 1);
    const auto example = findExample(trace->report, Issue::MalformedLine);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    CHECK(example->line == 1);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: NAME.foo.log and NAME.7.log in a 4-PE run are reported and skipped")
{
    const auto trace = loadOk(brokenCase("stray-files"));
    CHECK(countOf(*trace, Issue::PeOutOfRange) == 2);
    CHECK(findExample(trace->report, Issue::PeOutOfRange, "run.foo.log"));
    CHECK(findExample(trace->report, Issue::PeOutOfRange, "run.7.log"));
    CHECK(trace->validPes() == std::vector<core::PeId> { 0, 1, 2, 3 });
    CHECK(trace->pes.size() == 4);
    CHECK(trace->missingPes().empty());
}

TEST_CASE("broken: a log without END_COMPUTATION closes the open entry at its last time")
{
    const auto trace = loadOk(brokenCase("truncated-log"));
    const auto base = baseRun();
    CHECK(countOf(*trace, Issue::TruncatedLog) == 1);
    const auto example = findExample(trace->report, Issue::TruncatedLog);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    const auto& pe0 = trace->pes[0];
    CHECK(pe0.endComputation == -1);
    CHECK(pe0.lastTime == 650);
    const auto& x = pe0.executions;
    REQUIRE(x.size() == 3);
    CHECK(x.begin[2] == 600);
    CHECK(x.end[2] == 650);
    CHECK(x.flags[2] == core::kClosedAtEof);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
    CHECK(trace->endTime() == 650);
}

TEST_CASE("broken: records after END_COMPUTATION are ignored and counted")
{
    const auto trace = loadOk(brokenCase("records-after-end"));
    const auto base = baseRun();
    INFO(describe(trace->report));
    // Three records follow END_COMPUTATION (lines 11-13); the counter counts records, as
    // PeTraceBuilder does when it is fed them directly.
    CHECK(countOf(*trace, Issue::RecordsAfterEnd) == 3);
    const auto example = findExample(trace->report, Issue::RecordsAfterEnd);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    CHECK(example->line >= 11);
    CHECK(example->line <= 13);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
    CHECK(trace->endTime() == 600);
}

TEST_CASE("broken: garbage lines in a log are counted with their lines and skipped")
{
    const auto trace = loadOk(brokenCase("garbage-log"));
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::MalformedLine) == 4);
    std::vector<std::uint64_t> lines;
    for (const auto& e : trace->report.examples())
        if (e.issue == Issue::MalformedLine) {
            CHECK(e.file == "run.1.log");
            lines.push_back(e.line);
        }
    CHECK(lines == std::vector<std::uint64_t> { 4, 5, 6, 7 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
}

TEST_CASE("broken: absurd numbers are malformed lines and the other records are intact")
{
    resetLargestAllocation();
    const auto trace = loadOk(brokenCase("absurd-numbers"));
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(largestAllocation() < (std::size_t { 16 } << 20));
    CHECK(countOf(*trace, Issue::MalformedLine) == 6);
    std::vector<std::uint64_t> lines;
    for (const auto& e : trace->report.examples())
        if (e.issue == Issue::MalformedLine)
            lines.push_back(e.line);
    // Five examples are kept per kind.
    CHECK(lines == std::vector<std::uint64_t> { 4, 5, 6, 7, 8 });
    CHECK(countOf(*trace, Issue::UnknownEntry) == 0);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
}

TEST_CASE("broken: a sum claiming a trillion bins is read fast without a huge allocation")
{
    resetLargestAllocation();
    const auto start = std::chrono::steady_clock::now();
    const auto trace = loadOk(brokenCase("huge-sum"));
    const auto seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto base = baseRun();
    INFO("largest single allocation " << largestAllocation() << " bytes, " << seconds << " s");
    CHECK(largestAllocation() < (std::size_t { 16 } << 20));
    CHECK(seconds < 2.0);
    CHECK(countOf(*trace, Issue::SummaryProblem) >= 1);
    const auto example = findExample(trace->report, Issue::SummaryProblem);
    REQUIRE(example);
    CHECK(example->file == "run.0.sum");
    REQUIRE(trace->summaries.size() == 2);
    REQUIRE(trace->summaries[1]);
    const auto& s1 = *trace->summaries[1];
    CHECK(s1.utilization == std::vector<std::int16_t> { 0, 0, 50, 100, 100 });
    CHECK(s1.entryTime == std::vector<std::int64_t> { 0, 100, 200 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
    requireSamePeTrace(trace->pes[1], base->pes[1]);
    CHECK(trace->endTime() == 600);
}

TEST_CASE("broken: a sum with a garbage header is skipped and reported at line 1")
{
    const auto trace = loadOk(brokenCase("sum-header-garbage"));
    CHECK(countOf(*trace, Issue::SummaryProblem) == 1);
    const auto example = findExample(trace->report, Issue::SummaryProblem);
    REQUIRE(example);
    CHECK(example->file == "run.0.sum");
    CHECK(example->line == 1);
    REQUIRE(trace->summaries.size() == 2);
    CHECK_FALSE(trace->summaries[0].has_value());
    REQUIRE(trace->summaries[1].has_value());
    CHECK(trace->summaries[1]->utilization.size() == 5);
    CHECK(trace->hasLogs());
}

TEST_CASE("broken: blank lines in a log are counted and skipped")
{
    const auto trace = loadOk(brokenCase("blank-lines"));
    const auto base = baseRun();
    CHECK(countOf(*trace, Issue::BlankLine) == 2);
    CHECK(trace->report.total(core::Severity::Warning) == 0);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: a delta-encoded log is left out and reported")
{
    const auto trace = loadOk(brokenCase("delta-log"));
    const auto base = baseRun();
    CHECK(countOf(*trace, Issue::UnsupportedLog) == 1);
    const auto example = findExample(trace->report, Issue::UnsupportedLog);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    CHECK(example->line == 1);
    CHECK(trace->validPes() == std::vector<core::PeId> { 1 });
    CHECK(trace->missingPes() == std::vector<core::PeId> { 0 });
    requireSamePeTrace(trace->pes[1], base->pes[1]);
}

TEST_CASE("broken: a log that is a dangling symlink is a file error and the PE is left out")
{
    TempDir dir;
    copyBase(dir);
    fs::remove(dir / "run.1.log");
    fs::create_symlink(dir / "does-not-exist.log", dir / "run.1.log");
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::FileError) == 1);
    const auto example = findExample(trace->report, Issue::FileError);
    REQUIRE(example);
    CHECK(example->file == "run.1.log");
    CHECK(trace->validPes() == std::vector<core::PeId> { 0 });
    CHECK(trace->missingPes() == std::vector<core::PeId> { 1 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: a log path that is a directory leaves the PE out with a report naming it")
{
    TempDir dir;
    copyBase(dir);
    fs::remove(dir / "run.1.log");
    fs::create_directory(dir / "run.1.log");
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::FileError) + countOf(*trace, Issue::MissingFile) == 1);
    const auto fileError = findExample(trace->report, Issue::FileError, "run.1.log");
    const auto missing = findExample(trace->report, Issue::MissingFile, "run.1.log");
    CHECK((fileError || missing));
    CHECK(trace->validPes() == std::vector<core::PeId> { 0 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

namespace {

// Root reads any file whatever its permission bits, because of two capabilities. Tests run as
// root in CI, so to check what an unreadable file does there, this drops them from the
// effective set of the calling thread for its lifetime (threads started meanwhile inherit
// that) and raises them again after; the permitted set is left alone. Without root it does
// nothing: permissions apply anyway.
class WithoutFileCapabilities {
public:
    WithoutFileCapabilities()
    {
        if (::geteuid() != 0)
            return;
        m_header.version = _LINUX_CAPABILITY_VERSION_3;
        m_header.pid = 0;
        if (::syscall(SYS_capget, &m_header, m_saved) != 0)
            return;
        __user_cap_data_struct lowered[2] = { m_saved[0], m_saved[1] };
        for (const int cap : { CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH })
            lowered[cap / 32].effective &= ~(1U << (cap % 32));
        m_dropped = ::syscall(SYS_capset, &m_header, lowered) == 0;
    }
    ~WithoutFileCapabilities()
    {
        if (m_dropped)
            ::syscall(SYS_capset, &m_header, m_saved);
    }
    WithoutFileCapabilities(const WithoutFileCapabilities&) = delete;
    WithoutFileCapabilities& operator=(const WithoutFileCapabilities&) = delete;

    // True when permission bits now apply to this thread (not root, or root without them).
    [[nodiscard]] bool permissionsApply() const { return ::geteuid() != 0 || m_dropped; }

private:
    __user_cap_header_struct m_header {};
    __user_cap_data_struct m_saved[2] {};
    bool m_dropped = false;
};

} // namespace

TEST_CASE("broken: an unreadable log is a file error, also when the tests run as root")
{
    TempDir dir;
    copyBase(dir);
    fs::permissions(dir / "run.1.log", fs::perms::none);
    io::LoadOptions options;
    options.threads = 1;
    core::TracePtr trace;
    {
        const WithoutFileCapabilities unprivileged;
        REQUIRE(unprivileged.permissionsApply());
        {
            // The precondition itself: this thread can no longer open the file.
            const int fd = ::open((dir / "run.1.log").c_str(), O_RDONLY | O_CLOEXEC);
            if (fd >= 0)
                ::close(fd);
            REQUIRE(fd < 0);
        }
        trace = loadOk(dir.path(), options);
    }
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::FileError) == 1);
    CHECK(findExample(trace->report, Issue::FileError, "run.1.log"));
    CHECK(trace->validPes() == std::vector<core::PeId> { 0 });
    CHECK(trace->missingPes() == std::vector<core::PeId> { 1 });
}

TEST_CASE("broken: a log that is a symlink loop is a file error and the PE is left out")
{
    // Unreadable for every user, root included (ELOOP).
    TempDir dir;
    copyBase(dir);
    fs::remove(dir / "run.1.log");
    fs::create_symlink("run.1.log", dir / "run.1.log");
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::FileError) + countOf(*trace, Issue::MissingFile) == 1);
    CHECK((findExample(trace->report, Issue::FileError, "run.1.log")
        || findExample(trace->report, Issue::MissingFile, "run.1.log")));
    CHECK(trace->validPes() == std::vector<core::PeId> { 0 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: a gzip log cut in half keeps the records before the cut")
{
    const auto original = realLog("gen-feat-smp");
    TempDir dir;
    copyFiles(original, dir.path());
    const auto packed = readFile(original / "feat.0.log.gz");
    writeFile(dir / "feat.0.log.gz", packed.substr(0, packed.size() / 2));
    const auto trace = loadOk(dir.path());
    const auto full = loadOk(original);
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::GzipError) == 1);
    const auto example = findExample(trace->report, Issue::GzipError);
    REQUIRE(example);
    CHECK(example->file == "feat.0.log.gz");
    CHECK(example->line > 1);
    CHECK(countOf(*trace, Issue::TruncatedLog) == 1);
    const auto& pe0 = trace->pes[0];
    CHECK(pe0.hasLog);
    CHECK(pe0.recordCount > 100);
    CHECK(pe0.recordCount < full->pes[0].recordCount);
    CHECK(pe0.endComputation == -1);
    // The executions before the cut are the original ones.
    const auto n = pe0.executions.size();
    REQUIRE(n > 10);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        REQUIRE(pe0.executions.begin[i] == full->pes[0].executions.begin[i]);
        REQUIRE(pe0.executions.end[i] == full->pes[0].executions.end[i]);
    }
    for (std::size_t p = 1; p < 6; ++p)
        requireSamePeTrace(trace->pes[p], full->pes[p]);
}

TEST_CASE("broken: a gzip log with a corrupted middle is reported and the other PEs are intact")
{
    const auto original = realLog("gen-feat-smp");
    TempDir dir;
    copyFiles(original, dir.path());
    auto packed = readFile(original / "feat.0.log.gz");
    for (std::size_t i = packed.size() / 2; i < packed.size() / 2 + 32; ++i)
        packed[i] = static_cast<char>(~packed[i]);
    writeFile(dir / "feat.0.log.gz", packed);
    const auto trace = loadOk(dir.path());
    const auto full = loadOk(original);
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::GzipError) == 1);
    CHECK(findExample(trace->report, Issue::GzipError, "feat.0.log.gz"));
    CHECK(trace->pes[0].recordCount > 0);
    for (std::size_t p = 1; p < 6; ++p)
        requireSamePeTrace(trace->pes[p], full->pes[p]);
}

TEST_CASE("broken: a 2 MiB line is skipped and reported with its line number")
{
    TempDir dir;
    copyBase(dir);
    const auto lines = splitLines(readFile(dir / "run.0.log"));
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        text += lines[i] + "\n";
        if (i == 2) // after line 3: the overlong line is line 4
            text += std::string(2u << 20, '9') + "\n";
    }
    writeFile(dir / "run.0.log", text);
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::OverlongLine) == 1);
    const auto example = findExample(trace->report, Issue::OverlongLine);
    REQUIRE(example);
    CHECK(example->file == "run.0.log");
    CHECK(example->line == 4);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: 2 MiB without any newline at the end of a log is skipped and reported")
{
    TempDir dir;
    copyBase(dir);
    auto text = readFile(dir / "run.1.log");
    text = text.substr(0, text.rfind("7 600")); // drop END_COMPUTATION
    text += std::string(2u << 20, 'z');
    writeFile(dir / "run.1.log", text);
    const auto trace = loadOk(dir.path());
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::OverlongLine) == 1);
    CHECK(findExample(trace->report, Issue::OverlongLine, "run.1.log"));
    CHECK(countOf(*trace, Issue::TruncatedLog) == 1);
    CHECK(trace->pes[1].executions.size() == 2);
}

TEST_CASE("broken: a binary log is left out and reported")
{
    TempDir dir;
    copyBase(dir);
    std::string binary;
    for (int i = 0; i < 4096; ++i)
        binary.push_back(static_cast<char>((i * 37) & 0xFF));
    writeFile(dir / "run.1.log", binary);
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::UnsupportedLog) == 1);
    const auto example = findExample(trace->report, Issue::UnsupportedLog);
    REQUIRE(example);
    CHECK(example->file == "run.1.log");
    CHECK(trace->validPes() == std::vector<core::PeId> { 0 });
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}

TEST_CASE("broken: binary junk after a valid header is counted line by line without a crash")
{
    TempDir dir;
    copyBase(dir);
    std::string junk = "PROJECTIONS-RECORD 8\n6 100\n";
    for (int i = 0; i < 20000; ++i)
        junk.push_back(static_cast<char>((i * 131 + 7) & 0xFF));
    writeFile(dir / "run.1.log", junk);
    const auto trace = loadOk(dir.path());
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::MalformedLine) + countOf(*trace, Issue::UnknownRecordType) > 0);
    CHECK(trace->pes[1].beginComputation == 100);
    CHECK(trace->pes[1].executions.size() == 0);
}

TEST_CASE("broken: a PE with both run.0.log and run.0.log.gz is reported as a duplicate")
{
    TempDir dir;
    copyBase(dir);
    gzipString(dir / "run.0.log.gz", readFile(dir / "run.0.log"));
    const auto trace = loadOk(dir.path());
    const auto base = baseRun();
    INFO(describe(trace->report));
    CHECK(countOf(*trace, Issue::DuplicateFile) == 1);
    requireSamePeTrace(trace->pes[0], base->pes[0]);
}
