#include "bookmarks_dock.h"

#include "views/common/time_format.h"
#include "views/timeline/timeline_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::app {

namespace {

enum BookmarkColumn { TimeColumn, PeColumn, ExecutionColumn, NoteColumn, BookmarkColumns };

constexpr core::TimeUs kDefaultBookmarkWindow = 1000; // µs shown around a bookmark by default

QTableWidgetItem* readOnlyBookmarkItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QString bookmarkTimeText(core::TimeUs time)
{
    return views::durationText(time);
}

} // namespace

BookmarksDock::BookmarksDock(QWidget* parent)
    : QDockWidget(tr("Bookmarks"), parent)
{
    setObjectName(QStringLiteral("bookmarksDock"));
    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* buttons = new QHBoxLayout();
    auto* add = new QToolButton(page);
    add->setText(tr("Add"));
    add->setToolTip(tr("Bookmark the Timeline's selected execution, or its reference mark "
                       "(Ctrl+D)"));
    m_remove = new QToolButton(page);
    m_remove->setText(tr("Remove"));
    m_goTo = new QToolButton(page);
    m_goTo->setText(tr("Go To"));
    m_goTo->setToolTip(tr("Show the bookmark in the Timeline (double click, Enter)"));
    for (auto* button : { add, m_remove, m_goTo }) {
        button->setAutoRaise(true);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    m_table = new QTableWidget(0, BookmarkColumns, page);
    m_table->setObjectName(QStringLiteral("bookmarks"));
    m_table->setHorizontalHeaderLabels({ tr("Time"), tr("PE"), tr("Execution"), tr("Note") });
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::AnyKeyPressed);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    setWidget(page);

    connect(add, &QToolButton::clicked, this, &BookmarksDock::addRequested);
    connect(m_remove, &QToolButton::clicked, this, &BookmarksDock::removeSelected);
    connect(m_goTo, &QToolButton::clicked, this, &BookmarksDock::goToCurrent);
    connect(m_table, &QTableWidget::cellChanged, this, &BookmarksDock::noteEdited);
    // A double click on the note edits it; anywhere else it goes to the place.
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int, int column) {
        if (column != NoteColumn)
            goToCurrent();
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const bool any = m_table->currentRow() >= 0;
        m_remove->setEnabled(any);
        m_goTo->setEnabled(any);
    });
    rebuild();
}

void BookmarksDock::setTrace(core::TracePtr trace)
{
    m_trace = std::move(trace);
    rebuild();
}

void BookmarksDock::setBookmarks(std::vector<io::Bookmark> bookmarks)
{
    m_bookmarks = std::move(bookmarks);
    rebuild();
    emit changed();
}

void BookmarksDock::add(io::Bookmark bookmark)
{
    m_bookmarks.push_back(std::move(bookmark));
    rebuild();
    const int row = static_cast<int>(m_bookmarks.size()) - 1;
    m_table->setCurrentCell(row, NoteColumn);
    emit changed();
}

bool BookmarksDock::addFrom(const views::TimelineView& timeline)
{
    const auto* widget = timeline.timeline();
    io::Bookmark bookmark;
    const auto selected = timeline.selectedBlock();
    if (selected && widget->trace()) {
        const auto& executions
            = widget->trace()->pes[static_cast<std::size_t>(selected->pe)].executions;
        if (selected->execution < executions.size()) {
            bookmark.pe = selected->pe;
            bookmark.time = executions.begin[selected->execution];
            bookmark.execution = io::Bookmark::Execution { bookmark.time,
                static_cast<std::int64_t>(executions.entry[selected->execution]) };
        }
    }
    if (!bookmark.execution) {
        if (timeline.loadedPes().empty())
            return false;
        bookmark.pe = timeline.loadedPes().front();
        const auto window = timeline.window();
        bookmark.time = widget->referenceTime().value_or(window.begin + window.length() / 2);
    }
    add(std::move(bookmark));
    if (isVisible())
        m_table->editItem(m_table->item(m_table->currentRow(), NoteColumn));
    return true;
}

void BookmarksDock::removeSelected()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= static_cast<int>(m_bookmarks.size()))
        return;
    m_bookmarks.erase(m_bookmarks.begin() + row);
    rebuild();
    emit changed();
}

void BookmarksDock::showIn(views::TimelineView& timeline, const io::Bookmark& bookmark)
{
    const auto shown = timeline.window().length();
    const auto width
        = std::max<core::TimeUs>(timeline.loadedPes().empty() ? kDefaultBookmarkWindow : shown, 20);
    const core::TimeUs begin = std::max<core::TimeUs>(0, bookmark.time - width / 2);
    timeline.setSelection({ begin, begin + width }, { bookmark.pe });
    if (bookmark.execution)
        timeline.timeline()->selectAt(bookmark.pe, bookmark.execution->begin);
    else
        timeline.timeline()->setReferenceTime(bookmark.time);
}

void BookmarksDock::goToCurrent()
{
    const int row = m_table->currentRow();
    if (row >= 0 && row < static_cast<int>(m_bookmarks.size()))
        emit goToRequested(m_bookmarks[static_cast<std::size_t>(row)]);
}

void BookmarksDock::noteEdited(int row, int column)
{
    if (m_rebuilding || column != NoteColumn || row < 0
        || row >= static_cast<int>(m_bookmarks.size()))
        return;
    m_bookmarks[static_cast<std::size_t>(row)].note
        = m_table->item(row, column)->text().toStdString();
    emit changed();
}

void BookmarksDock::rebuild()
{
    m_rebuilding = true;
    const int current = m_table->currentRow();
    m_table->setRowCount(static_cast<int>(m_bookmarks.size()));
    for (std::size_t i = 0; i < m_bookmarks.size(); ++i) {
        const auto& b = m_bookmarks[i];
        const int row = static_cast<int>(i);
        m_table->setItem(row, TimeColumn, readOnlyBookmarkItem(bookmarkTimeText(b.time)));
        m_table->setItem(row, PeColumn, readOnlyBookmarkItem(QString::number(b.pe)));
        QString execution;
        if (b.execution) {
            const bool named = m_trace && b.execution->entry >= 0
                && static_cast<std::size_t>(b.execution->entry) < m_trace->metadata.entryCount();
            execution = named ? QString::fromStdString(m_trace->metadata.entryName(
                            static_cast<core::EntryId>(b.execution->entry)))
                              : tr("entry %1").arg(b.execution->entry);
        }
        m_table->setItem(row, ExecutionColumn, readOnlyBookmarkItem(execution));
        m_table->setItem(row, NoteColumn, new QTableWidgetItem(QString::fromStdString(b.note)));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    if (current >= 0 && current < m_table->rowCount())
        m_table->setCurrentCell(current, NoteColumn);
    const bool any = m_table->currentRow() >= 0;
    m_remove->setEnabled(any);
    m_goTo->setEnabled(any);
    m_rebuilding = false;
}

} // namespace parallax::app
