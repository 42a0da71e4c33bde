// Trace: valid/missing PEs and the run's time span from logs, .projrc and summaries.

#include "core/trace.h"

#include <catch2/catch.hpp>

using namespace parallax;
using core::PeId;

namespace {
core::PeTrace logOf(PeId pe, core::TimeUs first, core::TimeUs last, std::uint64_t records = 10)
{
    core::PeTrace p;
    p.pe = pe;
    p.hasLog = true;
    p.firstTime = first;
    p.lastTime = last;
    p.recordCount = records;
    return p;
}

core::PeSummary summaryOf(PeId pe, std::size_t bins, core::TimeUs intervalUs)
{
    core::PeSummary s;
    s.pe = pe;
    s.intervalUs = intervalUs;
    s.utilization.assign(bins, 0);
    return s;
}
} // namespace

TEST_CASE("valid PEs are the PEs with a log and missing PEs the others below PROCESSORS")
{
    core::Trace t;
    t.metadata.processors = 5;
    t.pes = { logOf(0, 10, 100), core::PeTrace {}, logOf(2, 5, 90) };
    t.pes[1].pe = 1;
    CHECK(t.hasLogs());
    CHECK(t.validPes() == std::vector<PeId> { 0, 2 });
    CHECK(t.missingPes() == std::vector<PeId> { 1, 3, 4 });
    CHECK(t.eventCount() == 20);
}

TEST_CASE("without logs the valid PEs come from the summaries, else from the details")
{
    core::Trace t;
    t.metadata.processors = 3;
    t.summaries = { summaryOf(0, 10, 1000), std::nullopt, summaryOf(2, 10, 1000) };
    t.details.resize(3);
    CHECK_FALSE(t.hasLogs());
    CHECK(t.hasSummaries());
    CHECK(t.validPes() == std::vector<PeId> { 0, 2 });
    CHECK(t.missingPes() == std::vector<PeId> { 1 });

    core::Trace d;
    d.metadata.processors = 2;
    d.summaries.resize(2);
    d.details.resize(2);
    d.details[1] = core::PeSummaryDetail {};
    CHECK(d.hasSummaryDetails());
    CHECK(d.validPes() == std::vector<PeId> { 1 });
}

TEST_CASE("end time is the latest of the logs and the projrc value")
{
    core::Trace t;
    t.metadata.processors = 2;
    t.pes = { logOf(0, 10, 100), logOf(1, 20, 130) };
    t.metadata.projrcEndTime = 120;
    CHECK(t.endTime() == 130); // a comm-thread tail beyond .projrc is kept
    t.metadata.projrcEndTime = 500;
    CHECK(t.endTime() == 500);
    CHECK(t.beginTime() == 10);
}

TEST_CASE("with logs the summary bins do not extend the end time")
{
    core::Trace t;
    t.metadata.processors = 1;
    t.pes = { logOf(0, 10, 30320) };
    t.summaries = { summaryOf(0, 36, 1000) };
    CHECK(t.endTime() == 30320);
}

TEST_CASE("without logs the end time is the end of the last summary bin")
{
    core::Trace t;
    t.metadata.processors = 2;
    t.summaries = { summaryOf(0, 1255, 1000), summaryOf(1, 1263, 1000) };
    core::PeSummaryDetail detail;
    detail.intervalCount = 1260;
    detail.intervalUs = 1000;
    t.details = { detail, std::nullopt };
    CHECK(t.endTime() == 1'263'000);
    CHECK(t.beginTime() == 0);
}

TEST_CASE("an empty trace spans nothing")
{
    core::Trace t;
    CHECK(t.beginTime() == 0);
    CHECK(t.endTime() == 0);
    CHECK(t.validPes().empty());
    CHECK(t.missingPes().empty());
}
