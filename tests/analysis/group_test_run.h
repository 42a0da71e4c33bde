#pragma once

// A hand-made SMP run for the PE-group tests: 2 nodes of 2 worker PEs plus one traced comm
// thread each (PROCESSORS 6, SMPMODE 2 2: PEs 4 and 5 serve nodes 0 and 1). Entry 0 is "a",
// entry 1 "b"; every PE is traced over [0, 100) µs.
//
//   PE 0  a [0, 40)  b [40, 50)  idle [50, 100)   busy 50   executes {a, b}
//   PE 1  a [0, 20)              idle [20, 100)   busy 20   executes {a}
//   PE 2  a [0, 60)              idle [60, 100)   busy 60   executes {a}
//   PE 3  a [0, 30)              idle [30, 100)   busy 30   executes {a}
//   PE 4  b [0, 10)  (comm thread: no idle, the rest is overhead 90)   {b}
//   PE 5  b [0, 5)   (comm thread, overhead 95)                        {b}

#include "core/pe_trace_builder.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"

#include <memory>

namespace parallax::test {

inline core::TracePtr makeGroupRun()
{
    using core::RecordType;
    auto trace = handMadeTrace(6, { "Main::a()", "Main::b()" });
    auto& m = trace->metadata;
    m.smp = true;
    m.nodeSize = 2;
    m.numNodes = 2;
    m.commThreadsPerNode = 1;
    struct Span {
        core::EntryId entry; // -1: idle
        core::TimeUs begin;
        core::TimeUs end;
    };
    const std::vector<std::vector<Span>> pes = {
        { { 0, 0, 40 }, { 1, 40, 50 }, { -1, 50, 100 } },
        { { 0, 0, 20 }, { -1, 20, 100 } },
        { { 0, 0, 60 }, { -1, 60, 100 } },
        { { 0, 0, 30 }, { -1, 30, 100 } },
        { { 1, 0, 10 } },
        { { 1, 0, 5 } },
    };
    core::ImportReport report;
    for (std::size_t p = 0; p < pes.size(); ++p) {
        const auto pe = static_cast<core::PeId>(p);
        core::PeTraceBuilder b(pe, m, "run." + std::to_string(p) + ".log", report);
        std::uint64_t line = 1;
        auto add = [&](RecordType type, core::TimeUs t, core::EntryId entry = core::kNoEntry) {
            b.add(handMadeRecord(type, t, entry, pe, 64), ++line);
        };
        add(RecordType::BeginComputation, 0);
        for (const auto& s : pes[p]) {
            if (s.entry < 0) {
                add(RecordType::BeginIdle, s.begin);
                add(RecordType::EndIdle, s.end);
            } else {
                add(RecordType::BeginProcessing, s.begin, s.entry);
                add(RecordType::EndProcessing, s.end, s.entry);
            }
        }
        add(RecordType::EndComputation, 100);
        trace->pes.push_back(b.finish());
    }
    trace->files.logPaths.assign(pes.size(), "run.log");
    trace->summaries.resize(pes.size());
    trace->details.resize(pes.size());
    return trace;
}

inline core::analysis::AnalysisRequest wholeGroupRun(bool includeCommThreads = false)
{
    core::analysis::AnalysisRequest r;
    r.range = { 0, 100 };
    r.threads = 1;
    r.includeCommThreads = includeCommThreads;
    return r;
}

} // namespace parallax::test
