#pragma once

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <functional>
#include <mutex>
#include <utility>

namespace parallax::app {

// What a QThreadPool worker shares with the object on the GUI thread that started it: a
// cancel flag, the latest progress (coalesced: at most one delivery queued at a time) and the
// calls it posts back, which run on the receiver's thread. The worker never touches the
// receiver itself. The receiver calls detach() from its destructor: the worker is asked to stop
// and posts nothing more, and what it posted before is removed with the receiver's pending
// events by ~QObject. Shared as std::shared_ptr by both sides.
template <class ProgressT> class WorkerChannel {
public:
    // `onProgress` runs on the receiver's thread after report(); it reads takeProgress().
    WorkerChannel(QObject* receiver, std::function<void()> onProgress)
        : m_receiver(receiver)
        , m_onProgress(std::move(onProgress))
    { }

    // Worker side (any thread).
    [[nodiscard]] bool cancelRequested() const { return m_cancel.load(); }
    void report(ProgressT progress)
    {
        std::lock_guard lock(m_mutex);
        m_latest = std::move(progress);
        if (m_receiver == nullptr || m_pending)
            return;
        m_pending = true;
        QMetaObject::invokeMethod(m_receiver, m_onProgress, Qt::QueuedConnection);
    }
    void post(std::function<void()> call)
    {
        std::lock_guard lock(m_mutex);
        if (m_receiver != nullptr)
            QMetaObject::invokeMethod(m_receiver, std::move(call), Qt::QueuedConnection);
    }

    // Receiver side.
    void cancel() { m_cancel = true; }
    // The newest progress; the next report() queues a new delivery.
    ProgressT takeProgress()
    {
        std::lock_guard lock(m_mutex);
        m_pending = false;
        return m_latest;
    }
    void detach()
    {
        m_cancel = true;
        std::lock_guard lock(m_mutex);
        m_receiver = nullptr;
    }

private:
    std::atomic<bool> m_cancel { false };
    std::mutex m_mutex;
    QObject* m_receiver; // guarded by m_mutex; null once the receiver let go
    std::function<void()> m_onProgress;
    ProgressT m_latest {}; // guarded by m_mutex
    bool m_pending = false; // guarded by m_mutex: a delivery is queued
};

} // namespace parallax::app
