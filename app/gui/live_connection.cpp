#include "live_connection.h"

#include "core/stream/utilization_stream.h"
#include "io/stream/stream_poller.h"
#include "io/sts_reader.h"
#include "views/live/live_view.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <vector>

namespace parallax::app {

struct LiveWindow::PollState {
    std::mutex mutex;
    std::condition_variable wake;
    bool stop = false; // guarded by mutex
    std::shared_ptr<WorkerChannel<int>> channel;
};

namespace {

QLineEdit* fileField(QWidget* parent, QBoxLayout*& row, const QString& caption, bool save)
{
    auto* edit = new QLineEdit(parent);
    auto* browse = new QPushButton(QObject::tr("Browse…"), parent);
    row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, parent, [parent, edit, caption, save] {
        const auto path = save ? QFileDialog::getSaveFileName(parent, caption, edit->text())
                               : QFileDialog::getOpenFileName(parent, caption, edit->text(),
                                   QObject::tr("Symbol tables (*.sts);;All files (*)"));
        if (!path.isEmpty())
            edit->setText(path);
    });
    return edit;
}

} // namespace

LiveConnectDialog::LiveConnectDialog(QWidget* parent)
    : QDialog(parent)
    , m_host(new QLineEdit(QStringLiteral("localhost"), this))
    , m_port(new QSpinBox(this))
    , m_record(new QCheckBox(tr("Record to file:"), this))
{
    setWindowTitle(tr("Connect to Running Program"));
    m_port->setRange(1, 65535);
    m_port->setValue(1234);
    auto* form = new QFormLayout;
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("CCS port (++server-port):"), m_port);
    QBoxLayout* stsRow = nullptr;
    m_sts = fileField(this, stsRow, tr("Symbol Table"), false);
    m_sts->setPlaceholderText(tr("optional: the program's .util.sts, for entry names"));
    form->addRow(tr("Names from:"), stsRow);
    QBoxLayout* recordRow = nullptr;
    m_recordPath = fileField(this, recordRow, tr("Record To"), true);
    m_recordPath->setEnabled(false);
    connect(m_record, &QCheckBox::toggled, m_recordPath, &QLineEdit::setEnabled);
    form->addRow(m_record, recordRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

LiveConnectSettings LiveConnectDialog::settings() const
{
    LiveConnectSettings s;
    s.host = m_host->text().trimmed();
    s.port = m_port->value();
    s.stsPath = m_sts->text().trimmed();
    if (m_record->isChecked())
        s.recordPath = m_recordPath->text().trimmed();
    return s;
}

LiveWindow::LiveWindow(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_view(new views::LiveUtilizationView(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Live Utilization"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    resize(1000, 700);
}

LiveWindow::~LiveWindow()
{
    stopPolling();
}

void LiveWindow::stopPolling()
{
    if (!m_poll)
        return;
    m_poll->channel->detach();
    {
        std::lock_guard lock(m_poll->mutex);
        m_poll->stop = true;
    }
    m_poll->wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    m_poll.reset();
}

bool LiveWindow::loadNames(const QString& stsPath, QString& error)
{
    if (stsPath.isEmpty())
        return true;
    core::ImportReport report;
    const auto sts = io::readSts(stsPath.toStdString(), report);
    if (!sts.ok) {
        error = QString::fromStdString(sts.error);
        return false;
    }
    m_view->setEntryNames(core::stream::streamEntryNames(sts.metadata));
    return true;
}

void LiveWindow::connectTo(const LiveConnectSettings& settings)
{
    stopPolling();
    QString namesError;
    if (!loadNames(settings.stsPath, namesError))
        m_view->setLastError(namesError);
    const auto source = QStringLiteral("%1:%2").arg(settings.host).arg(settings.port);
    setWindowTitle(tr("Live Utilization — %1").arg(source));
    m_view->setReplay(false);
    m_view->setConnectionStatus(source, tr("connecting"), 0, {});

    m_poll = std::make_shared<PollState>();
    m_poll->channel = std::make_shared<WorkerChannel<int>>(this, [] {});
    io::stream::StreamPollerOptions options;
    options.pollMs = settings.pollMs;
    options.client.connectTimeoutMs = settings.timeoutMs;
    options.client.replyTimeoutMs = settings.timeoutMs;
    options.recordPath = settings.recordPath.toStdString();
    const io::stream::CcsEndpoint endpoint { settings.host.toStdString(),
        static_cast<std::uint16_t>(settings.port) };
    auto* view = m_view;
    const auto recordingTo = settings.recordPath;
    m_thread = std::thread([state = m_poll, endpoint, options, view, source, recordingTo] {
        const auto& channel = *state->channel;
        auto status = [&](const QString& text, std::size_t behind, bool recording) {
            const auto to = recording ? recordingTo : QString();
            state->channel->post([view, source, text, behind, to] {
                view->setConnectionStatus(source, text, behind, to);
            });
        };
        auto report = [&](const std::string& message) {
            state->channel->post(
                [view, text = QString::fromStdString(message)] { view->setLastError(text); });
        };
        // Waits `ms` or until stopped; true when stopped.
        auto pause = [&](int ms) {
            std::unique_lock lock(state->mutex);
            return state->wake.wait_for(
                lock, std::chrono::milliseconds(ms), [&] { return state->stop; });
        };
        io::stream::StreamPoller poller(endpoint, options);
        std::string error;
        if (!poller.connect(error)) {
            status(QObject::tr("not connected"), 0, false);
            report(error);
            return;
        }
        status(QObject::tr("polling (%1 PEs)").arg(poller.machine().pes()), 0, poller.recording());
        while (!channel.cancelRequested()) {
            auto polled = poller.poll();
            if (!polled.error.empty())
                report(polled.error);
            if (polled.status == io::stream::CcsStatus::Refused && poller.chunksReceived() > 0) {
                status(QObject::tr("the program has ended"), 0, false);
                break;
            }
            if (polled.status == io::stream::CcsStatus::Reply && !polled.empty) {
                state->channel->post(
                    [view, payload = std::move(polled.payload)] { view->appendPayload(payload); });
                status(QObject::tr("polling"), poller.behindChunks(), poller.recording());
                continue; // more may be queued
            }
            if (pause(options.pollMs))
                break;
        }
        if (!poller.finish(error))
            report(error);
        status(QObject::tr("stopped"), 0, false);
    });
}

bool LiveWindow::openRecording(const QString& path, const QString& stsPath, QString& error)
{
    stopPolling();
    auto recording = io::stream::readStreamRecording(path.toStdString());
    if (!recording.ok) {
        error = QString::fromStdString(recording.error);
        return false;
    }
    if (!loadNames(stsPath, error))
        return false;
    setWindowTitle(tr("Live Utilization — %1").arg(path));
    m_view->setReplay(true);
    std::vector<std::vector<std::uint8_t>> payloads;
    for (auto& reply : recording.replies)
        payloads.push_back(std::move(reply.payload));
    m_view->appendPayloads(payloads);
    m_view->setConnectionStatus(
        tr("%1 (recorded from %2)").arg(path, QString::fromStdString(recording.source)),
        tr("replay"), 0, {});
    if (!recording.cut.empty())
        m_view->setLastError(QString::fromStdString(recording.cut));
    return true;
}

void addLiveStreamMenu(QMenu* file, QWidget* window)
{
    auto* connectAction = file->addAction(QObject::tr("Connect to Running &Program…"));
    connectAction->setStatusTip(QObject::tr(
        "Watch a Charm++ program's utilization live over CCS (-tracemode utilization)"));
    QObject::connect(connectAction, &QAction::triggered, window, [window] {
        LiveConnectDialog dialog(window);
        if (dialog.exec() != QDialog::Accepted)
            return;
        auto* live = new LiveWindow(window);
        live->connectTo(dialog.settings());
        live->show();
    });
    auto* openAction = file->addAction(QObject::tr("Open Recordin&g…"));
    openAction->setStatusTip(QObject::tr("Replay a recorded utilization stream"));
    QObject::connect(openAction, &QAction::triggered, window, [window] {
        const auto path = QFileDialog::getOpenFileName(window, QObject::tr("Open Recording"), {},
            QObject::tr("Utilization recordings (*.plxstream);;All files (*)"));
        if (path.isEmpty())
            return;
        auto* live = new LiveWindow(window);
        QString error;
        if (!live->openRecording(path, {}, error)) {
            delete live;
            QMessageBox::warning(window, QObject::tr("Open Recording"), error);
            return;
        }
        live->show();
    });
}

} // namespace parallax::app
