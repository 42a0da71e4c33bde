#pragma once

#include "io/session_file.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <optional>

class QAction;

namespace parallax::app {

class BookmarksDock;
class MainWindow;
enum class LoadOutcome;

// Session files for the main window (the format: io/session_file.h, docs/sessions.md). Saving
// records the run (path and fingerprint), the open views in tab order with their state
// (views::AnalysisView::saveState), the current tab, the run's entry colours and the bookmarks.
// Opening one opens its run and, once it is loaded, restores the rest. A run that moved with
// its session is found beside it; a missing run is asked for ("Locate the Run…"; without it
// the colours and bookmarks are kept); a changed run opens with a message saying what changed,
// and every view gets back what still applies.
class SessionController : public QObject {
    Q_OBJECT
public:
    SessionController(MainWindow* window, BookmarksDock* bookmarks);

    // File → Open Session…, Save Session (Ctrl+S), Save Session As… (Ctrl+Shift+S).
    [[nodiscard]] QAction* openAction() const { return m_openAction; }
    [[nodiscard]] QAction* saveAction() const { return m_saveAction; }
    [[nodiscard]] QAction* saveAsAction() const { return m_saveAsAction; }

    // The session of what the window shows now.
    [[nodiscard]] io::Session capture() const;
    // Writes capture() to `path` atomically; false with *error (one sentence).
    bool saveTo(const QString& path, QString* error);
    // Reads `path` and opens its run; the rest follows when the run is loaded. A file that is
    // not a session, damaged or of a newer version gets an error box and changes nothing.
    void open(const QString& path);
    // For a session whose run is missing: opens `runPath` instead and restores the session there.
    void locateRun(const QString& runPath);

    // Whether a session is being opened (its run is loading or being asked for).
    [[nodiscard]] bool opening() const { return m_pending.has_value(); }
    // The session file last saved or opened (empty: none).
    [[nodiscard]] const QString& path() const { return m_path; }
    // The message of the last open or restore (an error, a missing or changed run), while it is
    // shown; null otherwise.
    [[nodiscard]] QMessageBox* messageBox() const { return m_message; }

signals:
    // After a session was applied to a loaded run (or, its run missing, what applies without).
    void restored();

private:
    bool save();
    bool saveAs();
    void chooseAndOpen();
    void runLoaded(LoadOutcome outcome);
    void askForMissingRun();
    // Applies the pending session to the run now open; `notes` collects what did not apply.
    void apply(const io::Session& session, QStringList& notes);
    // Colours and bookmarks: what applies without the run.
    void applyWithoutRun(const io::Session& session);
    // A window-modal, asynchronous message box (replacing the previous one), not yet shown.
    QMessageBox* makeMessage(
        QMessageBox::Icon icon, const QString& title, const QString& text, const QString& details);
    void showMessage(
        QMessageBox::Icon icon, const QString& title, const QString& text, const QString& details);
    void updateActions();

    MainWindow* m_window;
    BookmarksDock* m_bookmarks;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QString m_path;
    // The session being opened, until its run has loaded.
    std::optional<io::Session> m_pending;
    QString m_pendingPath;
    QString m_pendingNote; // e.g. where a moved run was found
    QPointer<QMessageBox> m_message;
};

} // namespace parallax::app
