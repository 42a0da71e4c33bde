#pragma once

#include "core/analysis/analysis_request.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace parallax::views {

// Called first by background work on a pool thread: the thread runs at a lower priority than
// the GUI thread (nice kWorkerNice on Linux), so that on a machine with few cores the window
// keeps its share of the CPU while views compute (they start several analyses at once, each
// on every core). Results are the same; only who waits for the CPU changes.
inline constexpr int kWorkerNice = 10;
void runBelowGuiPriority();

// Runs one analysis at a time for a view on the global thread pool. A newer run() cancels the
// older one (its Progress::cancelled turns true) and its result is dropped; results are
// delivered on the GUI thread. Never touches widgets from the worker.
class AsyncComputation : public QObject {
    Q_OBJECT
public:
    explicit AsyncComputation(QObject* parent = nullptr)
        : QObject(parent)
    { }
    // Cancels a running computation without signalling: the receivers (the owning view's
    // widgets) may already be gone when the view is being destroyed.
    ~AsyncComputation() override
    {
        if (m_cancelled)
            m_cancelled->store(true);
    }

    // `work` runs on a worker with a Progress whose cancelled() reports supersession;
    // `done` runs on the GUI thread with its result, only if no newer run() was made.
    template <typename Result>
    void run(std::function<Result(const core::analysis::Progress&)> work,
        std::function<void(Result)> done)
    {
        cancel();
        auto cancelled = std::make_shared<std::atomic<bool>>(false);
        m_cancelled = cancelled;
        const auto generation = ++m_generation;
        setBusy(true);
        QPointer<AsyncComputation> self(this);
        QThreadPool::globalInstance()->start([self, cancelled, generation, work = std::move(work),
                                                 done = std::move(done)]() mutable {
            runBelowGuiPriority();
            core::analysis::Progress progress;
            progress.cancelled = [cancelled]() {
                return cancelled->load();
            };
            // The worker never dereferences `self`: it posts to the application object, which
            // outlives every view, and the QPointer is checked on the GUI thread, where the
            // computation (and its view) is destroyed. Posting to `self` itself raced with that
            // destruction (a freed receiver when the view went between the check and the post).
            progress.report = [self, cancelled](double fraction) {
                if (cancelled->load())
                    return;
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [self, fraction]() {
                        if (AsyncComputation* target = self.data())
                            emit target->progressChanged(fraction);
                    },
                    Qt::QueuedConnection);
            };
            auto result = std::make_shared<Result>(work(progress));
            if (cancelled->load())
                return;
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [self, generation, result, done = std::move(done)]() {
                    AsyncComputation* target = self.data();
                    if (target == nullptr || generation != target->m_generation)
                        return;
                    target->setBusy(false);
                    done(std::move(*result));
                },
                Qt::QueuedConnection);
        });
    }

    void cancel()
    {
        if (m_cancelled)
            m_cancelled->store(true);
        m_cancelled.reset();
        ++m_generation;
        setBusy(false);
    }

    [[nodiscard]] bool busy() const { return m_busy; }

signals:
    void busyChanged(bool busy);
    void progressChanged(double fraction);

private:
    void setBusy(bool busy)
    {
        if (busy == m_busy)
            return;
        m_busy = busy;
        emit busyChanged(busy);
    }

    std::shared_ptr<std::atomic<bool>> m_cancelled;
    std::uint64_t m_generation = 0;
    bool m_busy = false;
};

} // namespace parallax::views
