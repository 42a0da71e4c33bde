#include "time_profile.h"

#include "core/trace.h"
#include "java_interval_engine.h"
#include "pe_activity.h"
#include "summary_profiles.h"
#include "time_split.h"

#include <mutex>

namespace parallax::core::analysis {

double TimeProfile::percent(std::int64_t interval, int column) const
{
    const double denominator = static_cast<double>(grid.size) * static_cast<double>(peCount);
    return denominator > 0 ? at(interval, column) * 100.0 / denominator : 0.0;
}

namespace {

// Java's accumulation (TimeProfileWindow): idle enters as the truncated integer percentage,
// overhead is the rest of the interval, everything is scaled to % and an interval with a
// negative component or a sum above 105 % is zeroed ("bad interval" filter).
void accumulateJava(const JavaIntervalTimes& t, const IntervalGrid& grid,
    const ActivityColumns& cols, std::vector<double>& out)
{
    const auto width = static_cast<std::size_t>(cols.count());
    const auto entries = static_cast<std::size_t>(cols.entryCount);
    const double size = static_cast<double>(grid.size);
    for (std::size_t i = 0; i < static_cast<std::size_t>(grid.count); ++i) {
        double* row = out.data() + i * width;
        double sum = 0;
        for (std::size_t e = 0; e < entries; ++e) {
            const auto v = static_cast<double>(t.entryTime[i * entries + e]);
            row[e] += v;
            sum += v;
        }
        const auto idlePct = t.idleTime[i] * 100 / grid.size; // long arithmetic, truncated
        const double idle = static_cast<double>(idlePct) * 0.01 * size;
        row[static_cast<std::size_t>(cols.idle())] += idle;
        row[static_cast<std::size_t>(cols.overhead())] += size - sum - idle;
    }
}

void applyJavaFilter(TimeProfile& p)
{
    const auto width = static_cast<std::size_t>(p.columns.count());
    for (std::int64_t i = 0; i < p.grid.count; ++i) {
        double sum = 0;
        bool negative = false;
        for (std::size_t c = 0; c < width; ++c) {
            const double v = p.percent(i, static_cast<int>(c));
            negative = negative || v < 0;
            sum += v;
        }
        if (negative || sum > 105.0)
            std::fill_n(
                p.time.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * width),
                width, 0.0);
    }
}

} // namespace

std::optional<TimeProfile> computeTimeProfile(const Trace& trace, const AnalysisRequest& request,
    const TimeProfileOptions& options, const Progress& progress)
{
    const auto r = resolve(trace, request);
    if (!trace.hasLogs())
        return timeProfileFromSummaries(trace, r, options);
    TimeProfile profile;
    profile.columns = r.columns;
    profile.peCount = r.aggregatedCount();
    profile.apart = r.apart;
    const bool java = r.mode == Mode::JavaCompat;
    if (java) {
        TimeUs size = options.intervalSize;
        if (size <= 0 && options.bins > 0)
            size = std::max<TimeUs>(r.range.length() / options.bins, 1);
        profile.grid = javaGrid(r.range, size);
    } else {
        profile.grid = gridForRange(r.range, options.intervalSize, options.bins);
    }
    const auto width = static_cast<std::size_t>(profile.columns.count());
    profile.time.assign(static_cast<std::size_t>(profile.grid.count) * width, 0.0);
    std::mutex merge;
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        if (!r.isAggregated(k)) // comm threads apart: no idle records, relays
            return;
        const auto& pe = trace.pes[static_cast<std::size_t>(r.pes[k])];
        std::vector<double> local(profile.time.size(), 0.0);
        if (java) {
            accumulateJava(runJavaIntervalEngine(pe, profile.grid, r.columns.entryCount),
                profile.grid, r.columns, local);
        } else {
            accumulateActivity(pe, profile.grid, r.columns, local);
        }
        std::lock_guard lock(merge);
        for (std::size_t i = 0; i < local.size(); ++i)
            profile.time[i] += local[i];
    });
    if (!ok)
        return std::nullopt;
    if (java)
        applyJavaFilter(profile);
    // Entry methods outside the selection are not shown.
    for (std::size_t e = 0; e < r.entrySelected.size(); ++e)
        if (!r.entrySelected[e])
            for (std::int64_t i = 0; i < profile.grid.count; ++i)
                profile.time[static_cast<std::size_t>(i) * width + e] = 0.0;
    return profile;
}

} // namespace parallax::core::analysis
