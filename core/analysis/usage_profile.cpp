#include "usage_profile.h"

#include "core/trace.h"
#include "java_event_stream.h"
#include "pe_activity.h"
#include "summary_profiles.h"

namespace parallax::core::analysis {

namespace {

// Replay of Java's UsageCalc for one PE. Java accumulates in float; we keep doubles (the
// difference is far below the 0.01-point display precision).
void javaUsage(const PeTrace& pe, const ResolvedRequest& r, double* exec, double* send)
{
    using Kind = JavaEvent::Kind;
    const TimeUs B = r.range.begin;
    const TimeUs E = r.range.end;
    const int entries = r.columns.entryCount;
    // Java's columns: entries, PACK, UNPACK, IDLE.
    double pack = 0;
    double unpack = 0;
    double idle = 0;
    int countflag = 0;
    EntryId current = -1;
    TimeUs startTime = 0;
    TimeUs packStart = 0;
    TimeUs unpackStart = 0;
    TimeUs packTime = 0;
    TimeUs unpackTime = 0;
    bool isProcessing = false;
    EntryId lastBeginEntry = -1;

    auto clampTime = [&](TimeUs t) {
        if (!(t > B + 1)) {
            t = B;
            countflag = 0;
        } else if (countflag != 2) {
            countflag = 1;
        }
        if (t > E) {
            t = E;
            countflag = 2;
        } else if (countflag != 0) {
            countflag = 1;
        }
        return t;
    };
    auto calc = [&](Kind type, EntryId entry, TimeUs rawTime) {
        const TimeUs time = clampTime(rawTime);
        switch (type) {
        case Kind::BeginProcessing:
            packTime = 0;
            unpackTime = 0;
            current = entry;
            startTime = time;
            break;
        case Kind::EndProcessing:
            if (current == -1)
                break;
            current = entry;
            if (current >= 0 && current < entries)
                exec[current] += static_cast<double>((time - startTime) - packTime - unpackTime);
            break;
        case Kind::BeginIdle:
            startTime = time;
            break;
        case Kind::EndIdle:
            idle += static_cast<double>(time - startTime);
            break;
        case Kind::BeginPack:
            packStart = time;
            break;
        case Kind::EndPack:
            packTime += time - packStart;
            pack += static_cast<double>(time - packStart);
            break;
        case Kind::BeginUnpack:
            unpackStart = time;
            break;
        case Kind::EndUnpack:
            unpackTime += time - unpackStart;
            unpack += static_cast<double>(time - unpackStart);
            break;
        default:
            break;
        }
    };

    TimeUs time = 0;
    for (const auto& e : javaEventStream(pe, { true, true })) {
        if (!(time < E))
            break;
        time = e.time;
        switch (e.kind) {
        case Kind::BeginIdle:
        case Kind::EndIdle:
            if (isProcessing) {
                calc(Kind::EndProcessing, lastBeginEntry, e.time);
                isProcessing = false;
            }
            calc(e.kind, 0, time);
            break;
        case Kind::BeginPack:
        case Kind::EndPack:
        case Kind::BeginUnpack:
        case Kind::EndUnpack:
            calc(e.kind, 0, time);
            break;
        case Kind::BeginProcessing:
            if (isProcessing)
                calc(Kind::EndProcessing, lastBeginEntry, e.time);
            calc(e.kind, e.entry, time);
            isProcessing = true;
            lastBeginEntry = e.entry;
            break;
        case Kind::EndProcessing:
            if (!isProcessing)
                break;
            calc(e.kind, e.entry, time);
            isProcessing = false;
            break;
        case Kind::Creation:
            // The send duration counts only when the last other record was inside the range.
            if (countflag == 1 && current >= 0 && current < entries)
                send[current] += static_cast<double>(e.value);
            break;
        default:
            break;
        }
    }
    exec[r.columns.pack()] = pack;
    exec[r.columns.unpack()] = unpack;
    exec[r.columns.idle()] = idle;
}

} // namespace

std::optional<UsageProfile> computeUsageProfile(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    UsageProfile u;
    u.range = r.range;
    u.columns = r.columns;
    u.pes = r.pes;
    u.fromSummary = r.fromSummary;
    const auto width = static_cast<std::size_t>(r.columns.count());
    u.percent.assign(r.pes.size() * width, 0.0);
    u.sendPercent.assign(r.pes.size() * width, 0.0);
    const double length = static_cast<double>(std::max<TimeUs>(r.range.length(), 1));
    const bool logs = trace.hasLogs();
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        double* row = u.percent.data() + k * width;
        double* sendRow = u.sendPercent.data() + k * width;
        std::vector<double> us(width, 0.0);
        std::vector<double> sendUs(width, 0.0);
        const auto& pe = r.pes[k];
        if (!logs || r.isFromSummary(pe)) {
            us = usageFromSummaries(trace, pe, r);
        } else if (r.mode == Mode::JavaCompat) {
            javaUsage(trace.pes[static_cast<std::size_t>(pe)], r, us.data(), sendUs.data());
            for (std::size_t c = 0; c < width; ++c)
                us[c] -= sendUs[c];
        } else {
            IntervalGrid whole;
            whole.origin = r.range.begin;
            whole.size = std::max<TimeUs>(r.range.length(), 1);
            whole.count = 1;
            accumulateActivity(trace.pes[static_cast<std::size_t>(pe)], whole, r.columns, us);
        }
        for (std::size_t c = 0; c < width; ++c) {
            row[c] = us[c] * 100.0 / length;
            sendRow[c] = sendUs[c] * 100.0 / length;
        }
    });
    if (!ok)
        return std::nullopt;
    for (std::size_t e = 0; e < r.entrySelected.size(); ++e)
        if (!r.entrySelected[e])
            for (std::size_t k = 0; k < r.pes.size(); ++k)
                u.percent[k * width + e] = u.sendPercent[k * width + e] = 0.0;
    u.average.assign(width, 0.0);
    u.averageSend.assign(width, 0.0);
    // The average covers the worker PEs; comm threads are kept apart (ResolvedRequest).
    for (std::size_t k = 0; k < r.pes.size(); ++k) {
        if (!r.isAggregated(k))
            continue;
        for (std::size_t c = 0; c < width; ++c) {
            u.average[c] += u.percent[k * width + c];
            u.averageSend[c] += u.sendPercent[k * width + c];
        }
    }
    u.apart = r.apart;
    const double n = static_cast<double>(std::max<std::size_t>(r.aggregatedCount(), 1));
    for (std::size_t c = 0; c < width; ++c) {
        u.average[c] /= n;
        u.averageSend[c] /= n;
    }
    return u;
}

} // namespace parallax::core::analysis
