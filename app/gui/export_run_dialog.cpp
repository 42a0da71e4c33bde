#include "export_run_dialog.h"

#include "core/analysis/run_span.h"
#include "core/text_args.h"
#include "export/export_plan.h"
#include "export/staged_output.h"
#include "export_dialog.h"
#include "main_window.h"
#include "view_workspace.h"
#include "views/common/options_bar.h"
#include "views/common/time_format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::app {

namespace {

bool isOtf2(exporter::ExportFormat format)
{
    return format == exporter::ExportFormat::Otf2;
}

QString rangeText(core::TimeRange range)
{
    return views::durationText(range.begin) + QStringLiteral(" – ")
        + views::durationText(range.end);
}

} // namespace

ExportRunDialog::ExportRunDialog(core::TracePtr trace, exporter::ExportFormat format,
    core::TimeRange range, std::vector<core::PeId> pes, QWidget* parent)
    : BackgroundJobDialog(parent)
    , m_trace(std::move(trace))
    , m_format(format)
    , m_viewRange(range)
    , m_viewPes(std::move(pes))
{
    const QString what = isOtf2(format) ? tr("OTF2") : tr("Perfetto");
    setWindowTitle(tr("Export Run As %1").arg(what));
    auto* intro = new QLabel(isOtf2(format)
            ? tr("Writes an OTF2 archive (a folder) for Vampir, the Score-P tools or Pipit: every "
                 "execution, idle, pack and unpack, the messages, user events and stats.")
            : tr("Writes a trace-event JSON file for ui.perfetto.dev or chrome://tracing: a slice "
                 "per execution, message arrows, utilization counters and user events. A name "
                 "ending in .gz is compressed."),
        this);
    intro->setWordWrap(true);

    const auto span = m_trace ? core::analysis::tracedRunSpan(*m_trace) : core::TimeRange {};
    m_range = new QComboBox(this);
    m_range->addItem(tr("Whole run (%1)").arg(rangeText(span)), QStringLiteral("whole"));
    if (!m_viewRange.empty() && !(m_viewRange.begin == span.begin && m_viewRange.end == span.end))
        m_range->addItem(
            tr("Current view (%1)").arg(rangeText(m_viewRange)), QStringLiteral("view"));
    m_range->setCurrentIndex(m_range->count() - 1);
    m_pes = new QComboBox(this);
    m_pes->addItem(tr("Every PE with a log"), QStringLiteral("all"));
    if (!m_viewPes.empty())
        m_pes->addItem(tr("Current view's PEs (%1)")
                           .arg(QString::fromStdString(core::formatPeList(m_viewPes))),
            QStringLiteral("view"));
    m_pes->setCurrentIndex(m_pes->count() - 1);
    m_output = new QLineEdit(this);
    if (m_trace)
        m_output->setText(suggestedExportPath(QString::fromStdString(m_trace->files.baseName)
            + (isOtf2(format) ? QStringLiteral("-otf2") : QStringLiteral(".json.gz"))));
    m_browse = new QPushButton(tr("Browse…"), this);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(m_browse);
    m_force = new QCheckBox(isOtf2(format) ? tr("Replace the folder if it exists")
                                           : tr("Replace the file if it exists"),
        this);

    auto* form = new QFormLayout;
    form->addRow(tr("&Range:"), m_range);
    form->addRow(tr("&PEs:"), m_pes);
    auto* outputLabel
        = new QLabel(isOtf2(format) ? tr("&Output folder:") : tr("&Output file:"), this);
    outputLabel->setBuddy(m_output);
    form->addRow(outputLabel, outputRow);
    form->addRow(QString(), m_force);

    m_estimate = new QLabel(this);
    m_estimate->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::ActionRole);
    m_export->setDefault(true);
    m_close = buttons->addButton(QDialogButtonBox::Close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_estimate);
    layout->addWidget(progressBar());
    layout->addWidget(statusLabel());
    layout->addWidget(buttons);
    setMinimumWidth(520);

    connect(m_export, &QPushButton::clicked, this, &ExportRunDialog::startExport);
    connect(m_close, &QPushButton::clicked, this, &ExportRunDialog::reject);
    connect(m_browse, &QPushButton::clicked, this, &ExportRunDialog::browse);
    connect(m_range, &QComboBox::currentIndexChanged, this, &ExportRunDialog::updateEstimate);
    connect(m_pes, &QComboBox::currentIndexChanged, this, &ExportRunDialog::updateEstimate);
    updateEstimate();
}

ExportRunDialog::~ExportRunDialog() = default;

exporter::ExportRequest ExportRunDialog::request() const
{
    exporter::ExportRequest r;
    if (m_range->currentData().toString() == QLatin1String("view"))
        r.range = m_viewRange;
    if (m_pes->currentData().toString() == QLatin1String("view"))
        r.pes = m_viewPes;
    return r;
}

void ExportRunDialog::browse()
{
    QString path;
    if (isOtf2(m_format))
        path = QFileDialog::getSaveFileName(this, tr("Archive Folder"), m_output->text(), QString(),
            nullptr, QFileDialog::ShowDirsOnly);
    else
        path = QFileDialog::getSaveFileName(
            this, tr("Perfetto JSON"), m_output->text(), tr("Trace JSON (*.json.gz *.json)"));
    if (!path.isEmpty())
        m_output->setText(path);
}

// How much there is to export: the executions of the choice (O(PEs log n), no analysis), and
// for Perfetto the JSON size this suggests, with a warning above what its UI loads.
void ExportRunDialog::updateEstimate()
{
    if (!m_trace || !m_trace->hasLogs() || m_trace->logsOnDemand()) {
        m_estimate->setText(tr("This run was opened without its logs' detail, so it cannot be "
                               "exported."));
        m_export->setEnabled(false);
        return;
    }
    const auto r = request();
    const auto range = r.range.empty() ? core::analysis::tracedRunSpan(*m_trace) : r.range;
    std::size_t executions = 0;
    std::size_t pes = 0;
    for (std::size_t p = 0; p < m_trace->pes.size(); ++p) {
        const auto pe = static_cast<core::PeId>(p);
        if (!m_trace->pes[p].hasLog
            || (!r.pes.empty() && !std::binary_search(r.pes.begin(), r.pes.end(), pe)))
            continue;
        ++pes;
        executions += m_trace->pes[p].executionsOverlapping(range.begin, range.end).size();
    }
    QString text = tr("%1 executions on %2 PEs.").arg(executions).arg(pes);
    if (!isOtf2(m_format)) {
        // A slice and, for most executions, a message's flow events (export_run.cpp's sizes).
        const auto bytes = static_cast<std::uint64_t>(executions) * 460;
        text += QLatin1Char(' ')
            + tr("The JSON will be about %1.")
                  .arg(QString::fromStdString(core::formatBytes(bytes)));
        if (bytes > exporter::kPerfettoUiJsonLimit)
            text += QLatin1Char(' ')
                + tr("That is more than Perfetto's UI loads in a browser: choose a shorter range "
                     "or fewer PEs, or open it through trace_processor.");
    }
    m_estimate->setText(text);
    m_export->setEnabled(true);
}

void ExportRunDialog::setRunning(bool running)
{
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_range, m_pes, m_output, m_browse, m_force, m_export })
        w->setEnabled(!running);
    m_close->setText(running ? tr("Cancel") : tr("Close"));
}

void ExportRunDialog::startExport()
{
    if (isRunning() || !m_trace)
        return;
    const auto out = m_output->text().trimmed();
    if (out.isEmpty()) {
        statusLabel()->setText(tr("Choose where to write the export."));
        m_output->setFocus();
        return;
    }
    const auto target = QFile::encodeName(QDir::cleanPath(out)).toStdString();
    const bool force = m_force->isChecked();
    const auto kind
        = isOtf2(m_format) ? exporter::TargetKind::Directory : exporter::TargetKind::File;
    // Refusals that need no work are told at once.
    if (const auto check = exporter::checkExportTarget(m_trace->files, target, kind, force);
        !check.ok()) {
        statusLabel()->setText(QString::fromStdString(check.message)
            + (check.problem == exporter::TargetCheck::Problem::Exists
                    ? tr(": tick “Replace” to overwrite it, or choose another name.")
                    : QStringLiteral(".")));
        return;
    }
    auto channel = beginJob(tr("Pairing the messages…"));
    auto trace = m_trace;
    const auto request = this->request();
    const auto format = m_format;
    QThreadPool::globalInstance()->start([channel, trace, request, format, target, force, this] {
        core::analysis::Progress progress;
        progress.cancelled = [channel] {
            return channel->cancelRequested();
        };
        progress.report = [channel](double f) {
            channel->report({ 0.2 * f, {} });
        };
        const auto planned = exporter::planExport(*trace, request, progress);
        exporter::ExportResult result;
        QString summary;
        if (!planned.plan) {
            result.cancelled = planned.cancelled;
            result.error = planned.cancelled ? "cancelled" : planned.error;
        } else {
            exporter::ExportOptions options;
            options.force = force;
            options.progress.cancelled = progress.cancelled;
            options.progress.report = [channel](double f) {
                channel->report({ 0.2 + 0.8 * f, {} });
            };
            result = exporter::exportRun(*trace, *planned.plan, format, target, options);
            summary = QObject::tr("%1 executions, %2 messages, %3")
                          .arg(result.counts.executions)
                          .arg(result.counts.messages)
                          .arg(QString::fromStdString(core::formatBytes(result.bytes)));
        }
        const bool ok = result.ok;
        const auto message = QString::fromStdString(
            ok ? target : (result.cancelled ? std::string("cancelled") : result.error));
        // Runs on the GUI thread, and only while the dialog is alive (WorkerChannel).
        channel->post([this, ok, message, summary] { finish(ok, message, summary); });
    });
}

void ExportRunDialog::cancelExport()
{
    cancelJob();
}

QString ExportRunDialog::progressText(const JobProgress& progress) const
{
    // The first fifth is the pairing of the messages (the status set at the start).
    return progress.fraction >= 0.2 ? tr("Writing…") : QString();
}

void ExportRunDialog::finish(bool ok, const QString& message, const QString& summary)
{
    if (!endJob(ok, message)) {
        emit exportFinished(false, message);
        return;
    }
    rememberExportDirectory(message);
    statusLabel()->setText(tr("Written to %1 (%2).").arg(message, summary));
    emit exportFinished(true, message);
}

void addExportRunMenu(QMenu* file, MainWindow* window)
{
    auto* menu = file->addMenu(QObject::tr("Export Run &As"));
    auto* otf2 = menu->addAction(QObject::tr("&OTF2…"));
    auto* perfetto = menu->addAction(QObject::tr("&Perfetto…"));
    otf2->setStatusTip(QObject::tr("Write the run as an OTF2 archive (Vampir, Score-P, Pipit)"));
    perfetto->setStatusTip(QObject::tr("Write the run as a Perfetto / Chrome trace JSON"));
    const auto refresh = [window, menu, otf2] {
        menu->setEnabled(window->trace() != nullptr);
        otf2->setEnabled(exporter::otf2Available());
    };
    QObject::connect(file, &QMenu::aboutToShow, menu, refresh);
    QObject::connect(window, &MainWindow::loadFinished, menu, refresh);
    refresh();
    const auto open = [window](exporter::ExportFormat format) {
        if (!window->trace())
            return;
        if (auto* existing = window->findChild<ExportRunDialog*>()) {
            existing->raise();
            existing->activateWindow();
            return;
        }
        // The current view's range and PEs (its options bar), offered as a choice.
        core::TimeRange range;
        std::vector<core::PeId> pes;
        if (auto* view = window->workspace()->currentView())
            if (auto* bar = view->findChild<views::OptionsBar*>()) {
                range = bar->range();
                pes = bar->pes();
            }
        auto* dialog = new ExportRunDialog(window->trace(), format, range, pes, window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    };
    QObject::connect(
        otf2, &QAction::triggered, window, [open] { open(exporter::ExportFormat::Otf2); });
    QObject::connect(
        perfetto, &QAction::triggered, window, [open] { open(exporter::ExportFormat::Perfetto); });
}

} // namespace parallax::app
