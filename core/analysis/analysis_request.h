#pragma once

#include "core/types.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

// Default: correct numbers (the run's end covers every PE, multicasts count once per
// destination, rates in their real unit). JavaCompat: the reference tool's rules, so results
// equal Java Projections' on the same logs (see docs/differences.md).
enum class Mode : std::uint8_t { Correct, JavaCompat };

// Progress (0..1) and cancellation, called from worker threads; both may be empty.
struct Progress {
    std::function<void(double fraction)> report;
    std::function<bool()> cancelled;

    [[nodiscard]] bool isCancelled() const { return cancelled && cancelled(); }
    // For one stage of a longer analysis: the same cancellation, and its fractions mapped to
    // [from, from + share] of this one's. It refers to this Progress, which must outlive it.
    [[nodiscard]] Progress part(double from, double share) const
    {
        Progress stage;
        stage.cancelled = cancelled;
        if (report)
            stage.report = [this, from, share](double f) {
                report(from + share * f);
            };
        return stage;
    }
};

// What to analyse: a time window, a set of PEs and (where it applies) of entry methods.
struct AnalysisRequest {
    // Time window; {0, 0} means the traced span of the run (tracedRunSpan; Java's [0, end] in
    // compat mode), end == kTimeMax means "to the end of that span".
    TimeRange range;
    std::vector<PeId> pes; // empty = every valid PE
    std::vector<EntryId> entries; // empty = every entry method
    Mode mode = Mode::Correct;
    unsigned threads = 0; // 0 = all cores
    // Correct mode: comm threads (SMP pseudo-PEs, which have no idle records and relay other
    // PEs' messages) count in averages, in sums over PEs, in the Extrema ranking and in message
    // counts. By default they are kept apart. Compat mode always includes them, as Java does.
    bool includeCommThreads = false;
    // A run with logs for some PEs only (a reduced run): the PEs without a log are selected
    // too, and the analyses that can (Overview, usage profile) take them from their summary
    // files (.sum utilization and idle, .sumd entry time). Correct mode only.
    bool summaryFallback = false;
};

// Activities a view shows besides entry methods. In result tables an activity is a column:
// 0..entryCount-1 are entry methods, then these four.
enum class SpecialActivity : std::uint8_t { Overhead = 0, Idle = 1, Pack = 2, Unpack = 3 };
inline constexpr int kSpecialActivities = 4;

struct ActivityColumns {
    int entryCount = 0;
    [[nodiscard]] int count() const { return entryCount + kSpecialActivities; }
    [[nodiscard]] int column(SpecialActivity a) const { return entryCount + static_cast<int>(a); }
    [[nodiscard]] int overhead() const { return column(SpecialActivity::Overhead); }
    [[nodiscard]] int idle() const { return column(SpecialActivity::Idle); }
    [[nodiscard]] int pack() const { return column(SpecialActivity::Pack); }
    [[nodiscard]] int unpack() const { return column(SpecialActivity::Unpack); }
    [[nodiscard]] bool isEntry(int c) const { return c >= 0 && c < entryCount; }
    // "17", "idle", "overhead", "pack" or "unpack" (the CLI's activity names).
    [[nodiscard]] std::string name(int c) const;
    // What a reader calls it: the entry method's name from the .sts ("compute(int n)"), or
    // "overhead", "idle", "pack", "unpack"; the id when the names are unknown.
    [[nodiscard]] std::string label(int c) const;
    // Entry names by id, shared by every result of one trace (set by resolve()).
    std::shared_ptr<const std::vector<std::string>> entryNames;
};

// The request with its defaults filled in for a trace: the default range is the run's traced
// span (Java: [0, its own end time] in compat mode), PEs = valid PEs intersected with the request,
// sorted.
struct ResolvedRequest {
    TimeRange range;
    std::vector<PeId> pes;
    std::vector<bool> entrySelected; // per entry id; all true when the request named none
    Mode mode = Mode::Correct;
    unsigned threads = 1;
    ActivityColumns columns;
    // Per index of `pes`: whether the PE counts in averages and sums over PEs. False for comm
    // threads unless the request includes them (or selects no worker PE at all).
    std::vector<bool> aggregated;
    std::vector<PeId> apart; // the selected PEs left out of averages (comm threads)

    [[nodiscard]] bool isAggregated(std::size_t k) const
    {
        return k < aggregated.size() && aggregated[k];
    }
    [[nodiscard]] std::size_t aggregatedCount() const;
    // The selected PEs without a log that a summaryFallback request takes from their summaries
    // (sorted; empty otherwise).
    std::vector<PeId> fromSummary;
    [[nodiscard]] bool isFromSummary(PeId pe) const
    {
        return std::binary_search(fromSummary.begin(), fromSummary.end(), pe);
    }
};
ResolvedRequest resolve(const Trace& trace, const AnalysisRequest& request);

// The run's total time as Java computes it (docs/format.md §4.0): the .projrc end when > 0, else
// the maximum of the .sum bin ends, the .sumd interval ends and the last log timestamp.
TimeUs javaEndTime(const Trace& trace);

// Runs fn(k) for k in [0, count) on `threads` workers; stops early when cancelled.
// Returns false when cancelled.
bool parallelFor(std::size_t count, unsigned threads, const Progress& progress,
    const std::function<void(std::size_t)>& fn);

} // namespace parallax::core::analysis
