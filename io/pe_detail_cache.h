#pragma once

#include "core/trace.h"

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace parallax::io {

// Per-PE event detail read on demand from the run's logs, for runs opened without their logs
// because the whole store would not fit the memory budget (LoadOptions::memoryBudget). Keeps
// the most recently used PEs up to a byte cap and forgets the least recently used beyond it;
// a PE in use elsewhere stays alive through its shared_ptr. Thread-safe: views load from worker
// threads. Two threads asking for the same PE may both read it; the first stored copy wins.
class PeDetailCache final : public core::PeDetailSource {
public:
    // Reads PE p from logPaths[p] with the run's metadata. Holds copies, not the run: a run
    // may own its cache (Trace::detailSource) without an ownership cycle.
    PeDetailCache(
        core::RunMetadata metadata, std::vector<std::string> logPaths, std::uint64_t capBytes);
    PeDetailCache(const core::Trace& run, std::uint64_t capBytes);

    // The PE's detail, read from its log if it is not held; null when the PE has no log. A
    // damaged log gives what could be read, with its problems in `report` when given.
    std::shared_ptr<const core::PeTrace> get(
        core::PeId pe, core::ImportReport* report = nullptr) override;
    // The PE's detail if it is held now (never reads).
    [[nodiscard]] std::shared_ptr<const core::PeTrace> peek(core::PeId pe) const;

    [[nodiscard]] std::uint64_t capBytes() const { return m_capBytes; }
    [[nodiscard]] std::uint64_t heldBytes() const;
    [[nodiscard]] std::size_t heldPes() const;
    // PEs read from their logs so far (a PE read twice counts twice).
    [[nodiscard]] std::uint64_t reads() const;

private:
    struct Held {
        std::shared_ptr<const core::PeTrace> detail;
        std::uint64_t bytes = 0;
        std::list<core::PeId>::iterator recency;
    };
    void evictOverCap(); // with m_mutex held

    core::RunMetadata m_metadata;
    std::vector<std::string> m_logPaths;
    std::uint64_t m_capBytes;
    mutable std::mutex m_mutex;
    std::unordered_map<core::PeId, Held> m_held;
    std::list<core::PeId> m_recency; // most recently used first
    std::uint64_t m_heldBytes = 0;
    std::uint64_t m_reads = 0;
};

} // namespace parallax::io
