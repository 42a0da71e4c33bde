#pragma once

#include "worker_channel.h"

#include <QDialog>
#include <QString>
#include <QWidget>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

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

// A window with the Live Utilization view, fed by a polling thread (live) or by a recording.
// The polling thread owns the sockets and the recording; it hands payloads and status to the
// view through a WorkerChannel, so the GUI thread never waits on the network. Closing the window
// stops polling (at most one request's timeout later) and completes the recording.
class LiveWindow : public QWidget {
    Q_OBJECT
public:
    explicit LiveWindow(QWidget* parent = nullptr);
    ~LiveWindow() override;

    // Starts polling; problems (unreachable host, refused port, …) show in the view's status.
    void connectTo(const LiveConnectSettings& settings);
    // Loads a recording for replay; false with `error` when it cannot be read.
    bool openRecording(const QString& path, const QString& stsPath, QString& error);

    [[nodiscard]] views::LiveUtilizationView* view() const { return m_view; }

private:
    struct PollState;
    void stopPolling();
    bool loadNames(const QString& stsPath, QString& error);

    views::LiveUtilizationView* m_view = nullptr;
    std::shared_ptr<PollState> m_poll;
    std::thread m_thread;
};

// File → Connect to Running Program… and File → Open Recording….
void addLiveStreamMenu(QMenu* file, QWidget* window);

} // namespace parallax::app
