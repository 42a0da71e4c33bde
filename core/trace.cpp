#include "trace.h"

#include <algorithm>

namespace parallax::core {

// The scans below read only what a lazy table fills in up front (PE numbers, scalar fields,
// whether a PE has a summary), so they do not make a mapped index check every PE.
namespace {
template <typename T, typename F> bool anyRow(const PeTable<T>& table, F f)
{
    for (std::size_t i = 0; i < table.size(); ++i)
        if (f(table.peek(i)))
            return true;
    return false;
}
} // namespace

bool Trace::hasLogs() const
{
    return anyRow(pes, [](const PeTrace& p) { return p.hasLog; });
}

bool Trace::hasSummaries() const
{
    return anyRow(summaries, [](const auto& s) { return s.has_value(); });
}

bool Trace::hasSummaryDetails() const
{
    return anyRow(details, [](const auto& s) { return s.has_value(); });
}

ImportReport Trace::fullReport() const
{
    if (!lateIssues)
        return report;
    auto full = report;
    full.merge(lateIssues->snapshot());
    return full;
}

std::vector<PeId> Trace::validPes() const
{
    std::vector<PeId> out;
    if (hasLogs()) {
        for (std::size_t i = 0; i < pes.size(); ++i)
            if (pes.peek(i).hasLog)
                out.push_back(pes.peek(i).pe);
    } else if (hasSummaries()) {
        for (std::size_t i = 0; i < summaries.size(); ++i)
            if (summaries.peek(i))
                out.push_back(static_cast<PeId>(i));
    } else if (logsOnDemand()) {
        for (std::size_t i = 0; i < files.logPaths.size(); ++i)
            if (!files.logPaths[i].empty())
                out.push_back(static_cast<PeId>(i));
    } else {
        for (std::size_t i = 0; i < details.size(); ++i)
            if (details.peek(i))
                out.push_back(static_cast<PeId>(i));
    }
    return out;
}

std::vector<PeId> Trace::pesLackingFile(const std::vector<std::string>& paths)
{
    std::vector<PeId> out;
    const bool any
        = std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return !p.empty(); });
    if (!any)
        return out;
    for (std::size_t p = 0; p < paths.size(); ++p)
        if (paths[p].empty())
            out.push_back(static_cast<PeId>(p));
    return out;
}

std::vector<PeId> Trace::missingPes() const
{
    std::vector<PeId> out;
    const auto n = static_cast<std::size_t>(std::max<PeId>(metadata.processors, 0));
    if (hasLogs()) {
        for (std::size_t i = 0; i < n; ++i)
            if (i >= pes.size() || !pes.peek(i).hasLog)
                out.push_back(static_cast<PeId>(i));
    } else if (hasSummaries()) {
        for (std::size_t i = 0; i < n; ++i)
            if (i >= summaries.size() || !summaries.peek(i))
                out.push_back(static_cast<PeId>(i));
    }
    return out;
}

TimeUs Trace::beginTime() const
{
    TimeUs begin = -1;
    for (std::size_t i = 0; i < pes.size(); ++i)
        if (const auto& p = pes.peek(i);
            p.hasLog && p.firstTime >= 0 && (begin < 0 || p.firstTime < begin))
            begin = p.firstTime;
    return begin < 0 ? 0 : begin;
}

TimeUs Trace::endTime() const
{
    TimeUs end = std::max<TimeUs>(metadata.projrcEndTime, 0);
    bool logs = false;
    for (std::size_t i = 0; i < pes.size(); ++i) {
        if (const auto& p = pes.peek(i); p.hasLog) {
            logs = true;
            end = std::max(end, p.lastTime);
        }
    }
    if (!logs) {
        for (const auto& s : summaries)
            if (s)
                end = std::max(end, s->totalTime());
        for (const auto& d : details)
            if (d)
                end = std::max(end, d->totalTime());
    }
    return end;
}

std::uint64_t Trace::eventCount() const
{
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < pes.size(); ++i)
        n += pes.peek(i).recordCount;
    return n;
}

std::size_t Trace::storeBytes() const
{
    if (pes.lazy())
        return static_cast<std::size_t>(mappedStoreBytes);
    std::size_t n = 0;
    for (const auto& p : pes)
        n += p.memoryBytes();
    return n;
}

const RepresentativePe* ReducedRun::find(PeId pe) const
{
    const auto it = std::lower_bound(
        kept.begin(), kept.end(), pe, [](const RepresentativePe& k, PeId p) { return k.pe < p; });
    return it != kept.end() && it->pe == pe ? &*it : nullptr;
}

} // namespace parallax::core
