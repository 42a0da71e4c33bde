#pragma once

#include "core/log_record.h"
#include "core/run_metadata.h"
#include "integer_scan_avx512.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::io {

class FieldCursor;

enum class ParseStatus { Ok, Malformed, UnknownType };

// Decodes one text line of a NAME.N.log into a LogRecord following the field layouts of
// docs/format.md §2.3 for the run's VERSION. Token counts are validated per type so that a damaged
// or cut-off line is rejected rather than misread.
class LogLineParser {
public:
    explicit LogLineParser(const core::RunMetadata& metadata);

    // On Malformed/UnknownType `why` says what was wrong.
    ParseStatus parse(std::string_view line, core::LogRecord& record, std::string& why)
    {
        if (parseCommon(line, record))
            return ParseStatus::Ok;
        return parseChecked(line, record, why);
    }

    // The fast path straight from the reader's text: [text, end) is the rest of the file. When
    // the next line is one parseCommon takes, decodes it, sets `newline` to its '\n' and returns
    // true; otherwise returns false and the caller reads the line and calls parse(). The line
    // must end in '\n' before `end` ('\r' and anything unusual go to parse()).
    bool parseInPlace(
        const char* text, const char* end, core::LogRecord& record, const char*& newline);

    // Counts multicasts seen in the Charm++ >= 7.0 form (PE count written twice).
    [[nodiscard]] std::uint64_t doubledMulticasts() const { return m_doubledMulticasts; }

private:
#if PARALLAX_HAVE_WIDE_SCAN
    // parseInPlace through scan::integersToNewlineWide, for processors that have it.
    PARALLAX_WIDE_SCAN_TARGET bool parseInPlaceWide(
        const char* text, const char* end, core::LogRecord& record, const char*& newline);
#endif
    // parseInPlace's checks once the line's integers f[0..n) are read up to `lineEnd`.
    bool finishInPlace(const std::int64_t* f, int n, const char* text, const char* lineEnd,
        core::LogRecord& record, const char*& newline);
    // The fast path for the records that make up almost every log (BEGIN/END_PROCESSING,
    // CREATION, CREATION_BCAST, idle/pack/unpack, user events): the line's integers in one scan,
    // then the type's field count and ranges. Takes a line only when parseChecked would accept it
    // with the same values; returns false otherwise, and parseChecked decides.
    bool parseCommon(std::string_view line, core::LogRecord& record);
    // parseCommon's checks on the line's integers f[0..n).
    bool decodeCommon(const std::int64_t* f, int n, core::LogRecord& record);
    // Every record type, field by field, with the reason of a rejection.
    ParseStatus parseChecked(std::string_view line, core::LogRecord& record, std::string& why);
    // The PAPI counter values that end BEGIN/END_PROCESSING (the .sts declares how many).
    bool readCounters(FieldCursor& cursor, core::LogRecord& record);

    const core::RunMetadata& m_meta;
    double m_version;
    std::size_t m_papiCount;
    std::vector<std::int32_t> m_ids;
    std::array<std::int32_t, 6> m_idBuffer {};
    std::vector<std::uint8_t> m_idLength; // RunMetadata::objectIdLength of every known entry
    // Field counts of the fast path's records for this VERSION (type included).
    int m_creationFields = 0;
    int m_beginFieldsBeforeIds = 0; // up to the receive time (or the length before 4.0)
    int m_endFields = 0;
    std::vector<std::int64_t> m_papi;
    std::vector<core::PeId> m_destinations;
    std::uint64_t m_doubledMulticasts = 0;
    bool m_wideScan = scan::wideEnabled();
};

} // namespace parallax::io
