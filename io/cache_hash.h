#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parallax::io {

// A fast streaming 64-bit checksum for the index cache: four independent multiply-rotate lanes
// over 32-byte stripes (so the loop runs at memory speed), folded and avalanched at the end.
// Detects accidental damage (torn writes, flipped bits, truncation); not a cryptographic hash.
// The result depends only on the bytes, not on how they were split into update() calls.
class CacheHash {
public:
    CacheHash() { reset(); }

    void reset()
    {
        m_lane[0] = kSeed + kPrime1 + kPrime2;
        m_lane[1] = kSeed + kPrime2;
        m_lane[2] = kSeed;
        m_lane[3] = kSeed - kPrime1;
        m_pending = 0;
        m_total = 0;
    }

    void update(const void* data, std::size_t size)
    {
        if (size == 0)
            return; // an empty vector's data() may be null
        const auto* p = static_cast<const unsigned char*>(data);
        m_total += size;
        if (m_pending > 0) {
            const std::size_t take = size < kStripe - m_pending ? size : kStripe - m_pending;
            std::memcpy(m_buffer + m_pending, p, take);
            m_pending += take;
            p += take;
            size -= take;
            if (m_pending < kStripe)
                return;
            stripe(m_buffer);
            m_pending = 0;
        }
        while (size >= kStripe) {
            stripe(p);
            p += kStripe;
            size -= kStripe;
        }
        if (size > 0) {
            std::memcpy(m_buffer, p, size);
            m_pending = size;
        }
    }

    [[nodiscard]] std::uint64_t digest() const
    {
        std::uint64_t h
            = rotl(m_lane[0], 1) + rotl(m_lane[1], 7) + rotl(m_lane[2], 12) + rotl(m_lane[3], 18);
        for (const auto lane : m_lane)
            h = (h ^ round(0, lane)) * kPrime1 + kPrime4;
        h += m_total;
        std::size_t i = 0;
        for (; i + 8 <= m_pending; i += 8)
            h = rotl(h ^ round(0, load(m_buffer + i)), 27) * kPrime1 + kPrime4;
        for (; i < m_pending; ++i)
            h = rotl(h ^ (m_buffer[i] * kPrime5), 11) * kPrime1;
        h ^= h >> 33;
        h *= kPrime2;
        h ^= h >> 29;
        h *= kPrime3;
        h ^= h >> 32;
        return h;
    }

    static std::uint64_t of(const void* data, std::size_t size)
    {
        CacheHash h;
        h.update(data, size);
        return h.digest();
    }

private:
    static constexpr std::size_t kStripe = 32;
    static constexpr std::uint64_t kSeed = 0x5061726C6C617821ULL;
    static constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
    static constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
    static constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
    static constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
    static constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

    static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
    static std::uint64_t load(const unsigned char* p)
    {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    }
    static std::uint64_t round(std::uint64_t acc, std::uint64_t v)
    {
        return rotl(acc + v * kPrime2, 31) * kPrime1;
    }
    void stripe(const unsigned char* p)
    {
        m_lane[0] = round(m_lane[0], load(p));
        m_lane[1] = round(m_lane[1], load(p + 8));
        m_lane[2] = round(m_lane[2], load(p + 16));
        m_lane[3] = round(m_lane[3], load(p + 24));
    }

    std::uint64_t m_lane[4];
    unsigned char m_buffer[kStripe];
    std::size_t m_pending;
    std::uint64_t m_total;
};

} // namespace parallax::io
