#pragma once

#include "background_job_dialog.h"
#include "core/trace.h"

#include <QString>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace parallax::app {

// File → Write Reduced Run…: the choices of `parallax-cli reduce` (keep a share or a number of
// PEs, selection by clusters or at random, k, seed, output folder, replace a non-empty folder),
// then io::reduceRun on a QThreadPool worker with progress and Cancel, then the REDUCTION.md
// quality report shown in the dialog. Worker, progress and Cancel: BackgroundJobDialog.
class ReduceDialog : public BackgroundJobDialog {
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
    void setRunning(bool running) override;

private:
    void browse();
    void selectionChanged();
    void finish(bool ok, const QString& message, const QString& reportPath);

    core::TracePtr m_trace;
    QString m_written;

    QLineEdit* m_keep = nullptr;
    QComboBox* m_select = nullptr;
    QSpinBox* m_k = nullptr;
    QSpinBox* m_seed = nullptr;
    QLineEdit* m_output = nullptr;
    QPushButton* m_browse = nullptr;
    QCheckBox* m_force = nullptr;
    QTextBrowser* m_report = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_write = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_open = nullptr;
};

} // namespace parallax::app
