#pragma once

#include "core/trace.h"
#include "worker_channel.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <string>
#include <utility>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace parallax::app {

// File → Write Reduced Run…: the choices of `parallax-cli reduce` (keep a share or a number of
// PEs, selection by clusters or at random, k, seed, output folder, replace a non-empty folder),
// then io::reduceRun on a QThreadPool worker with progress and Cancel, then the REDUCTION.md
// quality report shown in the dialog. The worker reports through a WorkerChannel, never to the
// dialog directly.
class ReduceDialog : public QDialog {
    Q_OBJECT
public:
    ReduceDialog(core::TracePtr trace, QWidget* parent = nullptr);
    ~ReduceDialog() override;

    // The controls, for tests and for the window to preset.
    [[nodiscard]] QLineEdit* keepEdit() const { return m_keep; }
    [[nodiscard]] QComboBox* selectCombo() const { return m_select; }
    [[nodiscard]] QSpinBox* kSpin() const { return m_k; }
    [[nodiscard]] QSpinBox* seedSpin() const { return m_seed; }
    [[nodiscard]] QLineEdit* outputEdit() const { return m_output; }
    [[nodiscard]] QCheckBox* forceCheck() const { return m_force; }
    [[nodiscard]] QPushButton* writeButton() const { return m_write; }
    [[nodiscard]] QPushButton* cancelButton() const { return m_cancel; }
    [[nodiscard]] QTextBrowser* reportView() const { return m_report; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    [[nodiscard]] bool isRunning() const { return m_running; }
    // The folder of the last reduced run written, empty before.
    [[nodiscard]] const QString& writtenRun() const { return m_written; }

public slots:
    // Checks the choices and starts the worker (does nothing while one runs).
    void startWriting();
    // Asks the worker to stop; the output folder is left as it was.
    void cancelWriting();

signals:
    // The worker ended: ok, or why not (cancelled: "cancelled").
    void writingFinished(bool ok, const QString& message);
    // The user asked to open the reduced run just written.
    void openRunRequested(const QString& path);

protected:
    void reject() override;

private:
    using Channel = WorkerChannel<std::pair<double, std::string>>; // fraction done, stage

    void browse();
    void selectionChanged();
    void deliverProgress();
    void finish(bool ok, const QString& message, const QString& reportPath);
    void setRunning(bool running);

    core::TracePtr m_trace;
    std::shared_ptr<Channel> m_channel;
    bool m_running = false;
    QString m_written;

    QLineEdit* m_keep = nullptr;
    QComboBox* m_select = nullptr;
    QSpinBox* m_k = nullptr;
    QSpinBox* m_seed = nullptr;
    QLineEdit* m_output = nullptr;
    QPushButton* m_browse = nullptr;
    QCheckBox* m_force = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTextBrowser* m_report = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_write = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_open = nullptr;
};

} // namespace parallax::app
