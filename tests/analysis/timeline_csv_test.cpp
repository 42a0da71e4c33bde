// The Timeline's CSV (core/analysis/csv_export: timelineCsv) on a hand-written PE log.

#include "core/analysis/csv_export.h"
#include "core/pe_trace_builder.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace parallax_test_timeline_csv_test {

LogRecord record(RecordType type, TimeUs t, EntryId entry = kNoEntry)
{
    return test::handMadeRecord(type, t, entry, 1, 96); // PE 1 sent the messages
}

// PE 0: a(int x, int y) [10, 30), idle [30, 50), b() [50, 70) with a pack [55, 60).
TracePtr makeRun()
{
    auto trace = test::handMadeTrace(2, { "a(int x, int y)", "b()" });
    const auto& m = trace->metadata;
    ImportReport report;
    PeTraceBuilder b(0, m, "run.0.log", report);
    std::uint64_t line = 1;
    for (const auto& r :
        { record(RecordType::BeginComputation, 0), record(RecordType::BeginProcessing, 10, 0),
            record(RecordType::EndProcessing, 30, 0), record(RecordType::BeginIdle, 30),
            record(RecordType::EndIdle, 50), record(RecordType::BeginProcessing, 50, 1),
            record(RecordType::BeginPack, 55), record(RecordType::EndPack, 60),
            record(RecordType::EndProcessing, 70, 1), record(RecordType::EndComputation, 100) })
        b.add(r, ++line);
    trace->pes.push_back(b.finish());
    trace->pes.emplace_back(); // PE 1 has no log
    trace->pes.back().pe = 1;
    return trace;
}

TEST_CASE(
    "timeline CSV: every interval of the PEs in the window, entry names quoted", "[analysis][csv]")
{
    const auto trace = makeRun();
    CHECK(timelineCsv(*trace, { 0, 1, 9 }, { 0, 100 })
        == "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n"
           "0,10,30,exec,0,\"a(int x, int y)\",1,96\n"
           "0,30,50,idle,,,,\n"
           "0,50,70,exec,1,b(),1,96\n"
           "0,55,60,pack,,,,\n");
    // Only what overlaps the window, by begin time.
    CHECK(timelineCsv(*trace, { 0 }, { 40, 56 })
        == "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n"
           "0,30,50,idle,,,,\n"
           "0,50,70,exec,1,b(),1,96\n"
           "0,55,60,pack,,,,\n");
    CHECK(timelineCsv(Trace {}, {}, {})
        == "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n");
}

} // namespace parallax_test_timeline_csv_test
