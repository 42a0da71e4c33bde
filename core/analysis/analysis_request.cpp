#include "analysis_request.h"

#include "core/trace.h"
#include "run_span.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace parallax::core::analysis {

std::string ActivityColumns::name(int c) const
{
    if (isEntry(c))
        return std::to_string(c);
    switch (c - entryCount) {
    case 0:
        return "overhead";
    case 1:
        return "idle";
    case 2:
        return "pack";
    case 3:
        return "unpack";
    default:
        return "?";
    }
}

std::size_t ResolvedRequest::aggregatedCount() const
{
    return static_cast<std::size_t>(std::count(aggregated.begin(), aggregated.end(), true));
}

std::string ActivityColumns::label(int c) const
{
    if (isEntry(c) && entryNames && static_cast<std::size_t>(c) < entryNames->size())
        return (*entryNames)[static_cast<std::size_t>(c)];
    return name(c);
}

TimeUs javaEndTime(const Trace& trace)
{
    if (trace.metadata.projrcEndTime > 0)
        return trace.metadata.projrcEndTime;
    TimeUs end = 0;
    for (const auto& s : trace.summaries)
        if (s)
            end = std::max(end, s->totalTime());
    for (const auto& d : trace.details)
        if (d)
            end = std::max(end, d->totalTime());
    for (std::size_t i = 0; i < trace.pes.size(); ++i) // scalar fields: no check of the PE
        if (const auto& p = trace.pes.peek(i); p.hasLog)
            end = std::max(end, p.lastTime);
    return end;
}

ResolvedRequest resolve(const Trace& trace, const AnalysisRequest& request)
{
    ResolvedRequest r;
    r.mode = request.mode;
    r.columns.entryCount = static_cast<int>(trace.metadata.entries.size());
    {
        auto names = std::make_shared<std::vector<std::string>>();
        names->reserve(trace.metadata.entries.size());
        for (const auto& entry : trace.metadata.entries)
            names->push_back(entry.name);
        r.columns.entryNames = std::move(names);
    }
    // Correct mode: the span the run was traced (comm-thread tails and start-up excluded);
    // compat mode: Java's [0, its end time].
    const bool java = request.mode == Mode::JavaCompat;
    const TimeRange span = java ? TimeRange { 0, javaEndTime(trace) } : tracedRunSpan(trace);
    const TimeUs runEnd = span.end;
    if (request.range.begin == 0 && request.range.end == 0) {
        r.range = span;
    } else {
        r.range = request.range;
        if (r.range.end == kTimeMax)
            r.range.end = std::max(runEnd, r.range.begin + 1);
    }
    auto valid = trace.validPes();
    // A reduced run: the PEs without a log, from their summaries.
    if (request.summaryFallback && !java && trace.hasLogs()) {
        const auto count = std::max(trace.summaries.size(), trace.details.size());
        for (std::size_t p = 0; p < count; ++p) {
            const bool summary = (p < trace.summaries.size() && trace.summaries[p])
                || (p < trace.details.size() && trace.details[p]);
            const bool log = p < trace.pes.size() && trace.pes[p].hasLog;
            if (!log && summary)
                r.fromSummary.push_back(static_cast<PeId>(p));
        }
        std::vector<PeId> all;
        std::set_union(valid.begin(), valid.end(), r.fromSummary.begin(), r.fromSummary.end(),
            std::back_inserter(all));
        valid = std::move(all);
    }
    if (request.pes.empty()) {
        r.pes = valid;
    } else {
        std::vector<PeId> wanted = request.pes;
        std::sort(wanted.begin(), wanted.end());
        std::set_intersection(
            valid.begin(), valid.end(), wanted.begin(), wanted.end(), std::back_inserter(r.pes));
    }
    if (!r.fromSummary.empty()) {
        std::vector<PeId> selected;
        std::set_intersection(r.fromSummary.begin(), r.fromSummary.end(), r.pes.begin(),
            r.pes.end(), std::back_inserter(selected));
        r.fromSummary = std::move(selected);
    }
    // Comm threads apart, unless asked for, in compat mode, or when no worker PE is selected.
    const auto& metadata = trace.metadata;
    const bool anyWorker = std::any_of(
        r.pes.begin(), r.pes.end(), [&](PeId pe) { return !metadata.isCommThread(pe); });
    const bool all = java || request.includeCommThreads || !anyWorker;
    r.aggregated.reserve(r.pes.size());
    for (const auto pe : r.pes) {
        const bool in = all || !metadata.isCommThread(pe);
        r.aggregated.push_back(in);
        if (!in)
            r.apart.push_back(pe);
    }
    r.entrySelected.assign(trace.metadata.entries.size(), request.entries.empty());
    for (auto e : request.entries)
        if (e >= 0 && static_cast<std::size_t>(e) < r.entrySelected.size())
            r.entrySelected[static_cast<std::size_t>(e)] = true;
    const unsigned hw = std::max(1U, std::thread::hardware_concurrency());
    r.threads = request.threads == 0 ? hw : std::min(request.threads, 256U);
    return r;
}

bool parallelFor(std::size_t count, unsigned threads, const Progress& progress,
    const std::function<void(std::size_t)>& fn)
{
    std::atomic<std::size_t> next { 0 };
    std::atomic<std::size_t> done { 0 };
    std::atomic<bool> stop { false };
    std::mutex reportMutex;
    auto worker = [&]() {
        for (;;) {
            if (stop.load())
                return;
            const auto k = next.fetch_add(1);
            if (k >= count)
                return;
            if (progress.isCancelled()) {
                stop = true;
                return;
            }
            fn(k);
            const auto d = ++done;
            if (progress.report) {
                std::lock_guard lock(reportMutex);
                progress.report(static_cast<double>(d) / static_cast<double>(count));
            }
        }
    };
    const auto n = static_cast<unsigned>(
        std::min<std::size_t>(std::max(threads, 1U), std::max<std::size_t>(count, 1)));
    if (n <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(n);
        for (unsigned t = 0; t < n; ++t)
            pool.emplace_back(worker);
        for (auto& t : pool)
            t.join();
    }
    return !stop.load() && !progress.isCancelled();
}

} // namespace parallax::core::analysis
