#include "animation.h"

#include "core/trace.h"
#include "csv_export.h"
#include "overview.h"
#include "pe_activity.h"

#include <algorithm>

namespace parallax::core::analysis {

double UtilizationFrames::meanOf(std::int64_t frame) const
{
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t k = 0; k < pes.size(); ++k) {
        const float v = at(frame, k);
        if (!std::isnan(v)) {
            sum += static_cast<double>(v);
            ++n;
        }
    }
    return n == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(n);
}

std::optional<UtilizationFrames> computeAnimation(const Trace& trace,
    const AnalysisRequest& request, const AnimationOptions& options, const Progress& progress)
{
    AnalysisRequest correct = request;
    correct.mode = Mode::Correct;
    const auto r = resolve(trace, correct);
    UtilizationFrames out;
    out.apart = r.apart;
    for (std::size_t k = 0; k < r.pes.size(); ++k)
        if (r.isAggregated(k))
            out.pes.push_back(r.pes[k]);
    const bool logs = trace.hasLogs();
    out.fromSummaries = !logs;
    // The Overview's grid (never finer than the .sum bins without logs), or frames of the size
    // asked for, likewise never finer than those bins.
    if (options.intervalSize > 0) {
        out.grid = gridForRange(r.range, options.intervalSize, 0);
        if (!logs) {
            const auto coarse = overviewGrid(trace, r, { 1 << 30 });
            if (coarse.size > out.grid.size)
                out.grid = gridForRange(r.range, coarse.size, 0);
        }
    } else {
        out.grid = overviewGrid(trace, r, { options.frames > 0 ? options.frames : 50 });
    }
    const auto n = out.pes.size();
    out.utilization.assign(
        static_cast<std::size_t>(out.grid.count) * n, std::numeric_limits<float>::quiet_NaN());
    const bool ok = parallelFor(n, r.threads, progress, [&](std::size_t k) {
        const PeId pe = out.pes[k];
        ActivityCollector scratch;
        SparseActivityRows rows;
        overviewActivityRows(trace, pe, out.grid, r.columns, logs, scratch, rows);
        std::vector<TracedSpan> traced;
        if (logs && static_cast<std::size_t>(pe) < trace.pes.size())
            traced = tracedSpans(trace.pes[static_cast<std::size_t>(pe)]);
        for (std::int64_t f = 0; f < out.grid.count; ++f) {
            const auto cell = overviewCell(rows, out.grid, f, r.columns);
            // Data: the PE was traced during the frame (logs), or its summaries cover it.
            const bool data = logs ? std::any_of(traced.begin(), traced.end(),
                                  [&](const TracedSpan& t) {
                                      return t.begin < out.grid.end(f) && t.end > out.grid.begin(f);
                                  })
                                   : cell.utilization > 0 || cell.idle > 0;
            if (data)
                out.utilization[static_cast<std::size_t>(f) * n + k]
                    = std::clamp(cell.utilization, 0.0F, 100.0F);
        }
    });
    if (!ok)
        return std::nullopt;
    return out;
}

std::string animationCsv(const UtilizationFrames* frames)
{
    std::string out = "frame,begin_us,end_us,pe,utilization_pct\n";
    if (frames == nullptr)
        return out;
    for (std::int64_t f = 0; f < frames->frameCount(); ++f)
        for (std::size_t k = 0; k < frames->pes.size(); ++k) {
            const float v = frames->at(f, k);
            if (std::isnan(v))
                continue;
            out += std::to_string(f) + "," + std::to_string(frames->grid.begin(f)) + ","
                + std::to_string(frames->grid.end(f)) + "," + std::to_string(frames->pes[k]) + ","
                + formatCsvNumber(static_cast<double>(v)) + "\n";
        }
    return out;
}

} // namespace parallax::core::analysis
