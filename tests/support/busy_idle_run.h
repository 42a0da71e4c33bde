#pragma once

// Hand-made runs for tests. handMadeTrace and handMadeRecord: the symbol table and the records
// of a small run written by hand. busyIdleRun: PE p runs entry 0 ("Main::work()") over
// [0, busy[p]) and idles from there to `end`; traced over [0, end), no SMP.

#include "core/pe_trace_builder.h"
#include "core/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace parallax::test {

// A run of `processors` PEs, one a node (no SMP), with no PE traced yet: version 11.0, one chare
// "Main" and its entry methods named `entries` (ids 0, 1, ...).
inline std::shared_ptr<core::Trace> handMadeTrace(
    core::PeId processors, const std::vector<std::string>& entries)
{
    auto trace = std::make_shared<core::Trace>();
    auto& m = trace->metadata;
    m.version = 11.0;
    m.processors = processors;
    m.numNodes = processors;
    m.chares.push_back({ "Main", -1 });
    for (const auto& name : entries)
        m.entries.push_back({ name, 0, -1 });
    return trace;
}

// A record of a hand-written log; `pe` and `msgBytes` are the message's sender and size (of a
// BEGIN_PROCESSING or a CREATION).
inline core::LogRecord handMadeRecord(core::RecordType type, core::TimeUs t,
    core::EntryId entry = core::kNoEntry, core::PeId pe = core::kNoPe, std::int32_t msgBytes = -1)
{
    core::LogRecord r;
    r.type = type;
    r.time = t;
    r.entry = entry;
    r.pe = pe;
    r.msgBytes = msgBytes;
    return r;
}

// PEs 0 .. count-1 traced over [0, end) with no SMP, their one entry 0 ("Main::work()"):
// records(pe, add) writes each PE's records between its BeginComputation and EndComputation
// through add(type, time, entry).
template <typename Records>
core::TracePtr handMadeRun(core::PeId count, core::TimeUs end, Records&& records)
{
    auto trace = handMadeTrace(count, { "Main::work()" });
    const auto& m = trace->metadata;
    core::ImportReport report;
    for (core::PeId pe = 0; pe < count; ++pe) {
        core::PeTraceBuilder b(pe, m, "run.log", report);
        std::uint64_t line = 1;
        const auto add = [&](core::RecordType type, core::TimeUs t, core::EntryId entry) {
            b.add(handMadeRecord(type, t, entry, pe), ++line);
        };
        add(core::RecordType::BeginComputation, 0, core::kNoEntry);
        records(pe, add);
        add(core::RecordType::EndComputation, end, core::kNoEntry);
        trace->pes.push_back(b.finish());
    }
    const auto pes = static_cast<std::size_t>(count);
    trace->files.logPaths.assign(pes, "run.log");
    trace->summaries.resize(pes);
    trace->details.resize(pes);
    return trace;
}

inline core::TracePtr busyIdleRun(const std::vector<core::TimeUs>& busy, core::TimeUs end)
{
    return handMadeRun(static_cast<core::PeId>(busy.size()), end, [&](core::PeId pe, auto& add) {
        const core::TimeUs until = busy[static_cast<std::size_t>(pe)];
        add(core::RecordType::BeginProcessing, 0, 0);
        add(core::RecordType::EndProcessing, until, 0);
        add(core::RecordType::BeginIdle, until, core::kNoEntry);
        add(core::RecordType::EndIdle, end, core::kNoEntry);
    });
}

// PE p runs entry 0 over spans[p] (in order) and nothing else, traced over [0, end).
inline core::TracePtr spansRun(
    const std::vector<std::vector<std::pair<core::TimeUs, core::TimeUs>>>& spans, core::TimeUs end)
{
    return handMadeRun(static_cast<core::PeId>(spans.size()), end, [&](core::PeId pe, auto& add) {
        for (const auto& [from, to] : spans[static_cast<std::size_t>(pe)]) {
            add(core::RecordType::BeginProcessing, from, 0);
            add(core::RecordType::EndProcessing, to, 0);
        }
    });
}

} // namespace parallax::test
