#include "session_controller.h"

#include "bookmarks_dock.h"
#include "main_window.h"
#include "view_workspace.h"
#include "views/common/entry_palette.h"
#include "views/common/view_factory.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace parallax::app {

namespace {

constexpr int kSessionStatusMs = 8000;

QString sessionFilter()
{
    return QObject::tr("Parallax sessions (*.parallax)");
}

} // namespace

SessionController::SessionController(MainWindow* window, BookmarksDock* bookmarks)
    : QObject(window)
    , m_window(window)
    , m_bookmarks(bookmarks)
{
    m_openAction = new QAction(tr("Open &Session…"), this);
    m_openAction->setStatusTip(tr("Open a saved session: its run, views, colours and bookmarks"));
    connect(m_openAction, &QAction::triggered, this, &SessionController::chooseAndOpen);
    m_saveAction = new QAction(tr("&Save Session"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the run's views, ranges, colours and bookmarks"));
    connect(m_saveAction, &QAction::triggered, this, &SessionController::save);
    m_saveAsAction = new QAction(tr("Save Session &As…"), this);
    // Not every platform binds Save As; Ctrl+Shift+S where it has none.
    auto saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    if (saveAsKeys.isEmpty())
        saveAsKeys = { QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S) };
    m_saveAsAction->setShortcuts(saveAsKeys);
    connect(m_saveAsAction, &QAction::triggered, this, &SessionController::saveAs);
    connect(m_window, &MainWindow::loadFinished, this, &SessionController::runLoaded);
    connect(m_window->workspace(), &ViewWorkspace::viewsChanged, this,
        &SessionController::updateActions);
    connect(m_window, &MainWindow::loadFinished, this, &SessionController::updateActions);
    updateActions();
}

void SessionController::updateActions()
{
    const bool run = m_window->trace() != nullptr;
    m_saveAction->setEnabled(run);
    m_saveAsAction->setEnabled(run);
}

io::Session SessionController::capture() const
{
    io::Session session;
    const auto& trace = m_window->trace();
    if (!trace)
        return session;
    session.runPath = QFileInfo(m_window->runPath()).absoluteFilePath().toStdString();
    session.fingerprint = io::fingerprintOf(*trace);
    for (auto* view : m_window->workspace()->openViews()) {
        io::SessionView saved;
        saved.view = views::viewKey(view->kind()).toStdString();
        for (const auto& [key, value] : view->saveState())
            saved.state[key.toStdString()] = value.toStdString();
        session.views.push_back(std::move(saved));
    }
    if (auto* current = m_window->workspace()->currentView())
        session.currentView = views::viewKey(current->kind()).toStdString();
    // The colours chosen for this run's entry methods (the others belong to other runs).
    const auto& overrides = m_window->palette()->overrides();
    for (std::size_t id = 0; id < trace->metadata.entryCount(); ++id) {
        const auto name
            = QString::fromStdString(trace->metadata.entryName(static_cast<core::EntryId>(id)));
        if (const auto it = overrides.find(name); it != overrides.end())
            session.entryColors.emplace_back(name.toStdString(), it.value().name().toStdString());
    }
    session.bookmarks = m_bookmarks->bookmarks();
    return session;
}

bool SessionController::saveTo(const QString& path, QString* error)
{
    std::string why;
    if (!io::writeSession(path.toStdString(), capture(), &why)) {
        if (error != nullptr)
            *error = QString::fromStdString(why);
        return false;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    return true;
}

bool SessionController::save()
{
    if (m_path.isEmpty())
        return saveAs();
    QString error;
    if (!saveTo(m_path, &error)) {
        QMessageBox::warning(m_window, tr("Save Session"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Saved the session %1").arg(m_path), kSessionStatusMs);
    return true;
}

bool SessionController::saveAs()
{
    if (!m_window->trace())
        return false;
    QString suggested = m_path;
    if (suggested.isEmpty()) {
        const QFileInfo run(m_window->runPath());
        // Beside the run's directory, never inside it (nothing is written into a run).
        const QDir dir = run.isDir() ? QDir(run.absoluteFilePath()) : run.absoluteDir();
        suggested = QFileInfo(dir.absolutePath()).absolutePath() + QLatin1Char('/')
            + QString::fromStdString(m_window->trace()->files.baseName)
            + QStringLiteral(".parallax");
    }
    QString path
        = QFileDialog::getSaveFileName(m_window, tr("Save Session"), suggested, sessionFilter());
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".parallax")))
        path += QStringLiteral(".parallax");
    m_path = path;
    return save();
}

void SessionController::chooseAndOpen()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Session"),
        m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).absolutePath(), sessionFilter());
    if (!path.isEmpty())
        open(path);
}

void SessionController::open(const QString& path)
{
    auto read = io::readSession(path.toStdString());
    if (!read.session) {
        showMessage(QMessageBox::Critical, tr("Could not open session"),
            tr("Parallax could not open the session “%1”.").arg(QFileInfo(path).fileName()),
            QString::fromStdString(read.error));
        return;
    }
    m_pending = std::move(read.session);
    m_pendingPath = QFileInfo(path).absoluteFilePath();
    m_pendingNote.clear();
    const auto found = io::locateSessionRun(*m_pending, m_pendingPath.toStdString());
    if (found.path.empty()) {
        askForMissingRun();
        return;
    }
    if (found.moved)
        m_pendingNote
            = tr("The run was not at %1 any more; it was found beside the session, at %2.")
                  .arg(QString::fromStdString(m_pending->runPath),
                      QString::fromStdString(found.path));
    m_window->openRun(QString::fromStdString(found.path));
}

void SessionController::locateRun(const QString& runPath)
{
    if (!m_pending || runPath.isEmpty())
        return;
    if (m_message) { // the question about the missing run is answered
        m_message->disconnect(this);
        m_message->close();
    }
    m_pendingNote = tr("The run was opened from %1 (the session names %2).")
                        .arg(runPath, QString::fromStdString(m_pending->runPath));
    m_window->openRun(runPath);
}

void SessionController::askForMissingRun()
{
    const QString run = QString::fromStdString(m_pending->runPath);
    auto* box = makeMessage(QMessageBox::Warning, tr("The session's run is missing"),
        tr("The run of the session “%1” is not at %2 (nor beside the session). Locate it to "
           "restore the views; without it the session's colours and bookmarks are kept.")
            .arg(QFileInfo(m_pendingPath).fileName(), run),
        {});
    auto* locate = box->addButton(tr("Locate the Run…"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    box->open();
    connect(box, &QMessageBox::finished, this, [this, box, locate] {
        if (!m_pending)
            return;
        if (box->clickedButton() == locate) {
            const QString path = QFileDialog::getOpenFileName(m_window, tr("Locate the Run"),
                QFileInfo(m_pendingPath).absolutePath(),
                tr("Projections symbol tables (*.sts);;All files (*)"));
            if (!path.isEmpty()) {
                locateRun(path);
                return;
            }
        }
        applyWithoutRun(*m_pending);
        m_pending.reset();
        emit restored();
    });
}

void SessionController::runLoaded(LoadOutcome outcome)
{
    if (!m_pending)
        return;
    const io::Session session = std::move(*m_pending);
    m_pending.reset();
    if (outcome != LoadOutcome::Loaded) {
        // The window says why the run did not open; the session's colours and bookmarks stay.
        applyWithoutRun(session);
        emit restored();
        return;
    }
    QStringList notes;
    if (!m_pendingNote.isEmpty())
        notes << m_pendingNote;
    if (session.fingerprint) {
        const auto differences = io::fingerprintDifferences(
            *session.fingerprint, io::fingerprintOf(*m_window->trace()));
        if (!differences.empty()) {
            QStringList said;
            for (const auto& d : differences)
                said << QString::fromStdString(d);
            notes << tr("The run has changed since the session was saved (%1): the views get "
                        "back what still applies.")
                         .arg(said.join(QStringLiteral("; ")));
        }
    }
    apply(session, notes);
    m_path = m_pendingPath;
    if (notes.isEmpty()) {
        m_window->statusBar()->showMessage(
            tr("Restored the session %1").arg(QFileInfo(m_path).fileName()), kSessionStatusMs);
    } else {
        const QString first = notes.takeFirst();
        showMessage(QMessageBox::Warning, tr("Session restored with changes"), first,
            notes.join(QLatin1Char('\n')));
    }
    emit restored();
}

void SessionController::applyWithoutRun(const io::Session& session)
{
    auto overrides = m_window->palette()->overrides();
    for (const auto& [entry, color] : session.entryColors)
        if (const QColor c(QString::fromStdString(color)); c.isValid())
            overrides.insert(QString::fromStdString(entry), c);
    m_window->palette()->setOverrides(overrides);
    m_bookmarks->setBookmarks(session.bookmarks);
    if (!session.bookmarks.empty())
        m_bookmarks->show();
}

void SessionController::apply(const io::Session& session, QStringList& notes)
{
    applyWithoutRun(session);
    auto* workspace = m_window->workspace();
    workspace->closeAllViews();
    for (const auto& saved : session.views) {
        const auto kind = views::viewKindFromKey(QString::fromStdString(saved.view));
        auto* view = kind ? workspace->openView(*kind, /*select=*/false) : nullptr;
        if (view == nullptr) {
            notes << tr("The %1 view is not available in this version.")
                         .arg(QString::fromStdString(saved.view));
            continue;
        }
        views::AnalysisView::State state;
        for (const auto& [key, value] : saved.state)
            state[QString::fromStdString(key)] = QString::fromStdString(value);
        QString problems;
        if (!view->restoreState(state, &problems))
            notes << tr("%1: %2").arg(
                views::viewTitle(*kind), problems.replace(QLatin1Char('\n'), QStringLiteral("; ")));
    }
    const auto current = views::viewKindFromKey(QString::fromStdString(session.currentView));
    if (current && workspace->view(*current) != nullptr)
        workspace->openView(*current);
    else
        workspace->setCurrentIndex(0);
}

QMessageBox* SessionController::makeMessage(
    QMessageBox::Icon icon, const QString& title, const QString& text, const QString& details)
{
    if (m_message)
        m_message->close();
    // Window-modal but asynchronous, as the window's other messages.
    auto* box = new QMessageBox(icon, title, text, QMessageBox::NoButton, m_window);
    box->setInformativeText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (auto* grid = qobject_cast<QGridLayout*>(box->layout()))
        grid->addItem(new QSpacerItem(460, 0, QSizePolicy::Minimum, QSizePolicy::Fixed),
            grid->rowCount(), 0, 1, grid->columnCount());
    m_message = box;
    return box;
}

void SessionController::showMessage(
    QMessageBox::Icon icon, const QString& title, const QString& text, const QString& details)
{
    auto* box = makeMessage(icon, title, text, details);
    box->addButton(QMessageBox::Ok);
    box->open();
}

} // namespace parallax::app
