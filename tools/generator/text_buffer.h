#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <vector>

namespace parallax::gen {

// An append-only character buffer for writing numbers and text without iostreams or
// per-field allocation: integers go through std::to_chars straight into the buffer.
class TextBuffer {
public:
    explicit TextBuffer(std::size_t capacity = std::size_t { 1 } << 20)
        : m_data(capacity)
    { }

    std::string_view view() const { return { m_data.data(), m_size }; }
    std::size_t size() const { return m_size; }
    void clear() { m_size = 0; }
    // True when fewer than `reserve` bytes are left before the initial capacity.
    bool nearlyFull(std::size_t reserve = 4096) const { return m_size + reserve > m_data.size(); }

    void append(char character)
    {
        ensure(1);
        m_data[m_size++] = character;
    }

    void append(std::string_view text)
    {
        ensure(text.size());
        text.copy(m_data.data() + m_size, text.size());
        m_size += text.size();
    }

    void appendInt(std::int64_t value)
    {
        ensure(kMaxDigits);
        char* first = m_data.data() + m_size;
        const auto result = std::to_chars(first, first + kMaxDigits, value);
        m_size += static_cast<std::size_t>(result.ptr - first);
    }

    // " value": the separator every field after the first one carries in a log line.
    void appendField(std::int64_t value)
    {
        append(' ');
        appendInt(value);
    }

    // printf("%4d"): right-aligned in a field of width 4.
    void appendPadded4(std::int64_t value)
    {
        char digits[kMaxDigits];
        const auto result = std::to_chars(digits, digits + kMaxDigits, value);
        const auto length = static_cast<std::size_t>(result.ptr - digits);
        for (std::size_t pad = length; pad < 4; ++pad) {
            append(' ');
        }
        append(std::string_view(digits, length));
    }

    // printf("%e"): 6 digits after the point, at least two exponent digits.
    void appendScientific(double value)
    {
        ensure(kMaxDigits * 2);
        char* first = m_data.data() + m_size;
        const auto result
            = std::to_chars(first, first + kMaxDigits * 2, value, std::chars_format::scientific, 6);
        m_size += static_cast<std::size_t>(result.ptr - first);
    }

private:
    static constexpr std::size_t kMaxDigits = 24;

    void ensure(std::size_t extra)
    {
        if (m_size + extra > m_data.size()) {
            m_data.resize(std::max(m_data.size() * 2, m_size + extra));
        }
    }

    std::vector<char> m_data;
    std::size_t m_size = 0;
};

} // namespace parallax::gen
