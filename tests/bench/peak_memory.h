#pragma once

#include <cstdint>

namespace parallax::bench {

// Peak resident memory of this process, measured per phase where Linux allows it: writing "5"
// to /proc/self/clear_refs resets the high-water mark (VmHWM) to the current RSS, so the peak
// read after a phase belongs to that phase (freed heap is trimmed first, glibc). Where the reset is
// not possible the figure is the process's peak so far (getrusage ru_maxrss) and perPhase() says
// so.
class PeakMemory {
public:
    // Starts a phase: resets the high-water mark when possible.
    void startPhase();
    // Peak RSS in bytes since startPhase() (or since the process started, see perPhase()).
    [[nodiscard]] std::uint64_t peakBytes() const;
    // Gives freed heap back to the system (glibc), so that the RSS read next is what is in use.
    static void trimHeap();
    // Current RSS in bytes (0 when unknown).
    [[nodiscard]] static std::uint64_t currentBytes();
    [[nodiscard]] bool perPhase() const { return m_perPhase; }

private:
    bool m_perPhase = false;
};

} // namespace parallax::bench
