#include "peak_memory.h"

#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parallax::bench {

namespace {

// A "Key:   123 kB" line of /proc/self/status, in bytes; 0 when absent.
std::uint64_t statusKb(const char* key)
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (f == nullptr)
        return 0;
    char line[256];
    std::uint64_t kb = 0;
    const auto keyLength = std::strlen(key);
    while (std::fgets(line, sizeof line, f) != nullptr) {
        if (std::strncmp(line, key, keyLength) == 0 && line[keyLength] == ':') {
            unsigned long long value = 0;
            if (std::sscanf(line + keyLength + 1, "%llu", &value) == 1)
                kb = value;
            break;
        }
    }
    std::fclose(f);
    return kb * 1024;
}

} // namespace

void PeakMemory::trimHeap()
{
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

void PeakMemory::startPhase()
{
    // Give freed heap back first, so a phase is not charged for what an earlier one left.
    trimHeap();
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    m_perPhase = f != nullptr && std::fputs("5", f) >= 0;
    if (f != nullptr && std::fclose(f) != 0)
        m_perPhase = false;
}

std::uint64_t PeakMemory::peakBytes() const
{
    if (m_perPhase) {
        const auto hwm = statusKb("VmHWM");
        if (hwm > 0)
            return hwm;
    }
    rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024; // Linux reports kilobytes
}

std::uint64_t PeakMemory::currentBytes()
{
    return statusKb("VmRSS");
}

} // namespace parallax::bench
