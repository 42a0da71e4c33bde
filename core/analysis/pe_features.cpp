#include "pe_features.h"

#include "core/trace.h"
#include "pe_activity.h"
#include "summary_profiles.h"
#include "usage_profile.h"

#include <algorithm>
#include <utility>

namespace parallax::core::analysis {

namespace {

// Keeps the entry methods with time on some PE as the dimensions and lays the values out.
void fillDimensions(PeFeatures& f, const std::vector<std::vector<std::pair<EntryId, double>>>& used,
    std::size_t entries)
{
    std::vector<int> dimOf(entries, -1);
    for (const auto& row : used)
        for (const auto& [e, us] : row)
            dimOf[static_cast<std::size_t>(e)] = 0;
    for (std::size_t e = 0; e < entries; ++e)
        if (dimOf[e] == 0) {
            dimOf[e] = static_cast<int>(f.dims.size());
            f.dims.push_back(static_cast<EntryId>(e));
        }
    f.values.assign(f.pes.size() * f.dims.size(), 0.0);
    for (std::size_t i = 0; i < f.pes.size(); ++i)
        for (const auto& [e, us] : used[i])
            f.values[i * f.dims.size()
                + static_cast<std::size_t>(dimOf[static_cast<std::size_t>(e)])]
                = us;
}

} // namespace

std::optional<PeFeatures> computePeFeatures(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    PeFeatures f;
    f.range = r.range;
    f.apart = r.apart;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (r.isAggregated(k))
            f.pes.push_back(r.pes[k]);
    const auto entries = static_cast<std::size_t>(r.columns.entryCount);
    const auto width = static_cast<std::size_t>(r.columns.count());
    // Per PE only its non-zero entry times (a run may declare far more entry methods than run).
    std::vector<std::vector<std::pair<EntryId, double>>> used(f.pes.size());
    const bool logs = trace.hasLogs();
    const bool ok = parallelFor(f.pes.size(), r.threads, progress, [&](std::size_t i) {
        const auto pe = f.pes[i];
        std::vector<double> us;
        if (!logs) {
            us = usageFromSummaries(trace, pe, r);
        } else {
            us.assign(width, 0.0);
            IntervalGrid whole;
            whole.origin = r.range.begin;
            whole.size = std::max<TimeUs>(r.range.length(), 1);
            whole.count = 1;
            accumulateActivity(trace.pes[static_cast<std::size_t>(pe)], whole, r.columns, us);
        }
        for (std::size_t e = 0; e < std::min(entries, us.size()); ++e)
            if (us[e] != 0.0 && r.entrySelected[e])
                used[i].emplace_back(static_cast<EntryId>(e), us[e]);
    });
    if (!ok)
        return std::nullopt;
    fillDimensions(f, used, entries);
    return f;
}

PeFeatures featuresFromUsage(const UsageProfile& usage)
{
    PeFeatures f;
    f.range = usage.range;
    f.apart = usage.apart;
    const auto entries = static_cast<std::size_t>(usage.columns.entryCount);
    const double length = static_cast<double>(usage.range.length());
    std::vector<std::vector<std::pair<EntryId, double>>> used;
    for (std::size_t k = 0; k < usage.pes.size(); ++k) {
        if (std::find(usage.apart.begin(), usage.apart.end(), usage.pes[k]) != usage.apart.end())
            continue;
        f.pes.push_back(usage.pes[k]);
        auto& row = used.emplace_back();
        for (std::size_t e = 0; e < entries; ++e) {
            const double us = usage.at(k, static_cast<int>(e)) * length / 100.0;
            if (us != 0.0)
                row.emplace_back(static_cast<EntryId>(e), us);
        }
    }
    fillDimensions(f, used, entries);
    return f;
}

} // namespace parallax::core::analysis
