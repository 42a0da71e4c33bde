#pragma once

#include "core/analysis/result_table.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>

#include <functional>
#include <vector>

namespace parallax::views {

// A core::analysis::ResultTable as a Qt table model: each cell shown by its column's kind
// (durations with units, counts with thousands separators, percentages), numbers aligned
// right, sorted by their value (ResultTableModel::kSortRole) rather than by their text.
class ResultTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The value a column sorts by: the number (empty cells lowest) or the text.
    static constexpr int kSortRole = Qt::UserRole + 1;

    // A column to show: its key in the table, its heading and the heading's tooltip.
    struct Column {
        std::string key;
        QString title;
        QString toolTip;
    };

    explicit ResultTableModel(QObject* parent = nullptr);

    // New content. `columns` picks and names the table's columns (a key the table lacks is
    // skipped); empty: every column under its key.
    void setTable(core::analysis::ResultTable table, std::vector<Column> columns = {});
    [[nodiscard]] const core::analysis::ResultTable& table() const { return m_table; }
    // The table column shown in a model column.
    [[nodiscard]] std::size_t tableColumn(int column) const;
    // Where a row points (invalid when it points nowhere).
    [[nodiscard]] core::analysis::RowTarget target(int row) const;
    // An extra tooltip line per row (e.g. what a double-click opens); may be empty.
    void setRowToolTip(std::function<QString(int row)> toolTip);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(
        const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A cell as shown.
    [[nodiscard]] QString displayText(int row, int column) const;

private:
    core::analysis::ResultTable m_table;
    std::vector<Column> m_columns;
    std::vector<std::size_t> m_tableColumns;
    std::function<QString(int)> m_rowToolTip;
};

// Sorting by value and a search over the text and whole-number columns (case-insensitive),
// cheap enough for a few hundred thousand rows.
class ResultTableFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ResultTableFilter(QObject* parent = nullptr);
    void setSearch(const QString& text);
    [[nodiscard]] const QString& search() const { return m_search; }

protected:
    [[nodiscard]] bool filterAcceptsRow(
        int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_search;
};

} // namespace parallax::views
