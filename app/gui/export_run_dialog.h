#pragma once

#include "background_job_dialog.h"
#include "core/trace.h"
#include "export/export_plan.h"
#include "export/export_run.h"

#include <QString>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPushButton;

namespace parallax::app {

class MainWindow;

// File → Export Run As → OTF2… / Perfetto…: the choices of `parallax-cli export` (the whole
// traced span or the current view's range, every PE with a log or the current view's PEs, the
// output, replace an existing one), then the export on a QThreadPool worker with progress and
// Cancel. The output is written under a temporary name and renamed when complete (export/
// staged_output.h), so a cancel or a failure leaves nothing. Worker, progress and Cancel:
// BackgroundJobDialog.
class ExportRunDialog : public BackgroundJobDialog {
    Q_OBJECT
public:
    // `range`/`pes`: the current view's selection (empty range or PEs: none to offer).
    ExportRunDialog(core::TracePtr trace, exporter::ExportFormat format, core::TimeRange range,
        std::vector<core::PeId> pes, QWidget* parent = nullptr);
    ~ExportRunDialog() override;

    [[nodiscard]] QComboBox* rangeCombo() const { return m_range; }
    [[nodiscard]] QComboBox* pesCombo() const { return m_pes; }
    [[nodiscard]] QLineEdit* outputEdit() const { return m_output; }
    [[nodiscard]] QCheckBox* forceCheck() const { return m_force; }
    [[nodiscard]] QPushButton* exportButton() const { return m_export; }
    [[nodiscard]] QLabel* estimateLabel() const { return m_estimate; }
    // What the current choices export.
    [[nodiscard]] exporter::ExportRequest request() const;

public slots:
    void startExport();
    void cancelExport();

signals:
    // The worker ended: ok with the path written, or why not ("cancelled" when cancelled).
    void exportFinished(bool ok, const QString& message);

protected:
    void setRunning(bool running) override;
    [[nodiscard]] QString progressText(const JobProgress& progress) const override;

private:
    void browse();
    void updateEstimate();
    void finish(bool ok, const QString& message, const QString& summary);

    core::TracePtr m_trace;
    exporter::ExportFormat m_format;
    core::TimeRange m_viewRange;
    std::vector<core::PeId> m_viewPes;

    QComboBox* m_range = nullptr;
    QComboBox* m_pes = nullptr;
    QLineEdit* m_output = nullptr;
    QPushButton* m_browse = nullptr;
    QCheckBox* m_force = nullptr;
    QLabel* m_estimate = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_close = nullptr;
};

// Adds "Export Run As" with "OTF2…" and "Perfetto…" to `file`: enabled while a run is open,
// each opens the dialog (one at a time) with the current view's range and PEs offered.
void addExportRunMenu(QMenu* file, MainWindow* window);

} // namespace parallax::app
