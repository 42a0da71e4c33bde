#pragma once

#include "core/types.h"

#include <QDialog>
#include <QPushButton>

#include <functional>
#include <optional>
#include <vector>

class QLineEdit;
class QListWidget;
class QLabel;

namespace parallax::core {
struct RunMetadata;
struct Trace;
} // namespace parallax::core

namespace parallax::views {

class EntryPalette;

// "Choose Entries…" (EntriesButton): the run's entry methods as a checkable list with their
// colours, heaviest first, a search field that filters the list, and All / None buttons (which
// act on the rows shown). selected() is the checked entry ids, sorted.
class EntryChooser : public QDialog {
    Q_OBJECT
public:
    // `order`: entry ids in the order to list them; `checked`: ids checked (empty = all).
    EntryChooser(const core::RunMetadata& metadata, const std::vector<core::EntryId>& order,
        const std::vector<core::EntryId>& checked, const EntryPalette* palette,
        QWidget* parent = nullptr);

    [[nodiscard]] std::vector<core::EntryId> selected() const;
    // Checks (or unchecks) every row the search leaves shown.
    void setShownChecked(bool checked);

    // For tests.
    [[nodiscard]] QLineEdit* searchField() const { return m_search; }
    [[nodiscard]] QListWidget* list() const { return m_list; }

private:
    void filter(const QString& text);
    void updateCount();

    QLineEdit* m_search = nullptr;
    QListWidget* m_list = nullptr;
    QLabel* m_count = nullptr;
};

// The "Entries…" button of a view that counts only some entry methods (histogram, message
// size evolution): it holds the chosen entry ids (empty = every entry method), says how many on
// its face and in its tooltip, and opens an EntryChooser.
class EntriesButton : public QPushButton {
public:
    // `tooltip(entries)`: what the button does, given the ids chosen.
    EntriesButton(std::function<QString(const std::vector<core::EntryId>&)> tooltip,
        QWidget* parent = nullptr);

    [[nodiscard]] const std::vector<core::EntryId>& entries() const { return m_entries; }
    // Names the only chosen entry method on the face (`trace`'s name, cut to 32 characters)
    // instead of counting it.
    void setNamesSingleEntry(bool names) { m_namesSingle = names; }
    // Takes `entries` sorted, without repeats, and none when they are every entry method of
    // `trace` (no filter); false when that is the choice already.
    bool choose(std::vector<core::EntryId> entries, const core::Trace* trace);
    // Takes `entries` as they are (--entries of a view that keeps the list as given).
    void assign(std::vector<core::EntryId> entries, const core::Trace* trace);
    // Opens "Choose Entries…" (a child of `view`) over `trace`'s entry methods listed in
    // `order`: the checked ids, or nothing when it was cancelled.
    std::optional<std::vector<core::EntryId>> ask(const core::Trace& trace,
        const std::vector<core::EntryId>& order, const EntryPalette* palette, QWidget* view);
    // Redraws the face for `trace` (whose names it shows).
    void refresh(const core::Trace* trace);

private:
    std::function<QString(const std::vector<core::EntryId>&)> m_tooltip;
    std::vector<core::EntryId> m_entries;
    bool m_namesSingle = false;
};

} // namespace parallax::views
