// The exports (export/): the OTF2 archive read back through the OTF2 library's reader API and
// the Perfetto JSON parsed back, on real runs and a generated one; the numbers must be the
// store's own: Enter/Leave pairs = executions per PE, region (self) time = the usage profile's
// per-entry time, messages = the paired sends.

#include "core/analysis/message_links.h"
#include "core/analysis/usage_profile.h"
#include "export/export_plan.h"
#include "export/export_run.h"
#include "export/staged_output.h"
#include "io/json_value.h"
#include "support/io_support.h"
#include "support/test_support.h"

#ifdef PARALLAX_HAVE_OTF2
#include "support/otf2_read_back.h"
#endif

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace parallax;
using namespace parallax::test;
using exporter::ExportFormat;

namespace {

exporter::ExportPlan planOk(const core::Trace& trace, exporter::ExportRequest request = {})
{
    auto outcome = exporter::planExport(trace, request);
    INFO("planExport: " << outcome.error);
    REQUIRE(outcome.plan.has_value());
    return std::move(*outcome.plan);
}

// Per exported PE and usage column, the usage profile's time in µs over the plan's window.
std::map<core::PeId, std::vector<double>> usageMicroseconds(
    const core::Trace& trace, const exporter::ExportPlan& plan)
{
    core::analysis::AnalysisRequest request;
    request.range = plan.range;
    for (const auto& p : plan.pes)
        request.pes.push_back(p.pe);
    request.includeCommThreads = true;
    const auto usage = core::analysis::computeUsageProfile(trace, request);
    REQUIRE(usage.has_value());
    std::map<core::PeId, std::vector<double>> out;
    const double length = static_cast<double>(usage->range.length());
    for (std::size_t k = 0; k < usage->pes.size(); ++k) {
        auto& row = out[usage->pes[k]];
        for (int c = 0; c < usage->columns.count(); ++c)
            row.push_back(usage->at(k, c) * length / 100.0);
    }
    return out;
}

// The messages an independent walk finds: executions in the window whose message source is a
// solid link from an exported PE, sent inside the window (every PE exported: no relays).
std::size_t linkedExecutions(const core::Trace& trace, const exporter::ExportPlan& plan)
{
    std::size_t n = 0;
    for (const auto& e : plan.pes) {
        const auto range = trace.pes[static_cast<std::size_t>(e.pe)].executionsOverlapping(
            plan.range.begin, plan.range.end);
        for (auto k = range.first; k < range.last; ++k) {
            const auto link = core::analysis::findMessageSource(trace, e.pe, k);
            if (link.status != core::analysis::MessageLink::Status::Linked
                || plan.indexOf(link.senderPe) < 0)
                continue;
            const auto t
                = trace.pes[static_cast<std::size_t>(link.senderPe)].sends.time[*link.send];
            const auto begin = trace.pes[static_cast<std::size_t>(e.pe)].executions.begin[k];
            if (t >= plan.range.begin && t < plan.range.end && begin >= plan.range.begin)
                ++n;
        }
    }
    return n;
}

// A member of a JSON object, or null when it has none.
const io::Json& member(const io::Json& value, std::string_view key)
{
    static const io::Json none;
    const auto* found = value.get(key);
    return found != nullptr ? *found : none;
}

struct PerfettoReadBack {
    std::map<std::int64_t, std::size_t> entrySlices; // tid → complete entry slices
    std::map<std::int64_t, std::map<std::string, double>> selfTime; // tid → name → µs
    std::size_t flowStarts = 0;
    std::size_t flowEnds = 0;
    std::size_t unboundFlowEnds = 0; // an "f" at no slice begin of its thread
    std::set<double> startIds;
    std::set<double> endIds;
    std::map<std::int64_t, std::string> threadNames;
    std::size_t counters = 0;
    std::size_t instants = 0;
    bool schemaOk = true;
};

// Checks every event against the trace-event schema and adds up what the round trip compares.
PerfettoReadBack readPerfetto(const std::string& text)
{
    io::Json doc;
    std::string error;
    const bool parsed = io::parseJson(text, doc, &error);
    INFO("JSON syntax error: " << error);
    REQUIRE(parsed);
    const auto& events = member(doc, "traceEvents");
    REQUIRE(events.type == io::Json::Type::Array);
    PerfettoReadBack r;
    struct Slice {
        double begin;
        double end;
        std::string name;
        std::string cat;
    };
    std::map<std::int64_t, std::vector<Slice>> slices;
    std::vector<std::pair<std::int64_t, double>> flowEnds;
    using Type = io::Json::Type;
    for (const auto& e : events.items) {
        const auto& ph = member(e, "ph").string;
        const auto& name = member(e, "name").string;
        const auto& cat = member(e, "cat").string;
        if (member(e, "ph").type != Type::String || member(e, "pid").type != Type::Number
            || member(e, "name").type != Type::String) {
            r.schemaOk = false;
            continue;
        }
        if (ph == "M") {
            if (name == "thread_name")
                r.threadNames[static_cast<std::int64_t>(member(e, "tid").number)]
                    = member(member(e, "args"), "name").string;
            continue;
        }
        if (member(e, "tid").type != Type::Number || member(e, "ts").type != Type::Number) {
            r.schemaOk = false;
            continue;
        }
        const auto tid = static_cast<std::int64_t>(member(e, "tid").number);
        const double ts = member(e, "ts").number;
        if (ph == "X") {
            const auto& dur = member(e, "dur");
            if (dur.type != Type::Number || dur.number < 0)
                r.schemaOk = false;
            slices[tid].push_back({ ts, ts + dur.number, name, cat });
            if (cat == "entry")
                ++r.entrySlices[tid];
        } else if (ph == "s") {
            ++r.flowStarts;
            r.startIds.insert(member(e, "id").number);
        } else if (ph == "f") {
            ++r.flowEnds;
            r.endIds.insert(member(e, "id").number);
            if (member(e, "bp").string != "e")
                r.schemaOk = false;
            flowEnds.emplace_back(tid, ts);
        } else if (ph == "C") {
            ++r.counters;
            if (member(e, "args").type != Type::Object)
                r.schemaOk = false;
        } else if (ph == "i") {
            ++r.instants;
        } else if (ph != "b" && ph != "e") {
            r.schemaOk = false;
        }
    }
    // Self time: a slice's duration minus its children's (slices of a thread nest).
    for (auto& [tid, list] : slices) {
        std::sort(list.begin(), list.end(), [](const Slice& a, const Slice& b) {
            return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
        });
        std::vector<std::size_t> open;
        std::vector<double> self(list.size());
        for (std::size_t k = 0; k < list.size(); ++k) {
            while (!open.empty() && list[open.back()].end <= list[k].begin
                && !(list[k].begin == list[k].end && list[open.back()].end == list[k].begin))
                open.pop_back();
            self[k] = list[k].end - list[k].begin;
            if (!open.empty()) {
                CHECK(list[k].end <= list[open.back()].end); // properly nested
                self[open.back()] -= list[k].end - list[k].begin;
            }
            open.push_back(k);
        }
        for (std::size_t k = 0; k < list.size(); ++k)
            if (list[k].cat == "entry")
                r.selfTime[tid][list[k].name] += self[k];
    }
    for (const auto& [tid, ts] : flowEnds) {
        const auto& list = slices[tid];
        const bool bound = std::any_of(list.begin(), list.end(),
            [&](const Slice& s) { return s.cat == "entry" && s.begin == ts; });
        if (!bound)
            ++r.unboundFlowEnds;
    }
    return r;
}

void checkPerfettoRoundTrip(
    const core::Trace& trace, const exporter::ExportPlan& plan, const std::string& file, bool gzip)
{
    const auto result = exporter::exportRun(trace, plan, ExportFormat::Perfetto, file);
    INFO("export: " << result.error);
    REQUIRE(result.ok);
    const auto r = readPerfetto(gzip ? gunzipToString(file) : readFile(file));
    CHECK(r.schemaOk);
    const auto usage = usageMicroseconds(trace, plan);
    for (const auto& e : plan.pes) {
        INFO("PE " << e.pe);
        const auto tid = static_cast<std::int64_t>(e.pe) + 1;
        CHECK(r.threadNames.at(tid).rfind("PE " + std::to_string(e.pe), 0) == 0);
        const std::size_t slicesOfPe = r.entrySlices.count(tid) ? r.entrySlices.at(tid) : 0;
        CHECK(slicesOfPe == e.executions);
        const auto& row = usage.at(e.pe);
        for (std::size_t entry = 0; entry < trace.metadata.entryCount(); ++entry) {
            const auto& name = plan.regions[entry].name;
            const double got = r.selfTime.count(tid) && r.selfTime.at(tid).count(name)
                ? r.selfTime.at(tid).at(name)
                : 0.0;
            INFO(name);
            CHECK(got == Approx(row[entry]).margin(0.5));
        }
    }
    CHECK(r.flowStarts == plan.messages.size());
    CHECK(r.flowEnds == plan.messages.size());
    CHECK(r.startIds == r.endIds);
    CHECK(r.unboundFlowEnds == 0);
    CHECK(result.counts.executions == plan.executionCount());
    CHECK(result.counts.messages == plan.messages.size());
}

#ifdef PARALLAX_HAVE_OTF2
void checkOtf2RoundTrip(
    const core::Trace& trace, const exporter::ExportPlan& plan, const std::string& dir)
{
    const auto result = exporter::exportRun(trace, plan, ExportFormat::Otf2, dir);
    INFO("export: " << result.error);
    REQUIRE(result.ok);
    const auto r = readOtf2(dir);
    REQUIRE(r.opened);
    CHECK(r.nested);
    CHECK(r.forward);
    CHECK(r.allClosed);
    CHECK(r.locationNames.size() == plan.pes.size());
    const auto usage = usageMicroseconds(trace, plan);
    const auto entries = trace.metadata.entryCount();
    core::analysis::ActivityColumns columns;
    columns.entryCount = static_cast<int>(entries);
    for (const auto& e : plan.pes) {
        INFO("PE " << e.pe);
        const auto location = static_cast<std::uint64_t>(e.pe);
        CHECK(r.eventsRead.at(location) == r.locationEvents.at(location));
        std::uint64_t pairs = 0;
        if (r.pairs.count(location))
            for (const auto& [region, n] : r.pairs.at(location))
                if (region < entries
                    || plan.regions[region].kind == exporter::RegionKind::UnknownEntry)
                    pairs += n;
        CHECK(pairs == e.executions);
        const auto& row = usage.at(e.pe);
        const auto time = [&](std::size_t region) {
            return r.exclusive.count(location)
                    && r.exclusive.at(location).count(static_cast<std::uint32_t>(region))
                ? r.exclusive.at(location).at(static_cast<std::uint32_t>(region))
                : 0.0;
        };
        for (std::size_t entry = 0; entry < entries; ++entry) {
            INFO(plan.regions[entry].name);
            CHECK(time(entry) == Approx(row[entry]).margin(0.5));
        }
        // Idle, pack, unpack and overhead are the usage profile's too.
        for (const int c :
            { columns.idle(), columns.pack(), columns.unpack(), columns.overhead() }) {
            INFO("column " << columns.name(c));
            CHECK(time(static_cast<std::size_t>(c))
                == Approx(row[static_cast<std::size_t>(c)]).margin(0.5));
        }
    }
    CHECK(r.sends == plan.messages.size());
    CHECK(r.receives == plan.messages.size());
    CHECK(r.sendKeys == r.receiveKeys);
    CHECK(r.enterWithAttributes == plan.executionCount());
    CHECK(r.properties.at("PROJECTIONS::RUN") == trace.files.baseName);
    CHECK(result.counts.messages == plan.messages.size());
}
#endif

} // namespace

TEST_CASE("export plan pairs each message once and lists every other send as unmatched", "[export]")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    const auto plan = planOk(*trace);
    CHECK(plan.pes.size() == 6); // 4 workers and 2 comm threads
    CHECK(plan.nodes == std::vector<int> { 0, 1 });
    CHECK(plan.pes[4].commThread);
    CHECK(plan.pes[4].node == 0);
    // Every PE exported: the messages are exactly the solid links whose send is in the window.
    CHECK(plan.messages.size() == linkedExecutions(*trace, plan));
    CHECK_FALSE(plan.messages.empty());
    std::size_t sends = 0;
    std::set<std::pair<core::PeId, std::uint32_t>> used;
    for (const auto& m : plan.messages) {
        used.insert({ m.senderPe, m.send });
        CHECK(m.relays == 0);
        CHECK(m.sendTime <= m.receiveTime + core::analysis::kMessageSkewTolerance);
    }
    for (const auto& e : plan.pes)
        sends += trace->pes[static_cast<std::size_t>(e.pe)]
                     .sendsIn(plan.range.begin, plan.range.end)
                     .size();
    CHECK(used.size() + plan.unmatchedSendCount() == sends);
}

TEST_CASE(
    "export plan follows comm-thread relays when the comm threads are not exported", "[export]")
{
    const auto trace = loadOk(realLog("gen-feat-smp"));
    exporter::ExportRequest workers;
    workers.pes = { 0, 1, 2, 3 };
    const auto plan = planOk(*trace, workers);
    const auto relayed = std::count_if(plan.messages.begin(), plan.messages.end(),
        [](const exporter::Message& m) { return m.relays > 0; });
    CHECK(relayed > 0);
    for (const auto& m : plan.messages) {
        CHECK(plan.indexOf(m.senderPe) >= 0);
        CHECK_FALSE(trace->metadata.isCommThread(m.senderPe));
    }
}

TEST_CASE("export activities nest and never move an execution", "[export]")
{
    for (const auto* name : { "gen-feat-smp", "gen-feat-notracenested", "pipit-pingpong-v11" }) {
        INFO(name);
        const auto trace = loadOk(realLog(name));
        const auto plan = planOk(*trace);
        for (std::size_t i = 0; i < plan.pes.size(); ++i) {
            const auto activities = exporter::peActivities(*trace, plan, i);
            const auto& ex = trace->pes[static_cast<std::size_t>(plan.pes[i].pe)].executions;
            std::vector<const exporter::Activity*> open;
            std::size_t executions = 0;
            for (const auto& a : activities) {
                while (!open.empty() && open.back()->depth >= a.depth)
                    open.pop_back();
                CHECK(a.depth == open.size());
                if (!open.empty()) {
                    CHECK(a.begin >= open.back()->begin);
                    CHECK(a.end <= open.back()->end);
                }
                if (a.isExecution()) {
                    ++executions;
                    CHECK(a.begin
                        == std::clamp(ex.begin[a.execution], plan.range.begin, plan.range.end));
                    CHECK(
                        a.end == std::clamp(ex.end[a.execution], plan.range.begin, plan.range.end));
                }
                open.push_back(&a);
            }
            CHECK(executions == plan.pes[i].executions);
        }
    }
}

TEST_CASE("Perfetto JSON round trip: slices, self time and flows equal the store's", "[export]")
{
    TempDir dir;
    for (const auto& run : { realLog("gen-feat-smp"), realLog("pipit-pingpong-v11"),
             realLog("charm-synth-v7"), sampleRun("imbalance") }) {
        INFO(run.string());
        const auto trace = loadOk(run);
        const auto plan = planOk(*trace);
        checkPerfettoRoundTrip(
            *trace, plan, (dir / (run.filename().string() + ".json")).string(), false);
    }
}

TEST_CASE("Perfetto JSON: gzip, a range and a PE subset", "[export]")
{
    TempDir dir;
    const auto trace = loadOk(realLog("gen-feat-smp"));
    exporter::ExportRequest request;
    const auto whole = planOk(*trace);
    request.range = { whole.range.begin + whole.range.length() / 4,
        whole.range.begin + whole.range.length() / 2 };
    request.pes = { 1, 2, 5 };
    const auto plan = planOk(*trace, request);
    CHECK(plan.range.begin == request.range.begin);
    CHECK(plan.pes.size() == 3);
    checkPerfettoRoundTrip(*trace, plan, (dir / "part.json.gz").string(), true);
    // Real gzip (the magic bytes), and every user event and stat of the run are there.
    const auto bytes = readFile(dir / "part.json.gz");
    REQUIRE(bytes.size() > 2);
    CHECK(static_cast<unsigned char>(bytes[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(bytes[1]) == 0x8b);
}

#ifdef PARALLAX_HAVE_OTF2
TEST_CASE("OTF2 round trip through the reader API: pairs, region times and messages", "[export]")
{
    TempDir dir;
    for (const auto& run : { realLog("gen-feat-smp"), realLog("pipit-pingpong-v11"),
             realLog("pipit-hello1darray-v11"), sampleRun("imbalance") }) {
        INFO(run.string());
        const auto trace = loadOk(run);
        const auto plan = planOk(*trace);
        checkOtf2RoundTrip(*trace, plan, (dir / run.filename().string()).string());
    }
}

TEST_CASE("OTF2: a range and a PE subset, metrics, markers and properties", "[export]")
{
    TempDir dir;
    const auto trace = loadOk(realLog("gen-feat-smp"));
    const auto whole = planOk(*trace);
    {
        const auto r = readOtf2((dir / "whole").string());
        CHECK_FALSE(r.opened); // nothing there yet
    }
    checkOtf2RoundTrip(*trace, whole, (dir / "whole").string());
    const auto r = readOtf2((dir / "whole").string());
    CHECK(r.metrics > 0); // the user stat, memory and user-supplied values
    CHECK(r.markers > 0); // user events and unmatched sends
    CHECK(r.properties.at("CHARM::VERSION") == trace->metadata.charmVersion);
    CHECK(r.locationNames.at(4) == "PE 4 (comm thread)");

    exporter::ExportRequest request;
    request.range = { whole.range.begin + whole.range.length() / 3,
        whole.range.begin + 2 * whole.range.length() / 3 };
    request.pes = { 0, 3 };
    const auto plan = planOk(*trace, request);
    checkOtf2RoundTrip(*trace, plan, (dir / "part").string());
}
#endif

TEST_CASE("export refuses summaries, missing PEs and empty ranges with one sentence", "[export]")
{
    TempDir dir;
    // A summary-only copy of a real run.
    for (const auto& entry : fs::directory_iterator(realLog("gen-feat-smp")))
        if (entry.path().string().find(".log") == std::string::npos)
            fs::copy_file(entry.path(), dir / entry.path().filename().string());
    const auto summaries = loadOk(dir.path());
    REQUIRE_FALSE(summaries->hasLogs());
    auto outcome = exporter::planExport(*summaries, {});
    CHECK_FALSE(outcome.plan);
    CHECK(outcome.error.find("no logs") != std::string::npos);

    const auto trace = loadOk(realLog("gen-feat-binshrink-partial"));
    exporter::ExportRequest request;
    request.pes = { 5 };
    outcome = exporter::planExport(*trace, request);
    CHECK_FALSE(outcome.plan);
    CHECK(outcome.error == "PE 5 has no log in this run (PEs with logs: 0-4)");
    request = {};
    request.range = { 10, 10 };
    outcome = exporter::planExport(*trace, request);
    CHECK_FALSE(outcome.plan);
    CHECK(outcome.error == "the time range is empty");
}

TEST_CASE(
    "export targets: existing, inside the run, unwritable, and a cancel leaves nothing", "[export]")
{
    TempDir dir;
    const auto run = realLog("pipit-pingpong-v11");
    const auto trace = loadOk(run);
    const auto plan = planOk(*trace);
    const auto file = (dir / "out.json").string();
    // Existing: refused without force, replaced with it.
    writeFile(file, "old");
    auto result = exporter::exportRun(*trace, plan, ExportFormat::Perfetto, file);
    CHECK_FALSE(result.ok);
    CHECK(result.error == file + " already exists");
    CHECK(readFile(file) == "old");
    exporter::ExportOptions force;
    force.force = true;
    result = exporter::exportRun(*trace, plan, ExportFormat::Perfetto, file, force);
    CHECK(result.ok);
    CHECK(readFile(file).rfind("{\"displayTimeUnit\"", 0) == 0);
    // A directory where a file should go, and the other way round.
    fs::create_directory(dir / "adir");
    result
        = exporter::exportRun(*trace, plan, ExportFormat::Perfetto, (dir / "adir").string(), force);
    CHECK(result.error == (dir / "adir").string() + " is a directory, not a file");
    // Inside the run's directory: never written to.
    const auto inside = (run / "x.json").string();
    result = exporter::exportRun(*trace, plan, ExportFormat::Perfetto, inside, force);
    CHECK(
        result.error == inside + " is inside the run's directory, which an export never writes to");
    CHECK_FALSE(fs::exists(inside));
    // Unwritable: the parent is a file (root cannot write there either).
    writeFile(dir / "plain", "x");
    const auto below = (dir / "plain" / "out.json").string();
    result = exporter::exportRun(*trace, plan, ExportFormat::Perfetto, below);
    CHECK_FALSE(result.ok);
    CHECK(result.error.find("cannot create") == 0);
    // Cancelled half-way: no target and no temporary left beside it.
    exporter::ExportOptions cancel;
    int calls = 0;
    cancel.progress.report = [&](double) {
        ++calls;
    };
    cancel.progress.cancelled = [&] {
        return calls >= 1;
    };
    for (const auto format : { ExportFormat::Perfetto, ExportFormat::Otf2 }) {
        if (format == ExportFormat::Otf2 && !exporter::otf2Available())
            continue;
        calls = 0;
        const auto target
            = (dir / (std::string("cancelled-") + exporter::formatName(format))).string();
        result = exporter::exportRun(*trace, plan, format, target, cancel);
        CHECK(result.cancelled);
        CHECK_FALSE(result.ok);
        CHECK_FALSE(fs::exists(target));
    }
    for (const auto& entry : fs::directory_iterator(dir.path()))
        CHECK(entry.path().filename().string().find(".partial-") == std::string::npos);
}
