#include "views/common/entry_palette.h"

#include "core/analysis/entry_ranking.h"
#include "core/trace.h"

#include <algorithm>
#include <cmath>

namespace parallax::views {

namespace {

// A qualitative palette for colour-blind readers, most distinct first: the Okabe-Ito colours
// without its yellow and black (yellow vanishes on the light idle grey, black is pack), then
// saturated colours from Paul Tol's muted scheme. The heaviest entry method of the run gets the
// first one, the next ones the following.
constexpr QRgb kBase[] = {
    0x0072b2, // blue
    0xe69f00, // orange
    0x009e73, // bluish green
    0xd55e00, // vermillion
    0xcc79a7, // reddish purple
    0x56b4e9, // sky blue
    0x882255, // wine
    0x332288, // indigo
    0x999933, // olive
    0x44aa99, // teal
    0xaa4499, // purple
    0x661100, // brown
};
constexpr int kBaseCount = static_cast<int>(sizeof(kBase) / sizeof(kBase[0]));

// Limits that keep every entry colour readable against idle and white: never pastel (a
// minimum saturation), never near white (a maximum lightness and luminance).
constexpr double kMinSaturation = 0.40;
constexpr double kMaxLightness = 0.60;
constexpr double kMaxLuminance = 0.45; // idle (#e6e6e6) is 0.79

double channel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

double relativeLuminance(const QColor& color)
{
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF());
}

QColor legibleEntryColor(const QColor& color)
{
    float h = 0;
    float s = 0;
    float l = 0;
    float a = 0;
    color.getHslF(&h, &s, &l, &a);
    if (h < 0)
        h = 0; // achromatic input: give it a hue so that it is not a grey
    s = std::max(s, static_cast<float>(kMinSaturation));
    l = std::min(l, static_cast<float>(kMaxLightness));
    QColor c = QColor::fromHslF(h, s, l, a);
    while (relativeLuminance(c) > kMaxLuminance && l > 0.2F) {
        l -= 0.02F;
        c = QColor::fromHslF(h, s, l, a);
    }
    return c;
}

QColor EntryPalette::rankColor(int rank)
{
    const int r = std::max(rank, 0);
    const QColor base = QColor::fromRgb(kBase[r % kBaseCount]);
    const int round = r / kBaseCount;
    if (round == 0)
        return base;
    // Beyond the palette: darker and shifted variants of the same hues, made legible.
    float h = 0;
    float s = 0;
    float l = 0;
    float a = 0;
    base.getHslF(&h, &s, &l, &a);
    const float shift = static_cast<float>(round) * 0.045F;
    h = std::fmod(h + shift, 1.0F);
    l = round % 2 == 1 ? l * 0.72F : std::min(l * 1.18F, static_cast<float>(kMaxLightness));
    return legibleEntryColor(QColor::fromHslF(h, s, l, a));
}

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
    const int rank = static_cast<std::size_t>(e) < m_ranking.rank.size()
        ? m_ranking.rank[static_cast<std::size_t>(e)]
        : e;
    return rankColor(rank);
}

QColor EntryPalette::overheadColor()
{
    return QColor(0x76, 0x76, 0x76);
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
    // A neutral dark grey, like pack (near black) and overhead: runtime work, not an entry
    // method. Projections' orange would be taken for the second-heaviest entry method, which
    // gets the palette's orange.
    return QColor(0x4d, 0x4d, 0x4d);
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

void EntryPalette::setRun(const core::Trace* trace)
{
    std::vector<QString> names;
    core::analysis::EntryRanking ranking;
    if (trace != nullptr) {
        for (const auto& entry : trace->metadata.entries)
            names.push_back(QString::fromStdString(entry.name));
        ranking = core::analysis::rankEntriesByTime(*trace);
    }
    m_names = std::move(names);
    m_ranking = std::move(ranking);
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
