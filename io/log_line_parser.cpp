#include "log_line_parser.h"

#include "field_cursor.h"
#include "integer_scan.h"
#include "integer_scan_avx512.h"
#include "line_reader.h"

#include <algorithm>
#include <limits>

namespace parallax::io {

using core::LogRecord;
using core::RecordType;

namespace {

[[gnu::always_inline]] inline bool readEntry(FieldCursor& c, LogRecord& r)
{
    std::int64_t ep = 0;
    // The writer keeps entry ids in an unsigned short.
    if (!c.nextInt64(ep) || ep < 0 || ep > 65535)
        return false;
    r.entry = static_cast<core::EntryId>(ep);
    return true;
}

[[gnu::always_inline]] inline bool readMessageType(FieldCursor& c, LogRecord& r)
{
    std::int64_t m = 0;
    if (!c.nextInt64(m) || m < -1 || m > 65535)
        return false;
    r.messageType = static_cast<std::int32_t>(m);
    return true;
}

// What is wrong with the "mtype ep time event pe [len >= 2.0]" start of CREATION and BEGIN/END
// PROCESSING, or null when it reads.
const char* readMessagePrefix(
    FieldCursor& c, LogRecord& r, double version, const char* needs, const char* missingLength)
{
    if (!readMessageType(c, r) || !readEntry(c, r) || !c.nextTime(r.time) || !c.nextInt32(r.eventId)
        || !c.nextInt32(r.pe))
        return needs;
    if (version >= 2.0 && !c.nextInt32(r.msgBytes))
        return missingLength;
    return nullptr;
}

} // namespace

LogLineParser::LogLineParser(const core::RunMetadata& metadata)
    : m_meta(metadata)
    , m_version(metadata.version)
    , m_papiCount(metadata.version >= 6.6 ? metadata.papiEvents.size() : 0)
{
    m_idLength.reserve(metadata.entries.size());
    for (std::size_t id = 0; id < metadata.entries.size(); ++id)
        m_idLength.push_back(
            static_cast<std::uint8_t>(metadata.objectIdLength(static_cast<core::EntryId>(id))));
    const double v = m_version;
    const int length = v >= 2.0 ? 1 : 0;
    m_creationFields = 6 + length + (v >= 5.0 ? 1 : 0);
    m_beginFieldsBeforeIds = 6 + length + (v >= 4.0 ? 1 : 0);
    m_endFields = 6 + length + (v >= 6.5 ? 1 : 0);
}

namespace {

constexpr int kFastFields = scan::kMaxIntegers;

// Resets `r` to a fresh LogRecord, field by field: `r = LogRecord {}` compiles to a `rep stos`
// over the whole record, which cost a fifth of the fast path.
// A field added to LogRecord must be reset here too (then update the size).
static_assert(sizeof(LogRecord) == 184, "resetRecord() must reset every field of LogRecord");
[[gnu::always_inline]] inline void resetRecord(LogRecord& r, RecordType type)
{
    r.type = type;
    r.messageType = 0;
    r.entry = core::kNoEntry;
    r.time = 0;
    r.endTime = 0;
    r.eventId = 0;
    r.pe = core::kNoPe;
    r.msgBytes = -1;
    r.sendDuration = 0;
    r.cpuTime = 0;
    r.hasCpuTime = false;
    r.objectId = {};
    r.papi = {};
    r.destinationCount = 0;
    r.destinations = {};
    r.userEventId = 0;
    r.nestedId = 0;
    r.value = 0;
    r.userTime = 0.0;
    r.statValue = 0.0;
    r.statId = 0;
    r.text = {};
}

constexpr bool isInt32(std::int64_t v)
{
    return v >= std::numeric_limits<std::int32_t>::min()
        && v <= std::numeric_limits<std::int32_t>::max();
}

// mtype ep time event pe [len >= 2.0], the prefix of CREATION and BEGIN/END_PROCESSING (f[0] is
// the type), into a fresh `r`; `at` is left on the next field.
[[gnu::always_inline]] inline bool fastPrefix(
    const std::int64_t* f, double version, LogRecord& r, int& at)
{
    const bool length = version >= 2.0;
    if (f[1] < -1 || f[1] > 65535 || f[2] < 0 || f[2] > 65535 || f[3] < 0 || !isInt32(f[4])
        || !isInt32(f[5]) || (length && !isInt32(f[6])))
        return false;
    resetRecord(r, static_cast<RecordType>(f[0]));
    r.messageType = static_cast<std::int32_t>(f[1]);
    r.entry = static_cast<core::EntryId>(f[2]);
    r.time = f[3];
    r.eventId = static_cast<std::int32_t>(f[4]);
    r.pe = static_cast<core::PeId>(f[5]);
    at = 6;
    if (length)
        r.msgBytes = static_cast<std::int32_t>(f[at++]);
    return true;
}

} // namespace

[[gnu::always_inline]] inline bool LogLineParser::decodeCommon(
    const std::int64_t* f, int n, LogRecord& r)
{
    const double v = m_version;
    switch (f[0]) {
    case static_cast<int>(RecordType::Creation):
    case static_cast<int>(RecordType::CreationBcast): {
        const bool bcast = f[0] == static_cast<int>(RecordType::CreationBcast);
        if (n != m_creationFields + (bcast ? 1 : 0))
            return false;
        int at = 0;
        if (!fastPrefix(f, v, r, at))
            return false;
        if (v >= 5.0)
            r.sendDuration = f[at++];
        if (bcast) {
            if (f[at] < 0 || !isInt32(f[at]))
                return false;
            r.destinationCount = static_cast<std::int32_t>(f[at]);
        }
        return true;
    }
    case static_cast<int>(RecordType::BeginProcessing): {
        if (n < m_beginFieldsBeforeIds || m_papiCount != 0)
            return false;
        int at = 0;
        if (!fastPrefix(f, v, r, at))
            return false;
        std::size_t nIds = 0;
        if (v >= 4.0) {
            if (f[at++] < 0) // the receive time is read unsigned
                return false;
            const auto entry = static_cast<std::size_t>(r.entry);
            nIds
                = v < 7.0 ? 3 : (v < 9.0 ? 4 : (entry < m_idLength.size() ? m_idLength[entry] : 7));
            if (nIds > m_idBuffer.size())
                return false;
        }
        const bool cpu = v >= 6.5;
        if (static_cast<std::size_t>(n - at) != nIds + (cpu ? 1 : 0))
            return false;
        for (std::size_t i = 0; i < nIds; ++i) {
            if (!isInt32(f[at]))
                return false;
            m_idBuffer[i] = static_cast<std::int32_t>(f[at++]);
        }
        if (cpu) {
            r.cpuTime = f[at];
            r.hasCpuTime = true;
        }
        r.objectId = std::span<const std::int32_t>(m_idBuffer.data(), nIds);
        return true;
    }
    case static_cast<int>(RecordType::EndProcessing): {
        if (n != m_endFields || m_papiCount != 0)
            return false;
        int at = 0;
        if (!fastPrefix(f, v, r, at))
            return false;
        if (v >= 6.5) {
            r.cpuTime = f[at];
            r.hasCpuTime = true;
        }
        return true;
    }
    case static_cast<int>(RecordType::BeginIdle):
    case static_cast<int>(RecordType::EndIdle):
    case static_cast<int>(RecordType::BeginPack):
    case static_cast<int>(RecordType::EndPack):
    case static_cast<int>(RecordType::BeginUnpack):
    case static_cast<int>(RecordType::EndUnpack):
        if (n != 3 || f[1] < 0 || !isInt32(f[2]))
            return false;
        resetRecord(r, static_cast<RecordType>(f[0]));
        r.time = f[1];
        r.pe = static_cast<core::PeId>(f[2]);
        return true;
    // USER_EVENT: id t ev pe; the user event pairs: id t ev pe [nestedId]
    case static_cast<int>(RecordType::UserEvent):
    case static_cast<int>(RecordType::BeginUserEventPair):
    case static_cast<int>(RecordType::EndUserEventPair):
    case static_cast<int>(RecordType::UserEventPair): {
        const bool nested = f[0] != static_cast<int>(RecordType::UserEvent) && n == 6;
        if ((n != 5 && !nested) || !isInt32(f[1]) || f[2] < 0 || !isInt32(f[3]) || !isInt32(f[4])
            || (nested && !isInt32(f[5])))
            return false;
        resetRecord(r, static_cast<RecordType>(f[0]));
        r.userEventId = static_cast<std::int32_t>(f[1]);
        r.time = f[2];
        r.eventId = static_cast<std::int32_t>(f[3]);
        r.pe = static_cast<core::PeId>(f[4]);
        if (nested)
            r.nestedId = static_cast<std::int32_t>(f[5]);
        return true;
    }
    default:
        return false;
    }
}

bool LogLineParser::parseCommon(std::string_view line, LogRecord& r)
{
    std::int64_t f[kFastFields];
    int n = 0;
    const char* p = line.data();
    if (!scan::integersBytewise<false>(p, line.data() + line.size(), f, n) || n == 0)
        return false;
    return decodeCommon(f, n, r);
}

[[gnu::always_inline]] inline bool LogLineParser::finishInPlace(const std::int64_t* f, int n,
    const char* text, const char* lineEnd, LogRecord& r, const char*& newline)
{
    // A line of LineReader::kMaxLine or more is skipped there; leave such a line (only blanks
    // could make one this long) to the reader.
    if (n == 0 || static_cast<std::size_t>(lineEnd - text) >= LineReader::kMaxLine
        || !decodeCommon(f, n, r))
        return false;
    newline = lineEnd;
    return true;
}

bool LogLineParser::parseInPlace(
    const char* text, const char* end, LogRecord& r, const char*& newline)
{
#if PARALLAX_HAVE_WIDE_SCAN
    if (m_wideScan)
        return parseInPlaceWide(text, end, r, newline);
#endif
    std::int64_t f[kFastFields];
    int n = 0;
    const char* p = text;
    return scan::integersToNewline(p, end, f, n) && finishInPlace(f, n, text, p, r, newline);
}

#if PARALLAX_HAVE_WIDE_SCAN
PARALLAX_WIDE_SCAN_TARGET bool LogLineParser::parseInPlaceWide(
    const char* text, const char* end, LogRecord& r, const char*& newline)
{
    std::int64_t f[kFastFields];
    int n = 0;
    const char* p = text;
    return scan::integersToNewlineWide(p, end, f, n) && finishInPlace(f, n, text, p, r, newline);
}
#endif

bool LogLineParser::readCounters(FieldCursor& c, LogRecord& r)
{
    m_papi.clear();
    for (std::size_t i = 0; i < m_papiCount; ++i) {
        std::int64_t value = 0;
        if (!c.nextInt64(value))
            return false;
        m_papi.push_back(value);
    }
    r.papi = m_papi;
    return true;
}

ParseStatus LogLineParser::parseChecked(std::string_view line, LogRecord& r, std::string& why)
{
    FieldCursor c(line);
    std::int64_t type = 0;
    if (!c.nextInt64(type)) {
        why = "record type is not a number";
        return ParseStatus::Malformed;
    }
    r = LogRecord {};
    if (type < 0 || type > 255) {
        why = "unknown record type " + std::to_string(type);
        return ParseStatus::UnknownType;
    }
    r.type = static_cast<RecordType>(type);
    const double v = m_version;
    auto bad = [&](const char* what) {
        why = what;
        return ParseStatus::Malformed;
    };
    auto done = [&]() {
        if (!c.atEnd()) {
            why = "unexpected extra fields";
            return ParseStatus::Malformed;
        }
        return ParseStatus::Ok;
    };

    switch (r.type) {
    // 1 CREATION: mtype ep t ev pe [len >= 2.0] [sendT >= 5.0]
    // 20 CREATION_BCAST: ... nPEs
    // 21 CREATION_MULTICAST: ... nPEs [nPEs] destPE x nPEs
    case RecordType::Creation:
    case RecordType::CreationBcast:
    case RecordType::CreationMulticast: {
        if (const char* wrong = readMessagePrefix(c, r, v, "CREATION needs mtype ep time event pe",
                "CREATION is missing the message length"))
            return bad(wrong);
        if (v >= 5.0 && !c.nextInt64(r.sendDuration))
            return bad("CREATION is missing the send time");
        if (r.type == RecordType::Creation)
            return done();
        if (!c.nextInt32(r.destinationCount) || r.destinationCount < 0)
            return bad("broadcast/multicast is missing its PE count");
        if (r.type == RecordType::CreationBcast)
            return done();
        // docs/format.md §2.5 (1): since Charm++ 7.0 the writer puts the PE count twice (the int,
        // then the std::vector's size) before the list; Java reads the older single-count form
        // and so loses the last PE. We accept both: exactly nPEs+1 remaining tokens whose first
        // equals nPEs is the doubled form, exactly nPEs is the old form, anything else is damage.
        const auto n = static_cast<std::size_t>(r.destinationCount);
        const auto remaining = c.countRemaining();
        if (remaining == n + 1) {
            std::int32_t again = 0;
            if (!c.nextInt32(again) || again != r.destinationCount)
                return bad("multicast PE list does not match its count");
            ++m_doubledMulticasts;
        } else if (remaining != n) {
            return bad("multicast PE list does not match its count");
        }
        m_destinations.clear();
        for (std::size_t i = 0; i < n; ++i) {
            core::PeId pe = 0;
            if (!c.nextInt32(pe))
                return bad("multicast destination is not a PE number");
            m_destinations.push_back(pe);
        }
        r.destinations = m_destinations;
        return done();
    }
    // 2 BEGIN_PROCESSING: mtype ep t ev srcPE [len] [recvT ids...] [cpu] [papi...]
    case RecordType::BeginProcessing: {
        if (const char* wrong
            = readMessagePrefix(c, r, v, "BEGIN_PROCESSING needs mtype ep time event srcPE",
                "BEGIN_PROCESSING is missing the message length"))
            return bad(wrong);
        m_ids.clear();
        if (v >= 4.0) {
            std::uint64_t recvTime = 0; // always 0 (or -1 printed unsigned); not used
            if (!c.nextUint64(recvTime))
                return bad("BEGIN_PROCESSING is missing the receive time");
            std::size_t nIds = v < 7.0
                ? 3
                : (v < 9.0 ? 4
                           : static_cast<std::size_t>(
                               static_cast<std::size_t>(r.entry) < m_idLength.size()
                                   ? m_idLength[static_cast<std::size_t>(r.entry)]
                                   : m_meta.objectIdLength(r.entry)));
            const std::size_t tail = (v >= 6.5 ? 1 : 0) + m_papiCount;
            // Fast path, the well-formed line: exactly nIds ids, the CPU time and the counters.
            // Only taken when it succeeds; otherwise the checks below decide, from here.
            if (m_papiCount == 0 && nIds <= m_idBuffer.size()) {
                FieldCursor fast = c;
                bool ok = true;
                for (std::size_t i = 0; i < nIds && ok; ++i)
                    ok = fast.nextInt32(m_idBuffer[i]);
                if (ok && v >= 6.5)
                    ok = fast.nextInt64(r.cpuTime);
                if (ok && fast.atEnd()) {
                    r.objectId = std::span<const std::int32_t>(m_idBuffer.data(), nIds);
                    r.hasCpuTime = v >= 6.5;
                    r.papi = {};
                    return ParseStatus::Ok;
                }
                r.cpuTime = 0;
            }
            const auto remaining = c.countRemaining();
            // The object id length follows from the chare's ndims (docs/format.md §2.3); when the
            // token count says otherwise (user-index arrays, a .sts from another build), trust
            // the line as long as the count is plausible.
            if (remaining != nIds + tail) {
                if (remaining < tail || remaining - tail > 6)
                    return bad("BEGIN_PROCESSING has a wrong number of fields");
                nIds = remaining - tail;
            }
            for (std::size_t i = 0; i < nIds; ++i) {
                std::int32_t id = 0;
                if (!c.nextInt32(id))
                    return bad("object id is not a number");
                m_ids.push_back(id);
            }
        }
        r.objectId = m_ids;
        if (v >= 6.5) {
            if (!c.nextInt64(r.cpuTime))
                return bad("BEGIN_PROCESSING is missing the CPU time");
            r.hasCpuTime = true;
        }
        if (!readCounters(c, r))
            return bad("PAPI counter value is not a number");
        return done();
    }
    // 3 END_PROCESSING: mtype ep t ev srcPE [len] [cpu] [papi...]
    case RecordType::EndProcessing: {
        if (const char* wrong
            = readMessagePrefix(c, r, v, "END_PROCESSING needs mtype ep time event srcPE",
                "END_PROCESSING is missing the message length"))
            return bad(wrong);
        if (v >= 6.5) {
            if (!c.nextInt64(r.cpuTime))
                return bad("END_PROCESSING is missing the CPU time");
            r.hasCpuTime = true;
        }
        if (!readCounters(c, r))
            return bad("PAPI counter value is not a number");
        return done();
    }
    // 4 ENQUEUE, 5 DEQUEUE: mtype t ev pe
    case RecordType::Enqueue:
    case RecordType::Dequeue:
        if (!readMessageType(c, r) || !c.nextTime(r.time) || !c.nextInt32(r.eventId)
            || !c.nextInt32(r.pe))
            return bad("ENQUEUE/DEQUEUE needs mtype time event pe");
        return done();
    // 6 BEGIN_COMPUTATION, 7 END_COMPUTATION, 11 BEGIN_TRACE, 12 END_TRACE: t
    case RecordType::BeginComputation:
    case RecordType::EndComputation:
    case RecordType::BeginTrace:
    case RecordType::EndTrace:
        if (!c.nextTime(r.time))
            return bad("record needs a time");
        return done();
    // 8 BEGIN_INTERRUPT, 9 END_INTERRUPT: t ev pe
    case RecordType::BeginInterrupt:
    case RecordType::EndInterrupt:
        if (!c.nextTime(r.time) || !c.nextInt32(r.eventId) || !c.nextInt32(r.pe))
            return bad("INTERRUPT needs time event pe");
        return done();
    // 10 MESSAGE_RECV: writer mtype ep t ev pe len; Java mtype t ev pe len
    case RecordType::MessageRecv: {
        const auto n = c.countRemaining();
        if (!readMessageType(c, r))
            return bad("MESSAGE_RECV needs mtype");
        if (n == 6 && !readEntry(c, r))
            return bad("MESSAGE_RECV entry is not a number");
        if (!c.nextTime(r.time) || !c.nextInt32(r.eventId) || !c.nextInt32(r.pe)
            || !c.nextInt32(r.msgBytes))
            return bad("MESSAGE_RECV needs time event pe len");
        return done();
    }
    // 13 USER_EVENT: id t ev pe
    case RecordType::UserEvent:
        if (!c.nextInt32(r.userEventId) || !c.nextTime(r.time) || !c.nextInt32(r.eventId)
            || !c.nextInt32(r.pe))
            return bad("USER_EVENT needs id time event pe");
        return done();
    // 14..19 idle / pack / unpack: t pe
    case RecordType::BeginIdle:
    case RecordType::EndIdle:
    case RecordType::BeginPack:
    case RecordType::EndPack:
    case RecordType::BeginUnpack:
    case RecordType::EndUnpack:
        if (!c.nextTime(r.time) || !c.nextInt32(r.pe))
            return bad("record needs time pe");
        return done();
    // 22 BEGIN_FUNC: t funcId line+filename (Charm++ <= 6.8); 23 END_FUNC: t funcId
    case RecordType::BeginFunc:
    case RecordType::EndFunc:
        if (!c.nextTime(r.time))
            return bad("function record needs a time");
        return ParseStatus::Ok;
    case RecordType::MemoryMalloc:
    case RecordType::MemoryFree:
    case RecordType::SurrogateBlock:
        return ParseStatus::Ok;
    // 26 USER_SUPPLIED: value t
    case RecordType::UserSupplied:
        if (!c.nextInt64(r.value))
            return bad("USER_SUPPLIED needs a value");
        if (!c.atEnd() && !c.nextTime(r.time))
            return bad("USER_SUPPLIED time is not a number");
        return done();
    // 27 MEMORY_USAGE: bytes t
    case RecordType::MemoryUsage: {
        std::uint64_t bytes = 0;
        if (!c.nextUint64(bytes) || !c.nextTime(r.time))
            return bad("MEMORY_USAGE needs bytes time");
        r.value = static_cast<std::int64_t>(
            std::min<std::uint64_t>(bytes, std::numeric_limits<std::int64_t>::max()));
        return done();
    }
    // 28 USER_SUPPLIED_NOTE: t len[ ]chars; 29 USER_SUPPLIED_BRACKETED_NOTE: t tEnd id len[ ]chars
    // docs/format.md §2.5 (2): Charm++ <= 6.7 put a space before the text, a fixed >= 7.0 writer
    // would not; take the length's digits, skip at most one space, then exactly len chars.
    case RecordType::UserSuppliedNote:
    case RecordType::UserSuppliedBracketedNote: {
        if (!c.nextTime(r.time))
            return bad("note needs a time");
        if (r.type == RecordType::UserSuppliedBracketedNote
            && (!c.nextTime(r.endTime) || !c.nextInt32(r.userEventId)))
            return bad("bracketed note needs begin end id");
        auto rest = c.rest();
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        std::size_t digits = 0;
        while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
            ++digits;
        std::int64_t len = 0;
        if (digits == 0 || digits > 9
            || std::from_chars(rest.data(), rest.data() + digits, len).ec != std::errc())
            return bad("note length is not a number");
        rest.remove_prefix(digits);
        if (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        if (static_cast<std::size_t>(len) > rest.size())
            return bad("note is shorter than its length");
        r.text = rest.substr(0, static_cast<std::size_t>(len));
        return ParseStatus::Ok;
    }
    // 30 END_PHASE: phaseId t
    case RecordType::EndPhase:
        if (!c.nextInt64(r.value) || !c.nextTime(r.time))
            return bad("END_PHASE needs phase time");
        return done();
    // 32 USER_STAT: t userTime stat pe statId
    case RecordType::UserStat:
        if (!c.nextTime(r.time) || !c.nextDouble(r.userTime) || !c.nextDouble(r.statValue)
            || !c.nextInt32(r.pe) || !c.nextInt32(r.statId))
            return bad("USER_STAT needs time userTime value pe statId");
        return done();
    // 98, 99, 100: id t ev pe [nestedId]
    case RecordType::BeginUserEventPair:
    case RecordType::EndUserEventPair:
    case RecordType::UserEventPair:
        if (!c.nextInt32(r.userEventId) || !c.nextTime(r.time) || !c.nextInt32(r.eventId)
            || !c.nextInt32(r.pe))
            return bad("user event pair needs id time event pe");
        if (!c.atEnd() && !c.nextInt32(r.nestedId))
            return bad("user event pair nested id is not a number");
        return done();
    }
    why = "unknown record type " + std::to_string(type);
    return ParseStatus::UnknownType;
}

} // namespace parallax::io
