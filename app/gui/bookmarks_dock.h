#pragma once

#include "core/trace.h"
#include "io/session_file.h"

#include <QDockWidget>

#include <vector>

class QTableWidget;
class QToolButton;

namespace parallax::views {
class TimelineView;
}

namespace parallax::app {

// The Bookmarks dock: places in the run worth coming back to — a time on a PE, optionally one
// execution there — each with a note the analyst types in place. "Add" takes the Timeline's
// selected execution (else its reference mark, else the middle of its window, on its first
// row); a double click (or Enter, or "Go To") shows the place in the Timeline. Saved in session
// files (io::Bookmark).
class BookmarksDock : public QDockWidget {
    Q_OBJECT
public:
    explicit BookmarksDock(QWidget* parent = nullptr);

    void setTrace(core::TracePtr trace);
    void setBookmarks(std::vector<io::Bookmark> bookmarks);
    [[nodiscard]] const std::vector<io::Bookmark>& bookmarks() const { return m_bookmarks; }
    [[nodiscard]] QTableWidget* table() const { return m_table; }

    // Adds the place the Timeline shows (see above) and starts editing its note; false (and
    // nothing added) when the Timeline shows no PE.
    bool addFrom(const views::TimelineView& timeline);
    void add(io::Bookmark bookmark);
    void removeSelected();

    // The bookmark's place in the Timeline: its PE's row, its time in the middle of a window of
    // the same width as `timeline` shows (or 1 ms), its execution selected.
    static void showIn(views::TimelineView& timeline, const io::Bookmark& bookmark);

signals:
    // Show this bookmark in the Timeline (the app opens the Timeline first).
    void goToRequested(io::Bookmark bookmark);
    void addRequested();
    void changed();

private:
    void rebuild();
    void noteEdited(int row, int column);
    void goToCurrent();

    core::TracePtr m_trace;
    std::vector<io::Bookmark> m_bookmarks;
    QTableWidget* m_table = nullptr;
    QToolButton* m_remove = nullptr;
    QToolButton* m_goTo = nullptr;
    bool m_rebuilding = false;
};

} // namespace parallax::app
