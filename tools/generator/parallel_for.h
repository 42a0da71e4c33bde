#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace parallax::gen {

// Calls body(index, scratch) for every index in [0, count), spread over one thread per
// scratch object (the calling thread included); each thread uses its own scratch. Indices
// are handed out in chunks from a shared counter. An exception thrown by a body stops the
// remaining work and is rethrown here.
template <typename Scratch, typename Body>
void parallelFor(
    std::int64_t count, std::vector<Scratch>& scratches, std::int64_t chunk, Body&& body)
{
    std::atomic<std::int64_t> next { 0 };
    std::atomic<bool> stop { false };
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto work = [&](Scratch& scratch) {
        try {
            while (!stop.load(std::memory_order_relaxed)) {
                const std::int64_t first = next.fetch_add(chunk);
                if (first >= count) {
                    return;
                }
                const std::int64_t last = std::min(count, first + chunk);
                for (std::int64_t index = first; index < last; ++index) {
                    body(index, scratch);
                }
            }
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure) {
                failure = std::current_exception();
            }
            stop = true;
        }
    };
    const auto threadCount = std::min<std::size_t>(scratches.size(),
        static_cast<std::size_t>(std::max<std::int64_t>(1, (count + chunk - 1) / chunk)));
    {
        std::vector<std::jthread> helpers;
        for (std::size_t thread = 1; thread < threadCount; ++thread) {
            helpers.emplace_back(work, std::ref(scratches[thread]));
        }
        work(scratches[0]);
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

} // namespace parallax::gen
