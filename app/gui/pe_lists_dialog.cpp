#include "pe_lists_dialog.h"

#include "core/text_args.h"
#include "views/common/pe_lists_file.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace parallax::app {

PeListsDialog::PeListsDialog(int processors, QWidget* parent)
    : QDialog(parent)
    , m_processors(processors)
{
    setWindowTitle(tr("PE Lists"));
    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("peListsTable"));
    m_table->setHorizontalHeaderLabels({ tr("Name"), tr("PEs (e.g. 0-15,32,40-63:2)") });
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setColumnWidth(0, 160);
    auto* add = new QPushButton(tr("&Add"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    auto* open = new QPushButton(tr("&Open…"), this);
    auto* rows = new QHBoxLayout();
    rows->addWidget(add);
    rows->addWidget(remove);
    rows->addStretch(1);
    rows->addWidget(open);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("peListsStatus"));
    m_status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_save = buttons->addButton(tr("&Save…"), QDialogButtonBox::ActionRole);
    m_use = buttons->addButton(tr("Save and &Group by Them"), QDialogButtonBox::AcceptRole);
    m_use->setToolTip(tr("Save, then group the Overview and the Usage Profile by these lists"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("One named list of PEs per row; a PE may be in several "
                                    "lists. The Overview and the Usage Profile group by them "
                                    "(Group: lists…), as parallax-cli groups --by list:FILE."),
        this));
    layout->addWidget(m_table, 1);
    layout->addLayout(rows);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(560, 420);

    connect(add, &QPushButton::clicked, this, [this]() {
        addList(tr("list %1").arg(m_table->rowCount() + 1), {});
        m_table->setCurrentCell(m_table->rowCount() - 1, 1);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 1));
    });
    connect(remove, &QPushButton::clicked, this, [this]() {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
        validate();
    });
    connect(open, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open PE Lists"), m_path, views::peListsFilter());
        if (!path.isEmpty())
            openFile(path);
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this]() { validate(); });
    connect(m_save, &QPushButton::clicked, this, [this]() { save(false); });
    connect(m_use, &QPushButton::clicked, this, [this]() {
        if (save(true))
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

void PeListsDialog::addList(const QString& name, const QString& pes)
{
    const QSignalBlocker block(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(name));
    m_table->setItem(row, 1, new QTableWidgetItem(pes));
    validate();
}

bool PeListsDialog::openFile(const QString& path)
{
    QString error;
    const auto lists = views::readPeListsFile(path, &error);
    if (!lists) {
        m_status->setText(error);
        return false;
    }
    {
        const QSignalBlocker block(m_table);
        m_table->setRowCount(0);
    }
    for (const auto& [name, pes] : *lists)
        addList(QString::fromStdString(name), QString::fromStdString(core::formatPeList(pes)));
    m_path = path;
    validate();
    return true;
}

std::optional<std::vector<core::analysis::NamedPeList>> PeListsDialog::lists() const
{
    std::vector<core::analysis::NamedPeList> out;
    std::set<QString> names;
    QStringList problems;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto* nameItem = m_table->item(row, 0);
        const auto* pesItem = m_table->item(row, 1);
        const QString name = nameItem != nullptr ? nameItem->text().trimmed() : QString();
        const QString text = pesItem != nullptr ? pesItem->text().trimmed() : QString();
        const QString where = tr("Row %1").arg(row + 1);
        if (name.isEmpty())
            problems << tr("%1: the list has no name").arg(where);
        else if (name.contains(QLatin1Char(':')) || name.startsWith(QLatin1Char('#')))
            problems << tr("%1: a name cannot hold ':' or start with '#'").arg(where);
        else if (!names.insert(name).second)
            problems << tr("%1: the name '%2' is used twice").arg(where, name);
        std::vector<core::PeId> pes;
        if (!text.isEmpty()) {
            std::string why;
            const auto parsed = core::parsePeList(text.toStdString(), &why);
            if (!parsed)
                problems << tr("%1: %2").arg(where, QString::fromStdString(why));
            else
                pes = *parsed;
        }
        if (m_processors > 0 && !pes.empty() && pes.back() >= m_processors)
            problems << tr("%1: PE %2 is not in the open run (PEs 0-%3)")
                            .arg(where)
                            .arg(pes.back())
                            .arg(m_processors - 1);
        out.emplace_back(name.toStdString(), std::move(pes));
    }
    m_problems = problems;
    if (!problems.isEmpty())
        return std::nullopt;
    return out;
}

void PeListsDialog::validate()
{
    const auto ok = lists().has_value();
    const bool any = m_table->rowCount() > 0;
    m_save->setEnabled(ok && any);
    m_use->setEnabled(ok && any);
    m_status->setText(!any ? tr("No lists yet: Add one, or Open a file.")
            : ok           ? tr("%n list(s), ready to save", nullptr, m_table->rowCount())
                           : m_problems.join(QLatin1Char('\n')));
}

bool PeListsDialog::saveTo(const QString& path)
{
    const auto checked = lists();
    if (!checked) {
        validate();
        return false;
    }
    QString error;
    if (!views::writePeListsFile(path, *checked, &error)) {
        m_status->setText(error);
        return false;
    }
    m_path = path;
    m_status->setText(tr("Saved %1").arg(path));
    return true;
}

bool PeListsDialog::save(bool group)
{
    QString path = m_path;
    if (path.isEmpty() || !group)
        path = QFileDialog::getSaveFileName(this, tr("Save PE Lists"),
            m_path.isEmpty() ? QStringLiteral("pe-lists.txt") : m_path, views::peListsFilter());
    if (path.isEmpty() || !saveTo(path))
        return false;
    emit listsSaved(path, group);
    return true;
}

} // namespace parallax::app
