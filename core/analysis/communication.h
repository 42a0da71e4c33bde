#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace parallax::core::analysis {

// The eight metrics of Communication over Time (docs/format.md §4.5).
enum class CommMetric : std::uint8_t {
    MsgsSent,
    BytesSent,
    MsgsRecv,
    BytesRecv,
    ExtMsgsRecv, // received from another PE
    ExtBytesRecv,
    ExtNodeMsgsRecv, // received from a PE on another SMP node
    ExtNodeBytesRecv,
};
inline constexpr int kCommMetrics = 8;
// "msgs_sent", "bytes_sent", ... (the CLI's and golden-java's names).
std::string_view commMetricName(CommMetric metric);

struct CommunicationOverTime {
    IntervalGrid grid;
    ActivityColumns columns;
    // Per metric, [interval * columns.count() + entry column]. Sends are attributed to the
    // destination entry method, receives to the executed one.
    // Correct mode: totals per interval (messages, bytes). Java compat: divided by
    // (interval size / 1000) as Java does, i.e. per millisecond although Java labels it "/s".
    std::array<std::vector<double>, kCommMetrics> values;
    std::vector<PeId> apart; // selected PEs not counted (comm threads, by default)

    [[nodiscard]] double at(CommMetric m, std::int64_t interval, int column) const
    {
        return values[static_cast<std::size_t>(m)]
                     [static_cast<std::size_t>(interval) * static_cast<std::size_t>(columns.count())
                         + static_cast<std::size_t>(column)];
    }
};

struct CommOptions {
    TimeUs intervalSize = 0;
    std::int64_t bins = 0; // default 1000 (Java: length/1000)
};

// Correct mode: a broadcast or multicast counts once per destination (as Java), and a receive is
// an execution that delivered a message: thread resumptions, SDAG serial blocks and the repeated
// BEGINs the tracer writes around nested executions are not receives (Java counts them all).
// Comm threads are left out unless the request includes them: what they send and receive are
// relays of messages the workers' records count once; a message a worker received through a
// comm thread counts as coming from another node.
std::optional<CommunicationOverTime> computeCommunication(const Trace& trace,
    const AnalysisRequest& request, const CommOptions& options = {}, const Progress& progress = {});

} // namespace parallax::core::analysis
