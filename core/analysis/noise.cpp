#include "noise.h"

#include "core/text_args.h"
#include "core/trace.h"
#include "duration_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>

namespace parallax::core::analysis {

namespace {

// The scale that makes the MAD of normally distributed values estimate their σ.
constexpr double kMadToSigma = 1.4826;

int bandOf(double lostUs)
{
    return lostUs < 1.0 ? 0 : static_cast<int>(std::floor(std::log2(lostUs)));
}

// How the occurrences of one event (indices into `noisy`) recur: period and concurrency.
void describeRecurrence(
    NoiseEvent& event, const std::vector<NoisyExecution>& noisy, std::vector<std::size_t> members)
{
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(noisy[a].pe, noisy[a].begin) < std::tie(noisy[b].pe, noisy[b].begin);
    });
    std::vector<double> gaps;
    for (std::size_t i = 1; i < members.size(); ++i)
        if (noisy[members[i]].pe == noisy[members[i - 1]].pe)
            gaps.push_back(
                static_cast<double>(noisy[members[i]].begin - noisy[members[i - 1]].begin));
    event.periodUs = medianOf(gaps);
    std::sort(members.begin(), members.end(),
        [&](std::size_t a, std::size_t b) { return noisy[a].begin < noisy[b].begin; });
    std::vector<bool> concurrent(members.size(), false);
    for (std::size_t i = 0; i < members.size(); ++i) {
        const auto& a = noisy[members[i]];
        for (std::size_t j = i + 1; j < members.size() && noisy[members[j]].begin < a.end; ++j)
            if (noisy[members[j]].pe != a.pe)
                concurrent[i] = concurrent[j] = true;
    }
    event.concurrent
        = static_cast<std::uint64_t>(std::count(concurrent.begin(), concurrent.end(), true));
}

} // namespace

std::optional<NoiseReport> computeNoise(const Trace& trace, const AnalysisRequest& request,
    const NoiseOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    NoiseReport report;
    report.range = r.range;
    report.options = options;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        (r.isAggregated(k) ? report.pes : report.apart).push_back(r.pes[k]);
    if (!trace.hasLogs()) {
        report.error = missingLogsMessage(trace, "the noise miner needs every execution");
        return report;
    }
    const bool includeEnd = rangeEndsWithRun(trace, r.range);
    const auto entries = r.entrySelected.size();
    const auto selected = [&](EntryId e) {
        return e >= 0 && static_cast<std::size_t>(e) < entries
            && r.entrySelected[static_cast<std::size_t>(e)];
    };
    // Pass 1: every duration per entry method.
    std::vector<std::vector<double>> durations(entries);
    std::mutex merge;
    bool ok = parallelFor(report.pes.size(), r.threads, progress, [&](std::size_t k) {
        const auto& p = trace.pes[static_cast<std::size_t>(report.pes[k])];
        std::map<EntryId, std::vector<double>> local;
        const auto span = executionsBeginningIn(p, r.range, includeEnd);
        for (auto i = span.first; i < span.last; ++i)
            if (selected(p.executions.entry[i]))
                local[p.executions.entry[i]].push_back(
                    static_cast<double>(p.executions.end[i] - p.executions.begin[i]));
        std::lock_guard lock(merge);
        for (auto& [entry, values] : local) {
            auto& into = durations[static_cast<std::size_t>(entry)];
            into.insert(into.end(), values.begin(), values.end());
        }
    });
    if (!ok)
        return std::nullopt;
    std::vector<double> threshold(entries, std::numeric_limits<double>::infinity());
    std::vector<double> median(entries, 0.0);
    std::vector<int> baselineOf(entries, -1);
    for (std::size_t e = 0; e < entries; ++e) {
        auto& values = durations[e];
        if (values.size() < std::max<std::uint64_t>(options.minSamples, 1))
            continue;
        NoiseBaseline b;
        b.entry = static_cast<EntryId>(e);
        b.executions = values.size();
        b.medianUs = medianOf(values);
        b.madUs = kMadToSigma * medianAbsoluteDeviation(values, b.medianUs);
        b.thresholdUs = b.medianUs + std::max(options.k * b.madUs, options.minExcessUs);
        threshold[e] = b.thresholdUs;
        median[e] = b.medianUs;
        baselineOf[e] = static_cast<int>(report.baselines.size());
        report.baselines.push_back(b);
        values = {};
    }
    // Pass 2: the executions above their entry's threshold.
    std::vector<std::vector<NoisyExecution>> perPe(report.pes.size());
    ok = parallelFor(report.pes.size(), r.threads, progress, [&](std::size_t k) {
        const PeId pe = report.pes[k];
        const auto& ex = trace.pes[static_cast<std::size_t>(pe)].executions;
        const auto span
            = executionsBeginningIn(trace.pes[static_cast<std::size_t>(pe)], r.range, includeEnd);
        for (auto i = span.first; i < span.last; ++i) {
            const EntryId entry = ex.entry[i];
            if (!selected(entry))
                continue;
            const auto e = static_cast<std::size_t>(entry);
            const double duration = static_cast<double>(ex.end[i] - ex.begin[i]);
            if (duration > threshold[e])
                perPe[k].push_back(
                    { pe, i, entry, ex.begin[i], ex.end[i], duration - median[e], -1 });
        }
    });
    if (!ok)
        return std::nullopt;
    for (auto& list : perPe)
        report.noisy.insert(report.noisy.end(), list.begin(), list.end());
    std::sort(report.noisy.begin(), report.noisy.end(),
        [](const NoisyExecution& a, const NoisyExecution& b) {
            return a.lostUs != b.lostUs ? a.lostUs > b.lostUs
                                        : std::tie(a.begin, a.pe) < std::tie(b.begin, b.pe);
        });
    for (const auto& n : report.noisy) {
        report.lostUs += n.lostUs;
        ++report.baselines[static_cast<std::size_t>(baselineOf[static_cast<std::size_t>(n.entry)])]
              .noisy;
    }
    // Events: one per band of lost time.
    std::map<int, std::vector<std::size_t>> bands;
    for (std::size_t i = 0; i < report.noisy.size(); ++i)
        bands[bandOf(report.noisy[i].lostUs)].push_back(i);
    for (const auto& [band, members] : bands) {
        NoiseEvent event;
        event.band = band;
        event.occurrences = members.size();
        event.worst = members.front(); // `noisy` is sorted by lost time
        std::vector<double> lost;
        std::map<EntryId, std::uint64_t> perEntry;
        for (const auto i : members) {
            const auto& n = report.noisy[i];
            event.lostUs += n.lostUs;
            lost.push_back(n.lostUs);
            event.pes.push_back(n.pe);
            ++perEntry[n.entry];
        }
        std::sort(event.pes.begin(), event.pes.end());
        event.pes.erase(std::unique(event.pes.begin(), event.pes.end()), event.pes.end());
        event.medianLostUs = medianOf(lost);
        std::vector<std::pair<std::uint64_t, EntryId>> order;
        for (const auto& [entry, count] : perEntry)
            order.emplace_back(count, entry);
        std::stable_sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
        for (const auto& [count, entry] : order)
            event.entries.push_back(entry);
        describeRecurrence(event, report.noisy, members);
        report.events.push_back(std::move(event));
    }
    std::sort(
        report.events.begin(), report.events.end(), [](const NoiseEvent& a, const NoiseEvent& b) {
            return a.lostUs != b.lostUs ? a.lostUs > b.lostUs : a.band > b.band;
        });
    for (std::size_t e = 0; e < report.events.size(); ++e)
        for (auto& n : report.noisy)
            if (bandOf(n.lostUs) == report.events[e].band)
                n.event = static_cast<int>(e);
    return report;
}

ResultTable noiseEventsTable(const NoiseReport& report, const RunMetadata& metadata)
{
    ResultTable t;
    const auto rank = t.addColumn("rank", CellKind::Integer);
    const auto lost = t.addColumn("lost_us", CellKind::DurationUs);
    const auto occurrences = t.addColumn("occurrences", CellKind::Integer);
    const auto pes = t.addColumn("pes", CellKind::Integer);
    const auto peList = t.addColumn("pe_list", CellKind::Text);
    const auto medianLost = t.addColumn("median_lost_us", CellKind::DurationUs);
    const auto period = t.addColumn("period_us", CellKind::DurationUs);
    const auto concurrent = t.addColumn("concurrent", CellKind::Integer);
    const auto entries = t.addColumn("entries", CellKind::Text);
    const auto firstPe = t.addColumn("worst_pe", CellKind::Integer);
    const auto worstBegin = t.addColumn("worst_begin_us", CellKind::TimeUs);
    for (std::size_t e = 0; e < report.events.size(); ++e) {
        const auto& event = report.events[e];
        const auto& worst = report.noisy[event.worst];
        t.push(rank, static_cast<double>(e + 1));
        t.push(lost, event.lostUs);
        t.push(occurrences, static_cast<double>(event.occurrences));
        t.push(pes, static_cast<double>(event.pes.size()));
        t.push(peList, formatPeList(event.pes));
        t.push(medianLost, event.medianLostUs);
        t.push(period, event.periodUs);
        t.push(concurrent, static_cast<double>(event.concurrent));
        std::string names;
        for (const auto entry : event.entries) {
            if (!names.empty())
                names += "; ";
            names += metadata.entryName(entry);
        }
        t.push(entries, names);
        t.push(firstPe, static_cast<double>(worst.pe));
        t.push(worstBegin, static_cast<double>(worst.begin));
        t.targets.push_back({ worst.pe, worst.begin, worst.end });
    }
    return t;
}

ResultTable noisyExecutionsTable(const NoiseReport& report, const RunMetadata& metadata)
{
    ResultTable t;
    const auto event = t.addColumn("event", CellKind::Integer);
    const auto pe = t.addColumn("pe", CellKind::Integer);
    const auto entry = t.addColumn("entry", CellKind::Integer);
    const auto name = t.addColumn("entry_name", CellKind::Text);
    const auto begin = t.addColumn("begin_us", CellKind::TimeUs);
    const auto end = t.addColumn("end_us", CellKind::TimeUs);
    const auto duration = t.addColumn("duration_us", CellKind::DurationUs);
    const auto median = t.addColumn("median_us", CellKind::DurationUs);
    const auto lost = t.addColumn("lost_us", CellKind::DurationUs);
    for (const auto& n : report.noisy) {
        t.push(event, static_cast<double>(n.event + 1));
        t.push(pe, static_cast<double>(n.pe));
        t.push(entry, static_cast<double>(n.entry));
        t.push(name, metadata.entryName(n.entry));
        t.push(begin, static_cast<double>(n.begin));
        t.push(end, static_cast<double>(n.end));
        t.push(duration, static_cast<double>(n.end - n.begin));
        t.push(median, static_cast<double>(n.end - n.begin) - n.lostUs);
        t.push(lost, n.lostUs);
        t.targets.push_back({ n.pe, n.begin, n.end });
    }
    return t;
}

ResultTable noiseBaselinesTable(const NoiseReport& report, const RunMetadata& metadata)
{
    ResultTable t;
    const auto entry = t.addColumn("entry", CellKind::Integer);
    const auto name = t.addColumn("entry_name", CellKind::Text);
    const auto executions = t.addColumn("executions", CellKind::Integer);
    const auto median = t.addColumn("median_us", CellKind::DurationUs);
    const auto mad = t.addColumn("mad_us", CellKind::DurationUs);
    const auto threshold = t.addColumn("threshold_us", CellKind::DurationUs);
    const auto noisy = t.addColumn("noisy", CellKind::Integer);
    for (const auto& b : report.baselines) {
        t.push(entry, static_cast<double>(b.entry));
        t.push(name, metadata.entryName(b.entry));
        t.push(executions, static_cast<double>(b.executions));
        t.push(median, b.medianUs);
        t.push(mad, b.madUs);
        t.push(threshold, b.thresholdUs);
        t.push(noisy, static_cast<double>(b.noisy));
    }
    return t;
}

} // namespace parallax::core::analysis
