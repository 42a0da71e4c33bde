#pragma once

#include "app/gui/worker_channel.h"
#include "views/common/analysis_view.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>

class QProgressDialog;
class QWidget;

namespace parallax::app {

// File → Export Data: writes a view's CSV to a file atomically (a temporary sibling renamed
// into place, nothing left behind on failure or cancel). A view with a csvWriter() is written
// on a worker thread behind a progress dialog with Cancel, so the window stays responsive on
// big runs; the others write their csv() at once. The job deletes itself after finished().
class DataExportJob : public QObject {
    Q_OBJECT
public:
    // Starts writing `view`'s data to `path`; `parent` owns the job and the progress dialog.
    static DataExportJob* start(views::AnalysisView& view, const QString& path, QWidget* parent);
    ~DataExportJob() override;

    // Stops the worker; the file is not written and finished() reports it as cancelled.
    void cancel();

signals:
    // `written`: the file is in place. Otherwise `error` says why (empty when cancelled).
    void finished(const QString& path, bool written, const QString& error);

private:
    DataExportJob(QString path, QWidget* parent);
    void runOnWorker(views::AnalysisView::CsvWriter writer, QWidget* parent);
    void startWorker(const views::AnalysisView::CsvWriter& writer);
    void deliverProgress();
    void finish(bool written);

    using Channel = WorkerChannel<double>; // the fraction written
    QString m_path;
    std::shared_ptr<Channel> m_channel;
    QPointer<QProgressDialog> m_progress;
    bool m_cancelled = false;
};

} // namespace parallax::app
