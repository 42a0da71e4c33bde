#include "summary_profiles.h"

#include "core/trace.h"
#include "time_split.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace parallax::core::analysis {

namespace {

// At most this many values (intervals x columns) in a summary time profile: 128 MiB of doubles.
constexpr std::int64_t kMaxGridValues = std::int64_t { 1 } << 24;

// PEs of the request that have a given kind of summary.
template <typename Table>
std::vector<PeId> pesWith(const Table& table, const std::vector<PeId>& pes)
{
    std::vector<PeId> out;
    for (auto pe : pes)
        if (static_cast<std::size_t>(pe) < table.size() && table[static_cast<std::size_t>(pe)])
            out.push_back(pe);
    return out;
}

TimeUs finestInterval(const Trace& trace, const std::vector<PeId>& pes, bool detail)
{
    TimeUs finest = 0;
    for (auto pe : pes) {
        const auto p = static_cast<std::size_t>(pe);
        const TimeUs size = detail
            ? (p < trace.details.size() && trace.details[p] ? trace.details[p]->intervalUs : 0)
            : (p < trace.summaries.size() && trace.summaries[p] ? trace.summaries[p]->intervalUs
                                                                : 0);
        if (size > 0 && (finest == 0 || size < finest))
            finest = size;
    }
    return finest;
}

} // namespace

std::optional<TimeProfile> timeProfileFromSummaries(
    const Trace& trace, const ResolvedRequest& r, const TimeProfileOptions&)
{
    TimeProfile profile;
    profile.columns = r.columns;
    std::vector<PeId> summed; // comm threads apart, as from logs
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (r.isAggregated(k))
            summed.push_back(r.pes[k]);
    profile.apart = r.apart;
    const auto pes = pesWith(trace.details, summed);
    profile.peCount = pes.size();
    const TimeUs size = finestInterval(trace, pes, true);
    if (size <= 0)
        return profile;
    // The .sumd bins cannot be split: intervals are the finest bin size, aligned at 0.
    // The grid holds intervals x columns values; when that passes kMaxGridValues (a header
    // claiming millions of intervals and entries), whole bins are merged so that it does not.
    const auto width = static_cast<std::size_t>(r.columns.count());
    auto intervalsOf = [&](TimeUs binSize) {
        const auto firstIndex = r.range.begin / binSize;
        const auto last = r.range.end / binSize + (r.range.end % binSize != 0 ? 1 : 0);
        return std::max<std::int64_t>(last - firstIndex, 1);
    };
    const auto perInterval = static_cast<std::int64_t>(std::max<std::size_t>(width, 1));
    const auto maxIntervals = std::max<std::int64_t>(kMaxGridValues / perInterval, 1);
    const auto wanted = intervalsOf(size);
    const TimeUs merged = wanted > maxIntervals ? size * (wanted / maxIntervals + 1) : size;
    IntervalGrid g;
    g.size = merged;
    g.firstIndex = r.range.begin / merged;
    g.origin = g.firstIndex * merged;
    g.count = intervalsOf(merged);
    profile.grid = g;
    profile.time.assign(static_cast<std::size_t>(g.count) * width, 0.0);
    auto cell = [&](std::int64_t i, int c) -> double& {
        return profile.time[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(c)];
    };
    for (auto pe : pes) {
        const auto& d = *trace.details[static_cast<std::size_t>(pe)];
        std::vector<double> busy(static_cast<std::size_t>(g.count), 0.0);
        for (const auto& c : d.cells) {
            if (static_cast<int>(c.entry) >= r.columns.entryCount)
                continue;
            const TimeUs b = static_cast<TimeUs>(c.interval) * d.intervalUs;
            // A coarser bin (or a run of equal bins) is spread evenly over the finer intervals
            // it covers.
            const double perUs = static_cast<double>(c.timeUs) / static_cast<double>(d.intervalUs);
            const TimeUs e = b + static_cast<TimeUs>(c.length) * d.intervalUs;
            splitOverGrid(g, b, e, [&](std::int64_t i, TimeUs us) {
                const double v = perUs * static_cast<double>(us);
                cell(i, static_cast<int>(c.entry)) += v;
                busy[static_cast<std::size_t>(i)] += v;
            });
        }
        const auto p = static_cast<std::size_t>(pe);
        const PeSummary* s
            = p < trace.summaries.size() && trace.summaries[p] ? &*trace.summaries[p] : nullptr;
        for (std::int64_t i = 0; i < g.count; ++i) {
            double idle = 0;
            if (s != nullptr && !s->idlePercent.empty() && s->intervalUs > 0) {
                const auto bin = static_cast<std::size_t>(g.begin(i) / s->intervalUs);
                if (bin < s->idlePercent.size())
                    idle = s->idlePercent[bin] * 0.01 * static_cast<double>(g.size);
            }
            cell(i, r.columns.idle()) += idle;
            cell(i, r.columns.overhead()) += std::max(
                0.0, static_cast<double>(g.size) - busy[static_cast<std::size_t>(i)] - idle);
        }
    }
    if (r.mode == Mode::JavaCompat) {
        // Java (TimeProfileWindow, .sumd path): IDLE = the sum over PEs of idle % divided by
        // the number of intervals (getTotalIdlePercentagePerInterval), OVERHEAD = 100 - the rest.
        const double denominator = static_cast<double>(g.size) * static_cast<double>(pes.size());
        for (std::int64_t i = 0; i < g.count; ++i) {
            double idlePct = 0;
            for (auto pe : pes) {
                const auto p = static_cast<std::size_t>(pe);
                if (p < trace.summaries.size() && trace.summaries[p]
                    && trace.summaries[p]->intervalUs > 0) {
                    const auto& s = *trace.summaries[p];
                    const auto bin = static_cast<std::size_t>(g.begin(i) / s.intervalUs);
                    if (bin < s.idlePercent.size())
                        idlePct += s.idlePercent[bin];
                }
            }
            idlePct /= static_cast<double>(g.count);
            double entryPct = 0;
            for (int e = 0; e < r.columns.entryCount; ++e)
                entryPct += cell(i, e) * 100.0 / denominator;
            cell(i, r.columns.idle()) = idlePct * denominator / 100.0;
            cell(i, r.columns.overhead()) = (100.0 - entryPct - idlePct) * denominator / 100.0;
        }
    }
    for (std::size_t e = 0; e < r.entrySelected.size(); ++e)
        if (!r.entrySelected[e])
            for (std::int64_t i = 0; i < g.count; ++i)
                cell(i, static_cast<int>(e)) = 0.0;
    return profile;
}

std::vector<double> usageFromSummaries(const Trace& trace, PeId pe, const ResolvedRequest& r)
{
    const auto width = static_cast<std::size_t>(r.columns.count());
    std::vector<double> out(width, 0.0);
    const auto p = static_cast<std::size_t>(pe);
    const TimeUs b = r.range.begin;
    const TimeUs e = r.range.end;
    const PeSummary* s
        = p < trace.summaries.size() && trace.summaries[p] ? &*trace.summaries[p] : nullptr;
    const PeSummaryDetail* d
        = p < trace.details.size() && trace.details[p] ? &*trace.details[p] : nullptr;
    if (d != nullptr) {
        for (const auto& c : d->cells) {
            if (static_cast<int>(c.entry) >= r.columns.entryCount)
                continue;
            const auto iu = d->intervalUs;
            const TimeUs cb = static_cast<TimeUs>(c.interval) * iu;
            const TimeUs ce = cb + static_cast<TimeUs>(c.length) * iu;
            const TimeUs ob = std::max(cb, b);
            const TimeUs oe = std::min(ce, e);
            if (r.mode == Mode::JavaCompat) {
                // Java sums the cells of the intervals start/size .. ceil(end/size)-1 whole.
                const std::int64_t first = std::max<std::int64_t>(c.interval, b / iu);
                const std::int64_t last = std::min<std::int64_t>(
                    std::int64_t { c.interval } + c.length, e / iu + (e % iu != 0 ? 1 : 0));
                if (last > first)
                    out[c.entry]
                        += static_cast<double>(c.timeUs) * static_cast<double>(last - first);
            } else if (oe > ob) {
                out[c.entry] += static_cast<double>(c.timeUs) * static_cast<double>(oe - ob)
                    / static_cast<double>(d->intervalUs);
            }
        }
    } else if (s != nullptr) {
        const TimeUs total = s->totalTime();
        double busyInRange = 0;
        double busyTotal = 0;
        for (std::size_t k = 0; k < s->utilization.size(); ++k) {
            const TimeUs cb = static_cast<TimeUs>(k) * s->intervalUs;
            const double busy = s->utilization[k] * 0.01 * static_cast<double>(s->intervalUs);
            busyTotal += busy;
            const TimeUs ob = std::max(cb, b);
            const TimeUs oe = std::min(cb + s->intervalUs, e);
            if (oe > ob)
                busyInRange
                    += busy * static_cast<double>(oe - ob) / static_cast<double>(s->intervalUs);
        }
        const bool whole = b <= 0 && e >= total;
        const double scale = whole || busyTotal <= 0 ? 1.0 : busyInRange / busyTotal;
        for (std::size_t k = 0;
             k < s->entryTime.size() && static_cast<int>(k) < r.columns.entryCount; ++k)
            out[k] = static_cast<double>(s->entryTime[k]) * scale;
    }
    if (r.mode == Mode::Correct && s != nullptr && !s->idlePercent.empty()) {
        double idle = 0;
        for (std::size_t k = 0; k < s->idlePercent.size(); ++k) {
            const TimeUs cb = static_cast<TimeUs>(k) * s->intervalUs;
            const TimeUs ob = std::max(cb, b);
            const TimeUs oe = std::min(cb + s->intervalUs, e);
            if (oe > ob)
                idle += s->idlePercent[k] * 0.01 * static_cast<double>(oe - ob);
        }
        out[static_cast<std::size_t>(r.columns.idle())] = idle;
        double used = idle;
        for (int k = 0; k < r.columns.entryCount; ++k)
            used += out[static_cast<std::size_t>(k)];
        out[static_cast<std::size_t>(r.columns.overhead())]
            = std::max(0.0, static_cast<double>(e - b) - used);
    }
    return out;
}

SummaryAverage summaryAverage(const Trace& trace, Mode mode, bool includeCommThreads)
{
    // A corrupt .sum (a huge interval next to a tiny one) must not exhaust memory: bins past
    // this are dropped. Charm++ doubles the bin size before a PE needs 60,000 bins, so even a
    // 64-fold resampling of a real run stays below 2^22 bins (about 100 MB here at most).
    constexpr std::size_t kMaxBins = std::size_t { 1 } << 22;
    const bool compat = mode == Mode::JavaCompat;

    SummaryAverage avg;
    std::vector<PeId> pes;
    for (std::size_t p = 0; p < trace.summaries.size(); ++p) {
        const auto& s = trace.summaries[p];
        if (!s || s->intervalUs <= 0 || (!compat && s->utilization.empty()))
            continue;
        // Java's SumAnalyzer reads NAME.0.sum .. NAME.<numPes-1>.sum (numPes from the header,
        // worker PEs only), so comm-thread summaries are left out in compat mode.
        if (compat && static_cast<PeId>(p) >= s->numPes)
            continue;
        if (!compat && !includeCommThreads && trace.metadata.isCommThread(static_cast<PeId>(p))) {
            ++avg.commThreadsApart;
            continue;
        }
        pes.push_back(static_cast<PeId>(p));
    }
    avg.peTotal = pes.size();
    avg.intervalUs = finestInterval(trace, pes, false);
    if (avg.intervalUs <= 0)
        return avg;

    std::vector<std::size_t> factors;
    std::size_t count = 0;
    bool anyIdle = false;
    for (auto pe : pes) {
        const auto& s = *trace.summaries[static_cast<std::size_t>(pe)];
        // Java repeats each bin interval/finest times (integer division).
        const auto factor
            = static_cast<std::size_t>(std::max<TimeUs>(s.intervalUs / avg.intervalUs, 1));
        avg.resampled = avg.resampled || factor != 1;
        factors.push_back(factor);
        const std::size_t bins
            = compat ? s.utilization.size() : std::max(s.utilization.size(), s.idlePercent.size());
        count = std::max(count, std::min(kMaxBins, bins * factor));
        anyIdle = anyIdle || !s.idlePercent.empty();
    }
    avg.utilization.assign(count, 0.0);
    avg.peCount.assign(count, 0);
    std::vector<std::uint32_t> idleCount;
    if (anyIdle) {
        avg.idle.assign(count, 0.0);
        idleCount.assign(count, 0);
    }
    for (std::size_t k = 0; k < pes.size(); ++k) {
        const auto& s = *trace.summaries[static_cast<std::size_t>(pes[k])];
        const std::size_t f = factors[k];
        const std::size_t busyBins = std::min(count, s.utilization.size() * f);
        for (std::size_t b = 0; b < busyBins; ++b) {
            avg.utilization[b] += s.utilization[b / f];
            ++avg.peCount[b];
        }
        const std::size_t idleBins = std::min(count, s.idlePercent.size() * f);
        for (std::size_t b = 0; b < idleBins; ++b) {
            avg.idle[b] += s.idlePercent[b / f];
            ++idleCount[b];
        }
    }
    const double all = static_cast<double>(std::max<std::size_t>(pes.size(), 1));
    for (std::size_t b = 0; b < count; ++b) {
        if (compat)
            avg.utilization[b] /= all;
        else
            avg.utilization[b] = avg.peCount[b] == 0 ? 0.0 : avg.utilization[b] / avg.peCount[b];
    }
    for (std::size_t b = 0; b < avg.idle.size(); ++b) {
        if (compat)
            avg.idle[b] /= all;
        else
            avg.idle[b] = idleCount[b] == 0 ? std::numeric_limits<double>::quiet_NaN()
                                            : avg.idle[b] / idleCount[b];
    }
    return avg;
}

} // namespace parallax::core::analysis
