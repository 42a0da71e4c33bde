#include "run_load_job.h"

#include "io/index_cache.h"
#include "io/run_loader.h"
#include "memory_budget.h"

#include <QFile>
#include <QThreadPool>
#include <QTimer>
#include <QtGlobal>

#include <atomic>
#include <functional>
#include <mutex>

namespace parallax::app {

struct RunLoadJob::Shared {
    std::atomic<bool> cancelRequested { false };
    std::mutex mutex;
    RunLoadJob* receiver = nullptr; // guarded by mutex; null once the job is destroyed
    io::LoadProgress latest; // guarded by mutex
    bool progressPending = false; // guarded by mutex: a delivery is queued or deferred
};

RunLoadJob::RunLoadJob(QString path, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_shared(std::make_shared<Shared>())
{
    m_shared->receiver = this;
}

RunLoadJob::~RunLoadJob()
{
    m_shared->cancelRequested = true;
    // After this the worker posts nothing more; calls it posted before are removed with this
    // object's pending events by ~QObject, on this thread, before they could run.
    std::lock_guard lock(m_shared->mutex);
    m_shared->receiver = nullptr;
}

void RunLoadJob::start()
{
    if (m_started)
        return;
    m_started = true;
    m_clock.start();
    auto shared = m_shared;
    const std::string path = QFile::encodeName(m_path).toStdString();
    const std::string indexDirectory = QFile::encodeName(m_indexDirectory).toStdString();
    const auto budget = memoryBudget();
    QThreadPool::globalInstance()->start([shared, path, indexDirectory, budget] {
        io::LoadOptions options;
        options.memoryBudget = budget;
        options.cancelled = [shared] {
            return shared->cancelRequested.load();
        };
        // Called from io's worker threads, possibly several at once.
        options.progress = [shared](const io::LoadProgress& progress) {
            std::lock_guard lock(shared->mutex);
            shared->latest = progress;
            if (!shared->receiver || shared->progressPending)
                return;
            shared->progressPending = true;
            auto* receiver = shared->receiver;
            QMetaObject::invokeMethod(
                receiver, [receiver] { receiver->deliverProgress(); }, Qt::QueuedConnection);
        };
        // The index cache (io/index_cache.h): a reopened, unchanged run is not parsed again.
        io::CacheOptions cache;
        std::function<std::string()> writeCache;
        cache.deferWrite = [&writeCache](std::function<std::string()> write) {
            writeCache = std::move(write);
        };
        auto result = indexDirectory.empty() ? io::loadRunCached(path, options, cache)
                                             : io::loadRunFromIndex(path, indexDirectory, options);
        {
            std::lock_guard lock(shared->mutex);
            if (auto* receiver = shared->receiver) {
                QMetaObject::invokeMethod(
                    receiver,
                    [receiver, result = std::move(result)] { receiver->deliverResult(result); },
                    Qt::QueuedConnection);
            }
        }
        // The run is on its way to the window; now the cache for the next open. Not tied to
        // the job: the window discards the job as soon as it has the run.
        if (writeCache) {
            const auto note = writeCache();
            if (!note.empty())
                qWarning("parallax: %s", note.c_str());
        }
    });
}

void RunLoadJob::cancel()
{
    m_shared->cancelRequested = true;
}

void RunLoadJob::deliverProgress()
{
    if (m_finished)
        return;
    if (m_sinceProgress.isValid() && m_sinceProgress.elapsed() < kProgressIntervalMs) {
        // Too soon after the last update: come back later and show whatever is newest then.
        const auto wait = kProgressIntervalMs - static_cast<int>(m_sinceProgress.elapsed());
        QTimer::singleShot(wait, this, &RunLoadJob::deliverProgress);
        return;
    }
    io::LoadProgress progress;
    {
        std::lock_guard lock(m_shared->mutex);
        progress = m_shared->latest;
        m_shared->progressPending = false;
    }
    m_sinceProgress.start();
    emit progressChanged(
        QString::fromStdString(progress.stage), progress.bytesDone, progress.bytesTotal);
}

void RunLoadJob::deliverResult(const io::LoadResult& result)
{
    m_finished = true;
    const double seconds = static_cast<double>(m_clock.elapsed()) / 1000.0;
    m_fromCache = result.fromCache;
    m_cacheNote = QString::fromStdString(result.cacheNote);
    if (result.trace)
        emit loaded(result.trace, seconds);
    else if (result.cancelled)
        emit cancelled();
    else
        emit failed(QString::fromStdString(result.error));
}

} // namespace parallax::app
