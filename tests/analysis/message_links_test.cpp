// Message linking (core/analysis/message_links): a small run whose links were worked out by
// hand from its records, and real runs (a comm-thread relay, forward and backward agreeing).

#include "core/analysis/message_links.h"
#include "core/pe_trace_builder.h"
#include "core/trace.h"
#include "support/busy_idle_run.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace parallax_test_message_links_test {

LogRecord record(
    RecordType type, TimeUs t, EntryId entry = kNoEntry, std::int32_t event = 0, PeId pe = kNoPe)
{
    auto r = test::handMadeRecord(type, t, entry, pe, 64);
    r.eventId = event;
    return r;
}

// PE 0: a() [10, 30) sends event 7 to b() at 20 and event 8 to b() at 25;
//       a() [100, 120) sends event 9 to b() at 110 (after PE 1 already began "event 9").
// PE 1: b() [40, 50) from PE 0 event 7   -> the send at 20 (send 0)
//       b() [60, 70) from PE 0 event 8   -> the send at 25 (send 1)
//       b() [80, 90) from PE 0 event 9   -> PE 0 sends event 9 only at 110: a stale id
//       b() [130, 140) from PE 0 event 5 -> PE 0 never sent event 5
//       a() [150, 160) with no sender (event -1)
TracePtr makeRun()
{
    auto trace = test::handMadeTrace(2, { "Main::a()", "Main::b()" });
    const auto& m = trace->metadata;
    ImportReport report;
    auto build = [&](PeId pe, const std::vector<LogRecord>& records) {
        PeTraceBuilder b(pe, m, "run." + std::to_string(pe) + ".log", report);
        std::uint64_t line = 1;
        for (const auto& r : records)
            b.add(r, ++line);
        trace->pes.push_back(b.finish());
    };
    build(0,
        { record(RecordType::BeginComputation, 0), record(RecordType::BeginProcessing, 10, 0, 1, 0),
            record(RecordType::Creation, 20, 1, 7, 0), record(RecordType::Creation, 25, 1, 8, 0),
            record(RecordType::EndProcessing, 30, 0),
            record(RecordType::BeginProcessing, 100, 0, 2, 0),
            record(RecordType::Creation, 110, 1, 9, 0), record(RecordType::EndProcessing, 120, 0),
            record(RecordType::EndComputation, 200) });
    build(1,
        { record(RecordType::BeginComputation, 0), record(RecordType::BeginProcessing, 40, 1, 7, 0),
            record(RecordType::EndProcessing, 50, 1),
            record(RecordType::BeginProcessing, 60, 1, 8, 0),
            record(RecordType::EndProcessing, 70, 1),
            record(RecordType::BeginProcessing, 80, 1, 9, 0),
            record(RecordType::EndProcessing, 90, 1),
            record(RecordType::BeginProcessing, 130, 1, 5, 0),
            record(RecordType::EndProcessing, 140, 1),
            record(RecordType::BeginProcessing, 150, 0, -1, -1),
            record(RecordType::EndProcessing, 160, 0), record(RecordType::EndComputation, 200) });
    return trace;
}

TEST_CASE(
    "message links on a hand-checked run: linked, stale, missing, no sender", "[analysis][links]")
{
    const auto trace = makeRun();
    REQUIRE(trace->pes[0].sends.size() == 3);
    REQUIRE(trace->pes[1].executions.size() == 5);

    auto link = findMessageSource(*trace, 1, 0);
    CHECK(link.status == MessageLink::Status::Linked);
    CHECK(link.senderPe == 0);
    REQUIRE(link.send);
    CHECK(*link.send == 0);

    link = findMessageSource(*trace, 1, 1);
    CHECK(link.status == MessageLink::Status::Linked);
    REQUIRE(link.send);
    CHECK(*link.send == 1);

    link = findMessageSource(*trace, 1, 2);
    CHECK(link.status == MessageLink::Status::SentAfterBegin);
    CHECK_FALSE(link.linked());
    CHECK(link.reason.find("stale") != std::string::npos);

    link = findMessageSource(*trace, 1, 3);
    CHECK(link.status == MessageLink::Status::NotFound);
    CHECK(link.reason.find("event 5") != std::string::npos);

    CHECK(findMessageSource(*trace, 1, 4).status == MessageLink::Status::NoSource);
    CHECK(findMessageSource(*trace, 1, 5).status == MessageLink::Status::NoSource); // no such
    CHECK(findMessageSource(*trace, 7, 0).status == MessageLink::Status::NoSource); // no such PE
}

TEST_CASE(
    "message links on a hand-checked run: forward targets and the path back", "[analysis][links]")
{
    const auto trace = makeRun();
    // PE 0's first a() sent events 7 and 8: they started PE 1's executions 0 and 1.
    const auto targets = findMessageTargets(*trace, 0, 0, { 0, 1 });
    REQUIRE(targets.size() == 2);
    CHECK(targets[0].pe == 1);
    CHECK(targets[0].execution == 0);
    CHECK(targets[1].pe == 1);
    CHECK(targets[1].execution == 1);
    // Its second a() sent event 9 after PE 1 began the execution naming it: no target.
    CHECK(findMessageTargets(*trace, 0, 1, { 1 }).empty());
    // Receivers not among the PEs asked about are not searched.
    CHECK(findMessageTargets(*trace, 0, 0, { 0 }).empty());

    // One message back (the default), then two: the sender's execution has no sender itself.
    auto path = findMessagePath(*trace, 1, 1);
    REQUIRE(path.size() == 1);
    CHECK(path[0].linked());
    path = findMessagePath(*trace, 1, 1, 6, 2);
    REQUIRE(path.size() == 2);
    CHECK(path[1].pe == 0);
    CHECK(path[1].execution == 0);
    CHECK(path[1].status == MessageLink::Status::NotFound); // event 1 of PE 0 was never sent
}

TEST_CASE("message links on a real SMP run: through the comm thread, and forward agrees",
    "[analysis][links][real]")
{
    // gen-feat-smp: PE 0 executes recvHalo at 1127502; comm thread PE 4 relayed it from PE 3
    // (PE 4's relaying execution begins at 1127469).
    const auto trace = parallax::test::loadOk(parallax::test::realLog("gen-feat-smp"));
    REQUIRE(trace->metadata.isCommThread(4));
    const auto r = trace->pes[0].executionsOverlapping(1127502, 1127503);
    REQUIRE(r.size() == 1);
    const auto path = findMessagePath(*trace, 0, r.first);
    REQUIRE(path.size() == 2);
    CHECK(path[0].status == MessageLink::Status::Linked);
    CHECK(path[0].senderPe == 4);
    CHECK(path[1].pe == 4);
    CHECK(path[1].senderPe == 3);
    CHECK(trace->pes[4].executions.begin[path[1].execution] == 1127469);

    // Every solid link names a send with the same event id made no later than the begin
    // (plus the skew tolerance), and the sender's execution lists the receiver among its
    // forward targets — when it is the first execution naming that send (a flattened nested
    // execution resumes with the same event id; forward search stops at the first).
    const auto& ex = trace->pes[0].executions;
    int checked = 0;
    for (std::size_t k = 0; k < ex.size() && checked < 50; ++k) {
        const auto link = findMessageSource(*trace, 0, k);
        if (link.status != MessageLink::Status::Linked)
            continue;
        const auto& sender = trace->pes[static_cast<std::size_t>(link.senderPe)];
        const auto s = *link.send;
        CHECK(sender.sends.eventId[s] == ex.eventId[k]);
        CHECK(sender.sends.time[s] <= ex.begin[k] + kMessageSkewTolerance);
        const auto made = sender.sends.execution[s];
        if (made == kNoExecution || (made & kSendAfterExecution) != 0)
            continue;
        auto first = static_cast<std::size_t>(std::lower_bound(ex.begin.begin(), ex.begin.end(),
                                                  sender.sends.time[s] - kMessageSkewTolerance)
            - ex.begin.begin());
        while (first < k
            && (ex.sourcePe[first] != link.senderPe || ex.eventId[first] != ex.eventId[k]))
            ++first;
        if (first != k)
            continue;
        const auto targets = findMessageTargets(*trace, link.senderPe, made, { 0 });
        CHECK(std::any_of(targets.begin(), targets.end(),
            [&](const MessageLink& t) { return t.pe == 0 && t.execution == k; }));
        ++checked;
    }
    CHECK(checked == 50);
}

} // namespace parallax_test_message_links_test
