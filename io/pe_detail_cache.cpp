#include "pe_detail_cache.h"

#include "run_loader.h"
#include "store_estimate.h"

#include <filesystem>

namespace parallax::io {

PeDetailCache::PeDetailCache(
    core::RunMetadata metadata, std::vector<std::string> logPaths, std::uint64_t capBytes)
    : m_metadata(std::move(metadata))
    , m_logPaths(std::move(logPaths))
    , m_capBytes(capBytes)
{ }

PeDetailCache::PeDetailCache(const core::Trace& run, std::uint64_t capBytes)
    : PeDetailCache(run.metadata, run.files.logPaths, capBytes)
{ }

std::shared_ptr<const core::PeTrace> PeDetailCache::peek(core::PeId pe) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_held.find(pe);
    return it == m_held.end() ? nullptr : it->second.detail;
}

std::shared_ptr<const core::PeTrace> PeDetailCache::get(core::PeId pe, core::ImportReport* report)
{
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_held.find(pe); it != m_held.end()) {
            m_recency.splice(m_recency.begin(), m_recency, it->second.recency);
            return it->second.detail;
        }
    }
    const auto& paths = m_logPaths;
    if (pe < 0 || static_cast<std::size_t>(pe) >= paths.size()
        || paths[static_cast<std::size_t>(pe)].empty())
        return nullptr;

    // Read outside the lock: other PEs stay available meanwhile.
    auto detail = std::make_shared<core::PeTrace>();
    core::ImportReport local;
    // One PE may not hold more than the cap either (its log's size says little: gzip trailers
    // lie, lines differ in length): reading stops there and the PE shows its first part.
    std::uint64_t records = 0;
    bool cut = false;
    auto onChunk = [&](std::uint64_t, std::uint64_t lines) {
        records += lines;
        cut = records * kStoreBytesPerRecord > m_capBytes;
        return !cut;
    };
    const auto& path = paths[static_cast<std::size_t>(pe)];
    readPeLog(path, pe, m_metadata, *detail, local, onChunk);
    if (cut)
        local.add(core::Issue::FileError, std::filesystem::path(path).filename().string(), 0,
            "PE " + std::to_string(pe) + " holds more records than the memory budget allows for "
                + "one PE; only its first " + std::to_string(records) + " lines are shown");
    if (report != nullptr)
        report->merge(local);
    const std::uint64_t bytes = detail->memoryBytes() + sizeof(core::PeTrace);

    const std::lock_guard lock(m_mutex);
    ++m_reads;
    if (const auto it = m_held.find(pe); it != m_held.end()) { // another thread was quicker
        m_recency.splice(m_recency.begin(), m_recency, it->second.recency);
        return it->second.detail;
    }
    m_recency.push_front(pe);
    m_held[pe] = Held { detail, bytes, m_recency.begin() };
    m_heldBytes += bytes;
    evictOverCap();
    return detail;
}

void PeDetailCache::evictOverCap()
{
    // The PE just added (at the front) always stays, even when it alone exceeds the cap.
    while (m_heldBytes > m_capBytes && m_recency.size() > 1) {
        const core::PeId oldest = m_recency.back();
        m_recency.pop_back();
        const auto it = m_held.find(oldest);
        m_heldBytes -= it->second.bytes;
        m_held.erase(it);
    }
}

std::uint64_t PeDetailCache::heldBytes() const
{
    const std::lock_guard lock(m_mutex);
    return m_heldBytes;
}

std::size_t PeDetailCache::heldPes() const
{
    const std::lock_guard lock(m_mutex);
    return m_held.size();
}

std::uint64_t PeDetailCache::reads() const
{
    const std::lock_guard lock(m_mutex);
    return m_reads;
}

} // namespace parallax::io
