#pragma once

#include "core/trace.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parallax::views {

// A coarse picture of one PE for collapsed timeline rows zoomed far out: the run cut into
// fixed buckets, per bucket the busy time, the entry that ran longest and how long, and how
// many executions began. Built once per PE (O(executions)); a collapsed row then costs
// O(buckets) per PE instead of O(executions in the window).
struct PeSummary {
    core::TimeUs origin = 0;
    core::TimeUs bucket = 1; // µs per bucket
    std::vector<float> busy; // µs
    std::vector<float> idle; // µs
    std::vector<std::uint16_t> dominant; // entry; kNoEntry when nothing ran
    std::vector<float> dominantUs;
    std::vector<std::uint32_t> started;
    static constexpr std::uint16_t kNoEntry = 0xFFFF;
    [[nodiscard]] std::size_t size() const { return busy.size(); }
};

// Adds `amount` to `key`'s weight in a short list of (key, weight) pairs (the entries that ran in
// a bucket or a pixel column: few, so a linear search).
template <typename Key, typename Weight>
void addWeight(std::vector<std::pair<Key, Weight>>& weights, Key key, Weight amount)
{
    const auto it = std::find_if(
        weights.begin(), weights.end(), [&](const auto& w) { return w.first == key; });
    if (it == weights.end())
        weights.emplace_back(key, amount);
    else
        it->second += amount;
}

// Summarizes `pe` over `span` in `buckets` buckets of equal whole-µs width.
PeSummary summarizePe(const core::PeTrace& pe, core::TimeRange span, std::size_t buckets);

// A group of PEs summarized straight from their executions over `span` in `buckets` buckets:
// busy time and begun executions added, per bucket the entry that ran longest over all the
// members (not a vote of each member's own dominant entry: finer buckets hold few executions of
// each member). `idle` is left empty. O(the members' executions + buckets).
PeSummary summarizeGroup(const core::Trace& trace, const std::vector<core::PeId>& pes,
    core::TimeRange span, std::size_t buckets);

// The members of a group each on its own, coarsely, for the spread of a SET row zoomed far
// out: the run in `buckets` buckets of `bucket` µs, per bucket and member the share of the
// bucket the member was busy, × 255 (bucket-major, so that a bucket's members are together).
struct GroupSpread {
    core::TimeUs origin = 0;
    core::TimeUs bucket = 1;
    std::size_t buckets = 0;
    std::vector<core::PeId> members;
    std::vector<std::uint8_t> busy; // [bucket * members.size() + member]
    // Per bucket b, for a pixel column within buckets b and b + 1 (b alone for the last): the
    // members that can be its first lowest (highest) whatever the column's weights — those no
    // earlier member is at or below (above) in both buckets — by increasing index. See
    // addSpreadCandidates.
    std::vector<std::uint32_t> lowStart; // [bucket], buckets + 1 offsets into lowCandidates
    std::vector<std::uint32_t> lowCandidates;
    std::vector<std::uint32_t> highStart;
    std::vector<std::uint32_t> highCandidates;
};

// Fills `spread`'s candidate lists (its busy shares made).
void addSpreadCandidates(GroupSpread& spread);

// Summaries by PE for one trace, built on first use. Thread-safe.
class TimelineSummaryCache {
public:
    static constexpr std::size_t kBuckets = 8192;
    explicit TimelineSummaryCache(core::TracePtr trace);
    [[nodiscard]] const core::TracePtr& trace() const { return m_trace; }
    // The buckets' width in µs (known before any summary is built).
    [[nodiscard]] core::TimeUs bucketWidth() const;
    // The summary of `pe` (null for a PE without data).
    [[nodiscard]] std::shared_ptr<const PeSummary> of(core::PeId pe) const;
    // The summary of several PEs together (a collapsed row): busy times and begun executions
    // added, per bucket the entry dominating most of the PEs' time. Null when none has data.
    [[nodiscard]] std::shared_ptr<const PeSummary> of(const std::vector<core::PeId>& pes) const;
    // The spread of several PEs, in kBuckets / kSpreadCoarsening buckets (1 byte per PE and
    // bucket; the group of 16,384 PEs takes 32 MB). Null without a trace.
    [[nodiscard]] std::shared_ptr<const GroupSpread> spreadOf(
        const std::vector<core::PeId>& pes) const;
    static constexpr std::size_t kSpreadCoarsening = 4;
    // A finer summary of several PEs (summarizeGroup, kBuckets × kFineFactor buckets), for
    // collapsed rows zoomed in too far for of(pes) but still holding many executions per pixel.
    static constexpr std::size_t kFineFactor = 8;
    [[nodiscard]] core::TimeUs fineBucketWidth() const;
    [[nodiscard]] std::shared_ptr<const PeSummary> fineOf(const std::vector<core::PeId>& pes) const;

private:
    [[nodiscard]] core::TimeRange span() const { return { 0, m_end }; }
    [[nodiscard]] std::shared_ptr<const GroupSpread> buildSpread(
        const std::vector<core::PeId>& pes) const;

    core::TracePtr m_trace;
    core::TimeUs m_end = 1; // the run's end: the summaries cover [0, m_end)
    mutable std::mutex m_mutex;
    mutable std::unordered_map<core::PeId, std::shared_ptr<const PeSummary>> m_summaries;
    mutable std::map<std::vector<core::PeId>, std::shared_ptr<const PeSummary>> m_groups;
    mutable std::map<std::vector<core::PeId>, std::shared_ptr<const PeSummary>> m_fineGroups;
    mutable std::map<std::vector<core::PeId>, std::shared_ptr<const GroupSpread>> m_spreads;
};

} // namespace parallax::views
