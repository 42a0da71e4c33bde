// Writing a reduced run (io/reduced_run_writer.h, io/run_reduction.h): the files it holds,
// copied byte for byte; reopening it; the views of the kept PEs equal the original's; and the
// refusals (never into the source run, not over a non-empty directory, not without summaries)
// with nothing left behind when writing fails or is cancelled.

#include "core/analysis/analysis_request.h"
#include "core/analysis/run_span.h"
#include "core/analysis/usage_profile.h"
#include "io/index_cache.h"
#include "io/reduced_run_writer.h"
#include "io/run_discovery.h"
#include "io/run_reduction.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <set>

using namespace parallax;
using namespace parallax::test;

namespace {

std::set<std::string> namesIn(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

io::ReductionSettings randomSettings(const std::string& outDir, const char* keep)
{
    io::ReductionSettings s;
    s.keep = *core::analysis::parseKeepAmount(keep);
    s.keepText = keep;
    s.select = io::PeSelectionMethod::Random;
    s.seed = 3;
    s.outDir = outDir;
    return s;
}

} // namespace

TEST_CASE("a reduced run holds every summary and the kept PEs' logs, byte for byte", "[io][reduce]")
{
    // sample-logs/grainsize: 8 PEs with plain .log, .sum and .sumd, .sts, .sum.sts, .projrc.
    const auto source = sampleRun("grainsize");
    const auto trace = loadOk(source);
    TempDir tmp;
    const auto out = tmp / "reduced";
    const auto plan = io::planReducedRun(trace->files, { 2, 5 }, false);
    REQUIRE(plan.ok());
    CHECK(plan.pesWithSummary == 8);
    CHECK(plan.files.size() == 3 + 16 + 2);
    const auto written = io::writeReducedRun(trace->files, plan,
        { { "reduction.json", "{}\n" }, { "REDUCTION.md", "# r\n" } }, out.string());
    INFO(written.error);
    REQUIRE(written.ok);
    std::set<std::string> expected { "grainsize.sts", "grainsize.sum.sts", "grainsize.projrc",
        "grainsize.2.log", "grainsize.5.log", "reduction.json", "REDUCTION.md" };
    for (int pe = 0; pe < 8; ++pe) {
        expected.insert("grainsize." + std::to_string(pe) + ".sum");
        expected.insert("grainsize." + std::to_string(pe) + ".sumd");
    }
    CHECK(namesIn(out) == expected);
    for (const auto& name : expected)
        if (name != "reduction.json" && name != "REDUCTION.md")
            CHECK(readFile(out / name) == readFile(source / name));
    CHECK(plan.logBytesKept
        == fs::file_size(source / "grainsize.2.log") + fs::file_size(source / "grainsize.5.log"));
    CHECK(plan.copiedBytes < plan.runBytes);
    // Nothing but OUT appeared next to it (no temporary directory left).
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "reduced" });
}

TEST_CASE("a reduced run reopens, and the kept PEs' views equal the original's", "[io][reduce]")
{
    // sample-logs/imbalance: 12 PEs with gzipped logs, summaries of all.
    const auto source = sampleRun("imbalance");
    const auto original = loadOk(source);
    TempDir tmp;
    const auto out = tmp / "reduced";
    const auto outcome = io::reduceRun(*original, randomSettings(out.string(), "25%"));
    INFO(outcome.error);
    REQUIRE(outcome.ok());
    const auto kept = core::analysis::keptPeIds(outcome.report.kept);
    REQUIRE(kept.size() == 3);
    for (auto pe : kept) {
        const auto name = "imbalance." + std::to_string(pe) + ".log.gz";
        CHECK(readFile(out / name) == readFile(source / name)); // still gzipped, identical
    }
    const auto reduced = loadOk(out);
    CHECK(reduced->metadata.processors == original->metadata.processors);
    CHECK(reduced->validPes() == kept);
    CHECK(reduced->hasSummaries());
    std::size_t summaries = 0;
    for (const auto& s : reduced->summaries)
        summaries += s ? 1U : 0U;
    CHECK(summaries == 12);
    // The same range on both (a reduced run's traced span starts at its kept PEs' first
    // BEGIN_COMPUTATION, which may be later than the original's).
    core::analysis::AnalysisRequest request;
    request.range = core::analysis::tracedRunSpan(*original);
    request.pes = kept;
    const auto before = core::analysis::computeUsageProfile(*original, request);
    const auto after = core::analysis::computeUsageProfile(*reduced, request);
    REQUIRE(before);
    REQUIRE(after);
    CHECK(before->pes == after->pes);
    CHECK(before->percent == after->percent);
    // The report files are there and name the kept PEs.
    const auto json = readFile(out / "reduction.json");
    for (auto pe : kept)
        CHECK(json.find("{\"pe\": " + std::to_string(pe) + ", \"role\": \"random\"")
            != std::string::npos);
    CHECK(readFile(out / "REDUCTION.md").find("H̄") != std::string::npos);
}

TEST_CASE("Parallax knows a reduced run: its representatives, and no missing-log warnings",
    "[io][reduce]")
{
    const auto original = loadOk(sampleRun("imbalance"));
    TempDir tmp;
    const auto out = tmp / "reduced";
    const auto outcome = io::reduceRun(*original, randomSettings(out.string(), "25%"));
    REQUIRE(outcome.ok());
    const auto kept = core::analysis::keptPeIds(outcome.report.kept);

    const auto check = [&](const core::Trace& reduced) {
        REQUIRE(reduced.reduced);
        CHECK(reduced.reduced->select == "random");
        REQUIRE(reduced.reduced->kept.size() == kept.size());
        for (std::size_t k = 0; k < kept.size(); ++k) {
            CHECK(reduced.reduced->kept[k].pe == kept[k]);
            CHECK(reduced.reduced->kept[k].role == "random");
        }
        CHECK(reduced.reduced->find(kept.front()) != nullptr);
        CHECK(reduced.reduced->find(-1) == nullptr);
        // The left-out logs are the reduction's doing, not a problem of the run.
        CHECK(reduced.report.count(core::Issue::MissingFile) == 0);
    };
    check(*loadOk(out));
    CHECK_FALSE(original->reduced);

    // Through the index cache too (reduction.json is read from the run, not cached).
    ageFiles(out);
    io::CacheOptions cache;
    cache.directory = (tmp / "cache").string();
    for (int pass = 0; pass < 2; ++pass) {
        const auto loaded = io::loadRunCached(out.string(), {}, cache);
        REQUIRE(loaded.trace);
        CHECK(loaded.fromCache == (pass == 1));
        check(*loaded.trace);
    }

    // A damaged manifest: the run opens as an ordinary run, and the report says why.
    {
        std::ofstream damaged(out / "reduction.json", std::ios::trunc);
        damaged << "{ not json";
    }
    const auto plain = loadOk(out);
    CHECK_FALSE(plain->reduced);
    CHECK(plain->report.count(core::Issue::FileError) == 1);
    CHECK(plain->report.count(core::Issue::MissingFile) == 9);
}

TEST_CASE("a reduced run never goes into, over or around its source run", "[io][reduce]")
{
    TempDir tmp;
    const auto run = tmp / "run";
    copyFiles(sampleRun("grainsize"), run);
    const auto trace = loadOk(run);
    const auto before = namesIn(run);
    using Problem = io::OutputCheck::Problem;
    for (const auto& out : { run, run / "sub", run / "sub" / "deeper", tmp.path(), run / "." }) {
        INFO(out.string());
        for (bool force : { false, true }) {
            const auto check = io::checkReducedRunOutput(trace->files, out.string(), force);
            CHECK(check.problem == Problem::SourceRun);
            auto settings = randomSettings(out.string(), "2");
            settings.force = force;
            const auto outcome = io::reduceRun(*trace, settings);
            CHECK(outcome.failure == io::ReductionOutcome::Failure::BadRequest);
            CHECK_FALSE(outcome.error.empty());
        }
    }
    CHECK(namesIn(run) == before);
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "run" });
}

TEST_CASE("a non-empty output directory is replaced only with force", "[io][reduce]")
{
    const auto trace = loadOk(sampleRun("grainsize"));
    TempDir tmp;
    const auto out = tmp / "out";
    fs::create_directories(out);
    writeFile(out / "keep-me.txt", "mine");
    const auto check = io::checkReducedRunOutput(trace->files, out.string(), false);
    CHECK(check.problem == io::OutputCheck::Problem::NotEmpty);
    CHECK(check.message.find("not empty") != std::string::npos);
    auto settings = randomSettings(out.string(), "2");
    auto refused = io::reduceRun(*trace, settings);
    CHECK(refused.failure == io::ReductionOutcome::Failure::BadRequest);
    CHECK(namesIn(out) == std::set<std::string> { "keep-me.txt" });

    settings.force = true;
    const auto replaced = io::reduceRun(*trace, settings);
    INFO(replaced.error);
    REQUIRE(replaced.ok());
    CHECK_FALSE(fs::exists(out / "keep-me.txt"));
    CHECK(fs::exists(out / "grainsize.sts"));
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "out" });

    // An empty directory is fine without force; a file is not a directory.
    const auto empty = tmp / "empty";
    fs::create_directories(empty);
    CHECK(io::checkReducedRunOutput(trace->files, empty.string(), false).ok());
    writeFile(tmp / "file", "x");
    CHECK(io::checkReducedRunOutput(trace->files, (tmp / "file").string(), true).problem
        == io::OutputCheck::Problem::NotDirectory);
}

TEST_CASE("a run without summaries is refused unless that is allowed", "[io][reduce]")
{
    // tiny: two plain logs, no .sum or .sumd.
    const auto trace = loadOk(dataDir() / "runs" / "tiny");
    const auto refused = io::planReducedRun(trace->files, { 1 }, false);
    CHECK_FALSE(refused.ok());
    CHECK(refused.pesWithSummary == 0);
    CHECK(refused.error.find(".sum") != std::string::npos);
    TempDir tmp;
    auto settings = randomSettings((tmp / "out").string(), "1");
    const auto outcome = io::reduceRun(*trace, settings);
    CHECK(outcome.failure == io::ReductionOutcome::Failure::BadRequest);
    CHECK(outcome.missingSummaries);
    CHECK_FALSE(fs::exists(tmp / "out"));

    settings.allowNoSummaries = true;
    const auto allowed = io::reduceRun(*trace, settings);
    INFO(allowed.error);
    REQUIRE(allowed.ok());
    const auto keptPe = allowed.report.kept.at(0).pe;
    const auto keptLog = "tiny." + std::to_string(keptPe) + ".log";
    const auto otherLog = "tiny." + std::to_string(1 - keptPe) + ".log";
    CHECK(readFile(tmp / "out" / keptLog) == readFile(dataDir() / "runs" / "tiny" / keptLog));
    CHECK_FALSE(fs::exists(tmp / "out" / otherLog));
    CHECK(fs::exists(tmp / "out" / "tiny.sts"));
    CHECK(fs::exists(tmp / "out" / "tiny.projrc"));
}

TEST_CASE("a cancelled or failed write leaves nothing behind", "[io][reduce]")
{
    TempDir tmp;
    const auto run = tmp / "run";
    copyFiles(sampleRun("grainsize"), run);
    const auto trace = loadOk(run);
    const auto plan = io::planReducedRun(trace->files, { 1 }, false);
    REQUIRE(plan.ok());

    io::ReducedRunWriteOptions cancel;
    int polls = 0;
    cancel.cancelled = [&] {
        return ++polls > 5;
    }; // a few files in
    const auto cancelled
        = io::writeReducedRun(trace->files, plan, {}, (tmp / "out").string(), cancel);
    CHECK(cancelled.cancelled);
    CHECK_FALSE(cancelled.ok);
    CHECK(polls > 5);
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "run" });

    // A summary that vanished after planning: the copy fails, OUT is not created.
    fs::remove(run / "grainsize.6.sum");
    const auto failed = io::writeReducedRun(trace->files, plan, {}, (tmp / "out").string());
    CHECK_FALSE(failed.ok);
    CHECK(failed.error.find("grainsize.6.sum") != std::string::npos);
    CHECK(namesIn(tmp.path()) == std::set<std::string> { "run" });
}

TEST_CASE("a real run's reduction keeps its summaries and reopens", "[io][reduce]")
{
    // gen-leanmd-smp: 4 workers and 2 comm threads, gzipped logs, .sum and .sumd of all.
    const auto source = realLog("gen-leanmd-smp");
    const auto original = loadOk(source);
    TempDir tmp;
    const auto outcome = io::reduceRun(*original, randomSettings((tmp / "out").string(), "2"));
    INFO(outcome.error);
    REQUIRE(outcome.ok());
    const auto& plan = outcome.report.plan;
    CHECK(plan.pesWithSummary == 6);
    CHECK(plan.logBytesTotal == original->files.logBytes);
    CHECK(plan.logBytesKept < plan.logBytesTotal);
    const auto reduced = loadOk(tmp / "out");
    CHECK(reduced->validPes() == core::analysis::keptPeIds(outcome.report.kept));
    CHECK(reduced->hasSummaryDetails());
    CHECK(reduced->files.logBytes == plan.logBytesKept);
    const auto& q = outcome.report.quality;
    CHECK(q.originalPes == 6);
    CHECK(q.keptPes == 2);
    CHECK(q.controlDraws == 20);
}

TEST_CASE("clusters keep one exemplar per cluster and R minus that many outliers, never fewer "
          "exemplars",
    "[io][reduce]")
{
    // sample-logs/imbalance with k = 2: PEs 3 and 9 (twice the work) against the other 10.
    const auto trace = loadOk(sampleRun("imbalance"));
    TempDir tmp;
    auto settings = randomSettings((tmp / "a").string(), "4");
    settings.select = io::PeSelectionMethod::Clusters;
    settings.k = 2;
    const auto four = io::reduceRun(*trace, settings);
    INFO(four.error);
    REQUIRE(four.ok());
    CHECK(four.report.parameters.clustersNonEmpty == 2);
    CHECK(four.report.parameters.kUsed == 2);
    CHECK(four.report.kept.size() == 4);
    std::size_t exemplars = 0;
    bool planted = false;
    for (const auto& k : four.report.kept) {
        exemplars += k.role == "exemplar" ? 1U : 0U;
        CHECK(k.cluster >= 0);
        planted = planted || k.pe == 3 || k.pe == 9;
    }
    CHECK(exemplars == 2);
    CHECK(planted);
    CHECK(four.report.quality.kept.retention[0] >= 20.0);

    // One place but two clusters: both exemplars stay, no outlier, and the report says why.
    settings.outDir = (tmp / "b").string();
    settings.keep = *core::analysis::parseKeepAmount("1");
    const auto one = io::reduceRun(*trace, settings);
    REQUIRE(one.ok());
    CHECK(one.report.kept.size() == 2);
    for (const auto& k : one.report.kept)
        CHECK(k.role == "exemplar");
    CHECK(
        readFile(tmp / "b" / "REDUCTION.md").find("every exemplar was kept") != std::string::npos);
}
