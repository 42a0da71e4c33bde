#pragma once

#include "analysis_request.h"
#include "interval_grid.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

namespace parallax::core {
struct ExecutionColumns;
}

namespace parallax::core::analysis {

// Which executions of one PE delivered a message (a receive), shared by every analysis that
// counts received messages. Correct mode: an execution with a message (len > 0) that is not the
// re-opened piece of an outer execution (the tracer repeats the outer BEGIN, with the same entry,
// source PE and event, after a nested execution); thread resumptions and SDAG serial blocks carry
// no message. Java compat: every BEGIN_PROCESSING is a receive, as Java counts them.
// Ask for the executions in order, from index 0: the re-opened pieces are told apart by what came
// before them.
class ReceiveFilter {
public:
    explicit ReceiveFilter(const ExecutionColumns& executions, Mode mode);
    // Whether execution `j` is a receive; `j` must be larger than the previous call's.
    [[nodiscard]] bool isReceive(std::size_t j);

private:
    const ExecutionColumns& m_executions;
    bool m_java;
    std::size_t m_next = 0; // executions before it are on the stack below
    std::vector<std::tuple<std::uint16_t, PeId, std::int32_t>> m_suspended;
};

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
