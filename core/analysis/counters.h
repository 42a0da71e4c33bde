#pragma once

#include "analysis_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Hardware counters (PAPI values on BEGIN/END_PROCESSING, or the per-entry totals of the old
// counter tracemode's NAME.N.count files) per entry method and PE: how many executions were
// measured, how long they ran and how much of each counter they used.
struct CounterCell {
    double calls = 0.0; // executions measured
    double timeUs = 0.0; // their execution time
    double total = 0.0; // the counter's increase over them
};

struct CounterTable {
    std::vector<std::string> names; // per counter: PAPI_TOT_INS, INSTR, ...
    std::vector<std::string> descriptions; // per counter; empty when the source has none
    std::vector<PeId> pes; // the PEs of the table, sorted
    int entryCount = 0;
    std::vector<CounterCell> cells; // [(counter * pes.size() + peIndex) * entryCount + entry]
    // From logs: executions in the range that could not be measured (no END_PROCESSING with
    // counters, or a counter that went backwards).
    std::uint64_t unmeasured = 0;

    [[nodiscard]] std::size_t counterCount() const { return names.size(); }
    [[nodiscard]] CounterCell& at(std::size_t counter, std::size_t peIndex, int entry);
    [[nodiscard]] const CounterCell& at(std::size_t counter, std::size_t peIndex, int entry) const;
    // Allocates the cells for names.size() counters, pes and entryCount entries.
    void resize();
};

// From the logs: for every execution of the selected entries on the selected PEs that begins in
// the range, the counters at its END minus those at its BEGIN (PAPI values exist for logs of
// VERSION >= 6.6 whose .sts declares PAPI_EVENT lines). Nullopt when cancelled.
std::optional<CounterTable> countersFromLogs(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// Whether the run's logs carry hardware counters at all.
bool hasCounterValues(const Trace& trace);

// The table summed per entry method (over the PEs), per PE (over the entries) or per PE and
// entry, keeping only the given PEs and entries (empty: all).
enum class CounterGrouping : std::uint8_t { Entry, Pe, PeEntry };
struct CounterRow {
    PeId pe = kNoPe; // Pe, PeEntry
    EntryId entry = kNoEntry; // Entry, PeEntry
    std::vector<CounterCell> counters; // per counter
};
std::vector<CounterRow> summarizeCounters(const CounterTable& table, CounterGrouping grouping,
    const std::vector<PeId>& pes = {}, const std::vector<EntryId>& entries = {});

// The rate of a cell: counter units per µs of execution (0 without execution time).
inline double perMicrosecond(const CounterCell& cell)
{
    return cell.timeUs > 0.0 ? cell.total / cell.timeUs : 0.0;
}

} // namespace parallax::core::analysis
