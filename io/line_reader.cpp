#include "line_reader.h"

#include <cstring>

namespace parallax::io {

namespace {

// Buffers of LineReader::kBufferSize no reader on this thread is using.
thread_local std::vector<std::unique_ptr<char[]>> t_freeBuffers;
constexpr std::size_t kPoolLimit = 2;

} // namespace

LineReader::LineReader(ByteSource& source)
    : m_source(source)
{
    std::string_view text;
    if (source.whole(text)) {
        static constexpr char kNoText = 0;
        m_whole = text.empty() ? &kNoText : text.data();
        m_end = text.size();
        m_eof = true;
        return;
    }
    if (t_freeBuffers.empty()) {
        m_buffer = std::make_unique_for_overwrite<char[]>(kBufferSize);
    } else {
        m_buffer = std::move(t_freeBuffers.back());
        t_freeBuffers.pop_back();
    }
}

LineReader::~LineReader()
{
    if (m_buffer && t_freeBuffers.size() < kPoolLimit) {
        try {
            t_freeBuffers.push_back(std::move(m_buffer));
        } catch (...) { // NOLINT(bugprone-empty-catch): out of memory; the buffer is just freed
        }
    }
}

// Moves the unconsumed tail to the front and reads more behind it.
bool LineReader::fill()
{
    if (m_eof)
        return false;
    if (m_begin > 0) {
        std::memmove(m_buffer.get(), m_buffer.get() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    const auto room = kBufferSize - m_end;
    if (room == 0)
        return false;
    const auto n = m_source.read(m_buffer.get() + m_end, room);
    if (n < 0) {
        m_failed = true;
        m_eof = true;
        return false;
    }
    if (n == 0) {
        m_eof = true;
        return false;
    }
    m_end += static_cast<std::size_t>(n);
    return true;
}

std::uint64_t LineReader::bytesConsumed()
{
    if (m_whole != nullptr)
        m_source.consumedTo(m_begin);
    return m_source.bytesConsumed();
}

// The same lines, numbers and overlong-line rule as the buffered path, with no copy: a line of
// kMaxLine bytes or more (newline excluded) is skipped and counted.
bool LineReader::nextInWhole(std::string_view& line)
{
    for (;;) {
        if (m_begin >= m_end) {
            m_source.consumedTo(m_end);
            return false;
        }
        const char* start = m_whole + m_begin;
        const auto rest = m_end - m_begin;
        const auto* nl = static_cast<const char*>(std::memchr(start, '\n', rest));
        const auto len = nl != nullptr ? static_cast<std::size_t>(nl - start) : rest;
        ++m_lineNumber;
        m_begin = nl != nullptr ? m_begin + len + 1 : m_end;
        if (len >= kMaxLine) {
            ++m_overlong;
            if (m_overlongNumbers.size() < 5)
                m_overlongNumbers.push_back(m_lineNumber);
            continue;
        }
        if (nl == nullptr) {
            m_endedMidLine = true; // last line without a newline: kept as is
            line = std::string_view(start, len);
            return true;
        }
        line = std::string_view(start, len > 0 && start[len - 1] == '\r' ? len - 1 : len);
        return true;
    }
}

bool LineReader::next(std::string_view& line)
{
    if (m_whole != nullptr)
        return nextInWhole(line);
    std::size_t scanFrom = m_begin;
    for (;;) {
        const auto* start = m_buffer.get() + scanFrom;
        const auto* nl = static_cast<const char*>(std::memchr(start, '\n', m_end - scanFrom));
        if (nl != nullptr) {
            const auto lineEnd = static_cast<std::size_t>(nl - m_buffer.get());
            std::size_t len = lineEnd - m_begin;
            if (len > 0 && m_buffer[m_begin + len - 1] == '\r')
                --len;
            line = std::string_view(m_buffer.get() + m_begin, len);
            m_begin = lineEnd + 1;
            ++m_lineNumber;
            return true;
        }
        if (m_end - m_begin >= kMaxLine) {
            // Overlong line: drop what we have and skip to the next newline.
            ++m_overlong;
            ++m_lineNumber;
            if (m_overlongNumbers.size() < 5)
                m_overlongNumbers.push_back(m_lineNumber);
            for (;;) {
                m_begin = m_end = 0;
                if (!fill())
                    return false;
                const auto* p = static_cast<const char*>(std::memchr(m_buffer.get(), '\n', m_end));
                if (p != nullptr) {
                    m_begin = static_cast<std::size_t>(p - m_buffer.get()) + 1;
                    break;
                }
            }
            scanFrom = m_begin;
            continue;
        }
        const auto scanned = m_end - m_begin;
        if (!fill()) {
            if (m_end > m_begin) {
                // Last line without a newline.
                m_endedMidLine = true;
                line = std::string_view(m_buffer.get() + m_begin, m_end - m_begin);
                m_begin = m_end;
                ++m_lineNumber;
                return true;
            }
            return false;
        }
        scanFrom = m_begin + scanned;
    }
}

} // namespace parallax::io
