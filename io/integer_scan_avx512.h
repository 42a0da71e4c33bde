#pragma once

// A third form of scan::integersToNewline for x86-64 processors with AVX-512 VBMI2 (Intel Ice
// Lake and later, AMD Zen 4 and later): the whole line in one 64-byte register, every number's
// position found at once (a compress of the token ends), and eight numbers converted per
// instruction sequence with no branch on their lengths. On the 512-PE realistic run it scans a
// line in half the time of the SSE2 form. The binary stays portable: the function is compiled
// for those instructions alone and only called where the processor has them
// (scan::wideEnabled()); same contract and same results as the other two forms (a test
// compares all three on random lines). The summary readers' `value[+repeat]` tokens are read
// the same way (runsWide).

#include "integer_scan.h"

#include <atomic>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// GCC 12 warns of "maybe uninitialized" values inside the AVX-512 intrinsics themselves (its bug
// 105593, fixed in 13); the warning is located in the header, so it is silenced there only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define PARALLAX_HAVE_WIDE_SCAN 1
// Compiles a function for the processors integersToNewlineWide needs.
#define PARALLAX_WIDE_SCAN_TARGET                                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))
#else
#define PARALLAX_HAVE_WIDE_SCAN 0
#endif

namespace parallax::io::scan {

// Whether this processor (and its operating system) can run integersToNewlineWide.
inline bool cpuHasWideScan()
{
#if PARALLAX_HAVE_WIDE_SCAN
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi")
            && __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2")
            && __builtin_cpu_supports("popcnt");
    }();
    return has;
#else
    return false;
#endif
}

namespace detail {
inline std::atomic<bool> wideAllowed { true };
} // namespace detail

// Lets benchmarks and tests run the portable scan on a processor that has the wide one.
// Parsers made afterwards follow it; one already made keeps its choice.
inline void allowWideScan(bool allowed)
{
    detail::wideAllowed.store(allowed, std::memory_order_relaxed);
}

// Whether a parser made now uses integersToNewlineWide.
inline bool wideEnabled()
{
    return cpuHasWideScan() && detail::wideAllowed.load(std::memory_order_relaxed);
}

#if PARALLAX_HAVE_WIDE_SCAN

namespace detail {

// The numbers right-aligned in the eight 8-byte lanes of `at` (positions in `text`; bytes off
// `isDigit` are zero), as eight 64-bit values.
[[gnu::always_inline]] PARALLAX_WIDE_SCAN_TARGET inline __m512i eightDigits(
    __m512i text, __mmask64 isDigit, __m512i at)
{
    __m512i d = _mm512_and_si512(
        _mm512_maskz_permutexvar_epi8(isDigit, at, text), _mm512_set1_epi8(0x0F));
    // Pairs (10a + b in 16 bits), then quads (100ab + cd in 32 bits), then the eight.
    d = _mm512_madd_epi16(
        _mm512_maddubs_epi16(d, _mm512_set1_epi16(0x010A)), _mm512_set1_epi32(0x00010064));
    return _mm512_add_epi64(
        _mm512_mul_epu32(d, _mm512_set1_epi64(10000)), _mm512_srli_epi64(d, 32));
}

// Where the numbers of `text` are (the bits of `starts` and `ends` mark their first and last
// digits): in the low bytes, in order, each number's last digit's position in `last` and its
// digits minus one in `span`.
[[gnu::always_inline]] PARALLAX_WIDE_SCAN_TARGET inline void numberSpans(
    std::uint64_t starts, std::uint64_t ends, __m512i& last, __m512i& span)
{
    const __m512i position
        = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,
            45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24,
            23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    last = _mm512_maskz_compress_epi8(ends, position);
    span = _mm512_sub_epi8(last, _mm512_maskz_compress_epi8(starts, position));
}

// Numbers 8·round to 8·round + 7 of numberSpans' `last` and `span`, each right-aligned in its own
// 8 bytes and converted: byte j of lane k is text[last_k - skip - 7 + j] when that is one of the
// number's digits, zero otherwise. With skip 0 that is a number's last eight digits; with skip 8
// the eight before them.
[[gnu::always_inline]] PARALLAX_WIDE_SCAN_TARGET inline __m512i eightNumbers(
    __m512i text, __m512i last, __m512i span, int round, char skip)
{
    const __m512i lane
        = _mm512_add_epi8(_mm512_set_epi64(0x0707070707070707LL, 0x0606060606060606LL,
                              0x0505050505050505LL, 0x0404040404040404LL, 0x0303030303030303LL,
                              0x0202020202020202LL, 0x0101010101010101LL, 0),
            _mm512_set1_epi8(static_cast<char>(8 * round)));
    // How far byte j of a lane lies before the number's last digit.
    const __m512i back
        = _mm512_add_epi8(_mm512_set1_epi64(0x0001020304050607LL), _mm512_set1_epi8(skip));
    const __m512i lastOfLane = _mm512_permutexvar_epi8(lane, last);
    const __m512i spanOfLane = _mm512_permutexvar_epi8(lane, span);
    return eightDigits(
        text, _mm512_cmple_epu8_mask(back, spanOfLane), _mm512_sub_epi8(lastOfLane, back));
}

} // namespace detail

// integersToNewline with AVX-512; only call it where cpuHasWideScan(). Reads the 64 bytes at
// `p`, so it runs only when kVectorReach bytes remain; a line of 64 bytes or more, anything but
// digits and blanks, and a number of more than 16 digits go to the byte loop, as there. `out`
// must hold kMaxIntegers values: they are written eight at a time.
[[gnu::always_inline]] PARALLAX_WIDE_SCAN_TARGET inline bool integersToNewlineWide(
    const char*& p, const char* end, std::int64_t* out, int& count)
{
    if (end - p < kVectorReach)
        return integersBytewise<true>(p, end, out, count);
    const __m512i text = _mm512_loadu_si512(p);
    const std::uint64_t newline = _mm512_cmpeq_epi8_mask(text, _mm512_set1_epi8('\n'));
    if (newline == 0)
        return integersBytewise<true>(p, end, out, count);
    const auto length = static_cast<unsigned>(_tzcnt_u64(newline));
    const std::uint64_t line = _bzhi_u64(~std::uint64_t { 0 }, length);
    const std::uint64_t blank = _mm512_cmpeq_epi8_mask(text, _mm512_set1_epi8(' ')) & line;
    const std::uint64_t digit
        = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(text, _mm512_set1_epi8('0')), _mm512_set1_epi8(10))
        & line;
    if ((digit | blank) != line || digit == 0)
        return integersBytewise<true>(p, end, out, count);
    const std::uint64_t starts = digit & ~(digit << 1);
    const std::uint64_t ends = digit & ~(digit >> 1);
    const int n = static_cast<int>(_mm_popcnt_u64(starts));
    if (n > kMaxIntegers)
        return false;

    // Each number's last digit and digits minus one.
    __m512i last;
    __m512i span;
    detail::numberSpans(starts, ends, last, span);
    const __m128i span16 = _mm512_castsi512_si128(span);
    if (_mm_cmpgt_epu8_mask(span16, _mm_set1_epi8(15)) != 0)
        return integersBytewise<true>(p, end, out, count);
    const bool beyondEight = _mm_cmpgt_epu8_mask(span16, _mm_set1_epi8(7)) != 0;

    // Eight numbers a round; a number of 9 to 16 digits has its leading digits gathered the same
    // way from 8 bytes further left.
    for (int round = 0; round * 8 < n; ++round) {
        __m512i value = detail::eightNumbers(text, last, span, round, 0);
        if (beyondEight) {
            const __m512i high = detail::eightNumbers(text, last, span, round, 8);
            value = _mm512_add_epi64(value, _mm512_mul_epu32(high, _mm512_set1_epi64(100000000)));
        }
        _mm512_storeu_si512(out + 8 * round, value);
    }
    p += length;
    count = n;
    return true;
}

// The `value[+repeat]` tokens of a summary line (.sum, .sumd), 64 bytes at a time, from
// text[at] (the start of a token) while 64 bytes remain: calls emit(value, repeat) for every
// token of each block up to its last blank and returns where it stopped, at the start of a
// token, for the byte loop to go on. It stops, emitting nothing of that block, at anything
// the byte loop must judge: a character other than digits, '+', blanks; a '+' not between
// digits or a second '+' in a token; a number of more than 8 digits; a repeat of 0; no blank in
// the block. `full` is set when emit returns false (the consumer has all it can hold).
template <typename Emit>
PARALLAX_WIDE_SCAN_TARGET std::size_t runsWide(
    const char* text, std::size_t at, std::size_t size, Emit& emit, bool& full)
{
    std::uint64_t values[32];
    while (size - at >= 64) {
        const __m512i block = _mm512_loadu_si512(text + at);
        const std::uint64_t blank = _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8(' '))
            | _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8('\t'));
        const std::uint64_t plusAll = _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8('+'));
        const std::uint64_t digitAll = _mm512_cmplt_epu8_mask(
            _mm512_sub_epi8(block, _mm512_set1_epi8('0')), _mm512_set1_epi8(10));
        if ((blank | plusAll | digitAll) != ~std::uint64_t { 0 } || blank == 0)
            break;
        // Up to and with the block's last blank: a token cut by the block's end waits for the
        // next block.
        const auto length = 64 - static_cast<unsigned>(__builtin_clzll(blank));
        const std::uint64_t kept = _bzhi_u64(~std::uint64_t { 0 }, length);
        const std::uint64_t digit = digitAll & kept;
        const std::uint64_t plus = plusAll & kept;
        // Every '+' between two digits.
        if ((plus & ~(digit << 1)) != 0 || (plus & ~(digit >> 1)) != 0)
            break;
        const std::uint64_t starts = digit & ~(digit << 1);
        const std::uint64_t ends = digit & ~(digit >> 1);
        // Bit k: number k is a repeat count (after a '+'); number k is followed by a '+'.
        const std::uint64_t isRepeat = _pext_u64(starts & (plus << 1), starts);
        const std::uint64_t beforePlus = _pext_u64(ends & (plus >> 1), ends);
        if ((isRepeat & beforePlus) != 0) // value+repeat+more
            break;
        const auto n = static_cast<unsigned>(_mm_popcnt_u64(starts));
        __m512i last;
        __m512i span;
        detail::numberSpans(starts, ends, last, span);
        if (_mm512_mask_cmpgt_epu8_mask(
                _bzhi_u64(~std::uint64_t { 0 }, n), span, _mm512_set1_epi8(7))
            != 0)
            break;
        std::uint64_t zero = 0;
        for (unsigned round = 0; round * 8 < n; ++round) {
            const __m512i value
                = detail::eightNumbers(block, last, span, static_cast<int>(round), 0);
            zero |= std::uint64_t { _mm512_cmpeq_epi64_mask(value, _mm512_setzero_si512()) }
                << (8 * round);
            _mm512_storeu_si512(values + 8 * round, value);
        }
        if ((zero & isRepeat) != 0)
            break;
        for (unsigned k = 0; k < n; ++k) {
            if (((isRepeat >> k) & 1) != 0)
                continue;
            const auto repeat = ((beforePlus >> k) & 1) != 0 ? values[k + 1] : 1;
            if (!emit(static_cast<std::int64_t>(values[k]), static_cast<std::int64_t>(repeat))) {
                full = true;
                return at;
            }
        }
        at += length;
    }
    return at;
}

#endif

} // namespace parallax::io::scan
