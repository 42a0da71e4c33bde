#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core {

// Everything that was odd about the input, as named counters with a severity, plus the first
// few examples of each with the file and line they came from. Readers never stop on a
// recoverable problem: they count it here and carry on.
enum class Issue : std::uint8_t {
    MalformedLine, // wrong token count or a field that is not a number
    UnknownRecordType, // a record type number the format does not define
    OverlongLine, // a line longer than the reader's limit (skipped)
    BlankLine, // an empty line (Java throws; we skip)
    RecordsAfterEnd, // records after END_COMPUTATION (ignored, as Java does)
    TimeWentBackwards, // an interval record earlier than the previous one (clamped)
    NestedBegin, // BEGIN_PROCESSING while an entry method was open (closed there)
    UnmatchedEnd, // END_PROCESSING with no open entry method (ignored)
    EntryMismatch, // END_PROCESSING names another entry than the open BEGIN (BEGIN kept)
    OpenAtEndComputation, // an entry method still open at END_COMPUTATION (closed there)
    TruncatedLog, // log ends without END_COMPUTATION (open activities closed at last time)
    IdleInsideEntry, // BEGIN_IDLE while an entry method was open (entry closed there)
    EntryInsideIdle, // BEGIN_PROCESSING while idle (idle closed there)
    UnmatchedEndIdle, // END_IDLE without BEGIN_IDLE (ignored)
    NestedIdle, // BEGIN_IDLE while idle (ignored)
    UnmatchedPack, // END_PACK/END_UNPACK without its BEGIN, or nested pack (ignored)
    UnmatchedUserEventPair, // a user-event bracket without its partner (dropped)
    UnknownEntry, // an entry id outside the .sts table (kept, shown as unknown)
    UnknownUserEvent, // a user event id without an EVENT line (kept)
    TracingGap, // END_TRACE ... BEGIN_TRACE: tracing switched off for a while
    BufferFlush, // BEGIN/END_INTERRUPT pair written by a buffer flush
    LegacyRecord, // ENQUEUE/DEQUEUE/MESSAGE_RECV/BEGIN_FUNC/END_FUNC (read, not used)
    MulticastCountDoubled, // Charm++ >= 7.0 multicast with the PE count written twice
    UnsupportedLog, // delta-encoded or binary log (not read)
    FileError, // a file that could not be opened or read (the PE is left out)
    GzipError, // a damaged or truncated gzip stream (records so far are kept)
    StsProblem, // a problem in the .sts (unknown keyword, count mismatch, ...)
    SummaryProblem, // a problem in a .sum/.sumd/.projrc file
    PeOutOfRange, // a file whose PE number is >= PROCESSORS or not a number (skipped)
    MissingFile, // a PE without a file of a kind others have
    DuplicateFile, // both NAME.N.log and NAME.N.log.gz (the newer is used)
    Count_ // number of kinds; keep last
};

enum class Severity : std::uint8_t { Info, Warning, Error };

inline constexpr std::size_t kIssueKinds = static_cast<std::size_t>(Issue::Count_);

// Stable snake_case key of an issue kind (used in `parallax-cli info` output).
std::string_view issueKey(Issue issue);
// One-line human description of an issue kind.
std::string_view issueDescription(Issue issue);
Severity issueSeverity(Issue issue);
std::string_view severityName(Severity severity);

struct IssueExample {
    Issue issue = Issue::MalformedLine;
    std::string file; // file name (not the full path)
    std::uint64_t line = 0; // 1-based line number, 0 when not line-related
    std::string message;
};

class ImportReport {
public:
    static constexpr std::size_t kExamplesPerKind = 5;

    void add(Issue issue, std::string_view file, std::uint64_t line, std::string message);
    // Count without an example (for very frequent benign issues).
    void increment(Issue issue, std::uint64_t n = 1);
    void merge(const ImportReport& other);

    [[nodiscard]] std::uint64_t count(Issue issue) const
    {
        return m_counts[static_cast<std::size_t>(issue)];
    }
    [[nodiscard]] std::uint64_t total(Severity atLeast) const;
    [[nodiscard]] const std::vector<IssueExample>& examples() const { return m_examples; }
    [[nodiscard]] bool empty() const;

private:
    std::array<std::uint64_t, kIssueKinds> m_counts {};
    std::array<std::uint8_t, kIssueKinds> m_exampleCounts {};
    std::vector<IssueExample> m_examples;
};

// Issues found after a run was opened, from any thread (a lazily checked index: Trace::lateIssues).
// `onIssue`, when set, hears each one as it is added, one call at a time (the CLI prints a note);
// it must not call back into this object.
class LateIssues {
public:
    void add(Issue issue, std::string_view file, std::string message)
    {
        std::lock_guard lock(m_mutex);
        m_report.add(issue, file, 0, message);
        if (m_onIssue) // under the lock: one at a time, whichever thread found it
            m_onIssue({ issue, std::string(file), 0, std::move(message) });
    }
    [[nodiscard]] ImportReport snapshot() const
    {
        std::lock_guard lock(m_mutex);
        return m_report;
    }
    void setOnIssue(std::function<void(const IssueExample&)> onIssue)
    {
        std::lock_guard lock(m_mutex);
        m_onIssue = std::move(onIssue);
    }

private:
    mutable std::mutex m_mutex;
    ImportReport m_report;
    std::function<void(const IssueExample&)> m_onIssue;
};

} // namespace parallax::core
