#pragma once

#include "worker_channel.h"

#include <QDialog>
#include <QString>
#include <QWidget>

#include <memory>

class QCheckBox;
class QLineEdit;
class QMenu;
class QSpinBox;

namespace parallax::views {
class LiveUtilizationView;
}

namespace parallax::app {

// What File → Connect to Running Program… asks (docs/streaming.md).
struct LiveConnectSettings {
    QString host = QStringLiteral("localhost");
    int port = 1234;
    QString stsPath; // the program's .sts / .util.sts for entry names; empty: "Entry N"
    QString recordPath; // empty: no recording
    int pollMs = 900;
    int timeoutMs = 3000;
};

class LiveConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit LiveConnectDialog(QWidget* parent = nullptr);
    [[nodiscard]] LiveConnectSettings settings() const;

private:
    QLineEdit* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_sts = nullptr;
    QCheckBox* m_record = nullptr;
    QLineEdit* m_recordPath = nullptr;
};

// The polling threads of all live windows, seen from the GUI thread (docs/streaming.md). A
// thread outlives its window: closing the window only asks it to stop (the request in flight
// is abandoned), and the thread completes the recording on its own, then says so here.
class LivePolling : public QObject {
    Q_OBJECT
public:
    static LivePolling& instance(); // created on the GUI thread on first use

    // Asks every polling thread to stop and waits up to `ms` for them to complete their
    // recordings (application quit). True when none is left running.
    bool stopAllAndWait(int ms);
    [[nodiscard]] int running() const;

signals:
    // A polling thread ended: "Recording saved to …", "Live connection to … closed".
    void finished(const QString& message);

private:
    LivePolling() = default;
};

// A window with the Live Utilization view, fed by a polling thread (live) or by a recording.
// The polling thread owns the sockets and the recording; it hands payloads and status to the
// view through a WorkerChannel, so the GUI thread never waits on the network. Closing the window
// never waits either: the thread is told to stop and finishes the recording by itself
// (LivePolling::finished).
class LiveWindow : public QWidget {
    Q_OBJECT
public:
    explicit LiveWindow(QWidget* parent = nullptr);
    ~LiveWindow() override;

    // Starts polling; problems (unreachable host, refused port, …) show in the view's status.
    void connectTo(const LiveConnectSettings& settings);
    // Reads a recording for replay on a worker ("Reading…" meanwhile); what cannot be read
    // (a missing file, a cut recording, a bad .sts) is told in the view, with what was read.
    void openRecording(const QString& path, const QString& stsPath = {});

    [[nodiscard]] views::LiveUtilizationView* view() const { return m_view; }

signals:
    // openRecording() is done: `ok` false when nothing could be read.
    void recordingRead(bool ok);

private:
    struct PollState;
    struct ReadRecording;
    void stopPolling();
    bool loadNames(const QString& stsPath, QString& error);
    void recordingDone(const QString& path, ReadRecording& read);

    views::LiveUtilizationView* m_view = nullptr;
    std::shared_ptr<PollState> m_poll;
    std::shared_ptr<WorkerChannel<int>> m_reading; // the recording being read, if any
};

// File → Connect to Running Program… and File → Open Recording….
void addLiveStreamMenu(QMenu* file, QWidget* window);

} // namespace parallax::app
