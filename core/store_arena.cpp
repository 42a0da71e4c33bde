#include "store_arena.h"

#include <algorithm>
#include <cstdint>
#include <sys/mman.h>

namespace parallax::core {

namespace {

constexpr std::size_t kArenaHugePage = std::size_t { 2 } << 20;
constexpr std::size_t kArenaBlockBytes = std::size_t { 32 } << 20;

} // namespace

StoreArena::Slice StoreArena::take(std::size_t bytes)
{
    bytes = (bytes + 63) & ~std::size_t { 63 }; // slices on their own cache lines
    std::lock_guard lock(m_mutex);
    if (!m_block || m_size - m_used < bytes) {
        // A fresh block, aligned to 2 MiB. It is not advised MADV_HUGEPAGE: under the common
        // THP setting (defrag "madvise") that makes the first touch of each 2 MiB compact
        // memory on the spot, and right after a load has filled the page cache with its logs
        // that cost a fresh process 15-30 % more CPU than 4 KiB pages (docs/performance.md).
        const std::size_t size = std::max(
            kArenaBlockBytes, (bytes + kArenaHugePage - 1) / kArenaHugePage * kArenaHugePage);
        void* p = ::mmap(nullptr, size + kArenaHugePage, PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return {};
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        const auto aligned = (at + kArenaHugePage - 1) & ~(kArenaHugePage - 1);
        if (aligned > at)
            ::munmap(p, aligned - at);
        if (at + kArenaHugePage > aligned)
            ::munmap(reinterpret_cast<void*>(aligned + size), at + kArenaHugePage - aligned);
        auto* base = reinterpret_cast<char*>(aligned);
        m_block = std::shared_ptr<const void>(
            base, [size](const void* q) { ::munmap(const_cast<void*>(q), size); });
        m_base = base;
        m_size = size;
        m_used = 0;
    }
    Slice slice { m_base + m_used, m_block };
    m_used += bytes;
    return slice;
}

} // namespace parallax::core
