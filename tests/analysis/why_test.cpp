// The critical path and idle blame (core/analysis/critical_path, idle_blame): two hand-made runs
// whose answers were worked out from their records (tests/data/runs/why-chain and why-serial,
// see their READMEs), and real runs for the invariants (steps that tile the path, only verified
// links, blame never above the idle).

#include "core/analysis/critical_path.h"
#include "core/analysis/entry_model.h"
#include "core/analysis/idle_blame.h"
#include "core/analysis/iterations.h"
#include "core/analysis/message_links.h"
#include "core/analysis/pe_groups.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;

namespace parallax_test_why_test {

TracePtr whyRun(const char* name)
{
    return test::loadOk(test::dataDir() / "runs" / name);
}

// "pe kind entry begin end" per step, entries by id (-1 for none).
std::vector<std::string> describe(const CriticalPath& path)
{
    std::vector<std::string> lines;
    for (const auto& s : path.steps) {
        std::ostringstream line;
        line << s.pe << " " << criticalStepKindName(s.kind) << " " << s.entry << " " << s.begin
             << " " << s.end;
        lines.push_back(line.str());
    }
    return lines;
}

AnalysisRequest requestFor(TimeRange range = {}, std::vector<PeId> pes = {})
{
    AnalysisRequest request;
    request.range = range;
    request.pes = std::move(pes);
    return request;
}

TEST_CASE("critical path of a chain across three PEs", "[analysis][why]")
{
    const auto trace = whyRun("why-chain");
    // Main on PE 0 -> step on PE 1 -> step on PE 2 -> step on PE 0, then PE 0 waits for a
    // message whose only send (PE 2, event 7) comes after it began: a stale id, no link.
    auto path = findCriticalPath(*trace, requestFor());
    CHECK(path.range.begin == 1000);
    CHECK(path.range.end == 2000);
    CHECK(describe(path)
        == std::vector<std::string> { "0 exec 1 1000 1050", "0 message 2 1050 1200",
            "1 exec 2 1200 1290", "1 message 2 1290 1350", "2 exec 2 1350 1450",
            "2 message 2 1450 1500", "0 exec 2 1500 1600", "0 wait -1 1600 1700",
            "0 exec 2 1700 1750" });
    CHECK(path.length() == 750);
    CHECK(path.total(CriticalStep::Kind::Exec) == 390);
    CHECK(path.total(CriticalStep::Kind::Message) == 260);
    CHECK(path.total(CriticalStep::Kind::Wait) == 100);
    CHECK(path.unresolvedLinks == 1);
    CHECK(path.startReason == "the range begins");
    REQUIRE(path.steps[1].toPe == 1);
    CHECK(path.steps[5].toPe == 0);

    // Per entry method: entry 2 ran 90 + 100 + 100 + 50 us on the path in four executions, and
    // its three messages were in flight 150 + 60 + 50 us; Main's entry 1 ran 50 us. The wait
    // belongs to no entry method.
    const auto byEntry = criticalPathByEntry(path);
    REQUIRE(byEntry.size() == 2);
    CHECK(byEntry[0].entry == 2);
    CHECK(byEntry[0].exec == 340);
    CHECK(byEntry[0].message == 260);
    CHECK(byEntry[0].executions == 4);
    CHECK(byEntry[1].entry == 1);
    CHECK(byEntry[1].exec == 50);
    CHECK(byEntry[1].message == 0);
    CHECK(byEntry[1].executions == 1);
    // Its longest execution on the path: PE 2's 1350-1450 (step 4), the first of two 100 us.
    CHECK(byEntry[0].longestStep == 4);
    CHECK(byEntry[1].longestStep == 0);
    CHECK(criticalPathByEntry(CriticalPath {}).empty());

    // A later range cuts the first execution it reaches.
    path = findCriticalPath(*trace, requestFor({ 1250, 2000 }));
    REQUIRE_FALSE(path.empty());
    CHECK(describe(path).front() == "1 exec 2 1250 1290");
    CHECK(path.length() == 500);

    // Without PE 1 the message from it is drawn, but the walk stops at its send.
    path = findCriticalPath(*trace, requestFor({}, { 0, 2 }));
    REQUIRE_FALSE(path.empty());
    CHECK(describe(path).front() == "1 message 2 1290 1350");
    CHECK(path.startReason == "PE 1 is not selected");
    CHECK(path.unresolvedLinks == 1); // the stale id; PE 1's message is a link, only not followed

    // A range holding no execution: no path.
    CHECK(findCriticalPath(*trace, requestFor({ 1760, 1790 })).empty());
}

TEST_CASE("start causes: message, program order, and no false link", "[analysis][why]")
{
    const auto trace = whyRun("why-chain");
    const auto all = makePeFilter(*trace, { 0, 1, 2 });
    // PE 0's step at 1500: PE 0 was idle since 1100, the message (PE 2, 1450) decided.
    auto cause = findStartCause(*trace, 0, 1, all);
    CHECK(cause.kind == StartCause::Kind::Message);
    CHECK(cause.senderPe == 2);
    CHECK(cause.sendTime == 1450);
    CHECK(cause.sender == ExecutionRef { 2, 1 });
    CHECK_FALSE(cause.sentBetween);
    // PE 0's step at 1700 names a stale event id: program order only, the link reported.
    cause = findStartCause(*trace, 0, 2, all);
    CHECK(cause.kind == StartCause::Kind::ProgramOrder);
    CHECK(cause.previous == ExecutionRef { 0, 1 });
    CHECK(cause.unresolved == "stale-event-id");
    // Main names no sender and is first on its PE.
    CHECK(findStartCause(*trace, 0, 0, all).kind == StartCause::Kind::None);
    // The sender outside the filter: still the message, without its execution.
    cause = findStartCause(*trace, 2, 1, makePeFilter(*trace, { 0, 2 }));
    CHECK(cause.kind == StartCause::Kind::Message);
    CHECK(cause.unresolved == "outside-pes");
    CHECK_FALSE(cause.senderExecution);
    // Out of bounds asks get no cause.
    CHECK(findStartCause(*trace, 9, 0, all).kind == StartCause::Kind::None);
    CHECK(findStartCause(*trace, 0, 99, all).kind == StartCause::Kind::None);
}

TEST_CASE("idle blame of the chain run", "[analysis][why]")
{
    const auto trace = whyRun("why-chain");
    const auto blame = findIdleBlame(*trace, requestFor());
    CHECK(blame.totalIdle == 2370);
    CHECK(blame.blamedIdle() == 800);
    REQUIRE(blame.idles.size() == 9);
    // PE 0's idle [1100, 1500) ended by PE 2's step, which itself waited for PE 1's step.
    const auto& first = blame.idles[0];
    CHECK(first.kind == BlamedIdle::Kind::Message);
    CHECK(first.producerPe == 2);
    CHECK(first.producerEntry == 2);
    CHECK(first.idle() == 400);
    CHECK(first.producerLate == StartCause::Kind::Message);
    CHECK(first.producerLatePe == 1);
    CHECK(first.producerLateEntry == 2);
    CHECK(blame.idles[1].kind == BlamedIdle::Kind::UnresolvedLink); // the stale id
    CHECK(blame.idles[2].kind == BlamedIdle::Kind::NothingAfter);

    const auto byPe = aggregateBlame(blame, BlameGrouping::Pe);
    REQUIRE(byPe.size() == 4);
    CHECK((byPe[0].producerPe == 2 && byPe[0].consumerPe == 0 && byPe[0].idle == 400));
    CHECK((byPe[1].producerPe == 0 && byPe[1].consumerPe == 1 && byPe[1].idle == 200));
    CHECK((byPe[2].producerPe == 0 && byPe[2].consumerPe == 2 && byPe[2].idle == 100));
    CHECK((byPe[3].producerPe == 1 && byPe[3].consumerPe == 2 && byPe[3].idle == 100));
    CHECK(byPe[0].producerEntry == kNoEntry);
    const auto byEntry = aggregateBlame(blame, BlameGrouping::Entry);
    REQUIRE(byEntry.size() == 2);
    CHECK((byEntry[0].producerEntry == 2 && byEntry[0].idle == 500 && byEntry[0].count == 2));
    CHECK((byEntry[1].producerEntry == 1 && byEntry[1].idle == 300 && byEntry[1].count == 2));
    CHECK(byEntry[0].producerPe == kNoPe);

    const auto caused = idleCaused(blame);
    TimeUs sum = 0;
    for (const auto& row : caused)
        if (row.kind != IdleCaused::Kind::Entry)
            sum += row.idle;
    CHECK(sum == blame.totalIdle); // PE rows and the unblamed kinds cover every idle period
}

TEST_CASE("a serial PE everyone waits for takes the blame", "[analysis][why]")
{
    const auto trace = whyRun("why-serial");
    const auto path = findCriticalPath(*trace, requestFor());
    CHECK(describe(path)
        == std::vector<std::string> { "0 exec 1 1000 1010", "0 exec 2 1010 1110",
            "0 exec 2 1110 1210", "0 exec 2 1210 1300", "0 message 3 1300 1320",
            "3 exec 3 1320 1370" });
    CHECK(path.length() == 370);

    const auto blame = findIdleBlame(*trace, requestFor());
    CHECK(blame.totalIdle == 3540);
    const auto detail = aggregateBlame(blame, BlameGrouping::Detail);
    REQUIRE(detail.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
        INFO("row " << k);
        CHECK(detail[k].producerPe == 0);
        CHECK(detail[k].producerEntry == 2);
        CHECK(detail[k].consumerPe == static_cast<PeId>(3 - k));
        CHECK(detail[k].idle == 320 - 100 * static_cast<TimeUs>(k));
        // PE 0 was busy: with the previous produce, or with Main for the first one.
        CHECK(detail[k].producerLate == StartCause::Kind::ProgramOrder);
        CHECK(detail[k].producerLatePe == 0);
        CHECK(detail[k].producerLateEntry == (k == 2 ? 1 : 2));
    }
    const auto caused = idleCaused(blame);
    REQUIRE(caused.size() == 3);
    CHECK((caused[0].kind == IdleCaused::Kind::Pe && caused[0].pe == 0 && caused[0].idle == 660));
    CHECK((caused[1].kind == IdleCaused::Kind::Entry && caused[1].entry == 2));
    CHECK((caused[2].unblamed == BlamedIdle::Kind::NothingAfter && caused[2].idle == 2880));
    // A PE list picks the consumers only: the producer is still found.
    const auto one = findIdleBlame(*trace, requestFor({}, { 2 }));
    CHECK(one.totalIdle == 220 + 730);
    CHECK(one.blamedIdle() == 220);
}

TEST_CASE("critical path and idle blame on real runs keep their invariants", "[analysis][why]")
{
    for (const auto& run : { test::realLog("gen-leanmd-smp"), test::realLog("gen-feat-smp"),
             test::realLog("charm-synth-v7"), test::realLog("pipit-pingpong-v11"),
             test::sampleRun("imbalance") }) {
        INFO(run.string());
        const auto trace = test::loadOk(run);
        const auto path = findCriticalPath(*trace, requestFor());
        REQUIRE_FALSE(path.empty());
        CHECK(path.steps.front().begin >= path.range.begin);
        CHECK(path.steps.back().end <= path.range.end);
        CHECK(path.length() <= path.range.end - path.range.begin);
        for (std::size_t k = 0; k < path.steps.size(); ++k) {
            const auto& step = path.steps[k];
            CHECK(step.end >= step.begin);
            if (k > 0)
                CHECK(step.begin == path.steps[k - 1].end); // the steps tile the path
            if (step.kind != CriticalStep::Kind::Message || k + 1 >= path.steps.size())
                continue;
            // Every message step is a verified link to the execution after it.
            const auto& next = path.steps[k + 1];
            const auto links = findMessagePath(*trace, next.pe, next.execution.index, 8, 1);
            CHECK(links.back().status == MessageLink::Status::Linked);
            CHECK(links.back().senderPe == step.pe);
        }
        const auto blame = findIdleBlame(*trace, requestFor());
        CHECK(blame.blamedIdle() <= blame.totalIdle);
        TimeUs sum = 0;
        for (const auto& row : aggregateBlame(blame, BlameGrouping::Pe))
            sum += row.idle;
        CHECK(sum == blame.blamedIdle());
    }
    // A busy run: the path covers nearly all of the span, almost all of it executing.
    const auto busy = findCriticalPath(*test::loadOk(test::realLog("charm-synth-v7")), {});
    const auto span = busy.range.end - busy.range.begin;
    CHECK(busy.length() * 100 >= span * 99);
    CHECK(busy.total(CriticalStep::Kind::Exec) * 100 >= busy.length() * 99);
}

TEST_CASE("critical path and idle blame: threads give the same result, a cancelled request stops "
          "early, and progress rises to the end",
    "[analysis][why]")
{
    const auto trace = test::loadOk(test::realLog("gen-leanmd-smp"));
    auto one = requestFor();
    one.threads = 1;
    auto four = requestFor();
    four.threads = 4;
    const auto serial = findIdleBlame(*trace, one);
    const auto parallel = findIdleBlame(*trace, four);
    REQUIRE(serial.idles.size() > 1000);
    CHECK(parallel.pes == serial.pes);
    CHECK(parallel.totalIdle == serial.totalIdle);
    REQUIRE(parallel.idles.size() == serial.idles.size());
    for (std::size_t i = 0; i < serial.idles.size(); ++i) {
        CHECK(parallel.idles[i].consumerPe == serial.idles[i].consumerPe);
        CHECK(parallel.idles[i].begin == serial.idles[i].begin);
        CHECK(parallel.idles[i].producerPe == serial.idles[i].producerPe);
        CHECK(parallel.idles[i].producerEntry == serial.idles[i].producerEntry);
    }

    // A request superseded from the start: nothing blamed, the walk stops within one check.
    Progress cancelled;
    cancelled.cancelled = [] {
        return true;
    };
    CHECK(findIdleBlame(*trace, four, cancelled).idles.empty());
    const auto whole = findCriticalPath(*trace, requestFor());
    REQUIRE(whole.steps.size() > 20'000); // 86,815 steps on this run
    const auto stopped = findCriticalPath(*trace, requestFor(), cancelled);
    CHECK(stopped.steps.size() < 4096 * 3);
    CHECK(stopped.startReason == "cancelled");

    // Progress: fractions in [0, 1], the last ones near the end of the walk and of the blame.
    std::vector<double> seen;
    Progress watched;
    watched.report = [&seen](double f) {
        seen.push_back(f);
    };
    CHECK(findCriticalPath(*trace, requestFor(), watched).steps.size() == whole.steps.size());
    REQUIRE(seen.size() > 5);
    CHECK(std::all_of(seen.begin(), seen.end(), [](double f) { return f >= 0.0 && f <= 1.0; }));
    CHECK(seen.back() > 0.8);
    seen.clear();
    findIdleBlame(*trace, one, watched);
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back() == 1.0);
}

TEST_CASE("a stage's progress maps its fractions into its share and keeps the cancellation",
    "[analysis][why]")
{
    std::vector<double> seen;
    bool stop = false;
    Progress whole;
    whole.report = [&seen](double f) {
        seen.push_back(f);
    };
    whole.cancelled = [&stop] {
        return stop;
    };
    const auto second = whole.part(0.3, 0.7);
    second.report(0.0);
    second.report(0.5);
    second.report(1.0);
    CHECK(seen == std::vector<double> { 0.3, 0.3 + 0.35, 1.0 });
    CHECK_FALSE(second.isCancelled());
    stop = true;
    CHECK(second.isCancelled());
    CHECK_FALSE(Progress {}.part(0.0, 0.5).report); // nothing to report to
}

TEST_CASE(
    "on the planted imbalance the critical path runs through the overloaded PEs", "[analysis][why]")
{
    // sample-logs/imbalance: PEs 3 and 9 do twice the work of the others, who wait for them.
    const auto trace = test::loadOk(test::sampleRun("imbalance"));
    const auto path = findCriticalPath(*trace, {});
    TimeUs onSlowPes = 0;
    for (const auto& step : path.steps)
        if (step.kind == CriticalStep::Kind::Exec && (step.pe == 3 || step.pe == 9))
            onSlowPes += step.end - step.begin;
    CHECK(onSlowPes * 100 >= path.total(CriticalStep::Kind::Exec) * 95);
    CHECK(path.length() * 100 >= (path.range.end - path.range.begin) * 95);
    // Their messages end a share of the others' idle directly; the rest is ended by PE 0's
    // reduction client, which waited for them in turn.
    const auto blame = findIdleBlame(*trace, {});
    TimeUs fromSlowPes = 0;
    for (const auto& row : aggregateBlame(blame, BlameGrouping::Pe))
        if (row.producerPe == 3 || row.producerPe == 9)
            fromSlowPes += row.idle;
    CHECK(fromSlowPes > 0);
    CHECK(blame.blamedIdle() * 100 >= blame.totalIdle * 90);
}

// Iterations on why-chain (README): PE 0 runs [1000,1100) [1500,1600) [1700,1750), PE 1
// [1200,1300), PE 2 [1100,1250) [1350,1460).
TEST_CASE("iterations set by hand: busy time clipped to each, the busiest PE and the median",
    "[analysis][why][iterations]")
{
    const auto trace = whyRun("why-chain");
    IterationRequest at;
    at.starts = { 1400, 1000, 5000 }; // unsorted; 5000 is outside the range
    const auto byHand = findIterations(*trace, {}, at);
    CHECK(byHand.source == "starts");
    REQUIRE(byHand.iterations.size() == 2);
    const auto& first = byHand.iterations[0];
    CHECK(first.range.begin == 1000);
    CHECK(first.range.end == 1400);
    CHECK(first.slowestPe == 2); // 150 + 50
    CHECK(first.slowestBusyUs == 200);
    CHECK(first.medianBusyUs == 100); // {100, 100, 200}
    const auto& second = byHand.iterations[1];
    CHECK(second.range.end == 2000); // the last runs to the range's end
    CHECK(second.slowestPe == 0); // 100 + 50
    CHECK(second.slowestBusyUs == 150);
    CHECK(second.medianBusyUs == 60); // {0, 60, 150}

    IterationRequest every;
    every.every = 500;
    const auto periodic = findIterations(*trace, {}, every);
    REQUIRE(periodic.iterations.size() == 2);
    CHECK(periodic.iterations[0].slowestBusyUs == 260); // PE 2: 150 + 110
    CHECK(periodic.iterations[1].slowestPe == 0);
    CHECK(periodic.iterations[1].medianBusyUs == 0);
    AnalysisRequest twoPes;
    twoPes.pes = { 0, 1 };
    const auto even = findIterations(*trace, twoPes, every);
    CHECK(even.iterations[0].medianBusyUs == 100); // mean of {100, 100}

    // Nothing marks steps here: step(int k) runs 2, 1 and 2 times on the three PEs.
    const auto automatic = findIterations(*trace, {});
    CHECK(automatic.source == "none");
    CHECK(automatic.iterations.empty());
}

TEST_CASE("iterations found from a step user event or a step entry method, with the planted "
          "slow PEs the busiest in each",
    "[analysis][why][iterations]")
{
    // sample-logs/imbalance: 23 iterations, each started by user event 40 ("Iteration start")
    // and by a broadcast of WorkerMgr::startStep (entry 17) to every PE; PEs 3 and 9 do twice
    // the work of the others.
    const auto trace = test::loadOk(test::sampleRun("imbalance"));
    const auto byEvent = findIterations(*trace, {});
    CHECK(byEvent.source == "user-event");
    CHECK(byEvent.markerId == 40);
    REQUIRE(byEvent.iterations.size() == 23);
    IterationRequest entry;
    entry.entry = 17;
    const auto byEntry = findIterations(*trace, {}, entry);
    CHECK(byEntry.source == "entry");
    REQUIRE(byEntry.iterations.size() == 23);
    for (std::size_t k = 0; k < 23; ++k) {
        const auto& it = byEvent.iterations[k];
        INFO("iteration " << k);
        CHECK((it.slowestPe == 3 || it.slowestPe == 9));
        CHECK(static_cast<double>(it.slowestBusyUs) > 1.4 * it.medianBusyUs);
        // The broadcast reaches the PEs just after the event marks the step.
        CHECK(std::llabs(byEntry.iterations[k].range.begin - it.range.begin) < 50);
        if (k + 1 < 23)
            CHECK(it.range.end == byEvent.iterations[k + 1].range.begin);
    }
}

TEST_CASE("iterations found from notes that name steps, before a step entry method",
    "[analysis][why][iterations]")
{
    // why-notes (README): "Step 1..3" notes on PE 0; work() would qualify as a step entry too.
    const auto trace = whyRun("why-notes");
    const auto found = findIterations(*trace, {});
    CHECK(found.source == "note");
    REQUIRE(found.iterations.size() == 3);
    const std::vector<TimeRange> ranges { { 1000, 1300 }, { 1300, 1600 }, { 1600, 2000 } };
    const std::vector<PeId> slowest { 0, 1, 1 };
    const std::vector<TimeUs> slowestBusy { 200, 200, 250 };
    const std::vector<double> median { 150, 125, 175 };
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(found.iterations[k].range.begin == ranges[k].begin);
        CHECK(found.iterations[k].range.end == ranges[k].end);
        CHECK(found.iterations[k].slowestPe == slowest[k]);
        CHECK(found.iterations[k].slowestBusyUs == slowestBusy[k]);
        CHECK(found.iterations[k].medianBusyUs == Approx(median[k]));
    }
    // Asked for, the entry method still gives its own steps.
    IterationRequest byEntry;
    byEntry.entry = 2;
    CHECK(findIterations(*trace, {}, byEntry).source == "entry");
}

TEST_CASE("entry-method models: planted formulas fitted exactly, too few distinct x fit nothing",
    "[analysis][why][model]")
{
    std::vector<double> x;
    std::vector<double> linear;
    std::vector<double> power;
    std::vector<double> quadratic;
    for (int i = 1; i <= 10; ++i) {
        const double v = i * 16.0;
        x.push_back(v);
        linear.push_back(5 + 2 * v);
        power.push_back(3 * std::pow(v, 1.5));
        quadratic.push_back(1 + 0.5 * v + 0.25 * v * v);
    }
    const auto byKind = [](const std::vector<ModelFit>& fits, ModelFit::Kind kind) {
        const auto it = std::find_if(
            fits.begin(), fits.end(), [&](const ModelFit& f) { return f.kind == kind; });
        REQUIRE(it != fits.end());
        return *it;
    };
    const auto l = byKind(fitModels(x, linear), ModelFit::Kind::Linear);
    CHECK(l.a == Approx(5));
    CHECK(l.b == Approx(2));
    CHECK(l.r2 == Approx(1));
    CHECK(l.points == 10);
    const auto p = byKind(fitModels(x, power), ModelFit::Kind::PowerLaw);
    CHECK(p.a == Approx(3));
    CHECK(p.b == Approx(1.5));
    CHECK(p.r2 == Approx(1));
    const auto quadraticFits = fitModels(x, quadratic);
    const auto q = byKind(quadraticFits, ModelFit::Kind::Quadratic);
    CHECK(q.a == Approx(1).margin(1e-6));
    CHECK(q.b == Approx(0.5));
    CHECK(q.c == Approx(0.25));
    CHECK(q.r2 == Approx(1));
    CHECK(byKind(quadraticFits, ModelFit::Kind::Linear).r2 < 0.99); // a line misses the curve
    CHECK(modelFormula(l) == "y = 5 +2 x");

    // One x value: no fit; two: a line and a power law but no parabola.
    CHECK(fitModels({ 4, 4, 4 }, { 1, 2, 3 }).empty());
    CHECK(fitModels({ 1, 2, 1, 2 }, { 1, 2, 1, 2 }).size() == 2);
}

TEST_CASE("entry-method models: the bimodality coefficient flags two modes, not one",
    "[analysis][why][model]")
{
    std::vector<double> twoModes(50, 10.0);
    twoModes.insert(twoModes.end(), 50, 100.0);
    twoModes.push_back(55); // not all on two values
    CHECK(bimodalityCoefficient(twoModes) > 5.0 / 9.0);
    // One peak: 1, 3, 6, 3 and 1 times the values 1 to 5.
    std::vector<double> onePeak;
    int times[] = { 1, 3, 6, 3, 1 };
    for (int v = 1; v <= 5; ++v)
        onePeak.insert(onePeak.end(), static_cast<std::size_t>(times[v - 1]), v);
    CHECK(bimodalityCoefficient(onePeak) < 5.0 / 9.0);
    CHECK(bimodalityCoefficient({ 1, 2, 3 }) == 0); // too few
}

TEST_CASE("entry-method models over a run: points, groups by x, executions without an x",
    "[analysis][why][model]")
{
    // why-chain: step(int k) (entry 2) runs 100, 50, 100, 150 and 110 us, each started by an
    // 80-byte message; Main (entry 1) has no sender.
    const auto chain = whyRun("why-chain");
    const auto steps = modelEntry(*chain, {}, 2, ModelX::MessageBytes);
    REQUIRE(steps.points.size() == 5);
    CHECK(steps.fits.empty()); // one message size
    REQUIRE(steps.groups.size() == 1);
    CHECK(steps.groups[0].x == 80);
    CHECK(steps.groups[0].count == 5);
    CHECK(steps.groups[0].mean == Approx(102));
    CHECK(steps.groups[0].sd == Approx(std::sqrt(1016.0)));
    CHECK(steps.groups[0].min == 50);
    CHECK(steps.groups[0].max == 150);
    const auto main = modelEntry(*chain, {}, 1, ModelX::MessageBytes);
    CHECK(main.points.size() == 1); // Main's CkArgMsg has a size
    // One message size is not offered as an x (one column, no fit), but is known as such.
    const auto stepChoices = modelXChoices(*chain, {}, 2, false);
    CHECK_FALSE(stepChoices.messageBytes);
    CHECK(stepChoices.singleMessageSize);
    CHECK_FALSE(stepChoices.any());

    // sample-logs/imbalance: compute(int iter) (entry 13) 2,208 times over 23 iterations.
    const auto trace = test::loadOk(test::sampleRun("imbalance"));
    const auto byIteration = modelEntry(*trace, {}, 13, ModelX::Iteration);
    CHECK(byIteration.iterationSource == "user-event");
    CHECK(byIteration.points.size() + byIteration.withoutX == 2208);
    REQUIRE(byIteration.groups.size() == 23);
    for (const auto& g : byIteration.groups)
        CHECK(g.count == 96); // 8 elements on each of 12 PEs per iteration
    CHECK(byIteration.multimodal()); // the heavy PEs' elements take twice as long
}

TEST_CASE("iterations per group of PEs: the busiest member and the mean, runs paired by index",
    "[analysis][why][iterations]")
{
    // 4 PEs in 2 iterations; busy (us) per iteration: PE 0-3 = 10 40 20 20, then 30 30 5 60.
    IterationResult r;
    r.pes = { 0, 1, 2, 3 };
    r.iterations = { { { 0, 100 }, 1, 40, 20 }, { { 100, 250 }, 3, 60, 30 } };
    r.busy = { 10, 40, 20, 20, 30, 30, 5, 60 };
    std::vector<PeGroup> groups(3);
    groups[0].name = "PEs 0-1";
    groups[0].pes = { 0, 1 };
    groups[1].name = "PEs 2-3";
    groups[1].pes = { 2, 3 };
    groups[2].name = "PE 7"; // no member in the result
    groups[2].pes = { 7 };
    const auto cells = groupIterationBusy(r, groups);
    REQUIRE(cells.size() == 6);
    CHECK(cells[0].slowestPe == 1);
    CHECK(cells[0].maxBusyUs == 40);
    CHECK(cells[0].meanBusyUs == 25);
    CHECK(cells[1].slowestPe == 2); // a tie: the lower PE
    CHECK(cells[1].maxBusyUs == 20);
    CHECK(cells[2].slowestPe == kNoPe);
    CHECK(cells[2].maxBusyUs == 0);
    CHECK(cells[3].slowestPe == 0); // 30 and 30: the lower PE
    CHECK(cells[4].slowestPe == 3);
    CHECK(cells[4].meanBusyUs == Approx(32.5));

    // Paired with a run of one iteration: the second row has no B.
    IterationResult b;
    b.iterations = { { { 0, 150 }, 2, 50, 25 } };
    CHECK(iterationComparisonCsv(r, b)
        == "iteration,duration_a_us,duration_b_us,ratio,slowest_pe_a,slowest_pe_b\n"
           "0,100,150,1.5000,1,2\n"
           "1,150,,,3,\n");
}

} // namespace parallax_test_why_test
