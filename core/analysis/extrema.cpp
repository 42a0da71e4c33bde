#include "extrema.h"

#include "core/trace.h"
#include "extrema_clustering.h"
#include "java_event_stream.h"
#include "pe_activity.h"
#include "summary_profiles.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace parallax::core::analysis {

namespace {

constexpr std::string_view kCriterionNames[] = {
    "least-idle",
    "most-idle",
    "overhead",
    "active-entries",
    "grain-size",
    "msgs-sent",
    "bytes-sent",
    "clustering",
};

// Java's Extrema reader (docs/format.md §4.6) for one PE: entry time of executions whose (pretend)
// END lies in the range, from max(begin, start); idle likewise; overhead the rest. Attributes
// 2 and 3 (overhead, active entries) accumulate nothing in the reference tool.
void javaVector(const PeTrace& pe, const ResolvedRequest& r, ExtremaCriterion criterion, double* v)
{
    using Kind = JavaEvent::Kind;
    const int entries = r.columns.entryCount;
    const TimeUs start = r.range.begin;
    const TimeUs end = r.range.end;
    const bool timeAttr
        = criterion != ExtremaCriterion::Overhead && criterion != ExtremaCriterion::ActiveEntries;
    bool open = false;
    TimeUs openBegin = 0;
    EntryId openEntry = kNoEntry;
    TimeUs idleBegin = -1;
    auto close = [&](TimeUs t) {
        if (open && timeAttr && t >= start && t <= end && openEntry >= 0 && openEntry < entries)
            v[openEntry] += static_cast<double>(t - std::max(openBegin, start));
        open = false;
    };
    // Creations matter only for the message criteria (their order against the executions does not).
    for (const auto& e : javaEventStream(pe, { false, criterion == ExtremaCriterion::MsgsSent })) {
        switch (e.kind) {
        case Kind::BeginProcessing:
            close(e.time);
            open = true;
            openBegin = e.time;
            openEntry = e.entry;
            break;
        case Kind::EndProcessing:
            close(e.time);
            break;
        case Kind::BeginIdle:
            close(e.time);
            idleBegin = e.time;
            break;
        case Kind::EndIdle:
            if (idleBegin >= 0 && timeAttr && e.time >= start && e.time <= end)
                v[r.columns.idle()] += static_cast<double>(e.time - std::max(idleBegin, start));
            idleBegin = -1;
            break;
        case Kind::EndComputation:
            close(e.time);
            break;
        case Kind::Creation:
            // Attributes 6 and 7 add message counts (the bytes are added below) into the
            // same columns as the execution times — mixed units, as in the reference.
            if (criterion == ExtremaCriterion::MsgsSent && e.entry >= 0 && e.entry < entries)
                v[e.entry] += 1.0;
            break;
        default:
            break;
        }
    }
    if (criterion == ExtremaCriterion::BytesSent) {
        const auto& s = pe.sends;
        for (std::size_t j = 0; j < s.size(); ++j)
            if (s.kind[j] == SendKind::PointToPoint && s.entry[j] < entries)
                v[s.entry[j]] += static_cast<double>(s.msgBytes[j]);
    }
    double sum = 0;
    for (int x = 0; x < entries; ++x)
        sum += v[x];
    v[r.columns.overhead()] = static_cast<double>(end - start) - sum - v[r.columns.idle()];
    if (criterion == ExtremaCriterion::LeastIdle || criterion == ExtremaCriterion::MostIdle)
        for (int c = 0; c < r.columns.count(); ++c)
            v[c] = v[c] * 100.0 / static_cast<double>(end - start);
}

struct Counts {
    double executions = 0;
    double messages = 0;
    double bytes = 0;
};

// Correct mode: exact time per activity over the range (in % of the range) and the counts the
// criteria need.
Counts correctVector(const PeTrace& pe, const ResolvedRequest& r, double* v)
{
    const auto width = static_cast<std::size_t>(r.columns.count());
    IntervalGrid whole;
    whole.origin = r.range.begin;
    whole.size = std::max<TimeUs>(r.range.length(), 1);
    whole.count = 1;
    std::vector<double> us(width, 0.0);
    accumulateActivity(pe, whole, r.columns, us);
    for (std::size_t c = 0; c < width; ++c)
        v[c] = us[c] * 100.0 / static_cast<double>(whole.size);
    Counts counts;
    const auto& ex = pe.executions;
    const auto first
        = std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin) - ex.begin.begin();
    const auto last
        = std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.end) - ex.begin.begin();
    for (auto k = static_cast<std::size_t>(first); k < static_cast<std::size_t>(last); ++k)
        if (ex.entry[k] < r.entrySelected.size() && r.entrySelected[ex.entry[k]])
            counts.executions += 1;
    const auto sends = pe.sendsIn(r.range.begin, r.range.end);
    for (auto k = sends.first; k < sends.last; ++k) {
        const double n = pe.sends.kind[k] == SendKind::PointToPoint
            ? 1.0
            : static_cast<double>(std::max(pe.sends.destinationCount[k], 0));
        counts.messages += n;
        counts.bytes += n * static_cast<double>(std::max(pe.sends.msgBytes[k], 0));
    }
    return counts;
}

} // namespace

std::string_view extremaCriterionName(ExtremaCriterion criterion)
{
    return kCriterionNames[static_cast<std::size_t>(criterion)];
}

std::optional<ExtremaCriterion> parseExtremaCriterion(std::string_view name)
{
    for (std::size_t i = 0; i < std::size(kCriterionNames); ++i)
        if (kCriterionNames[i] == name)
            return static_cast<ExtremaCriterion>(i);
    return std::nullopt;
}

std::optional<Extrema> computeExtrema(const Trace& trace, const AnalysisRequest& request,
    const ExtremaOptions& options, const Progress& progress)
{
    auto r = resolve(trace, request);
    Extrema x;
    // Comm threads (no idle records; their sends are relays) are neither ranked nor averaged
    // unless the request includes them.
    if (!r.apart.empty()) {
        std::vector<PeId> ranked;
        for (std::size_t k = 0; k < r.pes.size(); ++k)
            if (r.isAggregated(k))
                ranked.push_back(r.pes[k]);
        r.pes = std::move(ranked);
        r.aggregated.assign(r.pes.size(), true);
        x.apart = r.apart;
    }
    x.criterion = options.criterion;
    x.columns = r.columns;
    x.pes = r.pes;
    const auto n = r.pes.size();
    const auto width = static_cast<std::size_t>(r.columns.count());
    x.vectors.assign(n * width, 0.0);
    x.scores.assign(n, 0.0);
    const bool java = r.mode == Mode::JavaCompat;
    const bool logs = trace.hasLogs();
    std::vector<Counts> counts(n);
    const bool ok = parallelFor(n, r.threads, progress, [&](std::size_t k) {
        double* v = x.vectors.data() + k * width;
        const auto pe = r.pes[k];
        if (!logs) {
            const auto us = usageFromSummaries(trace, pe, r);
            for (std::size_t c = 0; c < width; ++c)
                v[c] = us[c] * 100.0 / static_cast<double>(std::max<TimeUs>(r.range.length(), 1));
        } else if (java) {
            javaVector(trace.pes[static_cast<std::size_t>(pe)], r, options.criterion, v);
        } else {
            counts[k] = correctVector(trace.pes[static_cast<std::size_t>(pe)], r, v);
        }
        for (std::size_t e = 0; e < r.entrySelected.size(); ++e)
            if (!r.entrySelected[e])
                v[e] = 0;
    });
    if (!ok)
        return std::nullopt;

    // Default number of extremes (Java: ceil(10 % of PROCESSORS) up to 256 PEs, else 20).
    const auto processors = static_cast<std::int64_t>(trace.metadata.processors);
    std::int64_t count = options.count > 0 ? options.count : defaultExtremaCount(processors);
    count = std::clamp<std::int64_t>(count, 0, static_cast<std::int64_t>(n));
    const auto th = static_cast<std::size_t>(count);

    const auto entries = static_cast<std::size_t>(r.columns.entryCount);
    auto sumEntries = [&](std::size_t k) {
        double s = 0;
        for (std::size_t e = 0; e < entries; ++e)
            s += x.vectors[k * width + e];
        return s;
    };
    std::vector<double> average(width, 0.0);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t c = 0; c < width; ++c)
            average[c]
                += x.vectors[k * width + c] / static_cast<double>(std::max<std::size_t>(n, 1));

    std::vector<std::size_t> selected; // positions, ascending significance
    if (options.criterion == ExtremaCriterion::Clustering) {
        if (n < 3) {
            x.error = "clustering needs at least 3 PEs";
        } else {
            std::int64_t k = options.clusters > 0 ? options.clusters
                : java                            ? processors
                       : std::max<std::int64_t>(1, std::llround(std::sqrt(static_cast<double>(n))));
            k = std::clamp<std::int64_t>(k, 1, static_cast<std::int64_t>(n));
            const auto clusters = kMeans(x.vectors, n, width, static_cast<int>(k));
            if (java) {
                selected = javaRepresentatives(clusters, th, x.clusterCount);
            } else {
                // The PEs farthest from their cluster's centre are the outliers.
                std::vector<std::size_t> order(n);
                std::iota(order.begin(), order.end(), 0U);
                std::stable_sort(order.begin(), order.end(),
                    [&](auto a, auto b) { return clusters.distance[a] < clusters.distance[b]; });
                selected.assign(order.end() - static_cast<std::ptrdiff_t>(th), order.end());
                std::vector<bool> used(static_cast<std::size_t>(k), false);
                for (auto a : clusters.assignment)
                    used[static_cast<std::size_t>(a)] = true;
                x.clusterCount = static_cast<int>(std::count(used.begin(), used.end(), true));
            }
            for (std::size_t p = 0; p < n; ++p)
                x.scores[p] = clusters.distance[p];
        }
    } else {
        for (std::size_t k = 0; k < n; ++k) {
            const double* v = x.vectors.data() + k * width;
            double key = 0;
            double score = 0;
            switch (options.criterion) {
            case ExtremaCriterion::LeastIdle:
                score = v[r.columns.idle()];
                key = -score;
                break;
            case ExtremaCriterion::MostIdle:
                score = key = v[r.columns.idle()];
                break;
            case ExtremaCriterion::Overhead:
                score = key = v[r.columns.overhead()];
                break;
            case ExtremaCriterion::ActiveEntries: {
                std::size_t active = 0;
                for (std::size_t e = 0; e < entries; ++e)
                    active += v[e] > 0 ? 1U : 0U;
                score = key = static_cast<double>(active);
                break;
            }
            case ExtremaCriterion::GrainSize: {
                if (java) {
                    // Java: total entry time per active entry method (not per call).
                    std::size_t active = 0;
                    for (std::size_t e = 0; e < entries; ++e)
                        active += v[e] > 0 ? 1U : 0U;
                    score = key = active > 0 ? sumEntries(k) / static_cast<double>(active) : 0.0;
                } else {
                    // Average execution time per call, in µs.
                    const double us = sumEntries(k) * static_cast<double>(r.range.length()) / 100.0;
                    score = key = counts[k].executions > 0 ? us / counts[k].executions : 0.0;
                }
                break;
            }
            case ExtremaCriterion::MsgsSent:
            case ExtremaCriterion::BytesSent:
                if (java) {
                    for (std::size_t e = 0; e < entries; ++e)
                        key += std::abs(v[e] - average[e]) * average[e];
                    score = key;
                } else {
                    score = key = options.criterion == ExtremaCriterion::MsgsSent
                        ? counts[k].messages
                        : counts[k].bytes;
                }
                break;
            case ExtremaCriterion::Clustering:
                break;
            }
            x.scores[k] = score;
            (void)key;
        }
        // Stable ascending sort by key; the last `th` positions are the extremes.
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), 0U);
        auto keyOf = [&](std::size_t k) {
            return options.criterion == ExtremaCriterion::LeastIdle ? -x.scores[k] : x.scores[k];
        };
        std::stable_sort(
            order.begin(), order.end(), [&](auto a, auto b) { return keyOf(a) < keyOf(b); });
        selected.assign(order.end() - static_cast<std::ptrdiff_t>(th), order.end());
    }

    for (auto it = selected.rbegin(); it != selected.rend(); ++it) {
        x.extremes.push_back(r.pes[*it]);
        x.extremeScores.push_back(x.scores[*it]);
    }
    // Averaged columns: all, non-outliers, outliers (Java clips each component at 0).
    x.average = average;
    x.outliers.assign(width, 0.0);
    x.nonOutliers.assign(width, 0.0);
    for (auto k : selected)
        for (std::size_t c = 0; c < width; ++c)
            x.outliers[c] += x.vectors[k * width + c];
    for (std::size_t c = 0; c < width; ++c) {
        const double rest = std::max(0.0, average[c] * static_cast<double>(n) - x.outliers[c]);
        x.nonOutliers[c]
            = n > selected.size() ? rest / static_cast<double>(n - selected.size()) : 0.0;
        x.outliers[c]
            = selected.empty() ? 0.0 : x.outliers[c] / static_cast<double>(selected.size());
    }
    return x;
}

std::int64_t defaultExtremaCount(std::int64_t candidates)
{
    return candidates <= 256 ? (candidates + 9) / 10 : 20;
}

GroupExtrema rankGroups(
    const Extrema& x, const std::vector<std::vector<PeId>>& groups, std::int64_t count)
{
    GroupExtrema out;
    const auto width = static_cast<std::size_t>(x.columns.count());
    std::unordered_map<PeId, std::size_t> indexOf;
    for (std::size_t k = 0; k < x.pes.size(); ++k)
        indexOf.emplace(x.pes[k], k);
    // The most extreme has the highest key.
    const auto keyOf = [&](double score) {
        return x.criterion == ExtremaCriterion::LeastIdle ? -score : score;
    };
    std::vector<GroupExtremum> ranked;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        GroupExtremum e;
        e.group = g;
        e.vector.assign(width, 0.0);
        std::vector<std::size_t> at;
        for (const auto pe : groups[g])
            if (const auto it = indexOf.find(pe); it != indexOf.end())
                at.push_back(it->second);
        if (at.empty())
            continue;
        std::sort(at.begin(), at.end());
        at.erase(std::unique(at.begin(), at.end()), at.end());
        for (const auto k : at) {
            e.score += x.scores[k];
            for (std::size_t c = 0; c < width; ++c)
                e.vector[c] += x.vectors[k * width + c];
        }
        const auto n = static_cast<double>(at.size());
        e.score /= n;
        for (auto& v : e.vector)
            v /= n;
        std::stable_sort(at.begin(), at.end(),
            [&](std::size_t a, std::size_t b) { return keyOf(x.scores[a]) > keyOf(x.scores[b]); });
        for (const auto k : at) {
            e.members.push_back(x.pes[k]);
            e.memberScores.push_back(x.scores[k]);
        }
        ranked.push_back(std::move(e));
    }
    out.ranked = ranked.size();
    const auto wanted = static_cast<std::size_t>(std::clamp<std::int64_t>(
        count > 0 ? count : defaultExtremaCount(static_cast<std::int64_t>(ranked.size())), 0,
        static_cast<std::int64_t>(ranked.size())));
    std::vector<std::size_t> order(ranked.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return keyOf(ranked[a].score) > keyOf(ranked[b].score);
    });
    std::vector<bool> extreme(ranked.size(), false);
    for (std::size_t i = 0; i < wanted; ++i)
        extreme[order[i]] = true;
    out.outliers.assign(width, 0.0);
    out.nonOutliers.assign(width, 0.0);
    std::size_t inExtremes = 0;
    std::size_t inOthers = 0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        auto& sum = extreme[i] ? out.outliers : out.nonOutliers;
        auto& members = extreme[i] ? inExtremes : inOthers;
        const auto n = static_cast<double>(ranked[i].members.size());
        for (std::size_t c = 0; c < width; ++c)
            sum[c] += ranked[i].vector[c] * n;
        members += ranked[i].members.size();
    }
    for (std::size_t c = 0; c < width; ++c) {
        out.outliers[c] = inExtremes > 0 ? out.outliers[c] / static_cast<double>(inExtremes) : 0.0;
        out.nonOutliers[c]
            = inOthers > 0 ? out.nonOutliers[c] / static_cast<double>(inOthers) : 0.0;
    }
    for (std::size_t i = 0; i < wanted; ++i)
        out.extremes.push_back(std::move(ranked[order[i]]));
    return out;
}

} // namespace parallax::core::analysis
