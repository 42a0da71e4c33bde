#include "main_window.h"

#include "bookmarks_dock.h"
#include "data_export_job.h"
#include "empty_state_widget.h"
#include "export_dialog.h"
#include "export_run_dialog.h"
#include "io/pe_log_listing.h"
#include "live_connection.h"
#include "memory_budget.h"
#include "pe_lists_dialog.h"
#include "reduce_dialog.h"
#include "run_load_job.h"
#include "session_controller.h"
#include "view_navigation.h"
#include "view_workspace.h"
#include "views/common/apng_writer.h"
#include "views/common/entry_palette.h"
#include "views/common/view_factory.h"
#include "views/compare/compare_view.h"
#include "views/import_report/import_report_widget.h"
#include "views/log_view/log_view.h"
#include "views/summary/run_summary_widget.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace parallax::app {

namespace {

constexpr int kStatusMessageMs = 8000;
constexpr int kProgressSteps = 1000;
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// The views open when the window closed (keys in tab order) and the current one; the next run
// opened (not a session) opens them again.
const QString kViewsKey = QStringLiteral("window/views");
const QString kCurrentViewKey = QStringLiteral("window/currentView");

// Short name of a run path for messages: the directory or file name.
QString runName(const QString& path)
{
    return QFileInfo(QDir::cleanPath(path)).fileName();
}

QString elideMiddle(const QString& text, qsizetype maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const qsizetype keep = (maxChars - 1) / 2;
    return text.left(keep) + QStringLiteral("…") + text.right(maxChars - 1 - keep);
}

} // namespace

MainWindow::MainWindow(bool persistSettings, QWidget* parent)
    : QMainWindow(parent)
    , m_persist(persistSettings)
    , m_recent(persistSettings)
{
    setWindowTitle(QStringLiteral("Parallax"));
    setAcceptDrops(true);
    // Log Files reads its PE's log through io, which the views cannot reach themselves.
    views::LogView::setDefaultReader(&io::readLogListing);

    m_pages = new QStackedWidget(this);
    m_emptyState = new EmptyStateWidget(m_pages);
    m_summary = new views::RunSummaryWidget;
    auto* scroll = new QScrollArea(m_pages);
    scroll->setWidget(m_summary);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_palette = new views::EntryPalette(this);
    if (m_persist) {
        QSettings settings;
        QHash<QString, QColor> colors;
        settings.beginGroup(QStringLiteral("entryColors"));
        for (const auto& key : settings.childKeys())
            colors.insert(QByteArray::fromPercentEncoding(key.toUtf8()),
                QColor(settings.value(key).toString()));
        settings.endGroup();
        m_palette->setOverrides(colors);
        connect(m_palette, &views::EntryPalette::changed, this, &MainWindow::saveEntryColors);
    }
    m_workspace = new ViewWorkspace(scroll, m_palette, m_pages);
    m_pages->addWidget(m_emptyState);
    m_pages->addWidget(m_workspace);
    setCentralWidget(m_pages);

    m_report = new views::ImportReportWidget;
    m_reportDock = new QDockWidget(tr("Import Report"), this);
    m_reportDock->setObjectName(QStringLiteral("importReportDock"));
    m_reportDock->setWidget(m_report);
    m_reportDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_reportDock);
    m_reportDock->hide();
    m_bookmarksDock = new BookmarksDock(this);
    m_bookmarksDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    addDockWidget(Qt::RightDockWidgetArea, m_bookmarksDock);
    m_bookmarksDock->hide();
    connect(m_bookmarksDock, &BookmarksDock::addRequested, this, &MainWindow::addBookmark);
    connect(m_bookmarksDock, &BookmarksDock::goToRequested, this, [this](io::Bookmark bookmark) {
        if (auto* timeline
            = qobject_cast<views::TimelineView*>(m_workspace->openView(views::ViewKind::Timeline)))
            BookmarksDock::showIn(*timeline, bookmark);
    });
    m_sessions = new SessionController(this, m_bookmarksDock);
    m_navigation = new ViewNavigation(this);

    createActions();
    createMenus();
    createStatusBar();
    connect(m_workspace, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_workspace, &ViewWorkspace::exportChartRequested, this, &MainWindow::exportChart);
    connect(m_workspace, &ViewWorkspace::exportDataRequested, this, &MainWindow::exportData);
    connect(m_workspace, &ViewWorkspace::viewUnavailable, this, [this](views::ViewKind kind) {
        statusBar()->showMessage(
            tr("The %1 view is not available in this version yet").arg(views::viewTitle(kind)),
            kStatusMessageMs);
    });

    connect(m_emptyState, &EmptyStateWidget::openFileRequested, this, &MainWindow::chooseRunFile);
    connect(m_emptyState, &EmptyStateWidget::openDirectoryRequested, this,
        &MainWindow::chooseRunDirectory);
    connect(m_emptyState, &EmptyStateWidget::openRecentRequested, this, &MainWindow::openRun);
    connect(m_summary, &views::RunSummaryWidget::importReportRequested, this,
        &MainWindow::showImportReport);

    resize(1200, 800);
    if (m_persist) {
        const QSettings settings;
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
        restoreState(settings.value(kStateKey).toByteArray());
        m_reportDock->hide(); // shown again by a load that has something to report
    }
    recentRunsChanged();
    showTrace(nullptr);
}

MainWindow::~MainWindow()
{
    discardJob();
}

void MainWindow::createActions()
{
    m_openAction
        = new QAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Run…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a run's NAME.sts or NAME.sum.sts file"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::chooseRunFile);

    m_openDirectoryAction = new QAction(tr("Open Run &Directory…"), this);
    m_openDirectoryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openDirectoryAction->setStatusTip(tr("Open the directory that holds a run's files"));
    connect(m_openDirectoryAction, &QAction::triggered, this, &MainWindow::chooseRunDirectory);

    m_closeAction = new QAction(tr("&Close Run"), this);
    m_closeAction->setShortcuts(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeRun);

    m_cancelAction = new QAction(tr("Cancel &Loading"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelLoad);

    m_quitAction = new QAction(tr("&Quit"), this);
    // Not every platform binds Quit; Ctrl+Q where it has none.
    auto quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    if (quitKeys.isEmpty())
        quitKeys = { QKeySequence(Qt::CTRL | Qt::Key_Q) };
    m_quitAction->setShortcuts(quitKeys);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &MainWindow::close);

    m_reportAction = m_reportDock->toggleViewAction();
    m_reportAction->setText(tr("&Import Report"));
    m_reportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));

    m_addBookmarkAction = new QAction(tr("Add &Bookmark"), this);
    m_addBookmarkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_addBookmarkAction->setStatusTip(
        tr("Bookmark the Timeline's selected execution, or its reference mark, with a note"));
    connect(m_addBookmarkAction, &QAction::triggered, this, &MainWindow::addBookmark);

    m_fullScreenAction = new QAction(tr("&Full Screen"), this);
    m_fullScreenAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_fullScreenAction->setCheckable(true);
    connect(m_fullScreenAction, &QAction::toggled, this, [this](bool on) {
        if (on == isFullScreen())
            return;
        if (on) {
            m_wasMaximized = isMaximized();
            showFullScreen();
        } else if (m_wasMaximized) {
            showMaximized();
        } else {
            showNormal();
        }
    });

    int number = 1;
    for (const auto kind : views::kAllViewKinds) {
        auto* action = new QAction(views::viewTitle(kind), this);
        if (number <= 9) // Ctrl+1..9; the views after the ninth have none
            action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + number)));
        ++number;
        connect(action, &QAction::triggered, this, [this, kind]() { m_workspace->openView(kind); });
        m_viewActions.push_back(action);
    }

    m_exportChartAction = new QAction(tr("&Export Chart as PNG…"), this);
    m_exportChartAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_exportChartAction, &QAction::triggered, this, &MainWindow::exportChart);
    m_exportDataAction = new QAction(tr("Export &Data as CSV…"), this);
    m_exportDataAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(m_exportDataAction, &QAction::triggered, this, &MainWindow::exportData);
    m_reduceAction = new QAction(tr("Write &Reduced Run…"), this);
    m_reduceAction->setStatusTip(
        tr("Write a run with the summaries of all PEs and the logs of a few representative ones"));
    connect(m_reduceAction, &QAction::triggered, this, &MainWindow::writeReducedRun);

    m_compareAction = new QAction(tr("Compare &With…"), this);
    m_compareAction->setStatusTip(
        tr("Open another run (or another build's run) and compare it with this one"));
    connect(m_compareAction, &QAction::triggered, this, [this]() {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare With"),
            dialogStartDirectory(), tr("Projections symbol tables (*.sts);;All files (*)"));
        if (!path.isEmpty())
            compareWith(path);
    });

    m_aboutAction = new QAction(tr("&About Parallax"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Parallax"),
            tr("<h3>Parallax %1</h3>"
               "<p>A desktop visualizer for Charm++ Projections trace logs.</p>"
               "<p>Built with Qt %2.</p>")
                .arg(QStringLiteral(PARALLAX_VERSION), QString::fromLatin1(qVersion())));
    });
}

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_openDirectoryAction);
    file->addAction(m_sessions->openAction());
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(m_sessions->saveAction());
    file->addAction(m_sessions->saveAsAction());
    file->addSeparator();
    file->addAction(m_exportChartAction);
    file->addAction(m_exportDataAction);
    file->addAction(m_reduceAction);
    addExportRunMenu(file, this);
    file->addAction(m_compareAction);
    file->addSeparator();
    addLiveStreamMenu(file, this);
    file->addSeparator();
    file->addAction(m_closeAction);
    file->addAction(m_cancelAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_navigation->findAction());
    edit->addAction(m_navigation->findNextAction());
    edit->addAction(m_navigation->findPreviousAction());
    edit->addSeparator();
    edit->addAction(m_addBookmarkAction);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* action : m_viewActions)
        view->addAction(action);
    view->addSeparator();
    view->addAction(m_navigation->zoomInAction());
    view->addAction(m_navigation->zoomOutAction());
    view->addAction(m_navigation->wholeRunAction());
    view->addSeparator();
    view->addAction(m_reportAction);
    auto* bookmarks = m_bookmarksDock->toggleViewAction();
    bookmarks->setText(tr("Boo&kmarks"));
    bookmarks->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    view->addAction(bookmarks);
    view->addSeparator();
    view->addAction(m_fullScreenAction);
    view->addSeparator();
    view->addAction(tr("&Memory Budget…"), this, &MainWindow::editMemoryBudget);
    view->addAction(tr("PE &Lists…"), this, &MainWindow::editPeLists);

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::editMemoryBudget()
{
    const auto budget = currentMemoryBudget();
    const QString origin = budget.source == MemoryBudget::Source::Environment
        ? tr("from PARALLAX_MEMORY_BUDGET, which wins over this setting")
        : budget.source == MemoryBudget::Source::Setting ? tr("your setting")
                                                         : tr("half the memory");
    const QString label = tr("Runs whose logs would need more memory than this open from their "
                             "summary files, and the Timeline reads their PEs on demand.\n"
                             "Now: %1 (%2). Sizes like 512M or 16G; empty for half the memory.")
                              .arg(QLocale().formattedDataSize(qint64(budget.bytes)), origin);
    for (;;) {
        bool ok = false;
        const QString text = QInputDialog::getText(this, tr("Memory Budget"), label,
            QLineEdit::Normal, QSettings().value(QStringLiteral("memoryBudget")).toString(), &ok);
        if (!ok)
            return;
        QString error;
        if (setMemoryBudgetSetting(text, &error)) {
            statusBar()->showMessage(tr("Memory budget: %1, for the runs opened from now on")
                                         .arg(QLocale().formattedDataSize(qint64(memoryBudget()))),
                kStatusMessageMs);
            return;
        }
        QMessageBox::warning(this, tr("Memory Budget"), error);
    }
}

void MainWindow::createStatusBar()
{
    m_progress = new QWidget(this);
    auto* layout = new QHBoxLayout(m_progress);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->setSpacing(8);
    m_progressLabel = new QLabel(m_progress);
    m_progressBar = new QProgressBar(m_progress);
    m_progressBar->setFixedWidth(180);
    m_progressBar->setTextVisible(false);
    m_progressBar->setMaximumHeight(14);
    m_cancelButton = new QToolButton(m_progress);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop loading (Esc); the open run stays as it is"));
    connect(m_cancelButton, &QToolButton::clicked, this, &MainWindow::cancelLoad);
    m_cancelButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_cancelButton->setAutoRaise(true);
    layout->addWidget(m_progressLabel);
    layout->addWidget(m_progressBar);
    layout->addWidget(m_cancelButton);
    statusBar()->addPermanentWidget(m_progress);
    m_progress->hide();
}

void MainWindow::updateActions()
{
    m_closeAction->setEnabled(m_trace != nullptr || m_job != nullptr);
    m_cancelAction->setEnabled(m_job != nullptr);
    m_reportAction->setEnabled(m_trace != nullptr);
    for (auto* action : m_viewActions)
        action->setEnabled(m_trace != nullptr);
    const bool onView = m_trace != nullptr && m_workspace->currentView() != nullptr;
    m_exportChartAction->setEnabled(onView);
    m_exportDataAction->setEnabled(onView);
    m_reduceAction->setEnabled(m_trace != nullptr);
    m_compareAction->setEnabled(m_trace != nullptr);
    m_addBookmarkAction->setEnabled(m_trace != nullptr);
}

QString MainWindow::dialogStartDirectory() const
{
    if (!m_recent.paths().isEmpty()) {
        const QFileInfo last(m_recent.paths().first());
        return last.isDir() ? last.absolutePath() : last.absoluteDir().absolutePath();
    }
    return QDir::homePath();
}

void MainWindow::chooseRunFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Run"), dialogStartDirectory(),
        tr("Runs and sessions (*.sts *.parallax);;Projections symbol tables (*.sts);;Parallax "
           "sessions (*.parallax);;All files (*)"));
    if (!path.isEmpty())
        openRun(path);
}

void MainWindow::chooseRunDirectory()
{
    const QString path
        = QFileDialog::getExistingDirectory(this, tr("Open Run Directory"), dialogStartDirectory());
    if (!path.isEmpty())
        openRun(path);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const auto& paths = m_recent.paths();
    if (paths.isEmpty()) {
        m_recentMenu->addAction(tr("No recent runs"))->setEnabled(false);
        return;
    }
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const QString path = paths[i];
        const QFileInfo info(path);
        const QString text
            = QStringLiteral("&%1  %2   —  %3")
                  .arg(i + 1)
                  .arg(info.fileName(), elideMiddle(QDir::toNativeSeparators(info.path()), 60));
        auto* action = m_recentMenu->addAction(text, this, [this, path] { openRun(path); });
        action->setToolTip(QDir::toNativeSeparators(path));
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear Menu"), this, [this] {
        m_recent.clear();
        recentRunsChanged();
    });
}

void MainWindow::recentRunsChanged()
{
    m_emptyState->setRecentRuns(m_recent.paths());
}

void MainWindow::openRun(const QString& path)
{
    openRunWithIndex(path, {});
}

void MainWindow::openRunWithIndex(const QString& path, const QString& indexDirectory)
{
    if (path.isEmpty())
        return;
    if (path.endsWith(QStringLiteral(".parallax"), Qt::CaseInsensitive)) {
        m_sessions->open(path);
        return;
    }
    if (m_job) {
        m_job->cancel();
        discardJob();
    }
    if (m_errorBox)
        m_errorBox->close();

    m_job = new RunLoadJob(QDir::cleanPath(path), this);
    m_job->setIndexDirectory(indexDirectory);
    m_jobName = runName(path);
    connect(m_job, &RunLoadJob::progressChanged, this, &MainWindow::onLoadProgress);
    connect(m_job, &RunLoadJob::loaded, this, &MainWindow::onLoaded);
    connect(m_job, &RunLoadJob::failed, this, &MainWindow::onLoadFailed);
    connect(m_job, &RunLoadJob::cancelled, this, &MainWindow::onLoadCancelled);

    statusBar()->clearMessage();
    const QString opening = tr("Opening %1…").arg(m_jobName);
    m_progressLabel->setText(opening);
    m_progressBar->setRange(0, 0);
    m_progress->show();
    if (!m_trace)
        m_emptyState->setStatus(opening);
    updateActions();
    m_job->start();
}

void MainWindow::onLoadProgress(const QString& stage, quint64 bytesDone, quint64 bytesTotal)
{
    m_progressLabel->setText(tr("Opening %1: %2").arg(m_jobName, stage));
    if (bytesTotal == 0) {
        m_progressBar->setRange(0, 0);
    } else {
        const double fraction
            = std::min(1.0, static_cast<double>(bytesDone) / static_cast<double>(bytesTotal));
        m_progressBar->setRange(0, kProgressSteps);
        m_progressBar->setValue(static_cast<int>(fraction * kProgressSteps));
    }
    if (!m_trace)
        m_emptyState->setStatus(m_progressLabel->text());
}

void MainWindow::onLoaded(core::TracePtr trace, double seconds)
{
    const QString path = m_job ? m_job->path() : QString();
    const bool fromCache = m_job && m_job->fromCache();
    const QString indexDirectory = m_job ? m_job->indexDirectory() : QString();
    const QString cacheNote = m_job ? m_job->cacheNote() : QString();
    discardJob();
    m_runPath = path;
    showTrace(std::move(trace));
    if (!path.isEmpty()) {
        m_recent.add(path);
        recentRunsChanged();
    }
    const QString took = seconds < 0.1
        ? tr("%1 ms").arg(std::max(1, static_cast<int>(std::lround(seconds * 1000.0))))
        : tr("%1 s").arg(seconds, 0, 'f', 2);
    QString message
        = tr("Opened %1 in %2").arg(QString::fromStdString(m_trace->files.baseName), took);
    // An index the user named (parallax RUN --index DIR, e.g. one parallax-index wrote on a
    // cluster) is said by its place, not confused with the cache.
    if (!indexDirectory.isEmpty())
        message += tr(" from the index %1").arg(QDir::toNativeSeparators(indexDirectory));
    else if (fromCache)
        message += tr(" from the index cache");
    if (!cacheNote.isEmpty())
        message += QStringLiteral(" — ") + cacheNote;
    statusBar()->showMessage(message, kStatusMessageMs);
    if (m_trace->report.total(core::Severity::Warning) > 0)
        showImportReport();
    if (m_persist && !m_sessions->opening() && m_workspace->openViews().empty())
        restoreViewLayout();
    emit loadFinished(LoadOutcome::Loaded);
}

void MainWindow::onLoadFailed(const QString& error)
{
    const QString path = m_job ? m_job->path() : QString();
    const QString name = m_jobName;
    discardJob();
    m_recent.remove(path);
    recentRunsChanged();
    statusBar()->showMessage(tr("Could not open %1").arg(name), kStatusMessageMs);

    // Window-modal but asynchronous: the event loop (and a screenshot driver) keeps running.
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Could not open run"),
        tr("Parallax could not open “%1”.").arg(name), QMessageBox::Ok, this);
    box->setInformativeText(error);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // QMessageBox wraps narrowly; error texts hold paths, so give them room.
    if (auto* grid = qobject_cast<QGridLayout*>(box->layout()))
        grid->addItem(new QSpacerItem(460, 0, QSizePolicy::Minimum, QSizePolicy::Fixed),
            grid->rowCount(), 0, 1, grid->columnCount());
    m_errorBox = box;
    box->open();
    emit loadFinished(LoadOutcome::Failed);
}

void MainWindow::onLoadCancelled()
{
    const QString name = m_jobName;
    discardJob();
    statusBar()->showMessage(tr("Cancelled opening %1").arg(name), kStatusMessageMs);
    emit loadFinished(LoadOutcome::Cancelled);
}

void MainWindow::cancelLoad()
{
    if (!m_job)
        return;
    // The worker stops at its next chunk; nothing it produces reaches the window any more.
    m_job->cancel();
    onLoadCancelled();
}

void MainWindow::discardJob()
{
    if (m_job) {
        m_job->disconnect(this);
        m_job->deleteLater();
        m_job = nullptr;
    }
    m_jobName.clear();
    m_progress->hide();
    m_emptyState->setStatus({});
    updateActions();
}

void MainWindow::closeRun()
{
    cancelLoad();
    m_runPath.clear();
    showTrace(nullptr);
}

void MainWindow::addBookmark()
{
    auto* timeline
        = qobject_cast<views::TimelineView*>(m_workspace->view(views::ViewKind::Timeline));
    if (!m_trace || timeline == nullptr) {
        statusBar()->showMessage(tr("Open the Timeline and select an execution (or set a reference "
                                    "mark) to bookmark it"),
            kStatusMessageMs);
        return;
    }
    m_bookmarksDock->show();
    m_bookmarksDock->raise();
    m_bookmarksDock->addFrom(*timeline);
}

void MainWindow::showTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    m_summary->setTrace(m_trace);
    m_report->setTrace(m_trace);
    m_bookmarksDock->setTrace(m_trace);
    m_palette->setRun(m_trace.get());
    m_workspace->setTrace(m_trace);
    if (m_trace) {
        m_pages->setCurrentIndex(1);
        setWindowTitle(tr("%1 — Parallax").arg(QString::fromStdString(m_trace->files.baseName)));
    } else {
        m_pages->setCurrentIndex(0);
        m_reportDock->hide();
        setWindowTitle(QStringLiteral("Parallax"));
    }
    if (m_trace && m_trace->report.total(core::Severity::Warning) == 0)
        m_reportDock->hide();
    updateActions();
}

void MainWindow::saveEntryColors() const
{
    QSettings settings;
    settings.remove(QStringLiteral("entryColors"));
    settings.beginGroup(QStringLiteral("entryColors"));
    const auto& overrides = m_palette->overrides();
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        settings.setValue(
            QString::fromUtf8(it.key().toUtf8().toPercentEncoding()), it.value().name());
    settings.endGroup();
}

void MainWindow::exportChart()
{
    auto* view = m_workspace->currentView();
    if (view == nullptr)
        return;
    ExportSizeDialog sizeDialog(view->size(), this);
    if (sizeDialog.exec() != QDialog::Accepted)
        return;
    const auto suggested = suggestedExportPath(QString::fromStdString(m_trace->files.baseName)
        + QLatin1Char('-') + views::viewKey(view->kind()) + QStringLiteral(".png"));
    const QString png = tr("PNG images (*.png)");
    const QString svg = tr("SVG vector images (*.svg)");
    const QString apng = tr("Animated PNG, every frame (*.png)");
    QString filter = png;
    QString filters = view->canExportSvg() ? png + QStringLiteral(";;") + svg : png;
    if (view->frameCount() > 0)
        filters += QStringLiteral(";;") + apng;
    const auto path
        = QFileDialog::getSaveFileName(this, tr("Export Chart"), suggested, filters, &filter);
    if (path.isEmpty())
        return;
    QString error;
    bool saved = false;
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive) || filter == svg) {
        saved = view->exportSvg(path, sizeDialog.size(), &error);
    } else if (filter == apng) {
        saved
            = views::writeAnimatedPng(*view, path, sizeDialog.size(), view->frameDelayMs(), &error);
    } else {
        const auto image = view->renderChart(sizeDialog.size());
        saved = !image.isNull() && image.save(path, "PNG");
    }
    if (!saved) {
        QMessageBox::warning(this, tr("Export Chart"),
            tr("Could not write %1. %2")
                .arg(path, error.isEmpty() ? tr("Check the folder and try again.") : error));
    } else {
        rememberExportDirectory(path);
        statusBar()->showMessage(tr("Saved %1").arg(path), kStatusMessageMs);
    }
}

void MainWindow::exportData()
{
    auto* view = m_workspace->currentView();
    if (view == nullptr)
        return;
    const auto suggested = suggestedExportPath(QString::fromStdString(m_trace->files.baseName)
        + QLatin1Char('-') + views::viewKey(view->kind()) + QStringLiteral(".csv"));
    const auto path
        = QFileDialog::getSaveFileName(this, tr("Export Data"), suggested, tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportDataTo(path);
}

DataExportJob* MainWindow::exportDataTo(const QString& path)
{
    auto* view = m_workspace->currentView();
    if (view == nullptr)
        return nullptr;
    auto* job = DataExportJob::start(*view, path, this);
    connect(job, &DataExportJob::finished, this,
        [this](const QString& written, bool ok, const QString& error) {
            if (ok) {
                rememberExportDirectory(written);
                statusBar()->showMessage(tr("Saved %1").arg(written), kStatusMessageMs);
            } else if (!error.isEmpty()) {
                QMessageBox::warning(this, tr("Export Data"), error);
            } else {
                statusBar()->showMessage(tr("Export cancelled"), kStatusMessageMs);
            }
        });
    return job;
}

void MainWindow::writeReducedRun()
{
    if (!m_trace)
        return;
    if (auto* open = findChild<ReduceDialog*>()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto* dialog = new ReduceDialog(m_trace, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ReduceDialog::openRunRequested, this, &MainWindow::openRun);
    dialog->open();
}

void MainWindow::editPeLists()
{
    if (auto* open = findChild<PeListsDialog*>()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto* dialog = new PeListsDialog(m_trace ? m_trace->metadata.processors : 0, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PeListsDialog::listsSaved, this, [this](const QString& path, bool group) {
        if (!group || !m_trace)
            return;
        const std::map<QString, QString> byLists { { QStringLiteral("by"),
            QStringLiteral("list:") + path } };
        QString error;
        auto* overview = m_workspace->openView(views::ViewKind::Overview);
        if (overview != nullptr && !overview->applyOptions(byLists, &error))
            QMessageBox::warning(this, tr("PE Lists"), error);
        if (auto* usage = m_workspace->view(views::ViewKind::UsageProfile))
            usage->applyOptions(byLists, &error);
    });
    dialog->show();
}

void MainWindow::compareWith(const QString& path)
{
    if (!m_trace || path.isEmpty())
        return;
    if (m_compareJob)
        m_compareJob->deleteLater(); // its result is dropped
    auto* job = new RunLoadJob(QDir::cleanPath(path), this);
    m_compareJob = job;
    // The run's directory names it (as the open run's directory names A).
    const QFileInfo info(QDir::cleanPath(path));
    const QString name = info.isDir() ? info.fileName() : info.absoluteDir().dirName();
    statusBar()->showMessage(tr("Opening %1 to compare…").arg(name));
    connect(job, &RunLoadJob::loaded, this, [this, job, name](core::TracePtr other, double) {
        job->deleteLater();
        auto* compare
            = qobject_cast<views::CompareView*>(m_workspace->openView(views::ViewKind::Compare));
        if (compare != nullptr)
            compare->setOtherRun(std::move(other), name);
        statusBar()->showMessage(tr("Comparing with %1").arg(name), kStatusMessageMs);
    });
    connect(job, &RunLoadJob::failed, this, [this, job, name](const QString& error) {
        job->deleteLater();
        statusBar()->showMessage(tr("Could not open %1").arg(name), kStatusMessageMs);
        // Window-modal but asynchronous, as for a failed open.
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Compare With"),
            tr("Parallax could not open “%1” to compare it with this run.").arg(name),
            QMessageBox::Ok, this);
        box->setInformativeText(error);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    connect(job, &RunLoadJob::cancelled, job, &QObject::deleteLater);
    job->start();
}

void MainWindow::showImportReport()
{
    if (!m_trace)
        return;
    if (m_reportDock->isHidden() && !m_reportDock->isFloating()) {
        // Enough for a few problem kinds; the run summary keeps most of the window.
        m_reportDock->show();
        resizeDocks({ m_reportDock }, { std::clamp(height() / 4, 140, 260) }, Qt::Vertical);
    }
    m_reportDock->show();
    m_reportDock->raise();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_persist) {
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        settings.setValue(kStateKey, saveState());
        if (m_trace) {
            QStringList keys;
            for (auto* view : m_workspace->openViews())
                keys << views::viewKey(view->kind());
            settings.setValue(kViewsKey, keys);
            auto* current = m_workspace->currentView();
            settings.setValue(
                kCurrentViewKey, current != nullptr ? views::viewKey(current->kind()) : QString());
        }
    }
    if (m_job) {
        m_job->cancel();
        discardJob();
    }
    event->accept();
}

void MainWindow::restoreViewLayout()
{
    const QSettings settings;
    for (const auto& key : settings.value(kViewsKey).toStringList())
        if (const auto kind = views::viewKindFromKey(key))
            m_workspace->openView(*kind, /*select=*/false);
    if (const auto current = views::viewKindFromKey(settings.value(kCurrentViewKey).toString());
        current && m_workspace->view(*current) != nullptr)
        m_workspace->openView(*current);
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::WindowStateChange && m_fullScreenAction)
        m_fullScreenAction->setChecked(isFullScreen());
}

bool MainWindow::isRunPath(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir()
        || (info.isFile()
            && (info.suffix().compare(QLatin1String("sts"), Qt::CaseInsensitive) == 0
                || info.suffix().compare(QLatin1String("parallax"), Qt::CaseInsensitive) == 0));
}

QString MainWindow::runPathFromMime(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
        return {};
    const QUrl url = mime->urls().constFirst();
    if (!url.isLocalFile())
        return {};
    const QString path = url.toLocalFile();
    return isRunPath(path) ? path : QString();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!runPathFromMime(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = runPathFromMime(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openRun(path);
}

} // namespace parallax::app
