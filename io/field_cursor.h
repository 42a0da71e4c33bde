#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>

namespace parallax::io {

// Reads whitespace-separated numeric fields from one line, left to right. The writer separates
// fields with exactly one space; we also accept runs of spaces and tabs. Every reader returns
// false (and leaves the cursor where it was) when the next token is missing or not a number
// of the requested kind and range.
// The readers are forced inline: LogLineParser::parse calls them once per field of every line,
// and out of line they were a fifth of a load's time.
#define PARALLAX_FIELD_INLINE [[gnu::always_inline]] inline

class FieldCursor {
public:
    explicit FieldCursor(std::string_view line)
        : m_p(line.data())
        , m_end(line.data() + line.size())
    { }

    PARALLAX_FIELD_INLINE bool nextInt64(std::int64_t& out)
    {
        skipSpace();
        const char* p = m_p;
        const bool negative = p != m_end && *p == '-';
        if (negative)
            ++p;
        std::uint64_t magnitude = 0;
        p = digits(p, magnitude);
        // The same accepted range as std::from_chars<std::int64_t>.
        constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (p == nullptr || !atTokenEnd(p) || magnitude > kMax + (negative ? 1U : 0U))
            return false;
        out = negative ? static_cast<std::int64_t>(0U - magnitude)
                       : static_cast<std::int64_t>(magnitude);
        m_p = p;
        return true;
    }

    PARALLAX_FIELD_INLINE bool nextUint64(std::uint64_t& out)
    {
        skipSpace();
        std::uint64_t value = 0;
        const char* p = digits(m_p, value);
        if (p == nullptr || !atTokenEnd(p))
            return false;
        out = value;
        m_p = p;
        return true;
    }

    PARALLAX_FIELD_INLINE bool nextInt32(std::int32_t& out)
    {
        std::int64_t v = 0;
        const char* save = m_p;
        if (!nextInt64(v) || v < std::numeric_limits<std::int32_t>::min()
            || v > std::numeric_limits<std::int32_t>::max()) {
            m_p = save;
            return false;
        }
        out = static_cast<std::int32_t>(v);
        return true;
    }

    // A timestamp: a non-negative integer that fits a signed 64-bit value.
    PARALLAX_FIELD_INLINE bool nextTime(std::int64_t& out)
    {
        const char* save = m_p;
        if (!nextInt64(out) || out < 0) {
            m_p = save;
            return false;
        }
        return true;
    }

    bool nextDouble(double& out)
    {
        skipSpace();
        auto [ptr, ec] = std::from_chars(m_p, m_end, out);
        if (ec != std::errc() || !atTokenEnd(ptr))
            return false;
        m_p = ptr;
        return true;
    }

    // Skips one token of any content.
    bool skipToken()
    {
        skipSpace();
        if (m_p == m_end)
            return false;
        while (m_p != m_end && !isSpace(*m_p))
            ++m_p;
        return true;
    }

    // Number of tokens left (scans, does not consume).
    [[nodiscard]] std::size_t countRemaining() const
    {
        std::size_t n = 0;
        const char* p = m_p;
        while (p != m_end) {
            while (p != m_end && isSpace(*p))
                ++p;
            if (p == m_end)
                break;
            ++n;
            while (p != m_end && !isSpace(*p))
                ++p;
        }
        return n;
    }

    [[nodiscard]] bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }

    // The unread rest of the line, starting right after the last token read.
    [[nodiscard]] std::string_view rest() const
    {
        return { m_p, static_cast<std::size_t>(m_end - m_p) };
    }

private:
    // Decimal digits from p (at least one) into `value`; returns the end of the digits, or
    // nullptr when there are none or the value does not fit 64 bits. The hot path of every
    // reader: std::from_chars is not inlined and handles every base.
    PARALLAX_FIELD_INLINE const char* digits(const char* p, std::uint64_t& value) const
    {
        const char* first = p;
        std::uint64_t v = 0;
        // Up to 19 digits cannot overflow.
        const char* safeEnd = m_end - p > 19 ? p + 19 : m_end;
        while (p != safeEnd) {
            const auto d = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
            if (d > 9)
                break;
            v = v * 10 + d;
            ++p;
        }
        if (p == first)
            return nullptr;
        while (p != m_end) {
            const auto d = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
            if (d > 9)
                break;
            if (__builtin_mul_overflow(v, 10U, &v) || __builtin_add_overflow(v, d, &v))
                return nullptr;
            ++p;
        }
        value = v;
        return p;
    }

    static bool isSpace(char c) { return c == ' ' || c == '\t'; }
    PARALLAX_FIELD_INLINE void skipSpace()
    {
        while (m_p != m_end && isSpace(*m_p))
            ++m_p;
    }
    [[nodiscard]] bool atTokenEnd(const char* p) const { return p == m_end || isSpace(*p); }

    const char* m_p;
    const char* m_end;
};

#undef PARALLAX_FIELD_INLINE

} // namespace parallax::io
