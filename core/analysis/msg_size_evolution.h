#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Message Size Evolution: how many messages of each size were sent (or received) in each time
// interval — a histogram of message sizes per interval, drawn as a time × size heat map.

enum class MessageEvent : std::uint8_t {
    Send, // CREATION records at their time, a broadcast or multicast once per destination,
          // under the destination entry method
    Receive, // executions that received a message (ReceiveFilter) at their begin, under the
             // executed entry method
};

struct MsgSizeOptions {
    TimeUs intervalSize = 0;
    std::int64_t intervals = 0; // 0 and no size: 100 intervals over the range
    MessageEvent event = MessageEvent::Send;
    // Sizes in powers of two (bin k holds [2^k, 2^(k+1)) bytes; messages of 0 bytes in a bin of
    // their own), trimmed to the sizes that occur; or `sizeBins` bins of `binSize` bytes from
    // `minimum`, the last one open-ended for everything larger (smaller sizes are dropped).
    bool logScale = true;
    double binSize = 0; // linear: 0 = 100 bytes
    std::int64_t sizeBins = 0; // linear: 0 = 50
    double minimum = 0; // linear
};

struct MsgSizeEvolution {
    IntervalGrid grid;
    MessageEvent event = MessageEvent::Send;
    bool logScale = true;
    // Size bin b holds [edges[b], edges[b + 1]) bytes; the last edge may be +infinity.
    std::vector<double> edges;
    std::vector<double> counts; // [interval * sizeBins() + bin]
    std::vector<double> bytes; // the same cells, bytes instead of messages
    ActivityColumns columns;
    // Per entry method: messages counted for it in the range over all the size bins, whether or
    // not the request selects it (to offer the entry methods that have messages).
    std::vector<double> entryCounts;
    std::vector<PeId> apart; // selected comm threads not counted (their sends are relays)

    [[nodiscard]] std::size_t sizeBins() const { return edges.empty() ? 0 : edges.size() - 1; }
    [[nodiscard]] double count(std::int64_t interval, std::size_t bin) const
    {
        return counts[static_cast<std::size_t>(interval) * sizeBins() + bin];
    }
    [[nodiscard]] double total() const;
};

// Correct mode: comm threads' sends and receives are relays and are left out unless the request
// includes them; a message is counted in the interval of its send (its receive's begin) within
// [begin, end). Java compat: every BEGIN_PROCESSING from another PE in [begin, end] (as the
// reference's Message Size Evolution counts them), whatever `event` says.
std::optional<MsgSizeEvolution> computeMsgSizeEvolution(const Trace& trace,
    const AnalysisRequest& request, const MsgSizeOptions& options = {},
    const Progress& progress = {});

// interval,begin_us,end_us,size_lo,size_hi,messages,bytes: one row per non-empty cell (size_hi
// "inf" for the open-ended bin).
std::string msgSizeEvolutionCsv(const MsgSizeEvolution* evolution);

} // namespace parallax::core::analysis
