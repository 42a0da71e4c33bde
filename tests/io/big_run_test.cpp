// Runs too big for the memory budget: the store estimate made before reading any log, and the
// per-PE detail read on demand with a least-recently-used byte cap.

#include "io/index_cache.h"
#include "io/pe_detail_cache.h"
#include "io/run_loader.h"
#include "io/store_estimate.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

using namespace parallax;
namespace fs = std::filesystem;

namespace {

const fs::path kSamples = PARALLAX_SAMPLE_DIR;

io::LoadOptions withoutLogs()
{
    io::LoadOptions options;
    options.readLogs = false;
    return options;
}

} // namespace

TEST_CASE("the store estimate is close to the real store, for plain and gzip logs", "[io][big]")
{
    for (const auto& run : { kSamples / "imbalance", test::realLog("gen-leanmd-smp"),
             test::realLog("gen-feat-binshrink-partial"), test::realLog("charm-synth-v7") }) {
        INFO(run.string());
        const auto trace = test::loadOk(run);
        const auto estimate = io::estimateStore(trace->files);
        const auto records = static_cast<double>(trace->eventCount());
        REQUIRE(records > 0);
        // Line lengths vary between PEs, so the one-log sample is only roughly right.
        CHECK(static_cast<double>(estimate.records) == Approx(records).epsilon(0.15));
        CHECK(estimate.storeBytes >= trace->storeBytes() * 9 / 10);
        CHECK(estimate.bytesPerRecord > 10.0);
    }
}

TEST_CASE("a damaged gzip trailer does not derail the store estimate", "[io][big]")
{
    test::TempDir dir;
    const auto source = test::realLog("charm-synth-v7");
    for (const auto& entry : fs::directory_iterator(source))
        fs::copy_file(entry.path(), dir.path() / entry.path().filename());
    // Cut one log in the middle: its last 4 bytes are no trailer any more.
    const auto cut = dir.path() / "main.1.log.gz";
    fs::resize_file(cut, fs::file_size(cut) / 2);
    const auto trace = test::loadOk(dir.path());
    const auto estimate = io::estimateStore(trace->files);
    CHECK(estimate.records > 0);
    CHECK(estimate.logTextBytes >= fs::file_size(cut));
}

TEST_CASE("a PE's detail read on demand equals the same PE of a full load", "[io][big]")
{
    const auto full = test::loadOk(kSamples / "imbalance");
    const auto light = test::loadOk(kSamples / "imbalance", withoutLogs());
    REQUIRE_FALSE(light->hasLogs());
    io::PeDetailCache cache(*light, std::uint64_t { 1 } << 30);
    CHECK(cache.peek(3) == nullptr);
    const auto pe3 = cache.get(3);
    REQUIRE(pe3 != nullptr);
    const auto& expected = full->pes[3];
    CHECK(pe3->hasLog);
    CHECK(pe3->recordCount == expected.recordCount);
    CHECK(pe3->executions.begin == expected.executions.begin);
    CHECK(pe3->executions.entry == expected.executions.entry);
    CHECK(pe3->idles.end == expected.idles.end);
    CHECK(pe3->sends.time == expected.sends.time);
    CHECK(cache.get(3) == pe3); // held: not read again
    CHECK(cache.reads() == 1);
    CHECK(cache.peek(3) == pe3);
    CHECK(cache.get(99) == nullptr); // no such PE
    CHECK(cache.get(-1) == nullptr);
}

TEST_CASE("the detail cache forgets the least recently used PEs beyond its cap", "[io][big]")
{
    const auto light = test::loadOk(kSamples / "imbalance", withoutLogs());
    io::PeDetailCache probe(*light, std::uint64_t { 1 } << 30);
    probe.get(0);
    const auto one = probe.heldBytes(); // the PEs of this run are about the same size
    // Room for about two PEs.
    io::PeDetailCache cache(*light, one * 5 / 2);
    cache.get(0);
    cache.get(1);
    cache.get(0); // 0 is now the most recent
    cache.get(2); // evicts 1, the least recently used
    CHECK(cache.heldPes() == 2);
    CHECK(cache.heldBytes() <= cache.capBytes());
    CHECK(cache.peek(0) != nullptr);
    CHECK(cache.peek(1) == nullptr);
    CHECK(cache.peek(2) != nullptr);
    const auto readsBefore = cache.reads();
    const auto again = cache.get(1); // read again
    CHECK(again != nullptr);
    CHECK(cache.reads() == readsBefore + 1);
    // A PE bigger than the cap is still given (and held alone).
    io::PeDetailCache tiny(*light, 1);
    CHECK(tiny.get(4) != nullptr);
    CHECK(tiny.get(5) != nullptr);
    CHECK(tiny.heldPes() == 1);
    CHECK(tiny.peek(5) != nullptr);
}

TEST_CASE("the detail cache serves several threads at once", "[io][big]")
{
    const auto light = test::loadOk(kSamples / "imbalance", withoutLogs());
    io::PeDetailCache cache(*light, std::uint64_t { 1 } << 30);
    std::vector<std::shared_ptr<const core::PeTrace>> got(12);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t]() {
            for (int pe = t; pe < 12; pe += 4)
                got[static_cast<std::size_t>(pe)] = cache.get(pe);
        });
    for (auto& t : threads)
        t.join();
    for (std::size_t pe = 0; pe < got.size(); ++pe) {
        REQUIRE(got[pe] != nullptr);
        CHECK(got[pe]->pe == static_cast<core::PeId>(pe));
    }
    CHECK(cache.heldPes() == 12);
}

TEST_CASE("a damaged log read on demand gives what could be read and says why", "[io][big]")
{
    const auto light = test::loadOk(test::brokenCase("truncated-log"), withoutLogs());
    io::PeDetailCache cache(*light, std::uint64_t { 1 } << 30);
    core::ImportReport report;
    for (core::PeId pe = 0; pe < static_cast<core::PeId>(light->files.logPaths.size()); ++pe)
        cache.get(pe, &report);
    CHECK(report.total(core::Severity::Warning) > 0);
}

TEST_CASE(
    "over the memory budget a run opens from its summaries with its logs on demand", "[io][big]")
{
    const auto full = test::loadOk(kSamples / "imbalance");
    io::LoadOptions tight;
    tight.memoryBudget = 64 * 1024; // the 36,000 records need about 0.8 MB
    const auto light = test::loadOk(kSamples / "imbalance", tight);
    REQUIRE(light->logsOnDemand());
    CHECK_FALSE(light->hasLogs());
    CHECK(light->hasSummaries());
    CHECK(light->deferredStoreBytes > tight.memoryBudget);
    CHECK(light->validPes() == full->validPes());
    CHECK(light->storeBytes() < full->storeBytes() / 100);
    const auto pe9 = light->detailSource->get(9);
    REQUIRE(pe9 != nullptr);
    CHECK(pe9->recordCount == full->pes[9].recordCount);
    CHECK(pe9->executions.end == full->pes[9].executions.end);
    // Within the budget nothing changes.
    io::LoadOptions roomy;
    roomy.memoryBudget = std::uint64_t { 1 } << 30;
    const auto whole = test::loadOk(kSamples / "imbalance", roomy);
    CHECK_FALSE(whole->logsOnDemand());
    CHECK(whole->eventCount() == full->eventCount());
}

TEST_CASE(
    "a run without summaries over the budget still lists its PEs for the timeline", "[io][big]")
{
    io::LoadOptions tight;
    tight.memoryBudget = 1;
    const auto light = test::loadOk(test::realLog("charm-synth-v7"), tight);
    REQUIRE(light->logsOnDemand());
    CHECK_FALSE(light->hasSummaries());
    CHECK(light->validPes() == std::vector<core::PeId> { 0, 1, 2, 3 });
    CHECK(light->detailSource->get(2) != nullptr);
}

TEST_CASE(
    "a run over the budget opens from its mapped index, and without one writes none", "[io][big]")
{
    test::TempDir cacheDir;
    io::CacheOptions cache;
    cache.directory = cacheDir.path().string();
    const auto run = (kSamples / "imbalance").string();
    io::LoadOptions tight;
    tight.memoryBudget = 64 * 1024;
    // No index yet: the run opens from its summaries, and no index is written for it (the cache
    // writes whole loads only).
    const auto light = io::loadRunCached(run, tight, cache);
    REQUIRE(light.trace);
    CHECK_FALSE(light.fromCache);
    CHECK(light.trace->logsOnDemand());
    CHECK_FALSE(fs::exists(io::cacheFilePath(run, tight, cache)));
    // With an index the run is mapped, not held: the budget does not apply to it.
    REQUIRE(io::loadRunCached(run, {}, cache).trace);
    const auto mapped = io::loadRunCached(run, tight, cache);
    REQUIRE(mapped.trace);
    CHECK(mapped.fromCache);
    CHECK_FALSE(mapped.trace->logsOnDemand());
    CHECK(mapped.trace->hasLogs());
}
