#pragma once

#include "byte_source.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::io {

// Splits a ByteSource into lines. A source that holds its whole text (a plain log read whole, a
// gzip file decompressed whole) is split in place; any other is read through a fixed-size
// buffer refilled as lines are consumed, so the whole file is never held. Lines longer than the
// limit are skipped (and counted) so a garbage file without newlines cannot exhaust memory.
class LineReader {
public:
    static constexpr std::size_t kChunk = std::size_t { 1 } << 20;
    static constexpr std::size_t kMaxLine = std::size_t { 1 } << 20;

    explicit LineReader(ByteSource& source);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // Next line without its '\n' (and without a trailing '\r'). Returns false at the end of the
    // data or on a read error (see failed()). The view is valid until the next call.
    bool next(std::string_view& line);

    // In place over a whole source: the unread text, [cursor(), textEnd()). A caller that
    // recognises the next line itself (it ends at `newline`, a '\n' before textEnd(), and is
    // shorter than kMaxLine) moves past it with skipLine(newline): the same as next() would have
    // done. Null cursor() for a buffered source.
    [[nodiscard]] const char* cursor() const
    {
        return m_whole != nullptr ? m_whole + m_begin : nullptr;
    }
    [[nodiscard]] const char* textEnd() const { return m_whole + m_end; }
    void skipLine(const char* newline)
    {
        m_begin = static_cast<std::size_t>(newline - m_whole) + 1;
        ++m_lineNumber;
    }

    // On-disk bytes consumed so far (ByteSource::bytesConsumed() once it knows where we are).
    [[nodiscard]] std::uint64_t bytesConsumed();
    [[nodiscard]] std::uint64_t lineNumber() const { return m_lineNumber; }
    [[nodiscard]] std::uint64_t overlongLines() const { return m_overlong; }
    // Line numbers of the first few overlong lines.
    [[nodiscard]] const std::vector<std::uint64_t>& overlongLineNumbers() const
    {
        return m_overlongNumbers;
    }
    [[nodiscard]] bool failed() const { return m_failed; }
    // True when the data did not end with '\n' (the last line may be cut short).
    [[nodiscard]] bool endedMidLine() const { return m_endedMidLine; }
    [[nodiscard]] const std::string& error() const { return m_source.error(); }

private:
    bool fill();
    bool nextInWhole(std::string_view& line);

    static constexpr std::size_t kBufferSize = kChunk + kMaxLine;

    ByteSource& m_source;
    // Taken from (and given back to) a small per-thread pool: a run has a log per PE, and a
    // fresh 2 MiB buffer per file costs a zero-fill and its page faults every time.
    std::unique_ptr<char[]> m_buffer;
    const char* m_whole = nullptr; // the source's whole text, instead of m_buffer
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    bool m_failed = false;
    bool m_endedMidLine = false;
    std::uint64_t m_lineNumber = 0;
    std::uint64_t m_overlong = 0;
    std::vector<std::uint64_t> m_overlongNumbers;
};

} // namespace parallax::io
