#include "allocation_tracker.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> g_largest { 0 };

void note(std::size_t size)
{
    auto seen = g_largest.load(std::memory_order_relaxed);
    while (size > seen && !g_largest.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
    }
}
} // namespace

namespace parallax::test {
void resetLargestAllocation()
{
    g_largest.store(0);
}
std::size_t largestAllocation()
{
    return g_largest.load();
}
} // namespace parallax::test

// Replacements of the (non-aligned) global allocation functions. The array and nothrow forms
// of libstdc++ forward to these.
void* operator new(std::size_t size)
{
    note(size);
    if (void* p = std::malloc(size == 0 ? 1 : size))
        return p;
    throw std::bad_alloc();
}

void operator delete(void* p) noexcept
{
    std::free(p);
}

void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}
