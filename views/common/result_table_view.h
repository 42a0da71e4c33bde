#pragma once

#include "core/analysis/result_table.h"
#include "views/common/result_table_model.h"

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QPainter;
class QTableView;

namespace parallax::views {

// The table every table tool shows (entry profile, call table, user events, log, noise): a
// search field, a sortable QTableView over a ResultTableModel and a row count. Ctrl+C copies
// the selected rows as CSV (the same CSV as the export, core::analysis::resultTableCsv). A
// double-click or Enter on a row that points into the run emits targetActivated(): the view
// opens the Timeline there. The context menu is the owning view's (contextMenuRequested()).
class ResultTableView : public QWidget {
    Q_OBJECT
public:
    explicit ResultTableView(QWidget* parent = nullptr);

    void setTable(core::analysis::ResultTable table, std::vector<ResultTableModel::Column> columns);
    // Shown above the rows when the table is empty ("No user events in this range").
    void setEmptyMessage(const QString& message);
    // Sorts by the column with this key (no-op when absent).
    void sortBy(const std::string& key, Qt::SortOrder order);

    [[nodiscard]] ResultTableModel* model() const { return m_model; }
    [[nodiscard]] ResultTableFilter* filter() const { return m_filter; }
    [[nodiscard]] QTableView* tableView() const { return m_view; }
    [[nodiscard]] QLineEdit* searchField() const { return m_search; }

    // Rows of the table (not of the sorted, filtered view) selected, in view order.
    [[nodiscard]] std::vector<std::size_t> selectedRows() const;
    // The table row at a view row (after sorting and filtering), or -1.
    [[nodiscard]] int tableRow(int viewRow) const;
    // The selected rows as CSV (header included); empty when nothing is selected.
    [[nodiscard]] QString selectedCsv() const;
    void copySelection() const;

    // Paints the header and the rows (as sorted and filtered) that fit into `rect`, with a
    // note of the rows left out: the table part of the view's exported picture.
    void paint(QPainter& painter, const QRect& rect) const;
    // The height paint() needs for every row, with `font`.
    [[nodiscard]] int paintHeight(const QFont& font) const;

signals:
    void targetActivated(core::analysis::RowTarget target);
    // The current row changed (a table row, -1 for none).
    void currentRowChanged(int tableRow);
    // Right click over a table row (-1: none).
    void contextMenuRequested(QPoint globalPos, int tableRow);

private:
    void activate(const QModelIndex& index);
    void updateCount();

    ResultTableModel* m_model = nullptr;
    ResultTableFilter* m_filter = nullptr;
    QTableView* m_view = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_empty = nullptr;
    QString m_emptyMessage;
};

} // namespace parallax::views
