#include "views/common/entry_palette.h"

namespace parallax::views {

namespace {

// Tableau-like qualitative colours, then lighter and darker variants for many entries.
constexpr QRgb kBase[] = {
    0x4e79a7,
    0xf28e2b,
    0xe15759,
    0x76b7b2,
    0x59a14f,
    0xedc948,
    0xb07aa1,
    0xff9da7,
    0x9c755f,
    0x86bcb6,
    0x499894,
    0xd37295,
    0x8cd17d,
    0xb6992d,
    0xf1ce63,
    0x9467bd,
    0xd4a6c8,
    0xa0cbe8,
    0xffbe7d,
    0x2f6b9a,
};
constexpr int kBaseCount = static_cast<int>(sizeof(kBase) / sizeof(kBase[0]));

} // namespace

EntryPalette::EntryPalette(QObject* parent)
    : QObject(parent)
{ }

QColor EntryPalette::entryColor(int entry) const
{
    if (entry >= 0 && static_cast<std::size_t>(entry) < m_names.size()) {
        const auto it = m_overrides.find(m_names[static_cast<std::size_t>(entry)]);
        if (it != m_overrides.end())
            return it.value();
    }
    const int e = entry < 0 ? 0 : entry;
    QColor c = QColor::fromRgb(kBase[e % kBaseCount]);
    const int round = (e / kBaseCount) % 3;
    if (round == 1)
        c = c.lighter(135);
    else if (round == 2)
        c = c.darker(135);
    return c;
}

QColor EntryPalette::overheadColor()
{
    return QColor(0x3a, 0x3a, 0x3a);
}
QColor EntryPalette::idleColor()
{
    return QColor(0xe6, 0xe6, 0xe6);
}
QColor EntryPalette::packColor()
{
    return QColor(0x10, 0x10, 0x10);
}
QColor EntryPalette::unpackColor()
{
    return QColor(0xff, 0x8c, 0x00);
}

QColor EntryPalette::color(const core::analysis::ActivityColumns& columns, int column) const
{
    if (columns.isEntry(column))
        return entryColor(column);
    if (column == columns.overhead())
        return overheadColor();
    if (column == columns.idle())
        return idleColor();
    if (column == columns.pack())
        return packColor();
    return unpackColor();
}

void EntryPalette::setEntryNames(std::vector<QString> names)
{
    m_names = std::move(names);
    emit changed();
}

void EntryPalette::setEntryColor(int entry, const QColor& color)
{
    if (entry < 0 || static_cast<std::size_t>(entry) >= m_names.size())
        return;
    m_overrides.insert(m_names[static_cast<std::size_t>(entry)], color);
    emit changed();
}

void EntryPalette::resetEntryColor(int entry)
{
    if (entry < 0 || static_cast<std::size_t>(entry) >= m_names.size())
        return;
    m_overrides.remove(m_names[static_cast<std::size_t>(entry)]);
    emit changed();
}

void EntryPalette::setOverrides(QHash<QString, QColor> overrides)
{
    m_overrides = std::move(overrides);
    emit changed();
}

} // namespace parallax::views
