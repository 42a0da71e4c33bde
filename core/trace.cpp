#include "trace.h"

#include <algorithm>

namespace parallax::core {

bool Trace::hasLogs() const
{
    return std::any_of(pes.begin(), pes.end(), [](const PeTrace& p) { return p.hasLog; });
}

bool Trace::hasSummaries() const
{
    return std::any_of(
        summaries.begin(), summaries.end(), [](const auto& s) { return s.has_value(); });
}

bool Trace::hasSummaryDetails() const
{
    return std::any_of(details.begin(), details.end(), [](const auto& s) { return s.has_value(); });
}

std::vector<PeId> Trace::validPes() const
{
    std::vector<PeId> out;
    if (hasLogs()) {
        for (const auto& p : pes)
            if (p.hasLog)
                out.push_back(p.pe);
    } else if (hasSummaries()) {
        for (std::size_t i = 0; i < summaries.size(); ++i)
            if (summaries[i])
                out.push_back(static_cast<PeId>(i));
    } else if (logsOnDemand()) {
        for (std::size_t i = 0; i < files.logPaths.size(); ++i)
            if (!files.logPaths[i].empty())
                out.push_back(static_cast<PeId>(i));
    } else {
        for (std::size_t i = 0; i < details.size(); ++i)
            if (details[i])
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
            if (i >= pes.size() || !pes[i].hasLog)
                out.push_back(static_cast<PeId>(i));
    } else if (hasSummaries()) {
        for (std::size_t i = 0; i < n; ++i)
            if (i >= summaries.size() || !summaries[i])
                out.push_back(static_cast<PeId>(i));
    }
    return out;
}

TimeUs Trace::beginTime() const
{
    TimeUs begin = -1;
    for (const auto& p : pes)
        if (p.hasLog && p.firstTime >= 0 && (begin < 0 || p.firstTime < begin))
            begin = p.firstTime;
    return begin < 0 ? 0 : begin;
}

TimeUs Trace::endTime() const
{
    TimeUs end = std::max<TimeUs>(metadata.projrcEndTime, 0);
    bool logs = false;
    for (const auto& p : pes) {
        if (p.hasLog) {
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
    for (const auto& p : pes)
        n += p.recordCount;
    return n;
}

std::size_t Trace::storeBytes() const
{
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
