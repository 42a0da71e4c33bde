#include "views/common/result_table_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::views {

namespace {

// Rows a column's width is fitted to (more would cost time on long tables).
constexpr int kFitRows = 500;

} // namespace

ResultTableView::ResultTableView(QWidget* parent)
    : QWidget(parent)
{
    m_model = new ResultTableModel(this);
    m_filter = new ResultTableFilter(this);
    m_filter->setSourceModel(m_model);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("tableSearch"));
    m_search->setPlaceholderText(tr("Search…"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Show the rows whose names or numbers contain this text (any case)"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("tableRowCount"));
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("resultTable"));
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setResizeContentsPrecision(kFitRows);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSortIndicatorShown(true);
    // Unsorted until the analyst clicks a heading: the table's own order.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setContentsMargins(8, 16, 8, 16);
    m_empty->setWordWrap(true);
    m_empty->setObjectName(QStringLiteral("tableEmptyMessage"));

    auto* top = new QHBoxLayout();
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(m_search, 1);
    top->addWidget(m_count);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    // The message of an empty table sits above its (empty) rows: the table stays in place,
    // ready to take the focus.
    layout->addWidget(m_empty);
    layout->addWidget(m_view, 1);

    auto* copy = new QAction(tr("Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this]() { copySelection(); });
    m_view->addAction(copy);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setSearch(text);
        updateCount();
    });
    connect(m_view, &QAbstractItemView::activated, this,
        [this](const QModelIndex& index) { activate(index); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { emit currentRowChanged(tableRow(current.row())); });
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const auto index = m_view->indexAt(at);
        emit contextMenuRequested(
            m_view->viewport()->mapToGlobal(at), index.isValid() ? tableRow(index.row()) : -1);
    });
    setFocusProxy(m_view);
    updateCount();
}

void ResultTableView::setTable(
    core::analysis::ResultTable table, std::vector<ResultTableModel::Column> columns)
{
    const auto sortColumn = m_view->horizontalHeader()->sortIndicatorSection();
    const auto order = m_view->horizontalHeader()->sortIndicatorOrder();
    m_model->setTable(std::move(table), std::move(columns));
    m_view->resizeColumnsToContents(); // sampling kFitRows rows at most (precision)
    // A last column of text (details, names) takes the spare width; numbers keep theirs.
    const int last = m_model->columnCount() - 1;
    m_view->horizontalHeader()->setStretchLastSection(last >= 0
        && m_model->table().columns[m_model->tableColumn(last)].kind
            == core::analysis::CellKind::Text);
    // Keep the analyst's sort across recomputations; none yet: the table's own order.
    if (sortColumn >= 0 && sortColumn < m_model->columnCount())
        m_view->sortByColumn(sortColumn, order);
    else
        m_filter->sort(-1);
    updateCount();
}

void ResultTableView::sortBy(const std::string& key, Qt::SortOrder order)
{
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (m_model->table().columns[m_model->tableColumn(c)].key == key) {
            m_view->sortByColumn(c, order);
            return;
        }
}

void ResultTableView::setEmptyMessage(const QString& message)
{
    m_emptyMessage = message;
    updateCount();
}

void ResultTableView::updateCount()
{
    const int all = m_model->rowCount();
    const int shown = m_filter->rowCount();
    const QLocale locale;
    m_count->setText(shown == all
            ? (all == 1 ? tr("1 row") : tr("%1 rows").arg(locale.toString(all)))
            : tr("%1 of %2 rows").arg(locale.toString(shown), locale.toString(all)));
    const bool empty = all == 0;
    m_empty->setText(m_emptyMessage);
    m_empty->setVisible(empty && !m_emptyMessage.isEmpty());
}

int ResultTableView::tableRow(int viewRow) const
{
    if (viewRow < 0 || viewRow >= m_filter->rowCount())
        return -1;
    return m_filter->mapToSource(m_filter->index(viewRow, 0)).row();
}

std::vector<std::size_t> ResultTableView::selectedRows() const
{
    auto rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
        [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    std::vector<std::size_t> out;
    for (const auto& index : rows)
        out.push_back(static_cast<std::size_t>(m_filter->mapToSource(index).row()));
    return out;
}

QString ResultTableView::selectedCsv() const
{
    const auto rows = selectedRows();
    if (rows.empty())
        return {};
    return QString::fromStdString(core::analysis::resultTableCsv(m_model->table().subset(rows)));
}

void ResultTableView::copySelection() const
{
    const auto csv = selectedCsv();
    if (!csv.isEmpty())
        QApplication::clipboard()->setText(csv);
}

void ResultTableView::activate(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    const auto target = m_model->target(m_filter->mapToSource(index).row());
    if (target.valid())
        emit targetActivated(target);
}

int ResultTableView::paintHeight(const QFont& font) const
{
    return (m_filter->rowCount() + 2) * (QFontMetrics(font).height() + 6); // and header, note
}

void ResultTableView::paint(QPainter& painter, const QRect& rect) const
{
    painter.save();
    const QFontMetrics metrics(painter.font());
    const int rowHeight = metrics.height() + 6;
    const int columns = m_model->columnCount();
    const int fitting = std::max(0, rect.height() / rowHeight - 2); // header and the note
    const int rows = std::min(m_filter->rowCount(), fitting);
    if (columns == 0) {
        painter.restore();
        return;
    }
    // Widths: the widest of the heading and the painted cells, shrunk to the rectangle.
    std::vector<int> widths(static_cast<std::size_t>(columns));
    QFont bold = painter.font();
    bold.setBold(true);
    for (int c = 0; c < columns; ++c) {
        int w = QFontMetrics(bold).horizontalAdvance(
            m_model->headerData(c, Qt::Horizontal).toString());
        for (int r = 0; r < rows; ++r)
            w = std::max(w, metrics.horizontalAdvance(m_model->displayText(tableRow(r), c)));
        widths[static_cast<std::size_t>(c)] = std::min(w + 12, std::max(rect.width() / 2, 60));
    }
    int total = 0;
    for (const int w : widths)
        total += w;
    if (total > rect.width())
        for (auto& w : widths)
            w = std::max(24, w * rect.width() / total);
    const auto cellRect = [&](int c, int y) {
        int x = rect.left();
        for (int k = 0; k < c; ++k)
            x += widths[static_cast<std::size_t>(k)];
        return QRect(x + 4, y, widths[static_cast<std::size_t>(c)] - 8, rowHeight);
    };
    // Text to the left, numbers to the right.
    const auto alignment = [&](int c) {
        const bool text = m_model->table().columns[m_model->tableColumn(c)].kind
            == core::analysis::CellKind::Text;
        return static_cast<int>(text ? Qt::AlignLeft : Qt::AlignRight)
            | static_cast<int>(Qt::AlignVCenter);
    };
    int y = rect.top();
    painter.fillRect(QRect(rect.left(), y, rect.width(), rowHeight), QColor(232, 234, 238));
    painter.setFont(bold);
    painter.setPen(QColor(30, 30, 30));
    for (int c = 0; c < columns; ++c) {
        const auto r = cellRect(c, y);
        painter.drawText(r, alignment(c),
            QFontMetrics(bold).elidedText(
                m_model->headerData(c, Qt::Horizontal).toString(), Qt::ElideRight, r.width()));
    }
    QFont plain = bold;
    plain.setBold(false);
    painter.setFont(plain);
    y += rowHeight;
    for (int row = 0; row < rows; ++row, y += rowHeight) {
        if (row % 2 == 1)
            painter.fillRect(QRect(rect.left(), y, rect.width(), rowHeight), QColor(246, 247, 249));
        const int source = tableRow(row);
        for (int c = 0; c < columns; ++c) {
            const auto r = cellRect(c, y);
            painter.drawText(r, alignment(c),
                metrics.elidedText(m_model->displayText(source, c), Qt::ElideRight, r.width()));
        }
    }
    painter.setPen(QColor(120, 120, 120));
    if (m_filter->rowCount() > rows)
        painter.drawText(QRect(rect.left() + 4, y, rect.width() - 8, rowHeight),
            Qt::AlignLeft | Qt::AlignVCenter,
            tr("… and %1 more rows").arg(QLocale().toString(m_filter->rowCount() - rows)));
    else if (m_model->rowCount() == 0 && !m_emptyMessage.isEmpty())
        painter.drawText(QRect(rect.left() + 4, y, rect.width() - 8, rowHeight),
            Qt::AlignLeft | Qt::AlignVCenter, m_emptyMessage);
    painter.restore();
}

} // namespace parallax::views
