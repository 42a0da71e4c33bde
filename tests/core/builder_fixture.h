#pragma once

// Hand-made LogRecords and a small harness around PeTraceBuilder for the core tests.

#include "core/import_report.h"
#include "core/log_record.h"
#include "core/pe_trace.h"
#include "core/pe_trace_builder.h"
#include "core/run_metadata.h"

#include <catch2/catch.hpp>

#include <span>
#include <string>
#include <vector>

namespace parallax::test {

using core::EntryId;
using core::LogRecord;
using core::RecordType;
using core::TimeUs;

// A run with 10 entry methods of one singleton chare and user events 1, 2, 5, 6.
inline core::RunMetadata smallMetadata()
{
    core::RunMetadata m;
    m.version = 11.0;
    m.processors = 2;
    m.numNodes = 2;
    m.chares.push_back({ "Main", -1 });
    for (int i = 0; i < 10; ++i)
        m.entries.push_back({ "entry" + std::to_string(i), 0, -1 });
    for (int id : { 1, 2, 5, 6 })
        m.userEvents[id] = "event" + std::to_string(id);
    return m;
}

namespace rec {

inline LogRecord at(RecordType type, TimeUs t)
{
    LogRecord r;
    r.type = type;
    r.time = t;
    r.pe = 0;
    return r;
}
inline LogRecord begin(TimeUs t, EntryId entry, std::int32_t event = 0, core::PeId source = 0)
{
    auto r = at(RecordType::BeginProcessing, t);
    r.entry = entry;
    r.eventId = event;
    r.pe = source;
    r.msgBytes = 64;
    return r;
}
inline LogRecord end(TimeUs t, EntryId entry)
{
    auto r = at(RecordType::EndProcessing, t);
    r.entry = entry;
    r.msgBytes = 0;
    return r;
}
inline LogRecord beginIdle(TimeUs t)
{
    return at(RecordType::BeginIdle, t);
}
inline LogRecord endIdle(TimeUs t)
{
    return at(RecordType::EndIdle, t);
}
inline LogRecord beginComputation(TimeUs t)
{
    return at(RecordType::BeginComputation, t);
}
inline LogRecord endComputation(TimeUs t)
{
    return at(RecordType::EndComputation, t);
}
inline LogRecord send(TimeUs t, EntryId entry, std::int32_t event = 0)
{
    auto r = at(RecordType::Creation, t);
    r.entry = entry;
    r.eventId = event;
    r.msgBytes = 80;
    return r;
}
inline LogRecord userPair(
    RecordType type, TimeUs t, std::int32_t id, std::int32_t event, std::int32_t nested = 0)
{
    auto r = at(type, t);
    r.userEventId = id;
    r.eventId = event;
    r.nestedId = nested;
    return r;
}

} // namespace rec

// Feeds records (line numbers 2, 3, ... as if after a header) and finishes.
struct BuiltPe {
    core::ImportReport report;
    core::PeTrace trace;
};

inline BuiltPe build(const std::vector<LogRecord>& records,
    const core::RunMetadata& metadata = smallMetadata(), std::string fileName = "run.0.log")
{
    BuiltPe out;
    core::PeTraceBuilder builder(0, metadata, std::move(fileName), out.report);
    std::uint64_t line = 2;
    for (const auto& r : records)
        builder.add(r, line++);
    out.trace = builder.finish();
    return out;
}

// Begin and end columns non-decreasing, begin <= end, and consecutive intervals not
// overlapping: the invariant the interval index relies on.
template <typename Times> void requireSortedNonOverlapping(const Times& begin, const Times& end)
{
    REQUIRE(begin.size() == end.size());
    for (std::size_t i = 0; i < begin.size(); ++i) {
        INFO("interval " << i << " [" << begin[i] << ", " << end[i] << "]");
        REQUIRE(begin[i] <= end[i]);
        if (i + 1 < begin.size()) {
            REQUIRE(begin[i] <= begin[i + 1]);
            REQUIRE(end[i] <= begin[i + 1]);
        }
    }
}

} // namespace parallax::test
