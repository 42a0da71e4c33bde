#pragma once

#include "core/analysis/analysis_request.h"
#include "core/analysis/entry_ranking.h"

#include <QColor>
#include <QHash>
#include <QObject>
#include <QString>

#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::views {

// WCAG relative luminance of a colour (0 black .. 1 white).
[[nodiscard]] double relativeLuminance(const QColor& color);
// `color` with at least the saturation and at most the lightness and luminance an entry
// colour needs to stand apart from idle and the background.
[[nodiscard]] QColor legibleEntryColor(const QColor& color);

// The colour of every activity, the same in every view: entry methods get distinct colours
// from a colour-blind-safe qualitative palette by their share of the run's time (the heaviest
// entry method the first, most distinct colour; see setRun()), never a pastel that could pass
// for idle. Overhead is a quiet mid grey, idle a light grey, pack black and unpack dark grey
// (Projections draws unpack orange, which the palette gives to the second-heaviest entry). A
// user's choice for an entry is kept by entry name and wins over the ranking, so it survives
// reopening the run (the app stores overrides() in QSettings).
class EntryPalette : public QObject {
    Q_OBJECT
public:
    explicit EntryPalette(QObject* parent = nullptr);

    // Activity column (core::analysis::ActivityColumns) -> colour.
    [[nodiscard]] QColor color(const core::analysis::ActivityColumns& columns, int column) const;
    [[nodiscard]] QColor entryColor(int entry) const;
    [[nodiscard]] static QColor overheadColor();
    [[nodiscard]] static QColor idleColor();
    [[nodiscard]] static QColor packColor();
    [[nodiscard]] static QColor unpackColor();

    // The colour of the entry method ranked `rank` by time (0 = heaviest), without overrides.
    [[nodiscard]] static QColor rankColor(int rank);

    // The run whose entries are coloured: names (for the overrides) and the ranking by time
    // (core::analysis::rankEntriesByTime). Null: no run.
    void setRun(const core::Trace* trace);
    // Entry names of the current run (for name-based overrides); keeps the ranking.
    void setEntryNames(std::vector<QString> names);
    // The run's entry ids, heaviest first (the legend's and the entry chooser's order).
    [[nodiscard]] const std::vector<core::EntryId>& entryOrder() const { return m_ranking.order; }
    void setEntryColor(int entry, const QColor& color);
    void resetEntryColor(int entry);
    [[nodiscard]] const QHash<QString, QColor>& overrides() const { return m_overrides; }
    void setOverrides(QHash<QString, QColor> overrides);

signals:
    void changed();

private:
    std::vector<QString> m_names;
    core::analysis::EntryRanking m_ranking; // of the current run, computed once in setRun()
    QHash<QString, QColor> m_overrides; // entry name -> colour
};

} // namespace parallax::views
