#pragma once

#include "core/trace.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QTreeWidget;

namespace parallax::views {

// What was odd about the input of a loaded run (core::ImportReport): one row per problem kind
// that occurred, with its severity, description and count, and under it the first examples with
// file:line. Informational kinds (Severity::Info) are hidden unless "Show notes" is checked.
class ImportReportWidget : public QWidget {
    Q_OBJECT
public:
    explicit ImportReportWidget(QWidget* parent = nullptr);

    // Shows trace->report (the trace keeps the report alive); null clears.
    void setTrace(core::TracePtr trace);
    void setShowInfo(bool show);
    [[nodiscard]] bool showInfo() const;

    // Number of problem kinds currently listed (for tests).
    [[nodiscard]] int listedKinds() const;
    // The one-line summary above the list.
    [[nodiscard]] QString summaryText() const;

private:
    void rebuild();

    core::TracePtr m_trace;
    QLabel* m_summary = nullptr;
    QCheckBox* m_showInfo = nullptr;
    QTreeWidget* m_tree = nullptr;
};

} // namespace parallax::views
