#pragma once

#include "core/trace.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>

namespace parallax::io {
struct LoadResult;
}

namespace parallax::app {

// Loads one run with io::loadRunCached on a QThreadPool worker and reports back on the GUI
// thread. A full load's index cache is written by the same worker after the run was handed
// over, so the first open is not slowed down by the write.
//
// The worker never touches this object: it writes progress into a shared state and posts at most
// one queued call at a time, so updates coalesce; on the GUI side they are further throttled to
// one per kProgressIntervalMs and always end with the newest state. The destructor unhooks the
// shared state under its mutex, so a job may be deleted while its worker still runs: the worker
// sees the cancel flag at its next chunk and its result is dropped (and freed on the worker).
// Exactly one of loaded/failed/cancelled is emitted unless the job is deleted first.
class RunLoadJob : public QObject {
    Q_OBJECT
public:
    static constexpr int kProgressIntervalMs = 50;

    explicit RunLoadJob(QString path, QObject* parent = nullptr);
    ~RunLoadJob() override;

    // Opens the run through this index only (parallax --index DIR): never parses, never writes.
    // Call before start().
    void setIndexDirectory(QString directory) { m_indexDirectory = std::move(directory); }
    // Starts the worker; call once.
    void start();
    // Asks the worker to stop at its next chunk; `cancelled` follows unless it had just finished.
    void cancel();

    [[nodiscard]] const QString& path() const { return m_path; }
    // The index given with setIndexDirectory(), empty for the cache or a plain load.
    [[nodiscard]] const QString& indexDirectory() const { return m_indexDirectory; }
    // After `loaded`: whether the run came from the index cache, and why a cache was not used
    // or was rebuilt (empty when nothing is worth saying).
    [[nodiscard]] bool fromCache() const { return m_fromCache; }
    [[nodiscard]] const QString& cacheNote() const { return m_cacheNote; }

signals:
    // stage is io's text ("reading logs 12/64"); bytesTotal is 0 when unknown (no logs).
    void progressChanged(const QString& stage, quint64 bytesDone, quint64 bytesTotal);
    void loaded(parallax::core::TracePtr trace, double seconds);
    void failed(const QString& error);
    void cancelled();

private:
    struct Shared;

    void deliverProgress();
    void deliverResult(const io::LoadResult& result);

    QString m_path;
    std::shared_ptr<Shared> m_shared;
    QElapsedTimer m_clock; // since start()
    QElapsedTimer m_sinceProgress; // since the last progressChanged
    bool m_started = false;
    bool m_finished = false;
    bool m_fromCache = false;
    QString m_cacheNote;
    QString m_indexDirectory;
};

} // namespace parallax::app
