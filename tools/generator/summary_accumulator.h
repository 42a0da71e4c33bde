#pragma once

#include "trace_types.h"

#include <cstdint>
#include <vector>

namespace parallax::gen {

// Charm++'s summary module keeps at most this many bins (+bincount default); when they run
// out, adjacent bins are merged and the bin size doubles (docs/format.md §3.1).
inline constexpr std::int64_t kMaxSummaryBins = 60000;

// Bin size after Charm++'s doubling, for a PE whose last record is at `endTime`.
TimeUs summaryBinSize(TimeUs requestedBinSize, TimeUs endTime);
// Number of bins [i*size, (i+1)*size) needed to cover [0, endTime].
std::int64_t summaryBinCount(TimeUs binSize, TimeUs endTime);

// Collects, from one PE's log records as they are written, what its .sum and .sumd files
// hold: per bin the time inside entry methods and the idle time, and per entry method its
// totals and its time and call count per bin. Time crossing a bin boundary is split exactly
// at the boundary. Pack and unpack intervals are charged to dummy_pack_ep/dummy_unpack_ep
// (per-EP data only, not bin utilisation), as the summary module does.
class SummaryAccumulator {
public:
    struct EntryTotals {
        std::int64_t time = 0; // µs
        std::int64_t calls = 0;
        std::int64_t maxTime = 0; // µs of the longest execution
    };

    // One non-empty (entry method, bin) cell of the .sumd matrix.
    struct BinCell {
        std::int64_t bin = 0;
        std::int64_t time = 0;
        std::int64_t calls = 0;
    };

    // Forgets everything and starts a PE (buffers keep their capacity).
    void reset(int entryCount, TimeUs binSize, std::int64_t binCount);
    void add(const TraceRecord& record);

    TimeUs binSize() const { return m_binSize; }
    std::int64_t binCount() const { return m_binCount; }
    int entryCount() const { return m_entryCount; }
    const std::vector<std::int64_t>& busyTime() const { return m_busyTime; }
    const std::vector<std::int64_t>& idleTime() const { return m_idleTime; }
    const EntryTotals& totals(EntryId entry) const
    {
        return m_totals[static_cast<std::size_t>(entry)];
    }
    // Cells of one entry method in increasing bin order.
    const std::vector<BinCell>& cells(EntryId entry) const
    {
        return m_cells[static_cast<std::size_t>(entry)];
    }

private:
    std::int64_t binOf(TimeUs time) const;
    void addExecution(EntryId entry, TimeUs begin, TimeUs end, bool busy);
    void addTime(std::vector<std::int64_t>& bins, TimeUs begin, TimeUs end);
    BinCell& cellFor(EntryId entry, std::int64_t bin);

    int m_entryCount = 0;
    TimeUs m_binSize = 1000;
    std::int64_t m_binCount = 0;
    std::vector<std::int64_t> m_busyTime;
    std::vector<std::int64_t> m_idleTime;
    std::vector<EntryTotals> m_totals;
    std::vector<std::vector<BinCell>> m_cells;

    bool m_inEntry = false;
    EntryId m_openEntry = 0;
    TimeUs m_entryBegin = 0;
    TimeUs m_idleBegin = -1;
    TimeUs m_packBegin = -1;
    TimeUs m_unpackBegin = -1;
};

} // namespace parallax::gen
