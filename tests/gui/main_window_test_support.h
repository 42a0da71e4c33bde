#pragma once

// Driving the main window in the GUI tests: opening a run and finding menu actions.

#include "app/gui/main_window.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QString>

#include <catch2/catch.hpp>

#include <filesystem>

namespace parallax::test {

// Opens a run in the window and waits until its load has finished (or failed).
inline app::LoadOutcome openAndWait(app::MainWindow& window, const std::filesystem::path& run)
{
    QSignalSpy finished(&window, &app::MainWindow::loadFinished);
    window.openRun(QString::fromStdString(run.string()));
    REQUIRE(finished.wait(60'000));
    return finished.takeFirst().at(0).value<app::LoadOutcome>();
}

// The File menu's action with this text (null when there is none).
inline QAction* fileMenuAction(app::MainWindow& window, const QString& text)
{
    for (QAction* top : window.menuBar()->actions())
        if (top->menu() != nullptr && top->text() == QStringLiteral("&File"))
            for (QAction* action : top->menu()->actions())
                if (action->text() == text)
                    return action;
    return nullptr;
}

} // namespace parallax::test
