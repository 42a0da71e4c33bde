#pragma once

// The worker pool of the readers (logs, summaries, index cache sections): `threads` workers
// take the next index from a shared counter. No Qt here.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace parallax::io {

// Worker threads for a load that asked for `requested` (0 = one per hardware thread), 1 to 64.
inline unsigned loadThreads(unsigned requested)
{
    return std::clamp<unsigned>(
        requested != 0 ? requested : std::thread::hardware_concurrency(), 1, 64);
}

// Runs job(0..count-1) on `threads` workers (on the calling thread when one suffices). The
// first exception a job throws stops the workers and is rethrown here.
template <typename Job> void runParallel(unsigned threads, std::size_t count, const Job& job)
{
    std::atomic<std::size_t> next { 0 };
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto worker = [&]() {
        for (std::size_t k = next.fetch_add(1); k < count; k = next.fetch_add(1)) {
            try {
                job(k);
            } catch (...) {
                std::lock_guard lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                next = count;
            }
        }
    };
    threads
        = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
    if (threads <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back(worker);
        for (auto& t : pool)
            t.join();
    }
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace parallax::io
