#pragma once

#include "worker_channel.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <string>

class QLabel;
class QProgressBar;

namespace parallax::app {

// How far a background job is: the fraction done and, when it says so, the stage it is in.
struct JobProgress {
    double fraction = 0.0;
    std::string stage;
};

// A dialog that runs one job at a time on a QThreadPool worker (Export Run As, Write Reduced
// Run): a progress bar and a status line, Cancel (and Esc, or closing) asks the worker to stop
// and the dialog closes only once it has, and the worker reports through a WorkerChannel, never
// to the dialog directly. The subclass lays out progressBar() and statusLabel(), enables its
// controls in setRunning() and starts its worker with the channel beginJob() returns.
class BackgroundJobDialog : public QDialog {
    Q_OBJECT
public:
    ~BackgroundJobDialog() override;

    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    [[nodiscard]] QProgressBar* progressBar() const { return m_progress; }

protected:
    using Channel = WorkerChannel<JobProgress>;

    explicit BackgroundJobDialog(QWidget* parent);

    // A new job: a new channel (the previous one let go), the bar at 0, `status` shown and the
    // dialog running. The worker reports and posts its end through the channel.
    std::shared_ptr<Channel> beginJob(const QString& status);
    // Asks the worker to stop (nothing while none runs).
    void cancelJob();
    // The job ended: not running any more; the bar full when `ok`, else empty with the status
    // saying why (`message` "cancelled": nothing was written). Returns `ok`.
    bool endJob(bool ok, const QString& message);
    // While a job runs, Esc and Close cancel it instead of closing.
    void reject() override;

    // The controls' state for a running job or an idle dialog (the Close button's text too).
    virtual void setRunning(bool running) = 0;
    // The status line for a progress report; empty leaves it as it is. Default: the stage.
    [[nodiscard]] virtual QString progressText(const JobProgress& progress) const;

private:
    void deliverProgress();

    std::shared_ptr<Channel> m_channel;
    bool m_running = false;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace parallax::app
