// parallax-gen: its runs open cleanly, are deterministic, agree with their own summaries, and
// the planted problems are visible in the store (and so in every view built on it).

#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/iterations.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "io/trace_compare.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <sys/wait.h>

using namespace parallax;
using parallax::test::TempDir;

namespace {

struct GenRun {
    int exitCode = -1;
    std::string out;
};

// Runs the real parallax-gen binary (path from CMake).
GenRun generate(const std::vector<std::string>& args)
{
    TempDir capture;
    std::string command = "'" PARALLAX_GEN_PATH "'";
    for (const auto& a : args)
        command += " '" + a + "'";
    command += " >'" + (capture.path() / "out").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    REQUIRE(status != -1);
    REQUIRE(WIFEXITED(status));
    return { WEXITSTATUS(status), parallax::test::readFile(capture.path() / "out") };
}

core::TracePtr generateAndLoad(
    const TempDir& dir, std::vector<std::string> args, std::string* planted = nullptr)
{
    args.insert(args.begin(), { "--out", dir.path().string(), "--name", "gen", "--threads", "2" });
    const auto run = generate(args);
    INFO(run.out);
    REQUIRE(run.exitCode == 0);
    if (planted != nullptr)
        *planted = run.out;
    const auto trace = parallax::test::loadOk(dir.path());
    // A generated run is clean: nothing above "info" in the import report.
    CHECK(trace->report.total(core::Severity::Warning) == 0);
    return trace;
}

double idleShare(const core::PeTrace& pe)
{
    double idle = 0;
    for (std::size_t k = 0; k < pe.idles.size(); ++k)
        idle += static_cast<double>(pe.idles.end[k] - pe.idles.begin[k]);
    return idle / static_cast<double>(pe.endComputation - pe.beginComputation);
}

// The --truth CSV as PE -> class, checking its header and that it has one line per PE.
std::vector<std::string> readTruth(const std::filesystem::path& file, std::size_t pes)
{
    std::istringstream text(parallax::test::readFile(file));
    std::string line;
    REQUIRE(std::getline(text, line));
    REQUIRE(line == "pe,class");
    std::vector<std::string> classes;
    while (std::getline(text, line)) {
        const auto comma = line.find(',');
        REQUIRE(comma != std::string::npos);
        REQUIRE(std::stoul(line.substr(0, comma)) == classes.size());
        classes.push_back(line.substr(comma + 1));
    }
    REQUIRE(classes.size() == pes);
    return classes;
}

std::vector<core::PeId> pesOfClass(const std::vector<std::string>& classes, std::string_view name)
{
    std::vector<core::PeId> pes;
    for (std::size_t pe = 0; pe < classes.size(); ++pe)
        if (classes[pe] == name)
            pes.push_back(static_cast<core::PeId>(pe));
    return pes;
}

// Entry id of "Chare::method" (the name up to its parameter list).
core::EntryId entryNamed(const core::Trace& trace, std::string_view chare, std::string_view method)
{
    for (std::size_t id = 0; id < trace.metadata.entries.size(); ++id) {
        const auto entry = static_cast<core::EntryId>(id);
        const std::string& name = trace.metadata.entryName(entry);
        if (trace.metadata.chareNameOfEntry(entry) == chare
            && name.substr(0, name.find('(')) == method)
            return entry;
    }
    FAIL("no entry method " << chare << "::" << method);
    return -1;
}

// Time one PE spends in `entry` over executions that begin in [begin, end).
double entryTime(const core::PeTrace& pe, core::EntryId entry, core::TimeUs begin = 0,
    core::TimeUs end = std::numeric_limits<core::TimeUs>::max())
{
    double time = 0;
    for (std::size_t k = 0; k < pe.executions.size(); ++k)
        if (pe.executions.entry[k] == entry && pe.executions.begin[k] >= begin
            && pe.executions.begin[k] < end)
            time += static_cast<double>(pe.executions.end[k] - pe.executions.begin[k]);
    return time;
}

using RefusalCases = std::vector<std::pair<std::vector<std::string>, std::string>>;

// Each case (options after `base`, expected message) exits with status 2 and one line naming
// the problem, and writes nothing to `out`.
void checkRefused(
    const std::vector<std::string>& base, const std::string& out, const RefusalCases& cases)
{
    for (const auto& [extra, expected] : cases) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        const auto run = generate(args);
        INFO(run.out);
        CHECK(run.exitCode == 2);
        CHECK(run.out.rfind("parallax-gen: ", 0) == 0);
        CHECK(run.out.find(expected) != std::string::npos);
        CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);
        CHECK(!std::filesystem::exists(out));
    }
}

double mean(const std::vector<double>& values)
{
    REQUIRE(!values.empty());
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

} // namespace

TEST_CASE(
    "generated overloaded PEs are the least idle, and Extrema finds exactly them", "[generator]")
{
    TempDir dir;
    std::string planted;
    const auto trace = generateAndLoad(
        dir, { "--pes", "16", "--events-per-pe", "4000", "--overloaded-pes", "3,11" }, &planted);
    CHECK(planted.find("planted overloaded-pes 3,11 factor 2.0") != std::string::npos);
    REQUIRE(trace->pes.size() == 16);
    for (core::PeId pe = 0; pe < 16; ++pe) {
        INFO("PE " << pe);
        const double share = idleShare(trace->pes[static_cast<std::size_t>(pe)]);
        if (pe == 3 || pe == 11)
            CHECK(share < 0.15);
        else
            CHECK(share > 0.25);
    }
    core::analysis::ExtremaOptions options;
    options.criterion = core::analysis::ExtremaCriterion::LeastIdle;
    options.count = 2;
    const auto x = core::analysis::computeExtrema(*trace, {}, options);
    REQUIRE(x);
    auto extremes = x->extremes;
    std::sort(extremes.begin(), extremes.end());
    CHECK(extremes == std::vector<core::PeId> { 3, 11 });
}

TEST_CASE(
    "a generated bimodal entry method has a second, longer mode of about a fifth of its calls",
    "[generator]")
{
    TempDir dir;
    std::string planted;
    const auto trace = generateAndLoad(
        dir, { "--pes", "4", "--events-per-pe", "6000", "--bimodal-entry" }, &planted);
    REQUIRE(planted.find("planted bimodal-entry Worker::compute ep 13") != std::string::npos);
    REQUIRE(trace->metadata.chareNameOfEntry(13) == "Worker");
    REQUIRE(trace->metadata.entryName(13).rfind("compute(", 0) == 0);
    std::vector<core::TimeUs> durations;
    for (const auto& pe : trace->pes)
        for (std::size_t k = 0; k < pe.executions.size(); ++k)
            if (pe.executions.entry[k] == 13)
                durations.push_back(pe.executions.end[k] - pe.executions.begin[k]);
    REQUIRE(durations.size() > 100);
    std::sort(durations.begin(), durations.end());
    const auto median = durations[durations.size() / 2];
    const auto longOnes
        = std::count_if(durations.begin(), durations.end(), [&](auto d) { return d > 2 * median; });
    const double fraction = static_cast<double>(longOnes) / static_cast<double>(durations.size());
    CHECK(fraction > 0.12);
    CHECK(fraction < 0.3);
    // Between the two modes there is a gap: almost nothing at 1.5x..2x the median.
    const auto between = std::count_if(durations.begin(), durations.end(),
        [&](auto d) { return d > median * 3 / 2 && d <= 2 * median; });
    CHECK(static_cast<double>(between) < 0.05 * static_cast<double>(durations.size()));
}

TEST_CASE("a generated heavy sender sends many times the messages of any other PE", "[generator]")
{
    TempDir dir;
    const auto trace
        = generateAndLoad(dir, { "--pes", "8", "--events-per-pe", "3000", "--heavy-sender", "5" });
    double heavy = 0;
    double others = 0; // the most any other PE sends
    for (const auto& pe : trace->pes) {
        double n = 0;
        for (std::size_t k = 0; k < pe.sends.size(); ++k)
            n += pe.sends.kind[k] == core::SendKind::PointToPoint ? 1.0
                                                                  : pe.sends.destinationCount[k];
        if (pe.pe == 5)
            heavy = n;
        else
            others = std::max(others, n);
    }
    CHECK(heavy > 5.0 * others);
}

TEST_CASE("planted slow iterations are found as the longest steps, on every PE", "[generator]")
{
    TempDir dir;
    const auto trace = generateAndLoad(dir,
        { "--pes", "8", "--events-per-pe", "3000", "--iterations", "12", "--slow-iterations",
            "4,9" });
    const auto found = core::analysis::findIterations(*trace, {});
    CHECK(found.source == "user-event"); // Main's "Iteration start"
    REQUIRE(found.iterations.size() == 12);
    // Every PE computes 3 times as long in iterations 4 and 9: they take about twice as long
    // as any other (the rest of a step's work is unchanged), and their median PE is as busy.
    core::TimeUs longestOther = 0;
    double busiestOtherMedian = 0;
    for (std::size_t k = 0; k < found.iterations.size(); ++k)
        if (k != 4 && k != 9) {
            longestOther = std::max(longestOther, found.iterations[k].range.length());
            busiestOtherMedian = std::max(busiestOtherMedian, found.iterations[k].medianBusyUs);
        }
    for (const std::size_t slow : { 4U, 9U }) {
        CHECK(found.iterations[slow].range.length() > 3 * longestOther / 2);
        CHECK(found.iterations[slow].medianBusyUs > 1.5 * busiestOtherMedian);
    }
}

TEST_CASE("the same generator arguments give the same files, and .log and .log.gz the same store",
    "[generator]")
{
    TempDir a;
    TempDir b;
    TempDir gz;
    const std::vector<std::string> args
        = { "--pes", "3", "--events-per-pe", "2000", "--seed", "7" };
    const auto first = generateAndLoad(a, args);
    const auto second = generateAndLoad(b, args);
    for (const auto* name : { "gen.sts", "gen.0.log", "gen.2.log", "gen.1.sum", "gen.1.sumd" })
        CHECK(
            parallax::test::readFile(a.path() / name) == parallax::test::readFile(b.path() / name));
    auto gzArgs = args;
    gzArgs.emplace_back("--gz");
    const auto compressed = generateAndLoad(gz, gzArgs);
    REQUIRE(compressed->pes.size() == first->pes.size());
    for (std::size_t p = 0; p < first->pes.size(); ++p)
        parallax::test::requireSamePeTrace(first->pes[p], compressed->pes[p]);
}

TEST_CASE(
    "a generated run's .sum per-entry totals equal the execution times in its logs", "[generator]")
{
    TempDir dir;
    const auto trace = generateAndLoad(dir, { "--pes", "4", "--events-per-pe", "3000" });
    for (std::size_t p = 0; p < trace->pes.size(); ++p) {
        INFO("PE " << p);
        REQUIRE(trace->summaries[p]);
        const auto& pe = trace->pes[p];
        std::vector<std::int64_t> fromLog(trace->metadata.entries.size(), 0);
        std::vector<std::int64_t> calls(trace->metadata.entries.size(), 0);
        for (std::size_t k = 0; k < pe.executions.size(); ++k) {
            fromLog[pe.executions.entry[k]] += pe.executions.end[k] - pe.executions.begin[k];
            ++calls[pe.executions.entry[k]];
        }
        const auto& sum = *trace->summaries[p];
        // Pack and unpack time is charged to the dummy pack/unpack entries (1 and 2) in a .sum.
        for (std::size_t e = 3; e < fromLog.size(); ++e) {
            INFO("entry " << e);
            CHECK(sum.entryTime[e] == fromLog[e]);
            CHECK(sum.entryCalls[e] == calls[e]);
        }
    }
}

TEST_CASE("the bundled sample runs open cleanly and show their planted problems", "[generator]")
{
    const auto samples = std::filesystem::path(PARALLAX_SAMPLE_DIR);
    const auto imbalance = parallax::test::loadOk(samples / "imbalance");
    CHECK(imbalance->report.total(core::Severity::Warning) == 0);
    core::analysis::ExtremaOptions options;
    options.count = 2;
    const auto x = core::analysis::computeExtrema(*imbalance, {}, options);
    REQUIRE(x);
    auto extremes = x->extremes;
    std::sort(extremes.begin(), extremes.end());
    CHECK(extremes == std::vector<core::PeId> { 3, 9 });

    const auto heavy = parallax::test::loadOk(samples / "heavy-sender");
    options.criterion = core::analysis::ExtremaCriterion::MsgsSent;
    options.count = 1;
    const auto sent = core::analysis::computeExtrema(*heavy, {}, options);
    REQUIRE(sent);
    CHECK(sent->extremes == std::vector<core::PeId> { 5 });

    const auto grain = parallax::test::loadOk(samples / "grainsize");
    core::analysis::HistogramOptions h;
    h.bins = 40;
    h.binSize = 50;
    const auto histogram = core::analysis::computeHistogram(*grain, {}, h);
    REQUIRE(histogram);
    // Worker::compute (13): calls in the short mode (< 500 µs) and in the long one (>= 700 µs).
    double shortCalls = 0;
    double longCalls = 0;
    for (std::int64_t b = 0; b <= histogram->bins; ++b) {
        if (histogram->binLow(b) < 500)
            shortCalls += histogram->count(b, 13);
        else if (histogram->binLow(b) >= 700)
            longCalls += histogram->count(b, 13);
    }
    CHECK(shortCalls > 0);
    CHECK(longCalls > 0.1 * shortCalls);
}

TEST_CASE("heavy PEs are spread over the machine and spend about the heavy factor times the "
          "time of the others in each of their entry methods",
    "[generator]")
{
    TempDir dir;
    std::string planted;
    const auto truthFile = dir.path() / "truth.csv";
    const auto trace = generateAndLoad(dir,
        { "--pes", "64", "--events-per-pe", "2000", "--heavy-fraction", "0.125", "--heavy-factor",
            "3", "--truth", truthFile.string() },
        &planted);
    const auto classes = readTruth(truthFile, 64);
    const auto heavy = pesOfClass(classes, "heavy");
    REQUIRE(heavy.size() == 8);
    CHECK(pesOfClass(classes, "normal").size() == 56);
    CHECK(planted.find("planted heavy-pes ") != std::string::npos);
    // One heavy PE per stratum of 8 PE numbers: spread, and never one block.
    for (std::size_t i = 0; i < heavy.size(); ++i)
        CHECK(heavy[i] / 8 == static_cast<core::PeId>(i));
    CHECK(heavy.back() - heavy.front() + 1 > static_cast<core::PeId>(heavy.size()));

    const std::set<core::PeId> heavySet(heavy.begin(), heavy.end());
    const auto compute = entryNamed(*trace, "Worker", "compute");
    const auto integrate = entryNamed(*trace, "Patch", "integrate");
    const auto recvGhost = entryNamed(*trace, "Worker", "recvGhost");
    for (const auto entry : { compute, integrate, recvGhost }) {
        INFO("entry " << trace->metadata.entryName(entry));
        std::vector<double> heavyTimes;
        std::vector<double> normalTimes;
        for (const auto& pe : trace->pes)
            (heavySet.count(pe.pe) != 0 ? heavyTimes : normalTimes).push_back(entryTime(pe, entry));
        const double ratio = mean(heavyTimes) / mean(normalTimes);
        CHECK(ratio > 2.6);
        CHECK(ratio < 3.4);
        // Every heavy PE stands apart, not only their mean.
        CHECK(*std::min_element(heavyTimes.begin(), heavyTimes.end())
            > 1.8 * *std::max_element(normalTimes.begin(), normalTimes.end()));
    }
}

TEST_CASE("anomalous PEs run Patch::rebuildPairlist and no other PE does", "[generator]")
{
    TempDir dir;
    const auto truthFile = dir.path() / "truth.csv";
    const auto trace = generateAndLoad(dir,
        { "--pes", "64", "--events-per-pe", "1500", "--anomalous", "3", "--truth",
            truthFile.string() });
    const auto classes = readTruth(truthFile, 64);
    const auto anomalous = pesOfClass(classes, "anomalous");
    REQUIRE(anomalous.size() == 3);
    const auto rebuild = entryNamed(*trace, "Patch", "rebuildPairlist");
    std::vector<core::PeId> running;
    for (const auto& pe : trace->pes)
        if (entryTime(pe, rebuild) > 0)
            running.push_back(pe.pe);
    CHECK(running == anomalous);
    // Enough time in it to set them apart: more than one Worker::compute per iteration.
    const auto compute = entryNamed(*trace, "Worker", "compute");
    const auto& first = trace->pes[static_cast<std::size_t>(anomalous.front())];
    CHECK(entryTime(first, rebuild) > entryTime(first, compute) / 8);
}

TEST_CASE("a special PE 0 runs the load balancer's and Main's extra entry methods, and only it",
    "[generator]")
{
    TempDir dir;
    const auto truthFile = dir.path() / "truth.csv";
    const auto trace = generateAndLoad(dir,
        { "--pes", "16", "--events-per-pe", "1500", "--special-pe0", "--truth",
            truthFile.string() });
    const auto classes = readTruth(truthFile, 16);
    CHECK(pesOfClass(classes, "pe0") == std::vector<core::PeId> { 0 });
    CHECK(pesOfClass(classes, "normal").size() == 15);
    for (const auto& [chare, method] : { std::pair { "CentralLB", "ReceiveStats" },
             std::pair { "CentralLB", "LoadBalance" }, std::pair { "Main", "reportProgress" } }) {
        INFO(chare << "::" << method);
        const auto entry = entryNamed(*trace, chare, method);
        for (const auto& pe : trace->pes)
            CHECK((entryTime(pe, entry) > 0) == (pe.pe == 0));
    }
}

TEST_CASE("alternating halves swap their phase mixes halfway: alike over the whole run, "
          "opposite in each half",
    "[generator]")
{
    TempDir dir;
    const auto truthFile = dir.path() / "truth.csv";
    const auto trace = generateAndLoad(dir,
        { "--pes", "64", "--iterations", "10", "--events-per-pe", "1500", "--alternating-phases",
            "--truth", truthFile.string() });
    const auto classes = readTruth(truthFile, 64);
    const auto phaseA = pesOfClass(classes, "phase-a");
    const auto phaseB = pesOfClass(classes, "phase-b");
    REQUIRE(phaseA.size() == 32);
    REQUIRE(phaseB.size() == 32);
    CHECK(phaseA.back() == 31);
    CHECK(phaseB.front() == 32);

    const auto bonded = entryNamed(*trace, "Patch", "computeBonded");
    const auto nonbonded = entryNamed(*trace, "Patch", "computeNonbonded");
    // The run's middle: the iterations are alike, so half the traced span.
    core::TimeUs begin = std::numeric_limits<core::TimeUs>::max();
    core::TimeUs end = 0;
    for (const auto& pe : trace->pes) {
        begin = std::min(begin, pe.beginComputation);
        end = std::max(end, pe.endComputation);
    }
    const core::TimeUs middle = (begin + end) / 2;
    for (const auto& pe : trace->pes) {
        INFO("PE " << pe.pe);
        const double wholeBonded = entryTime(pe, bonded);
        const double wholeNonbonded = entryTime(pe, nonbonded);
        CHECK(wholeBonded / wholeNonbonded > 0.8);
        CHECK(wholeBonded / wholeNonbonded < 1.25);
        const bool firstHalfOfPes = pe.pe < 32;
        const double early = entryTime(pe, firstHalfOfPes ? bonded : nonbonded, 0, middle);
        const double earlyOther = entryTime(pe, firstHalfOfPes ? nonbonded : bonded, 0, middle);
        const double late = entryTime(pe, firstHalfOfPes ? nonbonded : bonded, middle);
        const double lateOther = entryTime(pe, firstHalfOfPes ? bonded : nonbonded, middle);
        CHECK(early > 3 * earlyOther);
        CHECK(late > 3 * lateOther);
    }
}

TEST_CASE("the planted classes and the files follow from the seed", "[generator]")
{
    const std::vector<std::string> args = { "--pes", "64", "--events-per-pe", "600",
        "--heavy-fraction", "0.1", "--anomalous", "2", "--special-pe0", "--entries", "200" };
    const auto run = [&](const TempDir& dir, const std::string& seed) {
        auto withSeed = args;
        withSeed.insert(
            withSeed.end(), { "--seed", seed, "--truth", (dir.path() / "t.csv").string() });
        generateAndLoad(dir, withSeed);
        return readTruth(dir.path() / "t.csv", 64);
    };
    TempDir a;
    TempDir b;
    TempDir c;
    const auto first = run(a, "5");
    const auto second = run(b, "5");
    const auto other = run(c, "6");
    CHECK(first == second);
    for (const auto* name : { "gen.sts", "gen.0.log", "gen.17.log", "gen.40.sum", "gen.63.sumd" })
        CHECK(
            parallax::test::readFile(a.path() / name) == parallax::test::readFile(b.path() / name));
    CHECK(first != other);
    CHECK(pesOfClass(other, "heavy").size() == 6);
    CHECK(pesOfClass(other, "anomalous").size() == 2);
    CHECK(pesOfClass(other, "pe0") == std::vector<core::PeId> { 0 });
}

TEST_CASE("a run with 200 entry methods declares them all and opens cleanly", "[generator]")
{
    TempDir dir;
    const auto trace
        = generateAndLoad(dir, { "--pes", "8", "--events-per-pe", "600", "--entries", "200" });
    CHECK(trace->metadata.entries.size() == 200);
    std::set<core::EntryId> executed;
    for (const auto& pe : trace->pes)
        executed.insert(pe.executions.entry.begin(), pe.executions.entry.end());
    CHECK(executed.size() > 20);
}

TEST_CASE(
    "the realistic shape gives every Worker and Patch execution an array index of its own and "
    "changes nothing else",
    "[generator]")
{
    TempDir plain;
    TempDir shaped;
    TempDir again;
    const std::vector<std::string> args = { "--pes", "4", "--events-per-pe", "3000" };
    auto shapedArgs = args;
    shapedArgs.insert(shapedArgs.end(), { "--shape", "realistic", "--threads", "1" });
    const auto base = generateAndLoad(plain, args);
    const auto run = generateAndLoad(shaped, shapedArgs);
    generateAndLoad(again, shapedArgs);
    CHECK(parallax::test::readFile(shaped.path() / "gen.2.log")
        == parallax::test::readFile(again.path() / "gen.2.log"));
    std::set<std::vector<std::int32_t>> seen;
    std::size_t elementExecutions = 0;
    REQUIRE(run->pes.size() == base->pes.size());
    for (std::size_t p = 0; p < run->pes.size(); ++p) {
        const auto& pe = run->pes[p];
        const auto& ex = pe.executions;
        // Same records, times and messages as the default shape: only the indices differ.
        REQUIRE(ex.size() == base->pes[p].executions.size());
        CHECK(ex.begin == base->pes[p].executions.begin);
        CHECK(ex.entry == base->pes[p].executions.entry);
        CHECK(pe.sends.time == base->pes[p].sends.time);
        for (std::size_t i = 0; i < ex.size(); ++i) {
            const std::string chare = run->metadata.chareNameOfEntry(ex.entry[i]);
            if (chare != "Worker" && chare != "Patch")
                continue;
            const auto& id = pe.objects[ex.object[i]];
            CHECK(id.length == (chare == "Worker" ? 1 : 3));
            ++elementExecutions;
            seen.emplace(id.values.begin(), id.values.begin() + id.length);
        }
    }
    CHECK(elementExecutions > 1000);
    CHECK(seen.size() == elementExecutions);
}

TEST_CASE("bad planted-class options are refused with one line and exit status 2", "[generator]")
{
    TempDir dir;
    const auto out = (dir.path() / "run").string();
    const RefusalCases cases = {
        { { "--heavy-fraction", "0" }, "bad value '0' for --heavy-fraction" },
        { { "--heavy-fraction", "0.75" }, "bad value '0.75' for --heavy-fraction" },
        { { "--heavy-fraction", "x" }, "bad value 'x' for --heavy-fraction" },
        { { "--heavy-fraction", "0.1", "--heavy-factor", "1" },
            "bad value '1' for --heavy-factor" },
        { { "--heavy-factor", "2" }, "--heavy-factor needs --heavy-fraction" },
        { { "--anomalous", "-1" }, "bad value '-1' for --anomalous" },
        { { "--anomalous", "8" }, "at least one PE must stay normal" },
        { { "--heavy-fraction", "0.5", "--anomalous", "4" }, "at least one PE must stay normal" },
        { { "--special-pe0=yes" }, "--special-pe0 takes no value" },
        { { "--truth" }, "--truth needs a value" },
        { { "--alternating-phases", "--iterations", "1" },
            "--alternating-phases needs at least 2 iterations" },
        { { "--entries", "22" }, "bad value '22' for --entries" },
        { { "--shape", "leanmd" }, "bad value 'leanmd' for --shape" },
        { { "--slow-iterations", "x" }, "bad value 'x' for --slow-iterations" },
        { { "--iterations", "6", "--slow-iterations", "2,6" },
            "--slow-iterations: iteration 6 does not exist (the run has 6 iterations, 0-5)" },
        { { "--slow-iteration-factor", "0" }, "bad value '0' for --slow-iteration-factor" },
        { { "--special-pe0", "--anomalous", "1", "--entries", "26" },
            "--entries 26 leaves no room for the planted classes' entry methods (at least 27)" },
    };
    checkRefused({ "--out", out, "--pes", "8" }, out, cases);
}

TEST_CASE("a truth file that cannot be written fails the run with exit status 1", "[generator]")
{
    TempDir dir;
    const auto run
        = generate({ "--out", (dir.path() / "run").string(), "--pes", "4", "--events-per-pe", "300",
            "--special-pe0", "--truth", (dir.path() / "missing" / "truth.csv").string() });
    INFO(run.out);
    CHECK(run.exitCode == 1);
    CHECK(run.out.find("cannot write ") != std::string::npos);
    CHECK(run.out.find("truth.csv: ") != std::string::npos);
}

TEST_CASE("without planted classes the generator still writes the bundled sample run byte for byte",
    "[generator]")
{
    // sample-logs/README.md's command for grainsize (plain-text logs, so no zlib version
    // enters the comparison).
    TempDir dir;
    const auto run = generate({ "--out", dir.path().string(), "--name", "grainsize", "--pes", "8",
        "--events-per-pe", "1500", "--bimodal-entry" });
    INFO(run.out);
    REQUIRE(run.exitCode == 0);
    const auto sample = parallax::test::sampleRun("grainsize");
    std::size_t compared = 0;
    for (const auto& file : std::filesystem::directory_iterator(sample)) {
        INFO(file.path().filename().string());
        CHECK(parallax::test::readFile(dir.path() / file.path().filename())
            == parallax::test::readFile(file.path()));
        ++compared;
    }
    CHECK(compared == 8 * 3 + 3);
}

// --like leanmd-smp (tools/generator/leanmd_template.h): per worker PE and step, 7 Cells send
// 27 calculateForces each to 91 pair and 7 self Computes, which send as many receiveForces back.
TEST_CASE(
    "a leanmd-smp run has the template's SMP layout, record mix and message links", "[generator]")
{
    TempDir dir;
    constexpr int kSteps = 3;
    const auto trace
        = generateAndLoad(dir, { "--like", "leanmd-smp", "--pes", "4", "--iterations", "3" });
    const auto& metadata = trace->metadata;
    REQUIRE(trace->pes.size() == 6);
    CHECK(metadata.smp);
    CHECK(metadata.nodeSize == 2);
    CHECK(metadata.numNodes == 2);
    CHECK(metadata.workerPes() == 4);
    CHECK(metadata.isCommThread(4));
    CHECK(metadata.isCommThread(5));
    CHECK(metadata.nodeOf(5) == 1);

    const auto calculate = entryNamed(*trace, "Compute", "calculateForces");
    const auto receive = entryNamed(*trace, "Cell", "receiveForces");
    const auto pairKernel = entryNamed(*trace, "Compute", "Compute_serial_1");
    const auto selfKernel = entryNamed(*trace, "Compute", "Compute_serial_2");
    const auto firstMessage = entryNamed(*trace, "Compute", "Compute_serial_0");
    const auto cellSend = entryNamed(*trace, "Cell", "Cell_serial_0");
    const auto sdag = entryNamed(*trace, "SDAG", "SDAG_RTS");

    std::size_t relayed = 0;
    std::size_t exchanged = 0;
    for (const auto& pe : trace->pes) {
        INFO("PE " << pe.pe);
        std::map<core::EntryId, std::size_t> runs;
        std::set<std::uint32_t> computes;
        std::set<std::uint32_t> cells;
        double busy = 0;
        for (std::size_t k = 0; k < pe.executions.size(); ++k) {
            const auto entry = static_cast<core::EntryId>(pe.executions.entry[k]);
            ++runs[entry];
            busy += static_cast<double>(pe.executions.end[k] - pe.executions.begin[k]);
            if (entry == calculate || entry == pairKernel)
                computes.insert(pe.executions.object[k]);
            if (entry == receive || entry == cellSend)
                cells.insert(pe.executions.object[k]);
        }
        if (metadata.isCommThread(pe.pe)) {
            // A comm thread only relays the force exchange: one send per execution.
            CHECK(runs.size() == 2);
            CHECK(runs[calculate] + runs[receive] == pe.executions.size());
            CHECK(pe.sends.size() == pe.executions.size());
            relayed += pe.executions.size();
            continue;
        }
        CHECK(runs[calculate] == 189 * kSteps);
        CHECK(runs[receive] == 189 * kSteps);
        CHECK(runs[firstMessage] == 91 * kSteps);
        CHECK(runs[pairKernel] == 91 * kSteps);
        CHECK(runs[selfKernel] == 7 * kSteps);
        CHECK(runs[cellSend] == 7 * kSteps);
        CHECK(runs[sdag] == (189 * 2 + 7) * kSteps);
        CHECK(computes.size() == 98);
        CHECK(cells.size() == 7);
        exchanged += runs[calculate] + runs[receive];
        // The force kernels take almost all of the busy time, as in the real run (94-95 %).
        const double kernels = entryTime(pe, pairKernel) + entryTime(pe, selfKernel);
        CHECK(kernels / busy > 0.85);
        CHECK(kernels / busy < 0.98);
        // Sends: the start-up constructors, then 2 x 189 per step, each of the template's size;
        // about half of them are packed (the real run: 52 %).
        CHECK(pe.sends.size() == 217 + 2 * 189 * kSteps);
        for (std::size_t k = 0; k < pe.sends.size(); ++k) {
            if (pe.sends.entry[k] == calculate)
                CHECK(pe.sends.msgBytes[k] == 7360);
            else if (pe.sends.entry[k] == receive)
                CHECK(pe.sends.msgBytes[k] == 7328);
        }
        const double packed
            = static_cast<double>(pe.packs.size()) / static_cast<double>(pe.sends.size());
        CHECK(packed > 0.4);
        CHECK(packed < 0.65);
        CHECK(pe.idles.size() > 0);
    }
    // About half of the exchanged messages cross nodes through a comm thread (the real run: 52 %).
    const double crossing = static_cast<double>(relayed) / static_cast<double>(exchanged);
    CHECK(crossing > 0.4);
    CHECK(crossing < 0.6);

    // Every message executed names a send of its source PE: same entry, not later.
    std::size_t linked = 0;
    for (const auto& pe : trace->pes) {
        for (std::size_t k = 0; k < pe.executions.size(); ++k) {
            if (pe.executions.eventId[k] < 0)
                continue;
            const auto& source = trace->pes[static_cast<std::size_t>(pe.executions.sourcePe[k])];
            bool found = false;
            for (std::size_t s = 0; s < source.sends.size() && !found; ++s)
                found = source.sends.eventId[s] == pe.executions.eventId[k]
                    && source.sends.entry[s] == pe.executions.entry[k]
                    && source.sends.time[s] <= pe.executions.begin[k];
            if (!found)
                FAIL_CHECK("PE " << pe.pe << " execution " << k << " has no send");
            ++linked;
        }
    }
    CHECK(linked > 6 * 189 * kSteps);
}

TEST_CASE("a leanmd-smp run migrates particles every 20th step and is the same on any thread count",
    "[generator]")
{
    TempDir one;
    TempDir two;
    const std::vector<std::string> args
        = { "--like", "leanmd-smp", "--pes", "2", "--iterations", "20", "--no-sum" };
    auto withThreads = args;
    withThreads.insert(
        withThreads.end(), { "--threads", "1", "--name", "gen", "--out", one.path().string() });
    REQUIRE(generate(withThreads).exitCode == 0);
    const auto trace = generateAndLoad(two, args);
    const auto particles = entryNamed(*trace, "Cell", "receiveParticles");
    const auto migrate = entryNamed(*trace, "Cell", "Cell_serial_3");
    for (core::PeId pe = 0; pe < 2; ++pe) {
        const auto& worker = trace->pes[static_cast<std::size_t>(pe)];
        const auto& executions = worker.executions;
        CHECK(std::count(executions.entry.begin(), executions.entry.end(), particles) == 189);
        CHECK(std::count(executions.entry.begin(), executions.entry.end(), migrate) == 7);
        const std::string log = "gen." + std::to_string(pe) + ".log";
        CHECK(parallax::test::readFile(one.path() / log)
            == parallax::test::readFile(two.path() / log));
    }
}

TEST_CASE("bad --like options are refused with one line and exit status 2", "[generator]")
{
    TempDir dir;
    const auto out = (dir.path() / "run").string();
    const RefusalCases cases = {
        { { "--like", "namd" }, "unknown --like template 'namd' (known: leanmd-smp)" },
        { { "--like" }, "--like needs a value" },
        { { "--like", "leanmd-smp", "--smp", "4" },
            "--like leanmd-smp cannot be combined with --smp" },
        { { "--bimodal-entry", "--like", "leanmd-smp" },
            "--like leanmd-smp cannot be combined with --bimodal-entry" },
        { { "--like", "leanmd-smp", "--shape", "realistic" },
            "--like leanmd-smp cannot be combined with --shape" },
        { { "--like", "leanmd-smp", "--pes", "5" },
            "--like leanmd-smp needs an even --pes (2 worker PEs per SMP node), not 5" },
    };
    checkRefused({ "--out", out }, out, cases);
}
