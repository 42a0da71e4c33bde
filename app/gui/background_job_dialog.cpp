#include "background_job_dialog.h"

#include <QLabel>
#include <QProgressBar>

#include <algorithm>

namespace parallax::app {

BackgroundJobDialog::BackgroundJobDialog(QWidget* parent)
    : QDialog(parent)
{
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

BackgroundJobDialog::~BackgroundJobDialog()
{
    if (m_channel)
        m_channel->detach();
}

std::shared_ptr<BackgroundJobDialog::Channel> BackgroundJobDialog::beginJob(const QString& status)
{
    if (m_channel)
        m_channel->detach();
    m_channel = std::make_shared<Channel>(this, [this] { deliverProgress(); });
    m_progress->setValue(0);
    m_status->setText(status);
    m_running = true;
    setRunning(true);
    return m_channel;
}

void BackgroundJobDialog::cancelJob()
{
    if (m_channel && m_running) {
        m_channel->cancel();
        m_status->setText(tr("Cancelling…"));
    }
}

bool BackgroundJobDialog::endJob(bool ok, const QString& message)
{
    m_running = false;
    setRunning(false);
    m_progress->setValue(ok ? 1000 : 0);
    if (!ok)
        m_status->setText(message == QLatin1String("cancelled")
                ? tr("Cancelled; nothing was written.")
                : tr("Not written: %1").arg(message));
    return ok;
}

void BackgroundJobDialog::reject()
{
    // The dialog closes once the worker has stopped.
    if (m_running) {
        cancelJob();
        return;
    }
    QDialog::reject();
}

QString BackgroundJobDialog::progressText(const JobProgress& progress) const
{
    return QString::fromStdString(progress.stage);
}

void BackgroundJobDialog::deliverProgress()
{
    const auto progress = m_channel->takeProgress();
    if (!m_running)
        return;
    m_progress->setValue(static_cast<int>(std::clamp(progress.fraction, 0.0, 1.0) * 1000));
    if (const QString text = progressText(progress);
        !m_channel->cancelRequested() && !text.isEmpty())
        m_status->setText(text);
}

} // namespace parallax::app
