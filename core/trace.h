#pragma once

#include "import_report.h"
#include "pe_detail_source.h"
#include "pe_table.h"
#include "pe_trace.h"
#include "run_metadata.h"
#include "summary_data.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core {

// Where the files of a run are.
struct RunFiles {
    std::string directory; // directory of the .sts
    std::string baseName; // NAME (last path component of the .sts minus .sts / .sum.sts)
    std::string stsPath; // the symbol table that was read
    std::string projrcPath; // empty when absent
    std::vector<std::string> logPaths; // index = PE, empty string when absent
    std::vector<std::string> sumPaths; // index = PE
    std::vector<std::string> sumdPaths; // index = PE
    std::uint64_t logBytes = 0; // on-disk bytes of all logs (compressed for .gz)
    std::uint64_t sumBytes = 0;
};

// A reduced run (`parallax-cli reduce`): the summaries of every PE but the logs of a few
// representative PEs only, as its reduction.json says.
struct RepresentativePe {
    PeId pe = kNoPe;
    std::string role; // "exemplar", "outlier" or "random"
    int cluster = -1; // -1 when not chosen by clustering
    double distanceUs = 0; // to its cluster's centroid
};
struct ReducedRun {
    std::string source; // the run it was reduced from
    std::string select; // "clusters" or "random"
    std::size_t sourcePesWithLogs = 0;
    std::vector<RepresentativePe> kept; // sorted by PE
    // The source run's traced span (empty for a manifest written before it was recorded): the
    // default range, since the kept PEs alone may start later or end earlier.
    TimeRange sourceSpan;
    // The kept PE's entry, or null when `pe` was not kept.
    [[nodiscard]] const RepresentativePe* find(PeId pe) const;
};

// An opened run: metadata, per-PE stores and summaries. Immutable once loaded; shared between
// threads as std::shared_ptr<const Trace>.
class Trace {
public:
    RunMetadata metadata;
    RunFiles files;
    // Index = PE id; pes[p].hasLog tells whether PE p had a log. A run opened from a mapped
    // index (io/mapped_index.h) checks a PE's columns, and decodes its summaries, the first time
    // they are used (core/pe_table.h): a view touches only the PEs it reads.
    PeTable<PeTrace> pes;
    PeTable<std::optional<PeSummary>> summaries; // index = PE
    PeTable<std::optional<PeSummaryDetail>> details; // index = PE
    ImportReport report;
    // Problems found after the load: data of a mapped index that failed its check when first
    // used (that PE's or summary's data is left out). Null for a run read from its logs.
    std::shared_ptr<LateIssues> lateIssues;
    // For a run opened from a mapped index: what storeBytes() of the same run read from its logs
    // is (recorded when the index was written, so that it is known without touching a column).
    std::uint64_t mappedStoreBytes = 0;
    // For a run opened from a mapped index: each entry method's execution time summed over every
    // PE's log (what analysis::rankEntriesByTime sums to colour the entries), recorded when the
    // index was written so that the app's palette does not read every PE on open. Empty
    // otherwise, or when no execution named an entry of the symbol table.
    std::vector<TimeUs> entryTimeTotals;
    // `report` plus the late issues found so far.
    [[nodiscard]] ImportReport fullReport() const;
    // Set when the logs were left unread because their store (estimated at this many bytes)
    // would exceed the load's memory budget: the analyses work from the summary files, and
    // detailSource reads a PE's log when a view (the timeline) asks for it.
    std::uint64_t deferredStoreBytes = 0;
    std::shared_ptr<PeDetailSource> detailSource;
    [[nodiscard]] bool logsOnDemand() const { return detailSource != nullptr; }
    // Set for a reduced run: the PEs without a log were left out on purpose.
    std::optional<ReducedRun> reduced;

    [[nodiscard]] bool hasLogs() const;
    [[nodiscard]] bool hasSummaries() const;
    [[nodiscard]] bool hasSummaryDetails() const;
    // PEs that have a log (else a .sum, else a .sumd): the default PE selection.
    [[nodiscard]] std::vector<PeId> validPes() const;
    // PEs in [0, PROCESSORS) without a log although other PEs have one (or, for summary-only
    // runs, without a .sum).
    [[nodiscard]] std::vector<PeId> missingPes() const;
    // PEs without a file of one kind (`files.logPaths`, `sumPaths` or `sumdPaths`: one path per
    // PE, empty = none) although other PEs have one; empty when no PE or every PE has one.
    [[nodiscard]] static std::vector<PeId> pesLackingFile(const std::vector<std::string>& paths);

    // Earliest timestamp of any log record (0 without logs).
    [[nodiscard]] TimeUs beginTime() const;
    // End of the run: the maximum of the last timestamp over all logs (comm threads included),
    // the .projrc end time and, without logs, the summaries' bin ends. Java instead takes the
    // .projrc value alone when present (docs/format.md §4.0), which cuts comm-thread tails.
    [[nodiscard]] TimeUs endTime() const;
    [[nodiscard]] std::uint64_t eventCount() const;
    [[nodiscard]] std::size_t storeBytes() const;
};

using TracePtr = std::shared_ptr<const Trace>;

} // namespace parallax::core
