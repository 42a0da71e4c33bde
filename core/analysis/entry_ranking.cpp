#include "entry_ranking.h"

#include "core/trace.h"

#include <algorithm>
#include <numeric>

namespace parallax::core::analysis {

EntryRanking rankEntriesByTime(const Trace& trace)
{
    const std::size_t count = trace.metadata.entryCount();
    EntryRanking r;
    r.time.assign(count, 0.0);
    bool fromLogs = false;
    if (trace.entryTimeTotals.size() == count && count > 0) {
        // Recorded by the index: the same integer sums (exact in a double below 2^53 µs), so that
        // a mapped run's PEs are not all read for the colours.
        for (std::size_t e = 0; e < count; ++e)
            r.time[e] = static_cast<double>(trace.entryTimeTotals[e]);
        fromLogs = true;
    } else {
        for (const auto& pe : trace.pes) {
            const auto& ex = pe.executions;
            for (std::size_t k = 0; k < ex.size(); ++k) {
                const auto entry = static_cast<std::size_t>(ex.entry[k]);
                if (entry < count) {
                    r.time[entry]
                        += static_cast<double>(std::max<TimeUs>(0, ex.end[k] - ex.begin[k]));
                    fromLogs = true;
                }
            }
        }
    }
    if (!fromLogs)
        for (const auto& summary : trace.summaries) {
            if (!summary)
                continue;
            const std::size_t n = std::min(count, summary->entryTime.size());
            for (std::size_t e = 0; e < n; ++e)
                r.time[e] += static_cast<double>(std::max<std::int64_t>(0, summary->entryTime[e]));
        }
    r.order.resize(count);
    std::iota(r.order.begin(), r.order.end(), EntryId { 0 });
    std::stable_sort(r.order.begin(), r.order.end(), [&](EntryId a, EntryId b) {
        return r.time[static_cast<std::size_t>(a)] > r.time[static_cast<std::size_t>(b)];
    });
    r.rank.assign(count, 0);
    for (std::size_t k = 0; k < count; ++k)
        r.rank[static_cast<std::size_t>(r.order[k])] = static_cast<int>(k);
    return r;
}

} // namespace parallax::core::analysis
