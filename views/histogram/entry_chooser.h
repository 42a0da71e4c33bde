#pragma once

#include "core/types.h"

#include <QDialog>

#include <vector>

class QLineEdit;
class QListWidget;
class QLabel;

namespace parallax::core {
struct RunMetadata;
}

namespace parallax::views {

class EntryPalette;

// "Choose Entries…" of the histogram: the run's entry methods as a checkable list with their
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

} // namespace parallax::views
