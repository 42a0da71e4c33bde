#pragma once

// The integers of one log line, read straight from the text. Two implementations with one
// contract: a byte loop that works anywhere, and a vector one (SSE2, x86-64's baseline) that
// classifies 64 bytes at once and converts each number with a few multiplications instead of
// a multiply-add per digit. The vector one falls back to the byte loop wherever it cannot
// decide alone, so both accept exactly the same lines with the same values (a test compares
// them on random lines).

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace parallax::io::scan {

inline constexpr int kMaxIntegers = 16;
// A number of more digits than this is left to the field-by-field checks (it might not fit).
inline constexpr int kMaxDigits = 18;

// The whitespace-separated integers of a line into `out` (at most kMaxIntegers), as
// FieldCursor::nextInt64 reads them: an optional '-' then 1..kMaxDigits digits, separated by
// blanks and tabs. False for anything else (another character, a lone '-', more digits, too
// many tokens). With kToNewline the line is the text up to the first '\n' of [p, end), which
// must exist, and `p` is left on it; otherwise the line is all of [p, end).
template <bool kToNewline>
[[gnu::always_inline]] inline bool integersBytewise(
    const char*& p, const char* end, std::int64_t* out, int& count)
{
    int n = 0;
    for (;;) {
        while (p != end && (*p == ' ' || *p == '\t'))
            ++p;
        if (p == end) {
            if (kToNewline)
                return false;
            break;
        }
        if (kToNewline && *p == '\n')
            break;
        if (n == kMaxIntegers)
            return false;
        const bool negative = *p == '-';
        p += negative ? 1 : 0;
        const char* first = p;
        const char* limit = end - p > kMaxDigits ? p + kMaxDigits : end;
        std::uint64_t v = 0;
        while (p != limit) {
            const auto d = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
            if (d > 9)
                break;
            v = v * 10 + d;
            ++p;
        }
        if (p == first || (p != end && *p != ' ' && *p != '\t' && (!kToNewline || *p != '\n')))
            return false;
        const auto value = static_cast<std::int64_t>(v);
        out[n++] = negative ? -value : value;
    }
    count = n;
    return true;
}

// The value of the `length` (1 .. sizeof(Word)) ASCII digits at `digits`, which may be followed
// by anything: sizeof(Word) bytes are read. Four digits take two multiplications, eight three,
// instead of a multiply-add per digit; most fields of a log line (types, entry ids, PEs, sizes,
// object indices) have at most four.
template <typename Word>
[[gnu::always_inline]] inline Word digitsValue(const char* digits, unsigned length)
{
    static_assert(std::is_same_v<Word, std::uint32_t> || std::is_same_v<Word, std::uint64_t>);
    Word v = 0;
    std::memcpy(&v, digits, sizeof v);
    // The digits to the top of the word (the first, most significant, digit is the lowest byte
    // in memory order): the bytes shifted in below become leading zeros.
    v <<= 8 * (sizeof(Word) - length);
    v &= static_cast<Word>(0x0F0F0F0F0F0F0F0FULL);
    // Pairs, then quads (then all eight): each step multiplies the higher half by 10^k and adds.
    v = (v * ((Word { 10 } << 8) + 1)) >> 8;
    v &= static_cast<Word>(0x00FF00FF00FF00FFULL);
    v = (v * ((Word { 100 } << 16) + 1)) >> 16;
    if constexpr (sizeof(Word) == 8) {
        v &= 0x0000FFFF0000FFFFULL;
        v = (v * ((10000ULL << 32) + 1)) >> 32;
    }
    return v;
}

#if defined(__SSE2__)
namespace detail {

// One bit per byte of the 16 at `p` where `hit` holds.
[[gnu::always_inline]] inline std::uint64_t bits(__m128i hit)
{
    return static_cast<std::uint16_t>(_mm_movemask_epi8(hit));
}

} // namespace detail
#endif

// The vector form of integersBytewise<true>, same contract. It reads the 64 bytes at `p` and
// up to 8 more, so it only runs when at least kVectorReach bytes remain; a line of 64 bytes or
// more, one near the end of the text and any number of more than 16 digits go to the byte loop.
inline constexpr std::ptrdiff_t kVectorReach = 80;

[[gnu::always_inline]] inline bool integersToNewline(
    const char*& p, const char* end, std::int64_t* out, int& count)
{
#if defined(__SSE2__)
    if (end - p < kVectorReach)
        return integersBytewise<true>(p, end, out, count);
    std::uint64_t newline = 0;
    std::uint64_t blank = 0;
    std::uint64_t digit = 0;
    const __m128i nl = _mm_set1_epi8('\n');
    const __m128i space = _mm_set1_epi8(' ');
    const __m128i zero = _mm_set1_epi8('0');
    const __m128i nine = _mm_set1_epi8(9);
    for (int i = 0; i < 4; ++i) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
        const __m128i offset = _mm_sub_epi8(c, zero);
        const int shift = 16 * i;
        newline |= detail::bits(_mm_cmpeq_epi8(c, nl)) << shift;
        blank |= detail::bits(_mm_cmpeq_epi8(c, space)) << shift;
        // Unsigned c - '0' <= 9: its minimum with 9 is itself.
        digit |= detail::bits(_mm_cmpeq_epi8(_mm_min_epu8(offset, nine), offset)) << shift;
    }
    if (newline == 0)
        return integersBytewise<true>(p, end, out, count);
    const auto length = static_cast<unsigned>(__builtin_ctzll(newline));
    const std::uint64_t line = (std::uint64_t { 1 } << length) - 1;
    digit &= line;
    // Only digits and blanks: anything else (a '-', a tab, a letter, a CR) is the byte loop's
    // to accept or refuse.
    if ((digit | (blank & line)) != line || digit == 0)
        return integersBytewise<true>(p, end, out, count);
    std::uint64_t starts = digit & ~(digit << 1);
    std::uint64_t ends = digit & ~(digit >> 1);
    int n = 0;
    while (starts != 0) {
        if (n == kMaxIntegers)
            return false;
        const auto first = static_cast<unsigned>(__builtin_ctzll(starts));
        const auto last = static_cast<unsigned>(__builtin_ctzll(ends));
        starts &= starts - 1;
        ends &= ends - 1;
        const unsigned digits = last + 1 - first;
        std::uint64_t v = 0;
        if (digits <= 4) {
            v = digitsValue<std::uint32_t>(p + first, digits);
        } else if (digits <= 8) {
            v = digitsValue<std::uint64_t>(p + first, digits);
        } else if (digits <= 16) {
            v = digitsValue<std::uint64_t>(p + first, digits - 8) * 100000000ULL
                + digitsValue<std::uint64_t>(p + first + digits - 8, 8);
        } else {
            return integersBytewise<true>(p, end, out, count);
        }
        out[n++] = static_cast<std::int64_t>(v);
    }
    p += length;
    count = n;
    return true;
#else
    return integersBytewise<true>(p, end, out, count);
#endif
}

} // namespace parallax::io::scan
