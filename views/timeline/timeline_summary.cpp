#include "views/timeline/timeline_summary.h"

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

// The value kept under `key`, else build()'s, kept under it (built outside the lock; when two
// threads build the same key at once, the first kept wins).
template <typename Map, typename Build>
typename Map::mapped_type cachedIn(
    std::mutex& mutex, Map& map, const typename Map::key_type& key, Build&& build)
{
    {
        const std::lock_guard lock(mutex);
        if (const auto it = map.find(key); it != map.end())
            return it->second;
    }
    typename Map::mapped_type value = build();
    const std::lock_guard lock(mutex);
    return map.emplace(key, std::move(value)).first->second;
}

// `span` cut into at most `buckets` equal buckets (at least 1 µs each), nothing in them yet;
// the idle column is left empty (a group summary has none).
PeSummary emptySummary(core::TimeRange span, std::size_t buckets)
{
    PeSummary s;
    buckets = std::max<std::size_t>(buckets, 1);
    s.origin = span.begin;
    const auto length = std::max<core::TimeUs>(span.length(), 1);
    s.bucket = std::max<core::TimeUs>(
        (length + static_cast<core::TimeUs>(buckets) - 1) / static_cast<core::TimeUs>(buckets), 1);
    const auto n = static_cast<std::size_t>((length + s.bucket - 1) / s.bucket);
    s.busy.assign(n, 0.0F);
    s.dominant.assign(n, PeSummary::kNoEntry);
    s.dominantUs.assign(n, 0.0F);
    return s;
}

} // namespace

PeSummary summarizePe(const core::PeTrace& pe, core::TimeRange span, std::size_t buckets)
{
    PeSummary s = emptySummary(span, buckets);
    const auto n = s.busy.size();
    s.idle.assign(n, 0.0F);
    s.started.assign(n, 0);
    // Per bucket the time of each entry, collected while the executions (sorted by begin) pass
    // it; a bucket is final once an execution begins after it.
    std::vector<std::pair<std::uint16_t, core::TimeUs>> weights;
    std::size_t current = 0;
    auto finish = [&](std::size_t b) {
        if (weights.empty())
            return;
        const auto best = std::max_element(weights.begin(), weights.end(),
            [](const auto& x, const auto& y) { return x.second < y.second; });
        s.dominant[b] = best->first;
        s.dominantUs[b] = static_cast<float>(best->second);
        weights.clear();
    };
    auto add = [&](std::size_t b, std::uint16_t entry, core::TimeUs us) {
        if (b != current) {
            finish(current);
            current = b;
        }
        s.busy[b] += static_cast<float>(us);
        addWeight(weights, entry, us);
    };
    const auto& ex = pe.executions;
    for (std::size_t k = 0; k < ex.size(); ++k) {
        const auto b = std::max(ex.begin[k], span.begin);
        const auto e = std::min(ex.end[k], span.end);
        if (e < b)
            continue;
        const auto first = static_cast<std::size_t>((b - s.origin) / s.bucket);
        if (first >= n)
            break;
        ++s.started[first];
        const auto last
            = std::min(static_cast<std::size_t>((std::max(e - 1, b) - s.origin) / s.bucket), n - 1);
        for (auto bucket = first; bucket <= last; ++bucket) {
            const auto lo = std::max(b, s.origin + static_cast<core::TimeUs>(bucket) * s.bucket);
            const auto hi
                = std::min(e, s.origin + static_cast<core::TimeUs>(bucket + 1) * s.bucket);
            if (hi > lo)
                add(bucket, ex.entry[k], hi - lo);
        }
    }
    finish(current);
    for (std::size_t i = 0; i < pe.idles.size(); ++i) {
        const auto b = std::max(pe.idles.begin[i], span.begin);
        const auto e = std::min(pe.idles.end[i], span.end);
        if (e <= b)
            continue;
        const auto first = static_cast<std::size_t>((b - s.origin) / s.bucket);
        if (first >= n)
            break;
        const auto last = std::min(static_cast<std::size_t>((e - 1 - s.origin) / s.bucket), n - 1);
        for (auto bucket = first; bucket <= last; ++bucket) {
            const auto lo = std::max(b, s.origin + static_cast<core::TimeUs>(bucket) * s.bucket);
            const auto hi
                = std::min(e, s.origin + static_cast<core::TimeUs>(bucket + 1) * s.bucket);
            if (hi > lo)
                s.idle[bucket] += static_cast<float>(hi - lo);
        }
    }
    return s;
}

PeSummary summarizeGroup(const core::Trace& trace, const std::vector<core::PeId>& pes,
    core::TimeRange span, std::size_t buckets)
{
    PeSummary s = emptySummary(span, buckets);
    const auto n = s.busy.size();
    s.started.assign(n, 0);
    std::vector<const core::PeTrace*> members;
    std::size_t entries = 1;
    for (const auto pe : pes) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        members.push_back(&p);
        for (std::size_t k = 0; k < p.executions.size(); ++k)
            entries = std::max(entries, static_cast<std::size_t>(p.executions.entry[k]) + 1);
    }
    entries = std::min<std::size_t>(entries, PeSummary::kNoEntry);
    // The run in tiles of buckets, each with a dense (bucket, entry) table of time that stays
    // small; the cells written are listed so that only they are read and cleared.
    const std::size_t tile = std::max<std::size_t>((std::size_t { 1 } << 18U) / entries, 1);
    std::vector<float> time(tile * entries, 0.0F);
    std::vector<std::uint32_t> written;
    for (std::size_t t0 = 0; t0 < n; t0 += tile) {
        const std::size_t t1 = std::min(n, t0 + tile);
        const core::TimeUs from = s.origin + static_cast<core::TimeUs>(t0) * s.bucket;
        const core::TimeUs to
            = std::min(span.end, s.origin + static_cast<core::TimeUs>(t1) * s.bucket);
        for (const auto* p : members) {
            const auto& ex = p->executions;
            const auto range = p->executionsOverlapping(from, to);
            for (auto k = range.first; k < range.last; ++k) {
                const auto entry = static_cast<std::size_t>(ex.entry[k]);
                if (ex.begin[k] >= from && ex.begin[k] < to)
                    ++s.started[static_cast<std::size_t>((ex.begin[k] - s.origin) / s.bucket)];
                const auto b = std::max(ex.begin[k], from);
                const auto e = std::min(ex.end[k], to);
                if (e <= b || entry >= entries)
                    continue;
                const auto first = static_cast<std::size_t>((b - s.origin) / s.bucket);
                const auto last = static_cast<std::size_t>((e - 1 - s.origin) / s.bucket);
                for (auto bucket = first; bucket <= last && bucket < t1; ++bucket) {
                    const auto lo
                        = std::max(b, s.origin + static_cast<core::TimeUs>(bucket) * s.bucket);
                    const auto hi
                        = std::min(e, s.origin + static_cast<core::TimeUs>(bucket + 1) * s.bucket);
                    if (hi <= lo)
                        continue;
                    const auto us = static_cast<float>(hi - lo);
                    s.busy[bucket] += us;
                    const auto cell = (bucket - t0) * entries + entry;
                    if (time[cell] == 0.0F)
                        written.push_back(static_cast<std::uint32_t>(cell));
                    time[cell] += us;
                }
            }
        }
        // The longest entry per bucket (ties: the one written first).
        for (const auto cell : written) {
            const auto bucket = t0 + cell / entries;
            if (time[cell] > s.dominantUs[bucket]) {
                s.dominantUs[bucket] = time[cell];
                s.dominant[bucket] = static_cast<std::uint16_t>(cell % entries);
            }
            time[cell] = 0.0F;
        }
        written.clear();
    }
    return s;
}

void addSpreadCandidates(GroupSpread& spread)
{
    // A column's share of member m is w0 × q0[m] + w1 × q1[m] (float, weights ≥ 0). A member at
    // or below an earlier one in both buckets has a share at or above it (rounding keeps the
    // order), so it is never the first lowest; likewise for the highest. The members left are
    // checked against the candidates kept so far (one that was dropped had a kept one at or
    // below it already).
    const std::size_t members = spread.members.size();
    const std::size_t buckets = members == 0 ? 0 : spread.buckets;
    spread.lowStart.assign(1, 0);
    spread.highStart.assign(1, 0);
    spread.lowCandidates.clear();
    spread.highCandidates.clear();
    const auto build = [&](const std::uint8_t* q0, const std::uint8_t* q1, bool low,
                           std::vector<std::uint32_t>& out) {
        const auto first = out.size();
        for (std::size_t m = 0; m < members; ++m) {
            bool dominated = false;
            for (std::size_t i = first; i < out.size() && !dominated; ++i) {
                const auto k = out[i];
                dominated
                    = low ? (q0[k] <= q0[m] && q1[k] <= q1[m]) : (q0[k] >= q0[m] && q1[k] >= q1[m]);
            }
            if (!dominated)
                out.push_back(static_cast<std::uint32_t>(m));
        }
    };
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::uint8_t* q0 = spread.busy.data() + b * members;
        const std::uint8_t* q1 = spread.busy.data() + std::min(b + 1, buckets - 1) * members;
        build(q0, q1, true, spread.lowCandidates);
        build(q0, q1, false, spread.highCandidates);
        spread.lowStart.push_back(static_cast<std::uint32_t>(spread.lowCandidates.size()));
        spread.highStart.push_back(static_cast<std::uint32_t>(spread.highCandidates.size()));
    }
}

TimelineSummaryCache::TimelineSummaryCache(core::TracePtr trace)
    : m_trace(std::move(trace))
    , m_end(m_trace ? std::max<core::TimeUs>(m_trace->endTime(), 1) : 1)
{ }

core::TimeUs TimelineSummaryCache::bucketWidth() const
{
    const auto length = m_end;
    const auto buckets = static_cast<core::TimeUs>(kBuckets);
    return std::max<core::TimeUs>((length + buckets - 1) / buckets, 1);
}

core::TimeUs TimelineSummaryCache::fineBucketWidth() const
{
    const auto buckets = static_cast<core::TimeUs>(kBuckets * kFineFactor);
    return std::max<core::TimeUs>((m_end + buckets - 1) / buckets, 1);
}

std::shared_ptr<const PeSummary> TimelineSummaryCache::fineOf(
    const std::vector<core::PeId>& pes) const
{
    if (!m_trace)
        return nullptr;
    return cachedIn(m_mutex, m_fineGroups, pes, [&]() {
        return std::make_shared<const PeSummary>(
            summarizeGroup(*m_trace, pes, span(), kBuckets * kFineFactor));
    });
}

std::shared_ptr<const PeSummary> TimelineSummaryCache::of(core::PeId pe) const
{
    if (!m_trace || pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
        return nullptr;
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_summaries.find(pe); it != m_summaries.end())
            return it->second;
    }
    auto summary = std::make_shared<const PeSummary>(
        summarizePe(m_trace->pes[static_cast<std::size_t>(pe)], span(), kBuckets));
    const std::lock_guard lock(m_mutex);
    return m_summaries.emplace(pe, std::move(summary)).first->second;
}

std::shared_ptr<const PeSummary> TimelineSummaryCache::of(const std::vector<core::PeId>& pes) const
{
    if (!m_trace)
        return nullptr;
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_groups.find(pes); it != m_groups.end())
            return it->second;
    }
    std::shared_ptr<PeSummary> group;
    std::vector<std::vector<std::pair<std::uint16_t, float>>> weights;
    PeSummary local;
    for (const auto pe : pes) {
        // The members' own summaries are not kept (a group of thousands of PEs would hold
        // hundreds of megabytes); one already made for its PE's row is used.
        std::shared_ptr<const PeSummary> kept;
        {
            const std::lock_guard lock(m_mutex);
            if (const auto it = m_summaries.find(pe); it != m_summaries.end())
                kept = it->second;
        }
        if (!kept && (pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size()))
            continue;
        if (!kept)
            local = summarizePe(m_trace->pes[static_cast<std::size_t>(pe)], span(), kBuckets);
        const PeSummary* one = kept ? kept.get() : &local;
        if (!group) {
            group = std::make_shared<PeSummary>(*one);
            weights.resize(one->size());
        } else {
            for (std::size_t b = 0; b < group->size() && b < one->size(); ++b) {
                group->busy[b] += one->busy[b];
                group->idle[b] += one->idle[b];
                group->started[b] += one->started[b];
            }
        }
        for (std::size_t b = 0; b < weights.size() && b < one->size(); ++b) {
            if (one->dominant[b] == PeSummary::kNoEntry)
                continue;
            addWeight(weights[b], one->dominant[b], one->dominantUs[b]);
        }
    }
    if (group) {
        for (std::size_t b = 0; b < weights.size(); ++b) {
            const auto& w = weights[b];
            if (w.empty()) {
                group->dominant[b] = PeSummary::kNoEntry;
                group->dominantUs[b] = 0.0F;
                continue;
            }
            const auto best = std::max_element(w.begin(), w.end(),
                [](const auto& x, const auto& y) { return x.second < y.second; });
            group->dominant[b] = best->first;
            group->dominantUs[b] = best->second;
        }
    }
    const std::lock_guard lock(m_mutex);
    return m_groups.emplace(pes, std::move(group)).first->second;
}

std::shared_ptr<const GroupSpread> TimelineSummaryCache::spreadOf(
    const std::vector<core::PeId>& pes) const
{
    if (!m_trace)
        return nullptr;
    return cachedIn(m_mutex, m_spreads, pes, [&]() { return buildSpread(pes); });
}

std::shared_ptr<const GroupSpread> TimelineSummaryCache::buildSpread(
    const std::vector<core::PeId>& pes) const
{
    auto spread = std::make_shared<GroupSpread>();
    const auto buckets = kBuckets / kSpreadCoarsening;
    std::vector<std::vector<std::uint8_t>> shares; // per member, per bucket
    for (const auto pe : pes) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= m_trace->pes.size())
            continue;
        const auto one = summarizePe(m_trace->pes[static_cast<std::size_t>(pe)], span(), buckets);
        if (spread->members.empty()) {
            spread->origin = one.origin;
            spread->bucket = one.bucket;
            spread->buckets = one.size();
        }
        spread->members.push_back(pe);
        auto& share = shares.emplace_back(spread->buckets, 0);
        const double full = static_cast<double>(one.bucket);
        for (std::size_t b = 0; b < spread->buckets && b < one.size(); ++b)
            share[b] = static_cast<std::uint8_t>(
                std::lround(std::clamp(static_cast<double>(one.busy[b]) / full, 0.0, 1.0) * 255.0));
    }
    const auto members = spread->members.size();
    spread->busy.resize(spread->buckets * members);
    for (std::size_t m = 0; m < members; ++m)
        for (std::size_t b = 0; b < spread->buckets; ++b)
            spread->busy[b * members + m] = shares[m][b];
    addSpreadCandidates(*spread);
    return spread;
}

} // namespace parallax::views
