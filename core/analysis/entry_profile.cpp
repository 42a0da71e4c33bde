#include "entry_profile.h"

#include "core/trace.h"
#include "duration_stats.h"

#include <algorithm>
#include <cmath>

namespace parallax::core::analysis {

namespace {

void sortRows(EntryProfile& profile)
{
    std::sort(profile.rows.begin(), profile.rows.end(),
        [](const EntryProfileRow& a, const EntryProfileRow& b) {
            return a.totalUs != b.totalUs ? a.totalUs > b.totalUs : a.entry < b.entry;
        });
}

void fillShares(EntryProfile& profile)
{
    profile.busyUs = 0;
    for (auto& row : profile.rows) {
        row.sharePct = profile.peTimeUs > 0 ? row.totalUs * 100.0 / profile.peTimeUs : 0.0;
        profile.busyUs += row.totalUs;
    }
    sortRows(profile);
}

// A run without logs: the .sum files' EPExeTime, EPCallTime and MaxEPTime over the whole run.
EntryProfile fromSummaries(const Trace& trace, const ResolvedRequest& r)
{
    EntryProfile profile;
    profile.fromSummaries = true;
    const auto entries = r.entrySelected.size();
    std::vector<EntryProfileRow> rows(entries);
    TimeUs end = 0;
    for (std::size_t k = 0; k < r.pes.size(); ++k) {
        const auto pe = static_cast<std::size_t>(r.pes[k]);
        if (!r.isAggregated(k) || pe >= trace.summaries.size() || !trace.summaries[pe])
            continue;
        const auto& s = *trace.summaries[pe];
        profile.pes.push_back(r.pes[k]);
        profile.peTimeUs += static_cast<double>(s.totalTime());
        end = std::max(end, s.totalTime());
        for (std::size_t e = 0; e < entries; ++e) {
            auto& row = rows[e];
            if (e < s.entryCalls.size())
                row.executions
                    += static_cast<std::uint64_t>(std::max<std::int64_t>(0, s.entryCalls[e]));
            if (e < s.entryTime.size())
                row.totalUs += static_cast<double>(s.entryTime[e]);
            if (e < s.entryMaxTime.size())
                row.maxUs = std::max(row.maxUs, static_cast<double>(s.entryMaxTime[e]));
        }
    }
    profile.range = { 0, end };
    for (std::size_t e = 0; e < entries; ++e) {
        auto& row = rows[e];
        if (!r.entrySelected[e] || (row.executions == 0 && row.totalUs == 0))
            continue;
        row.entry = static_cast<EntryId>(e);
        row.meanUs = row.executions > 0 ? row.totalUs / static_cast<double>(row.executions) : 0.0;
        row.minUs = std::nan("");
        row.sdUs = std::nan("");
        profile.rows.push_back(row);
    }
    return profile;
}

} // namespace

std::optional<EntryProfile> computeEntryProfile(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    EntryProfile profile;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (!r.isAggregated(k))
            profile.apart.push_back(r.pes[k]);
    if (!trace.hasLogs()) {
        if (!trace.hasSummaries()) {
            profile.error = "this run has neither logs nor summary files to profile";
            return profile;
        }
        auto summary = fromSummaries(trace, r);
        summary.apart = std::move(profile.apart);
        fillShares(summary);
        return summary;
    }
    profile.range = r.range;
    const bool includeEnd = rangeEndsWithRun(trace, r.range);
    const auto entries = r.entrySelected.size();
    std::vector<DurationStats> stats(entries);
    struct Longest {
        PeId pe = kNoPe;
        TimeUs begin = 0;
    };
    std::vector<Longest> longest(entries);
    // Each PE's statistics are kept apart and merged in PE order afterwards: merging them as the
    // threads finish made the mean and deviation differ in their last bits from one run to the
    // next (floating-point sums depend on their order), and a table could print "84 µs" once and
    // "84.0 µs" the next time.
    struct PeEntryStats {
        std::size_t entry = 0;
        DurationStats stats;
        TimeUs longestBegin = 0;
    };
    std::vector<std::vector<PeEntryStats>> perPe(r.pes.size());
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        if (!r.isAggregated(k))
            return;
        const auto& pe = trace.pes[static_cast<std::size_t>(r.pes[k])];
        std::vector<DurationStats> local(entries);
        std::vector<TimeUs> localLongest(entries, 0);
        const auto& ex = pe.executions;
        const auto span = executionsBeginningIn(pe, r.range, includeEnd);
        for (auto i = span.first; i < span.last; ++i) {
            const auto entry = static_cast<std::size_t>(ex.entry[i]);
            if (entry >= entries || !r.entrySelected[entry])
                continue;
            const double duration = static_cast<double>(ex.end[i] - ex.begin[i]);
            if (local[entry].count == 0 || duration > local[entry].max)
                localLongest[entry] = ex.begin[i];
            local[entry].add(duration);
        }
        for (std::size_t e = 0; e < entries; ++e)
            if (local[e].count != 0)
                perPe[k].push_back({ e, local[e], localLongest[e] });
    });
    for (std::size_t k = 0; ok && k < perPe.size(); ++k) {
        const PeId pe = r.pes[k];
        for (const auto& l : perPe[k]) {
            auto& best = longest[l.entry];
            auto& into = stats[l.entry];
            const bool better = into.count == 0 || l.stats.max > into.max
                || (l.stats.max == into.max && pe < best.pe);
            if (better)
                best = { pe, l.longestBegin };
            into.merge(l.stats);
        }
    }
    if (!ok)
        return std::nullopt;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (r.isAggregated(k))
            profile.pes.push_back(r.pes[k]);
    profile.peTimeUs
        = static_cast<double>(r.range.length()) * static_cast<double>(profile.pes.size());
    for (std::size_t e = 0; e < entries; ++e) {
        const auto& s = stats[e];
        if (s.count == 0)
            continue;
        EntryProfileRow row;
        row.entry = static_cast<EntryId>(e);
        row.executions = s.count;
        row.totalUs = s.total;
        row.meanUs = s.mean;
        row.minUs = s.min;
        row.maxUs = s.max;
        row.sdUs = s.sd();
        row.longestPe = longest[e].pe;
        row.longestBegin = longest[e].begin;
        profile.rows.push_back(row);
    }
    fillShares(profile);
    return profile;
}

ResultTable entryProfileTable(const EntryProfile& profile, const RunMetadata& metadata)
{
    ResultTable t;
    const auto entry = t.addColumn("entry", CellKind::Integer);
    const auto name = t.addColumn("entry_name", CellKind::Text);
    const auto chare = t.addColumn("chare", CellKind::Text);
    const auto executions = t.addColumn("executions", CellKind::Integer);
    const auto total = t.addColumn("total_us", CellKind::DurationUs);
    const auto mean = t.addColumn("mean_us", CellKind::DurationUs);
    const auto min = t.addColumn("min_us", CellKind::DurationUs);
    const auto max = t.addColumn("max_us", CellKind::DurationUs);
    const auto sd = t.addColumn("sd_us", CellKind::DurationUs);
    const auto share = t.addColumn("share_pct", CellKind::Percent);
    for (const auto& row : profile.rows) {
        t.push(entry, static_cast<double>(row.entry));
        t.push(name, metadata.entryName(row.entry));
        t.push(chare, metadata.chareNameOfEntry(row.entry));
        t.push(executions, static_cast<double>(row.executions));
        t.push(total, row.totalUs);
        t.push(mean, row.meanUs);
        t.push(min, row.minUs);
        t.push(max, row.maxUs);
        t.push(sd, row.sdUs);
        t.push(share, row.sharePct);
        t.targets.push_back({ row.longestPe, row.longestBegin,
            row.longestBegin + static_cast<TimeUs>(std::llround(row.maxUs)) });
    }
    return t;
}

} // namespace parallax::core::analysis
