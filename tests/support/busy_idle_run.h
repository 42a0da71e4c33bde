#pragma once

// A hand-made run for tests of many PEs: PE p runs entry 0 ("Main::work()") over
// [0, busy[p]) and idles from there to `end`; traced over [0, end), no SMP.

#include "core/pe_trace_builder.h"
#include "core/trace.h"

#include <memory>
#include <vector>

namespace parallax::test {

inline core::TracePtr busyIdleRun(const std::vector<core::TimeUs>& busy, core::TimeUs end)
{
    auto trace = std::make_shared<core::Trace>();
    auto& m = trace->metadata;
    const auto count = static_cast<core::PeId>(busy.size());
    m.version = 11.0;
    m.processors = count;
    m.numNodes = count;
    m.chares.push_back({ "Main", -1 });
    m.entries.push_back({ "Main::work()", 0, -1 });
    core::ImportReport report;
    for (core::PeId pe = 0; pe < count; ++pe) {
        core::PeTraceBuilder b(pe, m, "run.log", report);
        std::uint64_t line = 1;
        const auto add = [&](core::RecordType type, core::TimeUs t, core::EntryId entry) {
            core::LogRecord r;
            r.type = type;
            r.time = t;
            r.entry = entry;
            r.pe = pe;
            b.add(r, ++line);
        };
        const core::TimeUs until = busy[static_cast<std::size_t>(pe)];
        add(core::RecordType::BeginComputation, 0, core::kNoEntry);
        add(core::RecordType::BeginProcessing, 0, 0);
        add(core::RecordType::EndProcessing, until, 0);
        add(core::RecordType::BeginIdle, until, core::kNoEntry);
        add(core::RecordType::EndIdle, end, core::kNoEntry);
        add(core::RecordType::EndComputation, end, core::kNoEntry);
        trace->pes.push_back(b.finish());
    }
    trace->files.logPaths.assign(busy.size(), "run.log");
    trace->summaries.resize(busy.size());
    trace->details.resize(busy.size());
    return trace;
}

} // namespace parallax::test
