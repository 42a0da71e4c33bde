// The table tools (core/analysis: result_table, entry_profile, call_table, user_events, noise,
// log_listing with io/pe_log_listing): the hand-made run tests/data/runs/tables, whose numbers
// its README works out, and the real runs that carry the records.

#include "core/analysis/call_table.h"
#include "core/analysis/duration_stats.h"
#include "core/analysis/entry_profile.h"
#include "core/analysis/log_listing.h"
#include "core/analysis/message_links.h"
#include "core/analysis/noise.h"
#include "core/analysis/result_table.h"
#include "core/analysis/usage_profile.h"
#include "core/analysis/user_events.h"
#include "core/trace.h"
#include "io/pe_log_listing.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace parallax;
using namespace parallax::core;
using namespace parallax::core::analysis;
namespace fs = std::filesystem;

namespace {

core::TracePtr tablesRun()
{
    return test::loadOk(test::dataDir() / "runs" / "tables");
}

const EntryProfileRow& rowOf(const EntryProfile& profile, EntryId entry)
{
    const auto it = std::find_if(profile.rows.begin(), profile.rows.end(),
        [&](const EntryProfileRow& r) { return r.entry == entry; });
    REQUIRE(it != profile.rows.end());
    return *it;
}

} // namespace

TEST_CASE("a result table writes its CSV with quoted texts and empty cells", "[tables]")
{
    ResultTable t;
    const auto name = t.addColumn("name", CellKind::Text);
    const auto value = t.addColumn("value_us", CellKind::DurationUs);
    t.push(name, "a, \"b\"");
    t.push(value, 1.5);
    t.push(name, "c");
    t.pushEmpty(value);
    CHECK(t.rowCount() == 2);
    CHECK(t.columnIndex("value_us") == 1);
    CHECK(t.columnIndex("missing") == -1);
    CHECK(resultTableCsv(t) == "name,value_us\n\"a, \"\"b\"\"\",1.5\nc,\n");
    const auto second = t.subset({ 1 });
    CHECK(resultTableCsv(second) == "name,value_us\nc,\n");
}

TEST_CASE("duration statistics merge to the same mean and deviation as one pass", "[tables]")
{
    DurationStats all;
    DurationStats a;
    DurationStats b;
    const double values[] = { 100, 110, 120, 130, 500, 100, 100, 100, 100, 520 };
    for (std::size_t i = 0; i < 10; ++i) {
        all.add(values[i]);
        (i < 4 ? a : b).add(values[i]);
    }
    a.merge(b);
    CHECK(a.count == 10);
    CHECK(a.total == 1880);
    CHECK(a.min == 100);
    CHECK(a.max == 520);
    CHECK(a.mean == Approx(188));
    CHECK(a.sd() == Approx(std::sqrt(26036.0)));
    CHECK(all.sd() == Approx(a.sd()));
    std::vector<double> v(std::begin(values), std::end(values));
    const double median = medianOf(v);
    CHECK(median == 105);
    CHECK(medianAbsoluteDeviation(v, median) == 5);
    std::vector<double> none;
    CHECK(std::isnan(medianOf(none)));
}

TEST_CASE("entry profile of the hand-made run", "[tables]")
{
    const auto trace = tablesRun();
    const auto profile = computeEntryProfile(*trace, {});
    REQUIRE(profile);
    CHECK(profile->error.empty());
    CHECK(profile->pes == std::vector<PeId> { 0, 1 });
    CHECK(profile->apart == std::vector<PeId> { 2, 3 });
    CHECK(profile->range.begin == 1000);
    CHECK(profile->range.end == 7000);
    CHECK(profile->peTimeUs == 12000);
    REQUIRE(profile->rows.size() == 3);
    // Most time first; Main and done tie at 200 us and go by id.
    CHECK(profile->rows[0].entry == 2);
    CHECK(profile->rows[1].entry == 1);
    CHECK(profile->rows[2].entry == 3);
    const auto& work = rowOf(*profile, 2);
    CHECK(work.executions == 10);
    CHECK(work.totalUs == 1880);
    CHECK(work.meanUs == Approx(188));
    CHECK(work.minUs == 100);
    CHECK(work.maxUs == 520);
    CHECK(work.sdUs == Approx(161.357).epsilon(1e-5));
    CHECK(work.sharePct == Approx(1880.0 / 120.0));
    CHECK(work.longestPe == 1);
    CHECK(work.longestBegin == 6100);
    const auto& done = rowOf(*profile, 3);
    CHECK(done.executions == 10);
    CHECK(done.sdUs == 0);
    CHECK(profile->busyUs == 2280);

    const auto table = entryProfileTable(*profile, trace->metadata);
    const auto csv = resultTableCsv(table);
    CHECK(csv.starts_with(
        "entry,entry_name,chare,executions,total_us,mean_us,min_us,max_us,sd_us,share_pct\n"
        "2,work(int step),Worker,10,1880,188,100,520,161.357,15.6667\n"));
    REQUIRE(table.targets.size() == 3);
    CHECK(table.targets[0].pe == 1);
    CHECK(table.targets[0].begin == 6100);
    CHECK(table.targets[0].end == 6620);

    SECTION("a range, PEs and entries narrow it")
    {
        AnalysisRequest request;
        request.range = { 2000, 4000 };
        request.pes = { 0 };
        request.entries = { 2 };
        const auto narrow = computeEntryProfile(*trace, request);
        REQUIRE(narrow);
        REQUIRE(narrow->rows.size() == 1);
        CHECK(narrow->rows[0].executions == 2); // PE 0's work at 2000 and 3000
        CHECK(narrow->rows[0].totalUs == 210);
        CHECK(narrow->peTimeUs == 2000);
    }
    SECTION("comm threads count when included")
    {
        AnalysisRequest request;
        request.includeCommThreads = true;
        const auto all = computeEntryProfile(*trace, request);
        REQUIRE(all);
        CHECK(all->apart.empty());
        CHECK(rowOf(*all, 2).executions == 15); // the five relays on PE 3, 1 us each
        CHECK(rowOf(*all, 3).executions == 15);
    }
}

TEST_CASE("entry profile agrees with the usage profile and the reference tool on leanmd",
    "[tables][real]")
{
    const auto trace = test::loadOk(test::realLog("gen-leanmd-smp"));
    const auto profile = computeEntryProfile(*trace, {});
    REQUIRE(profile);
    // The reference tool's Entry Method Profile shows Compute_serial_2 at 1,884,587 us.
    const auto serial2
        = std::find_if(profile->rows.begin(), profile->rows.end(), [&](const EntryProfileRow& r) {
              return trace->metadata.entryName(r.entry) == "Compute_serial_2";
          });
    REQUIRE(serial2 != profile->rows.end());
    CHECK(serial2->totalUs == 1884587);
    CHECK(serial2->executions == 1647);
    // Over the whole traced span the busy share is what the usage profile's average calls
    // entry-method time (executions cut at the range's edges aside, and pack/unpack time, which
    // the usage profile takes out of its executions).
    const auto usage = computeUsageProfile(*trace, {});
    REQUIRE(usage);
    double entryPct = 0;
    for (int c = 0; c < usage->columns.entryCount; ++c)
        entryPct += usage->average[static_cast<std::size_t>(c)];
    double packPct = usage->average[static_cast<std::size_t>(usage->columns.pack())]
        + usage->average[static_cast<std::size_t>(usage->columns.unpack())];
    CHECK(profile->busyUs * 100.0 / profile->peTimeUs == Approx(entryPct + packPct).margin(0.5));
}

TEST_CASE("entry profile and call table give the same bits on every run, whatever the threads",
    "[tables]")
{
    // The per-PE statistics are merged in PE order, so four threads give exactly what one gives
    // (merged as the threads finished, a mean of 84 us came out as 83.99999999999999 on some
    // runs and the table printed "84 us" or "84.0 us").
    const auto trace = test::loadOk(test::sampleRun("grainsize"));
    const auto same = [](double a, double b) {
        return a == b || (std::isnan(a) && std::isnan(b));
    };
    AnalysisRequest one;
    one.threads = 1;
    const auto profile1 = computeEntryProfile(*trace, one);
    const auto calls1 = computeCallTable(*trace, one);
    REQUIRE(profile1);
    REQUIRE(calls1);
    REQUIRE(profile1->rows.size() > 5);
    AnalysisRequest four;
    four.threads = 4;
    for (int pass = 0; pass < 10; ++pass) {
        const auto profile = computeEntryProfile(*trace, four);
        REQUIRE(profile);
        REQUIRE(profile->rows.size() == profile1->rows.size());
        for (std::size_t k = 0; k < profile->rows.size(); ++k) {
            const auto& a = profile1->rows[k];
            const auto& b = profile->rows[k];
            CHECK(a.entry == b.entry);
            CHECK(same(a.meanUs, b.meanUs));
            CHECK(same(a.sdUs, b.sdUs));
            CHECK(a.longestPe == b.longestPe);
        }
        const auto calls = computeCallTable(*trace, four);
        REQUIRE(calls);
        REQUIRE(calls->edges.size() == calls1->edges.size());
        for (std::size_t k = 0; k < calls->edges.size(); ++k)
            CHECK(same(calls->edges[k].meanLatencyUs, calls1->edges[k].meanLatencyUs));
    }
}

TEST_CASE("a run without logs is profiled from its summary files", "[tables][real]")
{
    test::TempDir dir;
    for (const auto& entry : fs::directory_iterator(test::realLog("gen-feat-smp"))) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum"))
            fs::copy_file(entry.path(), dir.path() / name);
    }
    const auto trace = test::loadOk(dir.path());
    REQUIRE_FALSE(trace->hasLogs());
    const auto profile = computeEntryProfile(*trace, {});
    REQUIRE(profile);
    CHECK(profile->fromSummaries);
    // PE 0's .sum: step(int iter) (entry 154) 24 calls, 15027 us, longest 7705 us.
    AnalysisRequest pe0;
    pe0.pes = { 0 };
    const auto one = computeEntryProfile(*trace, pe0);
    REQUIRE(one);
    const auto& step = rowOf(*one, 154);
    CHECK(step.executions == 24);
    CHECK(step.totalUs == 15027);
    CHECK(step.maxUs == 7705);
    CHECK(std::isnan(step.minUs));
    CHECK(std::isnan(step.sdUs));
    CHECK(resultTableCsv(entryProfileTable(*one, trace->metadata))
              .find("154,step(int iter),Worker,24,15027,626.125,,7705,,")
        != std::string::npos);
}

TEST_CASE("call table of the hand-made run follows comm-thread relays", "[tables]")
{
    const auto trace = tablesRun();
    const auto table = computeCallTable(*trace, {});
    REQUIRE(table);
    CHECK(table->error.empty());
    const auto csv = resultTableCsv(callTableTable(*table, trace->metadata));
    CHECK(csv
        == "entry,caller_entry,caller_pe,count,bytes,min_us,mean_us,max_us,entry_name,caller_name\n"
           "2,1,0,10,800,990,2970,4950,work(int step),Main(CkArgMsg* m)\n"
           "3,2,0,5,360,60,152,460,done(int step),work(int step)\n"
           "3,2,1,5,360,550,550,550,done(int step),work(int step)\n"
           "1,none,,1,64,,,,Main(CkArgMsg* m),(no sender recorded)\n");
    SECTION("with comm threads, the relays are executions started by the original sender")
    {
        AnalysisRequest request;
        request.includeCommThreads = true;
        const auto all = computeCallTable(*trace, request);
        REQUIRE(all);
        const auto work = std::find_if(all->edges.begin(), all->edges.end(),
            [](const CallEdge& e) { return e.entry == 2 && e.callerPe == 0; });
        REQUIRE(work != all->edges.end());
        CHECK(work->count == 15);
    }
    SECTION("entries select the entry methods started")
    {
        AnalysisRequest request;
        request.entries = { 3 };
        const auto done = computeCallTable(*trace, request);
        REQUIRE(done);
        CHECK(done->edges.size() == 2);
    }
}

TEST_CASE("call table on a real SMP run accounts for every execution", "[tables][real]")
{
    const auto trace = test::loadOk(test::realLog("gen-feat-smp"));
    const auto table = computeCallTable(*trace, {});
    REQUIRE(table);
    const auto profile = computeEntryProfile(*trace, {});
    REQUIRE(profile);
    std::uint64_t calls = 0;
    std::uint64_t executions = 0;
    bool commThreadCaller = false;
    for (const auto& e : table->edges) {
        calls += e.count;
        if (e.kind == CallerKind::Entry)
            commThreadCaller = commThreadCaller || trace->metadata.isCommThread(e.callerPe);
        CHECK(e.callerPe < trace->metadata.processors);
        if (e.linked > 0)
            CHECK(e.minLatencyUs >= -static_cast<double>(kMessageSkewTolerance));
    }
    for (const auto& r : profile->rows)
        executions += r.executions;
    CHECK(calls == executions);
    CHECK_FALSE(commThreadCaller); // relays are followed back to the worker that sent
}

TEST_CASE("user events of the hand-made run", "[tables]")
{
    const auto trace = tablesRun();
    const auto summary = computeUserEvents(*trace, {});
    REQUIRE(summary);
    CHECK(summary->error.empty());
    CHECK(resultTableCsv(userEventStatsTable(*summary, trace->metadata))
        == "event,event_name,pe,kind,count,total_us,min_us,mean_us,max_us\n"
           "5,Step,all,instant,10,,,,\n"
           "5,Step,0,instant,5,,,,\n"
           "5,Step,1,instant,5,,,,\n"
           "6,Solve,all,bracket,3,470,30,156.667,390\n"
           "6,Solve,0,bracket,2,440,50,220,390\n"
           "6,Solve,1,bracket,1,30,30,30,30\n");
    REQUIRE(summary->occurrences.size() == 13);
    const auto occurrences = userEventOccurrencesTable(*summary, trace->metadata);
    CHECK(resultTableCsv(occurrences)
              .starts_with("event,event_name,pe,kind,begin_us,end_us,"
                           "duration_us\n5,Step,0,instant,2001,2001,\n"
                           "6,Solve,0,bracket,2010,2060,50\n"));
    REQUIRE(occurrences.targets.size() == 13);
    CHECK(occurrences.targets[1].pe == 0);
    CHECK(occurrences.targets[1].begin == 2010);
    CHECK(occurrences.targets[1].end == 2060);

    SECTION("event ids and ranges select")
    {
        UserEventOptions options;
        options.events = { 6 };
        AnalysisRequest request;
        request.range = { 6000, 7000 };
        const auto solve = computeUserEvents(*trace, request, options);
        REQUIRE(solve);
        REQUIRE(solve->occurrences.size() == 1);
        CHECK(solve->occurrences[0].begin == 6010);
        CHECK(unknownUserEvents(*trace, { 5, 7, 99 }) == std::vector<UserEventId> { 99 });
        CHECK(userEventName(trace->metadata, 99) == "user event 99");
    }
}

TEST_CASE("user events on the real runs, and a run that has none", "[tables][real]")
{
    const auto hello = test::loadOk(test::realLog("pipit-hello1darray-v11"));
    const auto summary = computeUserEvents(*hello, {});
    REQUIRE(summary);
    CHECK(summary->error.empty());
    const auto kinds = [&](UserEventId id, UserEventKind kind) {
        return std::any_of(
            summary->stats.begin(), summary->stats.end(), [&](const UserEventStats& s) {
                return s.event == id && s.kind == kind && s.pe == kNoPe && s.count > 0;
            });
    };
    CHECK(kinds(0, UserEventKind::Instant)); // Time Step Begin
    CHECK(kinds(1, UserEventKind::Bracket)); // For Bracket Events: 1605 .. 1767 on PE 0
    const auto bracket = std::find_if(summary->occurrences.begin(), summary->occurrences.end(),
        [](const UserEventOccurrence& o) { return o.kind == UserEventKind::Bracket; });
    REQUIRE(bracket != summary->occurrences.end());
    CHECK(bracket->begin == 1605);
    CHECK(bracket->end == 1767);

    const auto feat = test::loadOk(test::realLog("gen-feat-smp"));
    const auto events = computeUserEvents(*feat, {});
    REQUIRE(events);
    std::uint64_t instants = 0;
    for (const auto& s : events->stats)
        if (s.pe == kNoPe && s.kind == UserEventKind::Instant)
            instants += s.count;
    CHECK(instants > 0);

    const auto pingpong = test::loadOk(test::realLog("pipit-pingpong-v11"));
    const auto none = computeUserEvents(*pingpong, {});
    REQUIRE(none);
    CHECK(none->error == "this run has no user events");
}

TEST_CASE("noise miner of the hand-made run", "[tables]")
{
    const auto trace = tablesRun();
    const auto report = computeNoise(*trace, {});
    REQUIRE(report);
    CHECK(report->error.empty());
    REQUIRE(report->baselines.size() == 2); // work and done; Main ran once
    CHECK(report->baselines[0].entry == 2);
    CHECK(report->baselines[0].medianUs == 105);
    CHECK(report->baselines[0].madUs == Approx(7.413));
    CHECK(report->baselines[0].thresholdUs == Approx(105 + 5 * 7.413));
    CHECK(report->baselines[1].thresholdUs == 30);
    REQUIRE(report->noisy.size() == 2);
    CHECK(report->noisy[0].pe == 1);
    CHECK(report->noisy[0].lostUs == 415);
    CHECK(report->noisy[1].pe == 0);
    CHECK(report->noisy[1].lostUs == 395);
    REQUIRE(report->events.size() == 1);
    const auto& event = report->events[0];
    CHECK(event.band == 8);
    CHECK(event.occurrences == 2);
    CHECK(event.pes == std::vector<PeId> { 0, 1 });
    CHECK(event.lostUs == 810);
    CHECK(event.concurrent == 2);
    CHECK(std::isnan(event.periodUs));
    CHECK(resultTableCsv(noiseEventsTable(*report, trace->metadata))
        == "rank,lost_us,occurrences,pes,pe_list,median_lost_us,period_us,concurrent,entries,"
           "worst_pe,worst_begin_us\n1,810,2,2,0-1,405,,2,work(int step),1,6100\n");
    const auto executions = noisyExecutionsTable(*report, trace->metadata);
    REQUIRE(executions.targets.size() == 2);
    CHECK(executions.targets[0].begin == 6100);

    SECTION("a lower k finds more, a higher minimum excess less")
    {
        NoiseOptions options;
        options.k = 2; // threshold 105 + 14.8: PE 0's 120 and 130 join
        const auto more = computeNoise(*trace, {}, options);
        REQUIRE(more);
        CHECK(more->noisy.size() == 4);
        CHECK(more->events.size() == 3); // 15 us (8-16 band), 25 us (16-32), 395 and 415
        options.k = 5;
        options.minExcessUs = 500;
        const auto less = computeNoise(*trace, {}, options);
        REQUIRE(less);
        CHECK(less->noisy.empty());
    }
}

TEST_CASE("noise miner on leanmd finds recurring events and accounts for their lost time",
    "[tables][real]")
{
    const auto trace = test::loadOk(test::realLog("gen-leanmd-smp"));
    const auto report = computeNoise(*trace, {});
    REQUIRE(report);
    REQUIRE_FALSE(report->events.empty());
    double lost = 0;
    std::uint64_t occurrences = 0;
    for (std::size_t e = 0; e < report->events.size(); ++e) {
        lost += report->events[e].lostUs;
        occurrences += report->events[e].occurrences;
        if (e > 0)
            CHECK(report->events[e - 1].lostUs >= report->events[e].lostUs);
    }
    CHECK(occurrences == report->noisy.size());
    CHECK(lost == Approx(report->lostUs));
    for (const auto& n : report->noisy) {
        const auto& b = *std::find_if(report->baselines.begin(), report->baselines.end(),
            [&](const NoiseBaseline& x) { return x.entry == n.entry; });
        CHECK(static_cast<double>(n.end - n.begin) > b.thresholdUs);
    }
}

TEST_CASE("log listing decodes one PE's records with their line numbers", "[tables]")
{
    const auto trace = tablesRun();
    const auto listing = io::readLogListing(*trace, 0, {});
    CHECK(listing.error.empty());
    CHECK(listing.file == "tables.0.log");
    CHECK(listing.linesRead == 59);
    REQUIRE(listing.lines.size() == 58); // the header is not a record
    CHECK(listing.lines.front().line == 2);
    CHECK(listing.lines.front().type == RecordType::BeginComputation);
    const auto& main = listing.lines[1];
    CHECK(main.line == 3);
    CHECK(main.type == RecordType::BeginProcessing);
    CHECK(main.entry == 1);
    CHECK(main.msgBytes == 64);
    const auto table = logListingTable(listing, trace->metadata);
    const auto csv = resultTableCsv(table);
    CHECK(csv.starts_with("line,time_us,type,entry,entry_name,chare,pe,event,bytes,user_event,"
                          "user_event_name,details\n"
                          "2,1000,BEGIN_COMPUTATION,,,,,,,,,\n"
                          "3,1000,BEGIN_PROCESSING,1,Main(CkArgMsg* m),Main,0,,64,,,\n"));
    CHECK(csv.find("15,2000,BEGIN_PROCESSING,2,work(int step),Worker,0,1,80,,,index [0]\n")
        != std::string::npos);
    CHECK(csv.find("16,2001,USER_EVENT,,,,0,30,,5,Step,\n") != std::string::npos);
    REQUIRE(table.targets.size() == 58);
    CHECK(table.targets[14].pe == 0);
    CHECK(table.targets[14].begin == 2001);

    SECTION("time range, record types and search filter")
    {
        LogFilter filter;
        filter.range = { 6000, 7000 };
        filter.types = { RecordType::UserEventPair, RecordType::UserEvent };
        const auto events = io::readLogListing(*trace, 0, filter);
        REQUIRE(events.lines.size() == 3);
        CHECK(events.lines[0].line == 50);
        CHECK(events.lines[1].userEvent == 6);
        LogFilter search;
        search.search = "DONE(";
        const auto done = io::readLogListing(*trace, 0, search);
        CHECK(done.lines.size() == 5 + 10 + 10); // sends, begins and ends of done
        LogFilter limited;
        limited.limit = 4;
        const auto first = io::readLogListing(*trace, 0, limited);
        CHECK(first.lines.size() == 4);
        CHECK(first.truncated);
    }
    SECTION("a PE without a log is an error, not an empty listing")
    {
        const auto missing = io::readLogListing(*trace, 9, {});
        CHECK(missing.error == "PE 9 has no log in this run (PEs with a log: 0-3)");
        CHECK(missing.lines.empty());
    }
    SECTION("record type names and numbers")
    {
        CHECK(recordTypeName(RecordType::UserEventPair) == "USER_EVENT_PAIR");
        CHECK(parseRecordType("begin_processing") == RecordType::BeginProcessing);
        CHECK(parseRecordType("13") == RecordType::UserEvent);
        CHECK_FALSE(parseRecordType("77"));
        CHECK_FALSE(parseRecordType("BEGIN"));
    }
}

TEST_CASE("log listing keeps malformed lines and reads gzip logs", "[tables][real]")
{
    test::TempDir dir;
    const auto source = test::dataDir() / "runs" / "tables";
    for (const auto& entry : fs::directory_iterator(source))
        fs::copy_file(entry.path(), dir.path() / entry.path().filename());
    {
        std::ofstream log(dir.path() / "tables.1.log", std::ios::app);
        log << "2 21 garbage\n";
    }
    const auto trace = test::loadOk(dir.path());
    const auto listing = io::readLogListing(*trace, 1, {});
    CHECK(listing.malformed == 1);
    REQUIRE_FALSE(listing.lines.empty());
    CHECK(listing.lines.back().malformed);
    CHECK(listing.lines.back().line == 26);
    CHECK(resultTableCsv(logListingTable(listing, trace->metadata)).find(",MALFORMED,")
        != std::string::npos);

    const auto hello = test::loadOk(test::realLog("pipit-hello1darray-v11"));
    const auto log = io::readLogListing(*hello, 0, {});
    CHECK(log.error.empty());
    CHECK(log.linesRead == 84);
    const auto stat = std::find_if(log.lines.begin(), log.lines.end(),
        [](const LogLine& l) { return l.type == RecordType::UserStat; });
    REQUIRE(stat != log.lines.end());
    CHECK(stat->details.find("tracing user stat = 0") == 0);
}
