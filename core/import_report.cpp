#include "import_report.h"

namespace parallax::core {

namespace {

struct IssueInfo {
    std::string_view key;
    Severity severity;
    std::string_view description;
};

constexpr IssueInfo kIssueInfo[] = {
    { "malformed_lines", Severity::Warning,
        "lines with a wrong field count or a non-numeric field (skipped)" },
    { "unknown_record_types", Severity::Warning,
        "records of a type the format does not define (skipped)" },
    { "overlong_lines", Severity::Warning, "lines longer than the reader's limit (skipped)" },
    { "blank_lines", Severity::Info, "empty lines (skipped)" },
    { "records_after_end", Severity::Warning, "records after END_COMPUTATION (ignored)" },
    { "time_went_backwards", Severity::Warning,
        "timestamps earlier than the previous record (clamped)" },
    { "nested_begins", Severity::Info,
        "BEGIN_PROCESSING while an entry method was open (closed there)" },
    { "unmatched_ends", Severity::Info, "END_PROCESSING without an open entry method (ignored)" },
    { "entry_mismatches", Severity::Warning,
        "END_PROCESSING naming another entry method than its BEGIN" },
    { "open_at_end_computation", Severity::Info,
        "entry methods still running at END_COMPUTATION (closed there)" },
    { "truncated_logs", Severity::Warning,
        "logs without END_COMPUTATION (open activities closed at the last record)" },
    { "idle_inside_entry", Severity::Warning,
        "BEGIN_IDLE while an entry method was open (entry closed there)" },
    { "entry_inside_idle", Severity::Warning, "BEGIN_PROCESSING while idle (idle closed there)" },
    { "unmatched_end_idle", Severity::Warning, "END_IDLE without BEGIN_IDLE (ignored)" },
    { "nested_idle", Severity::Warning, "BEGIN_IDLE while already idle (ignored)" },
    { "unmatched_pack", Severity::Warning, "pack/unpack records without their partner (ignored)" },
    { "unmatched_user_event_pairs", Severity::Warning,
        "user-event brackets without their partner (dropped)" },
    { "unknown_entries", Severity::Warning, "entry method ids missing from the .sts" },
    { "unknown_user_events", Severity::Info, "user event ids missing from the .sts" },
    { "tracing_gaps", Severity::Info,
        "periods with tracing switched off (END_TRACE..BEGIN_TRACE)" },
    { "buffer_flushes", Severity::Info, "trace buffer flushes (BEGIN/END_INTERRUPT)" },
    { "legacy_records", Severity::Info, "records of obsolete types (read, not used)" },
    { "multicast_count_doubled", Severity::Info,
        "multicasts with the PE count written twice (Charm++ >= 7.0)" },
    { "unsupported_logs", Severity::Error,
        "logs in a variant that is not supported (delta or binary)" },
    { "file_errors", Severity::Error, "files that could not be opened or read" },
    { "gzip_errors", Severity::Error,
        "damaged or truncated gzip streams (records before the damage kept)" },
    { "sts_problems", Severity::Warning, "problems in the symbol table" },
    { "summary_problems", Severity::Warning, "problems in .sum/.sumd/.projrc files" },
    { "pe_out_of_range", Severity::Warning,
        "files whose PE number is not below PROCESSORS (skipped)" },
    { "missing_files", Severity::Warning, "PEs without a file of a kind other PEs have" },
    { "duplicate_files", Severity::Warning,
        "PEs with both a .log and a .log.gz (the newer one is read)" },
};

static_assert(std::size(kIssueInfo) == kIssueKinds, "one IssueInfo per Issue");

const IssueInfo& info(Issue issue)
{
    return kIssueInfo[static_cast<std::size_t>(issue)];
}

} // namespace

std::string_view issueKey(Issue issue)
{
    return info(issue).key;
}
std::string_view issueDescription(Issue issue)
{
    return info(issue).description;
}
Severity issueSeverity(Issue issue)
{
    return info(issue).severity;
}

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "?";
}

void ImportReport::add(Issue issue, std::string_view file, std::uint64_t line, std::string message)
{
    const auto k = static_cast<std::size_t>(issue);
    ++m_counts[k];
    if (m_exampleCounts[k] < kExamplesPerKind) {
        ++m_exampleCounts[k];
        m_examples.push_back({ issue, std::string(file), line, std::move(message) });
    }
}

void ImportReport::increment(Issue issue, std::uint64_t n)
{
    m_counts[static_cast<std::size_t>(issue)] += n;
}

void ImportReport::merge(const ImportReport& other)
{
    for (std::size_t k = 0; k < kIssueKinds; ++k)
        m_counts[k] += other.m_counts[k];
    for (const auto& example : other.m_examples) {
        const auto k = static_cast<std::size_t>(example.issue);
        if (m_exampleCounts[k] < kExamplesPerKind) {
            ++m_exampleCounts[k];
            m_examples.push_back(example);
        }
    }
}

std::uint64_t ImportReport::total(Severity atLeast) const
{
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < kIssueKinds; ++k)
        if (kIssueInfo[k].severity >= atLeast)
            sum += m_counts[k];
    return sum;
}

bool ImportReport::empty() const
{
    for (auto c : m_counts)
        if (c != 0)
            return false;
    return true;
}

} // namespace parallax::core
