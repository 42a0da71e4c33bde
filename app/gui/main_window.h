#pragma once

#include "core/trace.h"
#include "recent_runs.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QMimeData;
class QProgressBar;
class QStackedWidget;
class QToolButton;

namespace parallax::views {
class EntryPalette;
class ImportReportWidget;
class RunSummaryWidget;
} // namespace parallax::views

namespace parallax::app {

class BookmarksDock;
class DataExportJob;
class EmptyStateWidget;
class RunLoadJob;
class SessionController;
class ViewNavigation;
class ViewWorkspace;

// How a load ended, as reported by MainWindow::loadFinished.
enum class LoadOutcome { Loaded, Failed, Cancelled };

// The application window: File (Open Run…, Open Run Directory…, Open Recent, Close Run, Quit),
// View (Import Report, Full Screen) and Help menus; a run summary page, or an empty-state page
// when no run is open; the import report in a dock; loading with progress and Cancel in the
// status bar. One load at a time: opening another run cancels and replaces the pending one, and
// a load that fails or is cancelled leaves the open run as it was.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // persistSettings = false (screenshots, tests) neither reads nor writes QSettings.
    explicit MainWindow(bool persistSettings = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] const core::TracePtr& trace() const { return m_trace; }
    [[nodiscard]] bool isLoading() const { return m_job != nullptr; }
    [[nodiscard]] const RecentRuns& recentRuns() const { return m_recent; }
    // The error box of the last failed load while it is open, else null.
    [[nodiscard]] QMessageBox* errorBox() const { return m_errorBox; }
    [[nodiscard]] views::RunSummaryWidget* runSummary() const { return m_summary; }
    [[nodiscard]] QDockWidget* importReportDock() const { return m_reportDock; }
    // The summary and the analysis views, as tabs.
    [[nodiscard]] ViewWorkspace* workspace() const { return m_workspace; }
    [[nodiscard]] views::EntryPalette* palette() const { return m_palette; }
    // The path the open run was opened by (a directory or .sts; empty without a run).
    [[nodiscard]] const QString& runPath() const { return m_runPath; }
    [[nodiscard]] SessionController* sessions() const { return m_sessions; }
    [[nodiscard]] BookmarksDock* bookmarks() const { return m_bookmarksDock; }
    [[nodiscard]] ViewNavigation* navigation() const { return m_navigation; }

    // Whether a path dropped on the window can be opened: a run (a directory or a .sts file)
    // or a session (.parallax).
    [[nodiscard]] static bool isRunPath(const QString& path);

public slots:
    // Starts loading `path` (a run directory, NAME.sts or NAME.sum.sts) in the background; a
    // session file (.parallax) opens as a session (SessionController::open).
    void openRun(const QString& path);
    // View → Add Bookmark: the Timeline's selected execution, or its reference mark.
    void addBookmark();
    // The same through the index in `indexDirectory` only (parallax RUN --index DIR).
    void openRunWithIndex(const QString& path, const QString& indexDirectory);
    void closeRun();
    void cancelLoad();
    void showImportReport();
    // View → Memory Budget…: the size over which runs open from their summaries.
    void editMemoryBudget();
    // Exports the current view's chart as PNG / its data as CSV (asks for a file).
    void exportChart();
    void exportData();
    // Export Data without asking: the current view's CSV into `path`, atomically, big views on a
    // worker (DataExportJob; the status bar or an error box reports the end). Null without a
    // view; otherwise the job, whose finished() signal tells when the file is in place.
    DataExportJob* exportDataTo(const QString& path);
    // File → Write Reduced Run…: the ReduceDialog over the open run (non-modal to the app's
    // event loop; one at a time).
    void writeReducedRun();
    // View → PE Lists…: the editor of named PE lists (non-modal; one at a time). Lists saved
    // with "Save and Group by Them" group the Overview (opened if needed) and an open Usage
    // Profile.
    void editPeLists();

    // File → Compare With…: loads `path` in the background and shows it next to the open run
    // in the Compare view (a failed load says why and changes nothing).
    void compareWith(const QString& path);

signals:
    // After the window has been updated for the end of a load.
    void loadFinished(parallax::app::LoadOutcome outcome);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createStatusBar();
    void chooseRunFile();
    void chooseRunDirectory();
    void rebuildRecentMenu();
    void recentRunsChanged();
    void updateActions();
    [[nodiscard]] QString dialogStartDirectory() const;
    [[nodiscard]] static QString runPathFromMime(const QMimeData* mime);

    void onLoadProgress(const QString& stage, quint64 bytesDone, quint64 bytesTotal);
    void onLoaded(core::TracePtr trace, double seconds);
    void onLoadFailed(const QString& error);
    void onLoadCancelled();
    // Detaches the pending job (its results are dropped) and resets the progress display.
    void discardJob();
    void showTrace(core::TracePtr trace);
    void saveEntryColors() const;
    // Opens the views that were open when the window last closed (persistent windows only).
    void restoreViewLayout();

    bool m_persist = true;
    RecentRuns m_recent;
    core::TracePtr m_trace;
    RunLoadJob* m_job = nullptr;
    QString m_jobName; // short name of the run being loaded, for messages

    QStackedWidget* m_pages = nullptr;
    EmptyStateWidget* m_emptyState = nullptr;
    views::RunSummaryWidget* m_summary = nullptr;
    views::EntryPalette* m_palette = nullptr;
    ViewWorkspace* m_workspace = nullptr;
    std::vector<QAction*> m_viewActions;
    QAction* m_exportChartAction = nullptr;
    QAction* m_exportDataAction = nullptr;
    QAction* m_reduceAction = nullptr;
    QAction* m_compareAction = nullptr;
    QPointer<RunLoadJob> m_compareJob;
    QDockWidget* m_reportDock = nullptr;
    views::ImportReportWidget* m_report = nullptr;
    BookmarksDock* m_bookmarksDock = nullptr;
    SessionController* m_sessions = nullptr;
    ViewNavigation* m_navigation = nullptr;
    QAction* m_addBookmarkAction = nullptr;
    QString m_runPath;
    QPointer<QMessageBox> m_errorBox;

    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QToolButton* m_cancelButton = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_openDirectoryAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_reportAction = nullptr;
    QAction* m_fullScreenAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    bool m_wasMaximized = false;
};

} // namespace parallax::app
