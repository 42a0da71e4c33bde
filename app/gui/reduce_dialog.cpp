#include "reduce_dialog.h"

#include "core/analysis/pe_selection.h"
#include "export_dialog.h"
#include "io/reduced_run_writer.h"
#include "io/reduction_report.h"
#include "io/run_reduction.h"

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
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTextBrowser>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace parallax::app {

ReduceDialog::ReduceDialog(core::TracePtr trace, QWidget* parent)
    : BackgroundJobDialog(parent)
    , m_trace(std::move(trace))
{
    setWindowTitle(m_trace
            ? tr("Write Reduced Run of %1").arg(QString::fromStdString(m_trace->files.baseName))
            : tr("Write Reduced Run"));
    auto* intro = new QLabel(tr("Writes a new run folder with the summaries of every PE and the "
                                "detailed logs of a few representative PEs, plus a quality "
                                "report. The open run is not changed."),
        this);
    intro->setWordWrap(true);

    m_keep = new QLineEdit(QStringLiteral("5%"), this);
    m_keep->setPlaceholderText(tr("5% or a number of PEs"));
    m_keep->setToolTip(tr("A share of the PEs with logs (rounded up) or their number"));
    m_select = new QComboBox(this);
    m_select->addItem(tr("Clusters: exemplars and outliers"), QStringLiteral("clusters"));
    m_select->addItem(tr("Random (deterministic for the seed)"), QStringLiteral("random"));
    m_k = new QSpinBox(this);
    m_k->setRange(0, 100'000);
    m_k->setSpecialValueText(tr("auto"));
    m_k->setToolTip(tr("Number of clusters; auto chooses it from a sweep"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, INT_MAX);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Seed of the random selection; the random control uses the next ones"));
    m_output = new QLineEdit(this);
    if (m_trace)
        m_output->setText(
            suggestedExportPath(QString::fromStdString(m_trace->files.baseName + "-reduced")));
    m_browse = new QPushButton(tr("Browse…"), this);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(m_browse);
    m_force = new QCheckBox(tr("Replace the folder if it is not empty"), this);

    auto* form = new QFormLayout;
    form->addRow(tr("&Keep:"), m_keep);
    form->addRow(tr("&Select by:"), m_select);
    form->addRow(tr("Clusters (&k):"), m_k);
    form->addRow(tr("S&eed:"), m_seed);
    form->addRow(tr("&Output folder:"), outputRow);
    form->addRow(QString(), m_force);

    m_report = new QTextBrowser(this);
    m_report->setOpenExternalLinks(false);
    m_report->setMinimumSize(560, 320);
    m_report->hide();

    m_buttons = new QDialogButtonBox(this);
    m_write = m_buttons->addButton(tr("&Write"), QDialogButtonBox::ActionRole);
    m_write->setDefault(true);
    m_open = m_buttons->addButton(tr("&Open Reduced Run"), QDialogButtonBox::ActionRole);
    m_open->hide();
    m_cancel = m_buttons->addButton(QDialogButtonBox::Close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(progressBar());
    layout->addWidget(statusLabel());
    layout->addWidget(m_report, 1);
    layout->addWidget(m_buttons);

    connect(m_write, &QPushButton::clicked, this, &ReduceDialog::startWriting);
    connect(m_cancel, &QPushButton::clicked, this, &ReduceDialog::reject);
    connect(m_open, &QPushButton::clicked, this, [this] {
        emit openRunRequested(m_written);
        accept();
    });
    connect(m_browse, &QPushButton::clicked, this, &ReduceDialog::browse);
    connect(m_select, &QComboBox::currentIndexChanged, this, &ReduceDialog::selectionChanged);
    selectionChanged();
}

ReduceDialog::~ReduceDialog() = default;

void ReduceDialog::selectionChanged()
{
    m_k->setEnabled(m_select->currentData().toString() == QLatin1String("clusters"));
}

void ReduceDialog::browse()
{
    const auto dir = QFileDialog::getExistingDirectory(this, tr("Output Folder"),
        QFileInfo(m_output->text()).absolutePath(), QFileDialog::ShowDirsOnly);
    if (!dir.isEmpty())
        m_output->setText(dir);
}

void ReduceDialog::setRunning(bool running)
{
    for (QWidget* w : std::initializer_list<QWidget*> {
             m_keep, m_select, m_seed, m_output, m_browse, m_force, m_write })
        w->setEnabled(!running);
    if (!running)
        selectionChanged();
    else
        m_k->setEnabled(false);
    m_cancel->setText(running ? tr("Cancel") : tr("Close"));
}

void ReduceDialog::startWriting()
{
    if (isRunning() || !m_trace)
        return;
    std::string error;
    const auto keepText = m_keep->text().trimmed().toStdString();
    const auto keep = core::analysis::parseKeepAmount(keepText, &error);
    if (!keep) {
        statusLabel()->setText(tr("Keep: %1").arg(QString::fromStdString(error)));
        m_keep->setFocus();
        return;
    }
    const auto out = m_output->text().trimmed();
    if (out.isEmpty()) {
        statusLabel()->setText(tr("Choose an output folder."));
        m_output->setFocus();
        return;
    }
    io::ReductionSettings settings;
    settings.source = m_trace->files.directory;
    settings.keep = *keep;
    settings.keepText = keepText;
    settings.select = m_select->currentData().toString() == QLatin1String("random")
        ? io::PeSelectionMethod::Random
        : io::PeSelectionMethod::Clusters;
    settings.k = m_k->value();
    settings.seed = static_cast<std::uint64_t>(m_seed->value());
    settings.outDir = QFile::encodeName(QDir::cleanPath(out)).toStdString();
    settings.force = m_force->isChecked();
    // Refusals that need no work are told at once.
    const auto check = io::checkReducedRunOutput(m_trace->files, settings.outDir, settings.force);
    if (!check.ok()) {
        statusLabel()->setText(QString::fromStdString(check.message)
            + (check.problem == io::OutputCheck::Problem::NotEmpty
                    ? tr(": tick “Replace the folder” to overwrite it, or choose another.")
                    : QStringLiteral(".")));
        return;
    }

    auto channel = beginJob(tr("Starting…"));
    m_report->hide();
    m_open->hide();
    auto trace = m_trace;
    QThreadPool::globalInstance()->start([channel, trace, settings, this] {
        io::ReductionProgress progress;
        progress.cancelled = [channel] {
            return channel->cancelRequested();
        };
        progress.report = [channel](double fraction, const std::string& stage) {
            channel->report({ fraction, stage });
        };
        const auto outcome = io::reduceRun(*trace, settings, progress);
        const bool ok = outcome.ok();
        const auto message = QString::fromStdString(ok ? std::string() : outcome.error);
        const auto reportPath = QDir(QFile::decodeName(settings.outDir.c_str()))
                                    .filePath(QString::fromLatin1(io::kReductionMarkdownName));
        // Runs on the GUI thread, and only while the dialog is alive (WorkerChannel).
        channel->post([this, ok, message, reportPath] { finish(ok, message, reportPath); });
    });
}

void ReduceDialog::cancelWriting()
{
    cancelJob();
}

void ReduceDialog::finish(bool ok, const QString& message, const QString& reportPath)
{
    if (!endJob(ok, message)) {
        emit writingFinished(false, message);
        return;
    }
    m_written = QFileInfo(reportPath).absolutePath();
    statusLabel()->setText(tr("Written to %1").arg(m_written));
    QFile file(reportPath);
    if (file.open(QIODevice::ReadOnly))
        m_report->setMarkdown(QString::fromUtf8(file.readAll()));
    else
        m_report->setPlainText(tr("The report %1 could not be read.").arg(reportPath));
    m_report->show();
    m_open->show();
    emit writingFinished(true, m_written);
}

} // namespace parallax::app
