#pragma once

#include "core/types.h"

#include <QObject>

#include <optional>

class QAction;

namespace parallax::app {

class MainWindow;

// The standard navigation shortcuts, on whatever view is current: View → Zoom In (Ctrl++), Zoom
// Out (Ctrl+-) and Whole Run (Ctrl+0) on the views with a time axis (Timeline, Overview, Time
// Profile, Communication, …: AnalysisView::timeAxisRange); Edit → Find Entry Method… (Ctrl+F),
// Find Next (F3) and Find Previous (Shift+F3), which walk the executions of one entry method on
// the Timeline's rows, selecting each and highlighting them all.
class ViewNavigation : public QObject {
    Q_OBJECT
public:
    explicit ViewNavigation(MainWindow* window);

    [[nodiscard]] QAction* zoomInAction() const { return m_zoomIn; }
    [[nodiscard]] QAction* zoomOutAction() const { return m_zoomOut; }
    [[nodiscard]] QAction* wholeRunAction() const { return m_wholeRun; }
    [[nodiscard]] QAction* findAction() const { return m_find; }
    [[nodiscard]] QAction* findNextAction() const { return m_findNext; }
    [[nodiscard]] QAction* findPreviousAction() const { return m_findPrevious; }

    // Zooms the current view's time axis around its middle (factor < 1: in); false when the
    // current view has none.
    bool zoomBy(double factor);
    bool showWholeRun();
    // Selects the next (or previous) execution of `entry` on the Timeline's rows after (before)
    // its selected execution, else from its window's start (end); opens the Timeline when
    // needed, brings the execution into view and highlights the entry's executions. False, with
    // a status message, when there is none.
    bool findEntry(core::EntryId entry, bool forward = true);

    // Enables the actions for the current view.
    void updateActions();

private:
    void askForEntry();

    MainWindow* m_window;
    QAction* m_zoomIn = nullptr;
    QAction* m_zoomOut = nullptr;
    QAction* m_wholeRun = nullptr;
    QAction* m_find = nullptr;
    QAction* m_findNext = nullptr;
    QAction* m_findPrevious = nullptr;
    std::optional<core::EntryId> m_entry; // what Find Next looks for
};

} // namespace parallax::app
