#pragma once

// For the tests that compare the loader's portable and AVX-512 scans: a seeded source of random
// lines, and the switch between the two scans.

#include "io/integer_scan_avx512.h"

#include <catch2/catch.hpp>

#include <cstdint>

namespace parallax::test {

// A seeded xorshift sequence: the same numbers, so the same random lines, every run.
class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed)
        : m_state(seed)
    { }

    // A number in [0, bound).
    std::uint64_t below(std::uint64_t bound)
    {
        m_state ^= m_state << 13;
        m_state ^= m_state >> 7;
        m_state ^= m_state << 17;
        return m_state % bound;
    }

private:
    std::uint64_t m_state;
};

// Switches the loader between its scans (io::scan::allowWideScan) for one test, and back to the
// AVX-512 one at the end whatever happens. Where the processor lacks that scan both settings run
// the portable one, and the test's output says so.
class WideScanSwitch {
public:
    WideScanSwitch()
    {
        if (!available())
            WARN("this processor has no AVX-512 VBMI2: only the portable scan is exercised");
    }
    ~WideScanSwitch() { io::scan::allowWideScan(true); }
    WideScanSwitch(const WideScanSwitch&) = delete;
    WideScanSwitch& operator=(const WideScanSwitch&) = delete;

    void allowWide(bool allowed) { io::scan::allowWideScan(allowed); }
    [[nodiscard]] static bool available() { return io::scan::cpuHasWideScan(); }
};

} // namespace parallax::test
