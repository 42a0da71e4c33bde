#include "views/common/entry_chooser.h"

#include "core/run_metadata.h"
#include "core/trace.h"
#include "views/common/entry_palette.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace parallax::views {

namespace {

QString entryLabel(const core::RunMetadata& metadata, core::EntryId id)
{
    const auto& e = metadata.entries[static_cast<std::size_t>(id)];
    QString chare;
    if (e.chare >= 0 && static_cast<std::size_t>(e.chare) < metadata.chares.size())
        chare = QString::fromStdString(metadata.chares[static_cast<std::size_t>(e.chare)].name);
    const QString name = QString::fromStdString(e.name);
    return chare.isEmpty() ? name : chare + QStringLiteral("::") + name;
}

} // namespace

EntryChooser::EntryChooser(const core::RunMetadata& metadata,
    const std::vector<core::EntryId>& order, const std::vector<core::EntryId>& checked,
    const EntryPalette* palette, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Choose Entry Methods"));
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("entrySearch"));
    m_search->setPlaceholderText(tr("Search entry methods"));
    m_search->setClearButtonEnabled(true);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("entryList"));
    m_count = new QLabel(this);
    for (const core::EntryId id : order) {
        if (id < 0 || static_cast<std::size_t>(id) >= metadata.entries.size())
            continue;
        auto* item = new QListWidgetItem(entryLabel(metadata, id), m_list);
        item->setData(Qt::UserRole, id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool on = checked.empty() || std::binary_search(checked.begin(), checked.end(), id);
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        if (palette != nullptr) {
            QPixmap swatch(12, 12);
            swatch.fill(palette->entryColor(id));
            item->setIcon(QIcon(swatch));
        }
    }
    auto* all = new QPushButton(tr("&All"), this);
    auto* none = new QPushButton(tr("&None"), this);
    all->setToolTip(tr("Check every entry method shown"));
    none->setToolTip(tr("Uncheck every entry method shown"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* row = new QHBoxLayout;
    row->addWidget(all);
    row->addWidget(none);
    row->addWidget(m_count, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(480, 520);

    connect(m_search, &QLineEdit::textChanged, this, &EntryChooser::filter);
    connect(all, &QPushButton::clicked, this, [this]() { setShownChecked(true); });
    connect(none, &QPushButton::clicked, this, [this]() { setShownChecked(false); });
    connect(m_list, &QListWidget::itemChanged, this, [this]() { updateCount(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateCount();
}

std::vector<core::EntryId> EntryChooser::selected() const
{
    std::vector<core::EntryId> ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            ids.push_back(m_list->item(i)->data(Qt::UserRole).toInt());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void EntryChooser::setShownChecked(bool checked)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (!m_list->item(i)->isHidden())
            m_list->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void EntryChooser::filter(const QString& text)
{
    const QString t = text.trimmed();
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setHidden(
            !t.isEmpty() && !m_list->item(i)->text().contains(t, Qt::CaseInsensitive));
}

void EntryChooser::updateCount()
{
    const auto n = selected().size();
    m_count->setText(tr("%1 of %2 checked").arg(n).arg(m_list->count()));
}

EntriesButton::EntriesButton(
    std::function<QString(const std::vector<core::EntryId>&)> tooltip, QWidget* parent)
    : QPushButton(parent)
    , m_tooltip(std::move(tooltip))
{
    setObjectName(QStringLiteral("chooseEntries"));
    refresh(nullptr);
}

bool EntriesButton::choose(std::vector<core::EntryId> entries, const core::Trace* trace)
{
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    if (trace != nullptr && entries.size() >= trace->metadata.entryCount())
        entries.clear(); // every entry method: no filter
    if (entries == m_entries)
        return false;
    assign(std::move(entries), trace);
    return true;
}

void EntriesButton::assign(std::vector<core::EntryId> entries, const core::Trace* trace)
{
    m_entries = std::move(entries);
    refresh(trace);
}

std::optional<std::vector<core::EntryId>> EntriesButton::ask(const core::Trace& trace,
    const std::vector<core::EntryId>& order, const EntryPalette* palette, QWidget* view)
{
    EntryChooser chooser(trace.metadata, order, m_entries, palette, view);
    if (chooser.exec() != QDialog::Accepted)
        return std::nullopt;
    return chooser.selected();
}

void EntriesButton::refresh(const core::Trace* trace)
{
    if (m_namesSingle && m_entries.size() == 1 && trace != nullptr)
        setText(
            EntryChooser::tr("&Entries: %1…")
                .arg(
                    QString::fromStdString(trace->metadata.entryName(m_entries.front())).left(32)));
    else
        setText(m_entries.empty() ? EntryChooser::tr("&Entries: all…")
                                  : EntryChooser::tr("&Entries: %1…").arg(m_entries.size()));
    setToolTip(m_tooltip(m_entries));
}

} // namespace parallax::views
