#include "run_span.h"

#include "core/trace.h"

#include <algorithm>

namespace parallax::core::analysis {

TimeRange tracedRunSpan(const Trace& trace)
{
    const auto& metadata = trace.metadata;
    // A reduced run: the span of the run it was reduced from (its kept PEs are only a few).
    if (trace.reduced && !trace.reduced->sourceSpan.empty())
        return trace.reduced->sourceSpan;
    TimeUs begin = -1;
    TimeUs end = -1;
    for (std::size_t p = 0; p < trace.pes.size(); ++p) {
        // Scalar fields only: peek, so that a mapped index does not check every PE for this.
        const auto& pe = trace.pes.peek(p);
        if (!pe.hasLog || pe.firstTime < 0 || metadata.isCommThread(static_cast<PeId>(p)))
            continue;
        const TimeUs b = pe.beginComputation >= 0 ? pe.beginComputation : pe.firstTime;
        const TimeUs e = pe.endComputation >= 0 ? pe.endComputation : pe.lastTime;
        begin = begin < 0 ? b : std::min(begin, b);
        end = std::max(end, e);
    }
    const TimeUs runEnd = trace.endTime();
    if (begin < 0) { // no worker log: summaries only, or nothing
        const TimeUs projrc = metadata.projrcEndTime;
        return { 0, std::max<TimeUs>(projrc > 0 ? std::min(projrc, runEnd) : runEnd, 1) };
    }
    if (metadata.projrcEndTime > begin)
        end = metadata.projrcEndTime;
    end = std::min(std::max(end, begin + 1), std::max(runEnd, begin + 1));
    return { begin, end };
}

} // namespace parallax::core::analysis
