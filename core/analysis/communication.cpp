#include "communication.h"

#include "core/trace.h"

#include <mutex>
#include <tuple>

namespace parallax::core::analysis {

std::string_view commMetricName(CommMetric metric)
{
    static constexpr std::string_view kNames[kCommMetrics] = {
        "msgs_sent",
        "bytes_sent",
        "msgs_recv",
        "bytes_recv",
        "ext_msgs_recv",
        "ext_bytes_recv",
        "ext_node_msgs_recv",
        "ext_node_bytes_recv",
    };
    return kNames[static_cast<std::size_t>(metric)];
}

ReceiveFilter::ReceiveFilter(const ExecutionColumns& executions, Mode mode)
    : m_executions(executions)
    , m_java(mode == Mode::JavaCompat)
{ }

bool ReceiveFilter::isReceive(std::size_t j)
{
    if (m_java)
        return true;
    const auto& ex = m_executions;
    bool receive = true;
    // Walk the executions skipped since the last call, so that the stack is as after j - 1.
    for (; m_next <= j && m_next < ex.size(); ++m_next) {
        const auto k = m_next;
        const auto key = std::make_tuple(ex.entry[k], ex.sourcePe[k], ex.eventId[k]);
        receive = true;
        if (!m_suspended.empty() && m_suspended.back() == key) {
            m_suspended.pop_back();
            receive = false;
        }
        if ((ex.flags[k] & kClosedByNextBegin) != 0)
            m_suspended.push_back(key);
    }
    return j < ex.size() && receive && ex.msgBytes[j] > 0;
}

std::optional<CommunicationOverTime> computeCommunication(const Trace& trace,
    const AnalysisRequest& request, const CommOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    CommunicationOverTime c;
    c.columns = r.columns;
    c.apart = r.apart;
    const bool java = r.mode == Mode::JavaCompat;
    if (java) {
        TimeUs size = options.intervalSize;
        if (size <= 0 && options.bins > 0)
            size = std::max<TimeUs>(r.range.length() / options.bins, 1);
        c.grid = javaGrid(r.range, size);
    } else {
        c.grid = gridForRange(r.range, options.intervalSize, options.bins);
    }
    const auto width = static_cast<std::size_t>(r.columns.count());
    const auto cells = static_cast<std::size_t>(c.grid.count) * width;
    for (auto& v : c.values)
        v.assign(cells, 0.0);
    if (!trace.hasLogs())
        return c;
    const auto& meta = trace.metadata;
    std::mutex merge;
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        // Comm threads apart (correct mode): their sends and receives relay messages that the
        // workers' records already count once.
        if (!r.isAggregated(k))
            return;
        const PeId self = r.pes[k];
        const auto& pe = trace.pes[static_cast<std::size_t>(self)];
        std::array<std::vector<double>, kCommMetrics> local;
        for (auto& v : local)
            v.assign(cells, 0.0);
        auto add = [&](CommMetric m, TimeUs t, int entry, double value) {
            if (t < c.grid.origin || t >= c.grid.limit() || entry >= r.columns.entryCount)
                return;
            const auto i = static_cast<std::size_t>((t - c.grid.origin) / c.grid.size);
            local[static_cast<std::size_t>(m)][i * width + static_cast<std::size_t>(entry)]
                += value;
        };
        const auto& s = pe.sends;
        for (std::size_t j = 0; j < s.size(); ++j) {
            const double n = s.kind[j] == SendKind::PointToPoint
                ? 1.0
                : static_cast<double>(std::max(s.destinationCount[j], 0));
            add(CommMetric::MsgsSent, s.time[j], s.entry[j], n);
            add(CommMetric::BytesSent, s.time[j], s.entry[j],
                n * static_cast<double>(std::max(s.msgBytes[j], 0)));
        }
        const auto& ex = pe.executions;
        ReceiveFilter receives(ex, r.mode);
        for (std::size_t j = 0; j < ex.size(); ++j) {
            if (!receives.isReceive(j))
                continue;
            const double bytes = static_cast<double>(std::max(ex.msgBytes[j], 0));
            const int entry = ex.entry[j];
            const TimeUs t = ex.begin[j];
            add(CommMetric::MsgsRecv, t, entry, 1.0);
            add(CommMetric::BytesRecv, t, entry, bytes);
            const PeId source = ex.sourcePe[j];
            if (source != self) {
                add(CommMetric::ExtMsgsRecv, t, entry, 1.0);
                add(CommMetric::ExtBytesRecv, t, entry, bytes);
            }
            // A message a comm thread handed over came from another node (correct mode).
            const bool relayed = !java && meta.isCommThread(source);
            if (relayed || meta.nodeOf(source) != meta.nodeOf(self)) {
                add(CommMetric::ExtNodeMsgsRecv, t, entry, 1.0);
                add(CommMetric::ExtNodeBytesRecv, t, entry, bytes);
            }
        }
        std::lock_guard lock(merge);
        for (std::size_t m = 0; m < kCommMetrics; ++m)
            for (std::size_t i = 0; i < cells; ++i)
                c.values[m][i] += local[m][i];
    });
    if (!ok)
        return std::nullopt;
    const double scale = java ? static_cast<double>(c.grid.size) / 1000.0 : 1.0;
    for (auto& v : c.values)
        for (std::size_t i = 0; i < cells; ++i) {
            const auto e = i % width;
            if (e < r.entrySelected.size() && !r.entrySelected[e])
                v[i] = 0;
            else
                v[i] /= scale;
        }
    return c;
}

} // namespace parallax::core::analysis
