#pragma once

#include <cstddef>
#include <memory>
#include <mutex>

namespace parallax::core {

// Memory for the finished columns of a whole run's PEs: slices, one after another, of large
// blocks of fresh memory (one mapping per 32 MiB instead of an allocation per column). A column
// keeps its block alive, so a block is freed with the last column in it: meant for a load whose
// PEs live and die together, not for a PE read alone. Shared by the loading threads.
class StoreArena {
public:
    StoreArena() = default;
    StoreArena(const StoreArena&) = delete;
    StoreArena& operator=(const StoreArena&) = delete;

    struct Slice {
        void* data = nullptr; // null when no block could be had: allocate as usual
        std::shared_ptr<const void> keep;
    };
    Slice take(std::size_t bytes);

private:
    std::mutex m_mutex;
    std::shared_ptr<const void> m_block;
    char* m_base = nullptr;
    std::size_t m_size = 0;
    std::size_t m_used = 0;
};

} // namespace parallax::core
