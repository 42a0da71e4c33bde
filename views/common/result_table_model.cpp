#include "views/common/result_table_model.h"

#include "views/common/stacked_bar_geometry.h"
#include "views/timeline/timeline_geometry.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace parallax::views {

using core::analysis::CellKind;

ResultTableModel::ResultTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ResultTableModel::setTable(core::analysis::ResultTable table, std::vector<Column> columns)
{
    beginResetModel();
    m_table = std::move(table);
    m_columns.clear();
    m_tableColumns.clear();
    if (columns.empty())
        for (const auto& c : m_table.columns)
            columns.push_back({ c.key, QString::fromStdString(c.key), {} });
    for (auto& c : columns) {
        const int index = m_table.columnIndex(c.key);
        if (index < 0)
            continue;
        m_tableColumns.push_back(static_cast<std::size_t>(index));
        m_columns.push_back(std::move(c));
    }
    endResetModel();
}

std::size_t ResultTableModel::tableColumn(int column) const
{
    return m_tableColumns.at(static_cast<std::size_t>(column));
}

core::analysis::RowTarget ResultTableModel::target(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_table.targets.size())
        return {};
    return m_table.targets[static_cast<std::size_t>(row)];
}

void ResultTableModel::setRowToolTip(std::function<QString(int row)> toolTip)
{
    m_rowToolTip = std::move(toolTip);
}

int ResultTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rowCount());
}

int ResultTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QString ResultTableModel::displayText(int row, int column) const
{
    const auto& c = m_table.columns[tableColumn(column)];
    const auto r = static_cast<std::size_t>(row);
    if (!c.numeric())
        return QString::fromStdString(c.texts[r]);
    const double v = c.numbers[r];
    if (std::isnan(v))
        return {};
    const QLocale locale;
    switch (c.kind) {
    case CellKind::Integer:
        return locale.toString(static_cast<qlonglong>(std::llround(v)));
    case CellKind::TimeUs:
        return formatPreciseTime(static_cast<core::TimeUs>(std::llround(v)));
    case CellKind::DurationUs:
        return formatTime(v);
    case CellKind::Percent:
        return formatBarValue(v, BarUnit::Percent);
    case CellKind::Bytes:
        return formatBarValue(v, BarUnit::Bytes);
    case CellKind::Number:
    case CellKind::Text:
        break;
    }
    return locale.toString(v, 'g', 6);
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& c = m_table.columns[tableColumn(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return displayText(index.row(), index.column());
    case kSortRole:
        if (!c.numeric())
            return QString::fromStdString(c.texts[static_cast<std::size_t>(index.row())]);
        if (const double v = c.numbers[static_cast<std::size_t>(index.row())]; !std::isnan(v))
            return v;
        return -std::numeric_limits<double>::infinity();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            c.numeric() ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QString text = displayText(index.row(), index.column());
        if (c.kind == CellKind::DurationUs || c.kind == CellKind::TimeUs
            || c.kind == CellKind::Bytes)
            text += QStringLiteral(" (%1)").arg(
                QString::fromStdString(m_table.cellText(
                    tableColumn(index.column()), static_cast<std::size_t>(index.row())))
                + (c.kind == CellKind::Bytes ? QStringLiteral(" B") : QStringLiteral(" µs")));
        if (m_rowToolTip)
            if (const auto extra = m_rowToolTip(index.row()); !extra.isEmpty())
                text += QLatin1Char('\n') + extra;
        return text;
    }
    default:
        return {};
    }
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto& c = m_columns[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return c.title;
    if (role == Qt::ToolTipRole)
        return c.toolTip.isEmpty() ? QVariant() : QVariant(c.toolTip);
    return {};
}

ResultTableFilter::ResultTableFilter(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ResultTableModel::kSortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void ResultTableFilter::setSearch(const QString& text)
{
    if (text == m_search)
        return;
    m_search = text;
    invalidateRowsFilter();
}

bool ResultTableFilter::filterAcceptsRow(int sourceRow, const QModelIndex& /*sourceParent*/) const
{
    if (m_search.isEmpty())
        return true;
    const auto* model = qobject_cast<const ResultTableModel*>(sourceModel());
    if (model == nullptr)
        return true;
    const auto& table = model->table();
    const auto row = static_cast<std::size_t>(sourceRow);
    for (int column = 0; column < model->columnCount(); ++column) {
        const auto c = model->tableColumn(column);
        const auto kind = table.columns[c].kind;
        if (kind != CellKind::Text && kind != CellKind::Integer)
            continue;
        if (QString::fromStdString(table.cellText(c, row)).contains(m_search, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace parallax::views
