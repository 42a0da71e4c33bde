#pragma once

#include <cstdint>

namespace parallax::gen {

// SplitMix64 finaliser: a bijective 64-bit mixing function (Steele, Lea & Flood 2014).
constexpr std::uint64_t mix64(std::uint64_t value)
{
    value += 0x9E3779B97F4A7C15ULL;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

// Seed of an independent random stream identified by (run seed, a, b, c). Every simulated
// activity (one PE's step setup of one iteration, ...) draws from its own stream, so it can
// be regenerated on its own and gives the same numbers in every pass and on every thread.
constexpr std::uint64_t streamSeed(
    std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0)
{
    return mix64(mix64(mix64(mix64(seed) ^ a) ^ b) ^ c);
}

// Deterministic pseudo-random generator (SplitMix64). Only 64-bit integer arithmetic is used,
// so the sequence is identical on every platform and compiler.
class Prng {
public:
    explicit Prng(std::uint64_t seed)
        : m_state(seed)
    { }

    std::uint64_t next()
    {
        m_state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform in [0, bound) (0 when bound is 0). The modulo bias is irrelevant here.
    std::uint64_t below(std::uint64_t bound) { return bound == 0 ? 0 : next() % bound; }

    // Uniform in [low, high] (both inclusive); low must not exceed high.
    std::int64_t between(std::int64_t low, std::int64_t high)
    {
        const auto span = static_cast<std::uint64_t>(high - low) + 1U;
        return low + static_cast<std::int64_t>(below(span));
    }

    // True with probability perMille / 1000.
    bool chance(std::uint64_t perMille) { return below(1000) < perMille; }

private:
    std::uint64_t m_state;
};

} // namespace parallax::gen
