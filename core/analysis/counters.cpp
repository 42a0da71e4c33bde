#include "counters.h"

#include "core/trace.h"

#include <algorithm>
#include <map>

namespace parallax::core::analysis {

namespace {

std::size_t cellIndex(const CounterTable& t, std::size_t counter, std::size_t peIndex, int entry)
{
    return (counter * t.pes.size() + peIndex) * static_cast<std::size_t>(t.entryCount)
        + static_cast<std::size_t>(entry);
}

void add(CounterCell& into, const CounterCell& cell)
{
    into.calls += cell.calls;
    into.timeUs += cell.timeUs;
    into.total += cell.total;
}

} // namespace

CounterCell& CounterTable::at(std::size_t counter, std::size_t peIndex, int entry)
{
    return cells[cellIndex(*this, counter, peIndex, entry)];
}

const CounterCell& CounterTable::at(std::size_t counter, std::size_t peIndex, int entry) const
{
    return cells[cellIndex(*this, counter, peIndex, entry)];
}

void CounterTable::resize()
{
    descriptions.resize(names.size());
    cells.assign(names.size() * pes.size() * static_cast<std::size_t>(std::max(entryCount, 0)), {});
}

bool hasCounterValues(const Trace& trace)
{
    if (trace.metadata.papiEvents.empty() || trace.metadata.version < 6.6)
        return false;
    return std::any_of(trace.pes.begin(), trace.pes.end(),
        [](const PeTrace& pe) { return !pe.executions.papi.empty(); });
}

std::optional<CounterTable> countersFromLogs(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    CounterTable table;
    table.names = trace.metadata.papiEvents;
    table.pes = r.pes;
    table.entryCount = static_cast<int>(trace.metadata.entries.size());
    table.resize();
    const auto n = table.names.size();
    if (n == 0)
        return table;
    for (std::size_t k = 0; k < r.pes.size(); ++k) {
        if (progress.isCancelled())
            return std::nullopt;
        const auto p = static_cast<std::size_t>(r.pes[k]);
        if (p >= trace.pes.size())
            continue;
        const auto& ex = trace.pes[p].executions;
        if (ex.papi.size() != ex.size() * 2 * n)
            continue;
        // Executions that begin in the range: begin is sorted.
        const auto first = static_cast<std::size_t>(
            std::lower_bound(ex.begin.begin(), ex.begin.end(), r.range.begin) - ex.begin.begin());
        for (std::size_t i = first; i < ex.size() && ex.begin[i] < r.range.end; ++i) {
            const int entry = ex.entry[i];
            if (entry >= table.entryCount || !r.entrySelected[static_cast<std::size_t>(entry)])
                continue;
            // Ended by its own END_PROCESSING (only that one carries the counters at the end).
            const bool measured = (ex.flags[i] & ~kTimeClamped & ~kEndEntryMismatch) == 0;
            const auto* begin = &ex.papi[i * 2 * n];
            const auto* end = begin + n;
            bool ok = measured;
            for (std::size_t c = 0; c < n && ok; ++c)
                ok = end[c] >= begin[c];
            if (!ok) {
                ++table.unmeasured;
                continue;
            }
            const auto duration = static_cast<double>(ex.end[i] - ex.begin[i]);
            for (std::size_t c = 0; c < n; ++c) {
                auto& cell = table.at(c, k, entry);
                cell.calls += 1.0;
                cell.timeUs += duration;
                cell.total += static_cast<double>(end[c] - begin[c]);
            }
        }
        if (progress.report)
            progress.report(static_cast<double>(k + 1) / static_cast<double>(r.pes.size()));
    }
    return table;
}

std::vector<CounterRow> summarizeCounters(const CounterTable& table, CounterGrouping grouping,
    const std::vector<PeId>& pes, const std::vector<EntryId>& entries)
{
    const auto n = table.counterCount();
    auto wantedPe = [&pes](PeId pe) {
        return pes.empty() || std::find(pes.begin(), pes.end(), pe) != pes.end();
    };
    auto wantedEntry = [&entries](EntryId e) {
        return entries.empty() || std::find(entries.begin(), entries.end(), e) != entries.end();
    };
    std::map<std::pair<PeId, EntryId>, CounterRow> rows;
    for (std::size_t k = 0; k < table.pes.size(); ++k) {
        const PeId pe = table.pes[k];
        if (!wantedPe(pe))
            continue;
        for (int e = 0; e < table.entryCount; ++e) {
            if (!wantedEntry(e))
                continue;
            const PeId rowPe = grouping == CounterGrouping::Entry ? kNoPe : pe;
            const EntryId rowEntry = grouping == CounterGrouping::Pe ? kNoEntry : e;
            CounterRow* row = nullptr;
            for (std::size_t c = 0; c < n; ++c) {
                const auto& cell = table.at(c, k, e);
                if (cell.calls <= 0.0 && cell.total == 0.0)
                    continue;
                if (row == nullptr) {
                    row = &rows[{ rowPe, rowEntry }];
                    row->pe = rowPe;
                    row->entry = rowEntry;
                    row->counters.resize(n);
                }
                add(row->counters[c], cell);
            }
        }
    }
    std::vector<CounterRow> out;
    out.reserve(rows.size());
    for (auto& [key, row] : rows)
        out.push_back(std::move(row));
    return out;
}

} // namespace parallax::core::analysis
