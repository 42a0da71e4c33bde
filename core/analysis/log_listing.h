#pragma once

#include "analysis_request.h"
#include "core/log_record.h"
#include "result_table.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

// View Log Files: one PE's log, record by record, decoded with the names of the .sts (entry
// methods, chares, user events, stats). The records come from io (it reads the file: see
// io/pe_log_listing.h); this part decodes and filters them and makes the table.

// One record of the log as a row. Fields that the record type does not have stay at their
// "none" values (kNoEntry, kNoPe, -1).
struct LogLine {
    std::uint64_t line = 0; // 1-based line number in the (decompressed) file, header = line 1
    RecordType type = RecordType::Creation;
    bool malformed = false; // the line could not be decoded: `details` says why
    TimeUs time = 0;
    EntryId entry = kNoEntry;
    PeId pe = kNoPe; // the record's PE field: sender of a BEGIN, writer of a USER_EVENT, ...
    std::int32_t eventId = -1; // the message's event number (CREATION, BEGIN/END, user events)
    std::int32_t msgBytes = -1;
    UserEventId userEvent = -1; // user events, brackets, bracketed notes
    std::string details; // the rest in words
};

struct LogFilter {
    TimeRange range; // {0, 0}: the whole log
    std::vector<RecordType> types; // empty: every type
    std::string search; // case-insensitive, in the type, names and details; empty: all
    std::size_t limit = 0; // at most this many rows (0: no limit); LogListing::truncated then
};

struct LogListing {
    PeId pe = kNoPe;
    std::string file; // the log's file name
    std::vector<LogLine> lines;
    std::uint64_t linesRead = 0; // lines of the file read, matching or not
    std::uint64_t malformed = 0; // lines that could not be decoded
    bool truncated = false; // stopped at the filter's limit
    std::string error; // the log could not be read: nothing else is valid
};

// How a view reads a log: io::readLogListing, handed to the view by the app (views do not
// read files).
using LogListingReader = std::function<LogListing(
    const Trace& trace, PeId pe, const LogFilter& filter, const Progress& progress)>;

// "BEGIN_PROCESSING", "USER_EVENT_PAIR", ... ("TYPE_n" for a number without a name).
std::string recordTypeName(RecordType type);
// A type by its name (case-insensitive, as recordTypeName writes it) or its number.
std::optional<RecordType> parseRecordType(std::string_view text);

// The record decoded into a row.
LogLine decodeLogRecord(const LogRecord& record, std::uint64_t line, const RunMetadata& metadata);
// A line that could not be decoded.
LogLine malformedLogLine(std::uint64_t line, std::string_view text, const std::string& why);
// Whether a decoded row passes the filter's time range and types (the cheap tests, before
// decoding: see passesSearch), and its search text.
bool passesRangeAndType(RecordType type, TimeUs time, bool malformed, const LogFilter& filter);
bool passesSearch(const LogLine& line, const LogFilter& filter, const RunMetadata& metadata);

// line,time_us,type,entry,entry_name,chare,pe,event,bytes,user_event,user_event_name,details;
// each row targets its record's time on the listing's PE.
ResultTable logListingTable(const LogListing& listing, const RunMetadata& metadata);

} // namespace parallax::core::analysis
