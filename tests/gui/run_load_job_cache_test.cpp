// The app's run load job opens runs through the index cache: the first load writes it (after
// the run was handed over), the second reads it (stage "reading index cache") and yields the
// same run.

#include "app/gui/run_load_job.h"
#include "gui/scoped_env.h"

#include <QDir>
#include <QSignalSpy>
#include <QStringList>
#include <QTemporaryDir>
#include <QThreadPool>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

using parallax::app::RunLoadJob;

namespace {

struct Loaded {
    parallax::core::TracePtr trace;
    QStringList stages;
};

Loaded loadWithJob(const QString& path)
{
    Loaded out;
    RunLoadJob job(path);
    QObject::connect(&job, &RunLoadJob::progressChanged,
        [&out](const QString& stage, quint64, quint64) { out.stages << stage; });
    QObject::connect(&job, &RunLoadJob::loaded,
        [&out](parallax::core::TracePtr trace, double) { out.trace = std::move(trace); });
    QSignalSpy loaded(&job, &RunLoadJob::loaded);
    job.start();
    REQUIRE(loaded.wait(60'000));
    return out;
}

} // namespace

TEST_CASE("the run load job writes the index cache, then reads it", "[gui][index_cache]")
{
    QTemporaryDir cache;
    REQUIRE(cache.isValid());
    const parallax::test::ScopedEnv cacheDir("PARALLAX_CACHE_DIR", cache.path().toStdString());

    const auto run = QStringLiteral(PARALLAX_SAMPLE_DIR "/imbalance");
    const auto first = loadWithJob(run);
    REQUIRE(first.trace != nullptr);
    // The worker writes the cache after handing the run over.
    QThreadPool::globalInstance()->waitForDone();
    const auto files = QDir(cache.path()).entryList({ QStringLiteral("*.pxindex") });
    REQUIRE(files.size() == 1);
    // A successful cache read marks the index as used (its manifest's time becomes now).
    const auto file = std::filesystem::path(cache.filePath(files[0]).toStdString()) / "manifest";
    const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
    std::filesystem::last_write_time(file, old);
    const auto second = loadWithJob(run);
    REQUIRE(second.trace != nullptr);
    REQUIRE(second.trace->eventCount() == first.trace->eventCount());
    REQUIRE(second.trace->storeBytes() == first.trace->storeBytes());
    // The first progress update is shown at once: the cache check, then the cache read.
    REQUIRE_FALSE(second.stages.isEmpty());
    REQUIRE_FALSE(second.stages.contains(QStringLiteral("reading symbol table")));
    REQUIRE(std::filesystem::last_write_time(file) > old + std::chrono::minutes(30));
}
