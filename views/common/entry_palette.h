#pragma once

#include "core/analysis/analysis_request.h"

#include <QColor>
#include <QHash>
#include <QObject>
#include <QString>

#include <vector>

namespace parallax::views {

// The colour of every activity, the same in every view: entry methods get distinct colours
// from a qualitative palette (by entry id), overhead is dark grey, idle a light grey, pack
// black and unpack orange (as in Projections). A user's choice for an entry is kept by entry
// name, so it survives reopening the run (the app stores overrides() in QSettings).
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

    // Entry names of the current run (for name-based overrides).
    void setEntryNames(std::vector<QString> names);
    void setEntryColor(int entry, const QColor& color);
    void resetEntryColor(int entry);
    [[nodiscard]] const QHash<QString, QColor>& overrides() const { return m_overrides; }
    void setOverrides(QHash<QString, QColor> overrides);

signals:
    void changed();

private:
    std::vector<QString> m_names;
    QHash<QString, QColor> m_overrides; // entry name -> colour
};

} // namespace parallax::views
