#include "app/gui/data_export_job.h"

#include "views/common/analysis_view.h"
#include "views/common/async_computation.h"

#include <QProgressDialog>
#include <QSaveFile>
#include <QThreadPool>
#include <QTimer>

#include <utility>

namespace parallax::app {

namespace {

constexpr int kExportProgressSteps = 1000;
// The progress dialog shows only for an export that takes longer than this.
constexpr int kExportProgressDelayMs = 400;

QString cannotWriteExport(const QString& path)
{
    return QObject::tr("Could not write %1. Check the folder and try again.").arg(path);
}

} // namespace

DataExportJob::DataExportJob(QString path, QWidget* parent)
    : QObject(parent)
    , m_path(std::move(path))
{ }

DataExportJob::~DataExportJob()
{
    if (m_channel)
        m_channel->detach();
    delete m_progress.data();
}

DataExportJob* DataExportJob::start(views::AnalysisView& view, const QString& path, QWidget* parent)
{
    auto* job = new DataExportJob(path, parent);
    // Made once: a writer may hold a copy of the view's result.
    if (auto writer = view.csvWriter()) {
        job->runOnWorker(std::move(writer), parent);
        return job;
    }
    // A small view: its csv() at once, delivered from the event loop like a worker's result.
    QSaveFile file(path);
    const bool written
        = file.open(QIODevice::WriteOnly) && file.write(view.csv().toUtf8()) >= 0 && file.commit();
    QTimer::singleShot(0, job, [job, written] { job->finish(written); });
    return job;
}

void DataExportJob::runOnWorker(views::AnalysisView::CsvWriter writer, QWidget* parent)
{
    m_progress = new QProgressDialog(
        tr("Writing %1…").arg(m_path), tr("Cancel"), 0, kExportProgressSteps, parent);
    m_progress->setWindowTitle(tr("Export Data"));
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumDuration(kExportProgressDelayMs);
    m_progress->setAutoReset(false);
    m_progress->setAutoClose(false);
    m_progress->setValue(0);
    connect(m_progress, &QProgressDialog::canceled, this, &DataExportJob::cancel);

    m_channel = std::make_shared<Channel>(this, [this] { deliverProgress(); });
    // Started from the event loop, so that a cancel() right after start() is always seen
    // before anything is written.
    QTimer::singleShot(0, this, [this, writer = std::move(writer)] { startWorker(writer); });
}

void DataExportJob::startWorker(const views::AnalysisView::CsvWriter& writer)
{
    QThreadPool::globalInstance()->start([this, channel = m_channel, writer, path = m_path] {
        views::runBelowGuiPriority();
        core::analysis::Progress progress;
        progress.cancelled = [channel] {
            return channel->cancelRequested();
        };
        progress.report = [channel](double fraction) {
            channel->report(fraction);
        };
        QSaveFile file(path);
        bool written = file.open(QIODevice::WriteOnly);
        if (written)
            written = writer(
                [&file](const std::string& piece) {
                    return file.write(piece.data(), static_cast<qint64>(piece.size())) >= 0;
                },
                progress);
        written = written && !channel->cancelRequested() && file.commit();
        // Runs on the GUI thread, and only while the job is alive (WorkerChannel).
        channel->post([this, written] { finish(written); });
    });
}

void DataExportJob::cancel()
{
    m_cancelled = true;
    if (m_channel)
        m_channel->cancel();
}

void DataExportJob::deliverProgress()
{
    const double fraction = m_channel->takeProgress();
    if (m_progress && !m_cancelled)
        m_progress->setValue(static_cast<int>(fraction * kExportProgressSteps));
}

void DataExportJob::finish(bool written)
{
    if (m_progress)
        m_progress->hide();
    emit finished(m_path, written, written || m_cancelled ? QString() : cannotWriteExport(m_path));
    deleteLater();
}

} // namespace parallax::app
