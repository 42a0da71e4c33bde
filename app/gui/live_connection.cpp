#include "live_connection.h"

#include "core/stream/utilization_stream.h"
#include "io/stream/socket_io.h"
#include "io/stream/stream_poller.h"
#include "io/sts_reader.h"
#include "views/common/async_computation.h"
#include "views/live/live_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace parallax::app {

struct LiveWindow::PollState {
    // Raised by the window (closed, reconnected) or at quit: the thread abandons its request.
    std::shared_ptr<io::stream::CancelSignal> cancel = std::make_shared<io::stream::CancelSignal>();
    std::shared_ptr<WorkerChannel<int>> channel;
};

namespace {

// The stream's entry names from a .sts (none for an empty path); false with `error`.
bool readEntryNames(const QString& stsPath, std::vector<std::string>& names, QString& error)
{
    if (stsPath.isEmpty())
        return true;
    core::ImportReport report;
    const auto sts = io::readSts(stsPath.toStdString(), report);
    if (!sts.ok) {
        error = QString::fromStdString(sts.error);
        return false;
    }
    names = core::stream::streamEntryNames(sts.metadata);
    return true;
}

// A live window keeps the 1-ms bins of the last 30 minutes (the 100-ms bars of all): a day of
// a large program takes some 200 MB instead of about 1.4 GB (docs/streaming.md).
constexpr std::size_t kLiveDetailSeconds = 30 * 60;

// How long quitting waits for the polling threads to complete their recordings: they were told
// to stop, so only a rename (or a stuck disk) is left.
constexpr int kQuitWaitMs = 5000;

// The running polling threads (any thread may touch this; LivePolling is its GUI face).
struct PollingThreads {
    std::mutex mutex;
    std::condition_variable ended;
    std::vector<std::shared_ptr<io::stream::CancelSignal>> running; // guarded by mutex
    bool quitting = false; // guarded by mutex: LivePolling gets no more posts
};

PollingThreads& pollingThreads()
{
    // Never destroyed: a thread still running at exit (past the quit wait) may touch it.
    static auto* threads = new PollingThreads;
    return *threads;
}

// On the GUI thread, before the thread starts (LivePolling then lives on the GUI thread).
void pollingStarted(const std::shared_ptr<io::stream::CancelSignal>& cancel)
{
    static_cast<void>(LivePolling::instance());
    auto& threads = pollingThreads();
    std::lock_guard lock(threads.mutex);
    threads.running.push_back(cancel);
}

// The last thing a polling thread does.
void pollingEnded(const std::shared_ptr<io::stream::CancelSignal>& cancel, const QString& message)
{
    auto& threads = pollingThreads();
    {
        std::lock_guard lock(threads.mutex);
        std::erase(threads.running, cancel);
        if (!threads.quitting) {
            auto* polling = &LivePolling::instance();
            QMetaObject::invokeMethod(
                polling, [polling, message] { emit polling->finished(message); },
                Qt::QueuedConnection);
        }
    }
    threads.ended.notify_all();
}

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

LivePolling& LivePolling::instance()
{
    // Never destroyed: a thread still finishing at exit may look it up (it posts nothing then).
    static auto* polling = [] {
        // However the application ends (quit, a test's end), no polling thread outlives it
        // unbounded, nor posts to it once it is gone.
        qAddPostRoutine([] { LivePolling::instance().stopAllAndWait(kQuitWaitMs); });
        return new LivePolling;
    }();
    return *polling;
}

bool LivePolling::stopAllAndWait(int ms)
{
    auto& threads = pollingThreads();
    std::unique_lock lock(threads.mutex);
    for (const auto& cancel : threads.running)
        cancel->raise();
    const bool done = threads.ended.wait_for(
        lock, std::chrono::milliseconds(ms), [&] { return threads.running.empty(); });
    threads.quitting = true;
    return done;
}

int LivePolling::running() const
{
    auto& threads = pollingThreads();
    std::lock_guard lock(threads.mutex);
    return static_cast<int>(threads.running.size());
}

LiveWindow::~LiveWindow()
{
    if (m_reading)
        m_reading->detach();
    stopPolling();
}

void LiveWindow::stopPolling()
{
    if (!m_poll)
        return;
    // No join: the thread abandons its request, completes the recording and reports to
    // LivePolling by itself; nothing it posts reaches this window any more.
    m_poll->channel->detach();
    m_poll->cancel->raise();
    m_poll.reset();
}

bool LiveWindow::loadNames(const QString& stsPath, QString& error)
{
    std::vector<std::string> names;
    if (!readEntryNames(stsPath, names, error))
        return false;
    if (!names.empty())
        m_view->setEntryNames(std::move(names));
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
    m_view->setDetailSeconds(kLiveDetailSeconds);
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
    options.client.cancelFd = m_poll->cancel->fd();
    pollingStarted(m_poll->cancel);
    std::thread([state = m_poll, endpoint, options, view, source, recordingTo] {
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
        const int cancelFd = state->cancel->fd();
        io::stream::StreamPoller poller(endpoint, options);
        std::string error;
        if (!poller.connect(error)) {
            status(QObject::tr("not connected"), 0, false);
            report(error);
            pollingEnded(state->cancel, QObject::tr("Live connection to %1 failed").arg(source));
            return;
        }
        status(QObject::tr("polling (%1 PEs)").arg(poller.machine().pes()), 0, poller.recording());
        while (!channel.cancelRequested()) {
            auto polled = poller.poll();
            if (polled.status == io::stream::CcsStatus::Cancelled)
                break;
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
            if (io::stream::waitCancelled(cancelFd, options.pollMs))
                break;
        }
        const bool recorded = poller.recording();
        const auto chunks = poller.chunksReceived();
        QString message = QObject::tr(
            "Live connection to %1 closed (%n chunk(s))", nullptr, static_cast<int>(chunks))
                              .arg(source);
        if (!poller.finish(error)) {
            report(error);
            message = QObject::tr("Recording to %1 not completed: %2")
                          .arg(recordingTo, QString::fromStdString(error));
        } else if (recorded) {
            message = QObject::tr(
                "Recording saved to %1 (%n chunk(s))", nullptr, static_cast<int>(chunks))
                          .arg(recordingTo);
        }
        status(QObject::tr("stopped"), 0, false);
        pollingEnded(state->cancel, message);
    }).detach();
}

struct LiveWindow::ReadRecording {
    io::stream::StreamRecording recording; // its replies are decoded into `stream`
    core::stream::UtilizationStream stream;
    std::size_t refused = 0;
    QString refusal; // the last refused payload's problem
    std::vector<std::string> names;
    QString namesError;
};

void LiveWindow::openRecording(const QString& path, const QString& stsPath)
{
    stopPolling();
    if (m_reading)
        m_reading->detach();
    setWindowTitle(tr("Live Utilization — %1").arg(path));
    m_view->setReplay(true);
    m_view->setConnectionStatus(path, tr("reading…"), 0, {});
    m_view->setWaitingText(tr("Reading %1…").arg(path));
    auto channel = std::make_shared<WorkerChannel<int>>(this, [] {});
    m_reading = channel;
    QThreadPool::globalInstance()->start([channel, path, stsPath, this] {
        views::runBelowGuiPriority();
        auto read = std::make_shared<ReadRecording>();
        read->recording = io::stream::readStreamRecording(path.toStdString());
        for (const auto& reply : read->recording.replies) {
            if (channel->cancelRequested())
                return;
            const auto outcome = read->stream.appendPayload(reply.payload);
            if (outcome.kind == core::stream::PayloadKind::Corrupt) {
                ++read->refused;
                read->refusal = QString::fromStdString(outcome.error);
            }
        }
        read->recording.replies.clear(); // decoded: the payloads are not kept twice
        readEntryNames(stsPath, read->names, read->namesError);
        // Runs on the GUI thread, and only while the window is alive (WorkerChannel).
        channel->post([this, path, read] { recordingDone(path, *read); });
    });
}

void LiveWindow::recordingDone(const QString& path, ReadRecording& read)
{
    m_reading.reset();
    const auto& recording = read.recording;
    if (!recording.ok) {
        m_view->setConnectionStatus(path, tr("not read"), 0, {});
        m_view->setWaitingText(tr("Could not read the recording"));
        m_view->setLastError(QString::fromStdString(recording.error));
        emit recordingRead(false);
        return;
    }
    if (!read.names.empty())
        m_view->setEntryNames(std::move(read.names));
    m_view->setStream(std::move(read.stream), read.refused, read.refusal);
    m_view->setWaitingText(tr("The recording holds no chunk"));
    m_view->setConnectionStatus(
        tr("%1 (recorded from %2)").arg(path, QString::fromStdString(recording.source)),
        tr("replay"), 0, {});
    if (!read.namesError.isEmpty())
        m_view->setLastError(read.namesError);
    if (!recording.cut.empty())
        m_view->setLastError(QString::fromStdString(recording.cut));
    emit recordingRead(true);
}

void addLiveStreamMenu(QMenu* file, QWidget* window)
{
    auto& polling = LivePolling::instance();
    static bool quitHooked = false;
    if (!quitHooked && QCoreApplication::instance() != nullptr) {
        quitHooked = true;
        // Quitting completes the recordings, waiting a bounded time for them.
        QObject::connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, &polling,
            [] { LivePolling::instance().stopAllAndWait(kQuitWaitMs); });
    }
    if (auto* main = qobject_cast<QMainWindow*>(window))
        QObject::connect(&polling, &LivePolling::finished, main,
            [main](const QString& message) { main->statusBar()->showMessage(message, 15'000); });
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
        live->openRecording(path);
        live->show();
    });
}

} // namespace parallax::app
