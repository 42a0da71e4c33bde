#include "log_listing.h"

#include "core/run_metadata.h"
#include "user_events.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

namespace parallax::core::analysis {

namespace {

struct TypeName {
    RecordType type;
    const char* name;
};

constexpr TypeName kTypeNames[] = {
    { RecordType::Creation, "CREATION" },
    { RecordType::BeginProcessing, "BEGIN_PROCESSING" },
    { RecordType::EndProcessing, "END_PROCESSING" },
    { RecordType::Enqueue, "ENQUEUE" },
    { RecordType::Dequeue, "DEQUEUE" },
    { RecordType::BeginComputation, "BEGIN_COMPUTATION" },
    { RecordType::EndComputation, "END_COMPUTATION" },
    { RecordType::BeginInterrupt, "BEGIN_INTERRUPT" },
    { RecordType::EndInterrupt, "END_INTERRUPT" },
    { RecordType::MessageRecv, "MESSAGE_RECV" },
    { RecordType::BeginTrace, "BEGIN_TRACE" },
    { RecordType::EndTrace, "END_TRACE" },
    { RecordType::UserEvent, "USER_EVENT" },
    { RecordType::BeginIdle, "BEGIN_IDLE" },
    { RecordType::EndIdle, "END_IDLE" },
    { RecordType::BeginPack, "BEGIN_PACK" },
    { RecordType::EndPack, "END_PACK" },
    { RecordType::BeginUnpack, "BEGIN_UNPACK" },
    { RecordType::EndUnpack, "END_UNPACK" },
    { RecordType::CreationBcast, "CREATION_BCAST" },
    { RecordType::CreationMulticast, "CREATION_MULTICAST" },
    { RecordType::BeginFunc, "BEGIN_FUNC" },
    { RecordType::EndFunc, "END_FUNC" },
    { RecordType::MemoryMalloc, "MEMORY_MALLOC" },
    { RecordType::MemoryFree, "MEMORY_FREE" },
    { RecordType::UserSupplied, "USER_SUPPLIED" },
    { RecordType::MemoryUsage, "MEMORY_USAGE" },
    { RecordType::UserSuppliedNote, "USER_SUPPLIED_NOTE" },
    { RecordType::UserSuppliedBracketedNote, "USER_SUPPLIED_BRACKETED_NOTE" },
    { RecordType::EndPhase, "END_PHASE" },
    { RecordType::SurrogateBlock, "SURROGATE_BLOCK" },
    { RecordType::UserStat, "USER_STAT" },
    { RecordType::BeginUserEventPair, "BEGIN_USER_EVENT_PAIR" },
    { RecordType::EndUserEventPair, "END_USER_EVENT_PAIR" },
    { RecordType::UserEventPair, "USER_EVENT_PAIR" },
};

std::string lower(std::string_view text)
{
    std::string out(text);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string number(double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", value);
    return buf;
}

// "[3]", "[1,2]" for array elements; empty for other chares.
std::string objectIndex(const LogRecord& r, const RunMetadata& metadata)
{
    const auto chare = r.entry >= 0 && static_cast<std::size_t>(r.entry) < metadata.entries.size()
        ? metadata.entries[static_cast<std::size_t>(r.entry)].chare
        : -1;
    if (chare < 0 || static_cast<std::size_t>(chare) >= metadata.chares.size()
        || metadata.chares[static_cast<std::size_t>(chare)].ndims < 1 || r.objectId.empty())
        return {};
    std::string out = "[";
    for (std::size_t i = 0; i < r.objectId.size(); ++i) {
        if (i > 0)
            out += ',';
        out += std::to_string(r.objectId[i]);
    }
    return out + "]";
}

// What the row's other columns do not say, in words.
std::string details(const LogRecord& r, const RunMetadata& metadata)
{
    using T = RecordType;
    switch (r.type) {
    case T::CreationBcast:
        return "to " + std::to_string(r.destinationCount) + " PEs";
    case T::CreationMulticast: {
        std::string out = "to PEs ";
        for (std::size_t i = 0; i < r.destinations.size(); ++i) {
            if (i > 0)
                out += ',';
            out += std::to_string(r.destinations[i]);
        }
        return out;
    }
    case T::BeginProcessing: {
        const auto index = objectIndex(r, metadata);
        return index.empty() ? std::string() : "index " + index;
    }
    case T::UserEvent:
    case T::BeginUserEventPair:
    case T::EndUserEventPair:
    case T::UserEventPair:
        return r.nestedId != 0 ? "nested id " + std::to_string(r.nestedId) : std::string();
    case T::UserSupplied:
        return "value " + std::to_string(r.value);
    case T::MemoryUsage:
        return std::to_string(r.value) + " bytes in use";
    case T::UserStat: {
        const auto it = metadata.stats.find(r.statId);
        const std::string name
            = it != metadata.stats.end() ? it->second : "stat " + std::to_string(r.statId);
        return name + " = " + number(r.statValue)
            + (r.userTime >= 0 ? " (user time " + number(r.userTime) + ")" : "");
    }
    case T::UserSuppliedNote:
        return std::string(r.text);
    case T::UserSuppliedBracketedNote:
        return std::string(r.text) + " (until " + std::to_string(r.endTime) + " us)";
    case T::EndPhase:
        return "phase " + std::to_string(r.value);
    case T::BeginInterrupt:
    case T::EndInterrupt:
        return "trace buffer flush";
    default:
        return {};
    }
}

} // namespace

std::string recordTypeName(RecordType type)
{
    for (const auto& t : kTypeNames)
        if (t.type == type)
            return t.name;
    return "TYPE_" + std::to_string(static_cast<int>(type));
}

std::optional<RecordType> parseRecordType(std::string_view text)
{
    int value = 0;
    const auto* end = text.data() + text.size();
    if (const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        !text.empty() && ec == std::errc() && ptr == end) {
        for (const auto& t : kTypeNames)
            if (static_cast<int>(t.type) == value)
                return t.type;
        return std::nullopt;
    }
    const auto wanted = lower(text);
    for (const auto& t : kTypeNames)
        if (lower(t.name) == wanted)
            return t.type;
    return std::nullopt;
}

LogLine decodeLogRecord(const LogRecord& r, std::uint64_t line, const RunMetadata& metadata)
{
    using T = RecordType;
    LogLine out;
    out.line = line;
    out.type = r.type;
    out.time = r.time;
    switch (r.type) {
    case T::Creation:
    case T::CreationBcast:
    case T::CreationMulticast:
    case T::BeginProcessing:
    case T::EndProcessing:
        out.entry = r.entry;
        out.pe = r.pe;
        out.eventId = r.eventId;
        // An END_PROCESSING's size field is always 0: the size is its BEGIN's.
        out.msgBytes = r.type == T::EndProcessing ? -1 : r.msgBytes;
        break;
    case T::UserEvent:
    case T::BeginUserEventPair:
    case T::EndUserEventPair:
    case T::UserEventPair:
        out.userEvent = r.userEventId;
        out.eventId = r.eventId;
        out.pe = r.pe;
        break;
    case T::UserSuppliedBracketedNote:
        out.userEvent = r.userEventId;
        break;
    case T::Enqueue:
    case T::Dequeue:
    case T::MessageRecv:
    case T::UserStat:
        out.pe = r.pe;
        out.eventId = r.type == T::UserStat ? -1 : r.eventId;
        break;
    default:
        break;
    }
    out.details = details(r, metadata);
    return out;
}

LogLine malformedLogLine(std::uint64_t line, std::string_view text, const std::string& why)
{
    LogLine out;
    out.line = line;
    out.malformed = true;
    out.details
        = why + ": '" + std::string(text.substr(0, 120)) + (text.size() > 120 ? "...'" : "'");
    return out;
}

bool passesRangeAndType(RecordType type, TimeUs time, bool malformed, const LogFilter& filter)
{
    if (malformed)
        return filter.types.empty() && filter.range.empty();
    if (!filter.range.empty() && (time < filter.range.begin || time >= filter.range.end))
        return false;
    return filter.types.empty()
        || std::find(filter.types.begin(), filter.types.end(), type) != filter.types.end();
}

bool passesSearch(const LogLine& line, const LogFilter& filter, const RunMetadata& metadata)
{
    if (filter.search.empty())
        return true;
    const auto wanted = lower(filter.search);
    const auto has = [&](std::string_view text) {
        return lower(text).find(wanted) != std::string::npos;
    };
    if (has(line.details) || (!line.malformed && has(recordTypeName(line.type))))
        return true;
    if (line.entry != kNoEntry
        && (has(metadata.entryName(line.entry)) || has(metadata.chareNameOfEntry(line.entry))))
        return true;
    return line.userEvent >= 0 && has(userEventName(metadata, line.userEvent));
}

ResultTable logListingTable(const LogListing& listing, const RunMetadata& metadata)
{
    ResultTable t;
    const auto line = t.addColumn("line", CellKind::Integer);
    const auto time = t.addColumn("time_us", CellKind::TimeUs);
    const auto type = t.addColumn("type", CellKind::Text);
    const auto entry = t.addColumn("entry", CellKind::Integer);
    const auto entryName = t.addColumn("entry_name", CellKind::Text);
    const auto chare = t.addColumn("chare", CellKind::Text);
    const auto pe = t.addColumn("pe", CellKind::Integer);
    const auto event = t.addColumn("event", CellKind::Integer);
    const auto bytes = t.addColumn("bytes", CellKind::Bytes);
    const auto userEvent = t.addColumn("user_event", CellKind::Integer);
    const auto userEventText = t.addColumn("user_event_name", CellKind::Text);
    const auto detailsColumn = t.addColumn("details", CellKind::Text);
    for (const auto& l : listing.lines) {
        const bool hasEntry = l.entry != kNoEntry;
        t.push(line, static_cast<double>(l.line));
        t.pushIf(time, !l.malformed, static_cast<double>(l.time));
        t.push(type, l.malformed ? std::string("MALFORMED") : recordTypeName(l.type));
        t.pushIf(entry, hasEntry, static_cast<double>(l.entry));
        t.push(entryName, hasEntry ? metadata.entryName(l.entry) : std::string());
        t.push(chare, hasEntry ? metadata.chareNameOfEntry(l.entry) : std::string());
        t.pushIf(pe, l.pe != kNoPe, static_cast<double>(l.pe));
        t.pushIf(event, l.eventId >= 0 && !l.malformed, static_cast<double>(l.eventId));
        t.pushIf(bytes, l.msgBytes >= 0, static_cast<double>(l.msgBytes));
        t.pushIf(userEvent, l.userEvent >= 0, static_cast<double>(l.userEvent));
        t.push(
            userEventText, l.userEvent >= 0 ? userEventName(metadata, l.userEvent) : std::string());
        t.push(detailsColumn, l.details);
        t.targets.push_back(l.malformed ? RowTarget {} : RowTarget { listing.pe, l.time, l.time });
    }
    return t;
}

} // namespace parallax::core::analysis
