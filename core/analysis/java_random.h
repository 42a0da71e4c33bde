#pragma once

#include <cstdint>

namespace parallax::core::analysis {

// java.util.Random's linear congruential generator, so that Java-compatible clustering picks
// the same initial centroids as the reference tool (seed 11337, docs/format.md §4.6).
class JavaRandom {
public:
    explicit JavaRandom(std::int64_t seed)
        : m_seed((static_cast<std::uint64_t>(seed) ^ kMultiplier) & kMask)
    { }

    std::int32_t nextInt(std::int32_t bound)
    {
        if (bound <= 0)
            return 0;
        if ((bound & -bound) == bound) // a power of two
            return static_cast<std::int32_t>((static_cast<std::int64_t>(bound) * next(31)) >> 31);
        std::int32_t bits = 0;
        std::int32_t value = 0;
        do {
            bits = next(31);
            value = bits % bound;
        } while (static_cast<std::int64_t>(bits) - value + (bound - 1) > INT32_MAX);
        return value;
    }

private:
    static constexpr std::uint64_t kMultiplier = 0x5DEECE66DULL;
    static constexpr std::uint64_t kMask = (std::uint64_t { 1 } << 48) - 1;

    std::int32_t next(int bits)
    {
        m_seed = (m_seed * kMultiplier + 0xBULL) & kMask;
        return static_cast<std::int32_t>(m_seed >> (48 - bits));
    }

    std::uint64_t m_seed;
};

} // namespace parallax::core::analysis
