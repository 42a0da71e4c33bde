// parallax-gen: its runs open cleanly, are deterministic, agree with their own summaries, and
// the planted problems are visible in the store (and so in every view built on it).

#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "io/trace_compare.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
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
