#pragma once

#include "core/analysis/pe_groups.h"

#include <QDialog>
#include <QString>

#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace parallax::app {

// View → PE Lists…: a small editor of named PE lists, the files the Overview and the Usage
// Profile group by ("Group: lists…") and `parallax-cli groups --by list:FILE` reads. One row per
// list: its name and its PEs in the options bar's syntax ("0-15,32"); every edit is checked (a
// name, not repeated, without ':'; a valid PE list within the open run) and the problems are
// named under the table. Save writes the file atomically (a temporary sibling renamed at the
// end); "Save and Group by Them" also asks the views to group by the file.
class PeListsDialog : public QDialog {
    Q_OBJECT
public:
    // `processors`: the open run's PE count, to check the lists against (0: no run).
    explicit PeListsDialog(int processors, QWidget* parent = nullptr);

    // Reads a file into the table; false (and a message in the dialog) when it cannot.
    bool openFile(const QString& path);
    // The lists as typed; nullopt when one of them is not valid (problems() says why).
    [[nodiscard]] std::optional<std::vector<core::analysis::NamedPeList>> lists() const;
    [[nodiscard]] const QStringList& problems() const { return m_problems; }
    // Writes the lists to `path` (atomically); false with the reason shown in the dialog.
    bool saveTo(const QString& path);
    [[nodiscard]] const QString& path() const { return m_path; }

    // For tests.
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] QPushButton* saveButton() const { return m_save; }
    [[nodiscard]] QPushButton* useButton() const { return m_use; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    void addList(const QString& name, const QString& pes);

signals:
    // The lists were saved to `path`; `group`: the user asked to group the views by them.
    void listsSaved(const QString& path, bool group);

private:
    void validate();
    bool save(bool group);

    int m_processors = 0;
    QString m_path;
    QTableWidget* m_table = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_use = nullptr;
    mutable QStringList m_problems; // of the last check (lists())
};

} // namespace parallax::app
