#include "msg_size_evolution.h"

#include "communication.h"
#include "core/trace.h"
#include "csv_export.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <mutex>
#include <unordered_map>

namespace parallax::core::analysis {

namespace {

// Raw log bins before trimming: 0 for empty messages, k >= 1 for [2^(k-1), 2^k) bytes.
constexpr std::size_t kRawLogBins = 65;

struct Cell {
    double messages = 0;
    double bytes = 0;
};

struct Binning {
    bool log = true;
    double size = 100;
    std::int64_t bins = 50;
    double minimum = 0;

    [[nodiscard]] std::size_t count() const
    {
        return log ? kRawLogBins : static_cast<std::size_t>(bins) + 1;
    }
    // The raw bin of a size, or nullopt when below the linear minimum.
    [[nodiscard]] std::optional<std::size_t> bin(std::int64_t bytes) const
    {
        if (log)
            return static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(bytes)));
        const double adjusted = static_cast<double>(bytes) - minimum;
        if (adjusted < 0)
            return std::nullopt;
        return static_cast<std::size_t>(
            std::min(std::floor(adjusted / size), static_cast<double>(bins)));
    }
};

} // namespace

double MsgSizeEvolution::total() const
{
    double sum = 0;
    for (const double c : counts)
        sum += c;
    return sum;
}

std::optional<MsgSizeEvolution> computeMsgSizeEvolution(const Trace& trace,
    const AnalysisRequest& request, const MsgSizeOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    const bool java = r.mode == Mode::JavaCompat;
    MsgSizeEvolution e;
    e.columns = r.columns;
    e.apart = r.apart;
    e.event = java ? MessageEvent::Receive : options.event;
    e.logScale = options.logScale;
    e.grid = gridForRange(r.range, options.intervalSize,
        options.intervalSize > 0 ? 0 : (options.intervals > 0 ? options.intervals : 100));
    e.entryCounts.assign(static_cast<std::size_t>(r.columns.entryCount), 0.0);
    Binning binning;
    binning.log = options.logScale;
    binning.size = options.binSize > 0 ? options.binSize : 100.0;
    binning.bins = options.sizeBins > 0 ? options.sizeBins : 50;
    binning.minimum = options.minimum;
    const auto rawBins = binning.count();
    std::unordered_map<std::size_t, Cell> cells; // raw cell: interval * rawBins + bin
    if (trace.hasLogs()) {
        std::mutex merge;
        const auto intervals = e.grid.count;
        // Java reads [begin, end], the correct mode [begin, end).
        const TimeUs last = java ? r.range.end : r.range.end - 1;
        const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
            if (!r.isAggregated(k))
                return;
            const PeId self = r.pes[k];
            const auto& pe = trace.pes[static_cast<std::size_t>(self)];
            std::unordered_map<std::size_t, Cell> local;
            std::vector<double> entries(e.entryCounts.size(), 0.0);
            auto add = [&](TimeUs t, int entry, std::int32_t size, double n) {
                if (t < r.range.begin || t > last || entry < 0
                    || static_cast<std::size_t>(entry) >= entries.size())
                    return;
                const auto interval = (t - e.grid.origin) / e.grid.size;
                if (interval < 0 || interval >= intervals)
                    return;
                const auto bytes = std::max<std::int64_t>(size, 0);
                const auto bin = binning.bin(bytes);
                if (!bin)
                    return;
                entries[static_cast<std::size_t>(entry)] += n;
                if (!r.entrySelected[static_cast<std::size_t>(entry)])
                    return;
                auto& cell = local[static_cast<std::size_t>(interval) * rawBins + *bin];
                cell.messages += n;
                cell.bytes += n * static_cast<double>(bytes);
            };
            if (e.event == MessageEvent::Send) {
                const auto& s = pe.sends;
                const auto range = pe.sendsIn(r.range.begin, r.range.end);
                for (auto j = range.first; j < range.last; ++j)
                    add(s.time[j], s.entry[j], s.msgBytes[j],
                        s.kind[j] == SendKind::PointToPoint
                            ? 1.0
                            : static_cast<double>(std::max(s.destinationCount[j], 0)));
            } else {
                const auto& ex = pe.executions;
                const auto first = static_cast<std::size_t>(
                    std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin)
                    - ex.begin.begin());
                ReceiveFilter receives(ex, r.mode);
                for (auto j = first; j < ex.size() && ex.begin[j] <= last; ++j)
                    if (receives.isReceive(j) && !(java && ex.sourcePe[j] == self))
                        add(ex.begin[j], ex.entry[j], ex.msgBytes[j], 1.0);
            }
            std::lock_guard lock(merge);
            for (const auto& [index, cell] : local) {
                auto& total = cells[index];
                total.messages += cell.messages;
                total.bytes += cell.bytes;
            }
            for (std::size_t id = 0; id < entries.size(); ++id)
                e.entryCounts[id] += entries[id];
        });
        if (!ok)
            return std::nullopt;
    }
    // The size bins: linear as asked; powers of two trimmed to the sizes that occur.
    std::size_t firstRaw = 0;
    std::size_t lastRaw = rawBins - 1;
    if (binning.log) {
        firstRaw = rawBins;
        lastRaw = 0;
        for (const auto& [index, cell] : cells) {
            firstRaw = std::min(firstRaw, index % rawBins);
            lastRaw = std::max(lastRaw, index % rawBins);
        }
        if (firstRaw > lastRaw)
            firstRaw = lastRaw = 1; // nothing counted: one bin, 1 byte
        for (auto b = firstRaw; b <= lastRaw + 1; ++b)
            e.edges.push_back(b == 0 ? 0.0 : std::ldexp(1.0, static_cast<int>(b) - 1));
    } else {
        for (std::int64_t b = 0; b <= binning.bins; ++b)
            e.edges.push_back(binning.minimum + static_cast<double>(b) * binning.size);
        e.edges.push_back(std::numeric_limits<double>::infinity());
    }
    const auto bins = e.sizeBins();
    e.counts.assign(static_cast<std::size_t>(e.grid.count) * bins, 0.0);
    e.bytes.assign(e.counts.size(), 0.0);
    for (const auto& [index, cell] : cells) {
        const auto raw = index % rawBins;
        const auto i = (index / rawBins) * bins + (raw - firstRaw);
        e.counts[i] += cell.messages;
        e.bytes[i] += cell.bytes;
    }
    return e;
}

std::string msgSizeEvolutionCsv(const MsgSizeEvolution* e)
{
    std::string out = "interval,begin_us,end_us,size_lo,size_hi,messages,bytes\n";
    if (e == nullptr)
        return out;
    const auto bins = e->sizeBins();
    for (std::int64_t i = 0; i < e->grid.count; ++i)
        for (std::size_t b = 0; b < bins; ++b) {
            const auto cell = static_cast<std::size_t>(i) * bins + b;
            if (e->counts[cell] <= 0)
                continue;
            const double hi = e->edges[b + 1];
            out += std::to_string(i) + "," + std::to_string(e->grid.begin(i)) + ","
                + std::to_string(e->grid.end(i)) + "," + formatCsvNumber(e->edges[b]) + ","
                + (std::isinf(hi) ? std::string("inf") : formatCsvNumber(hi)) + ","
                + formatCsvNumber(e->counts[cell]) + "," + formatCsvNumber(e->bytes[cell]) + "\n";
        }
    return out;
}

} // namespace parallax::core::analysis
