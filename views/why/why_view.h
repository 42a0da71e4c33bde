#pragma once

#include "core/analysis/critical_path.h"
#include "core/analysis/idle_blame.h"
#include "views/common/table_analysis_view.h"

#include <optional>

class QComboBox;

namespace parallax::views {

// "Why": the critical path and the idle blame of docs/why.md as tables, one at a time by the
// chooser: the critical path step by step (its exec/message/wait totals and the entry method
// with the most time on it in the heading), the path's time per entry method, the
// idle blamed on producer PE and entry per consumer PE (as `parallax-cli idle-blame --by
// detail`), and the idle each entry method or PE caused (`idle-blame --caused`). A double-click
// opens the Timeline at the step, or at the largest idle period the row counts.
class WhyView : public TableAnalysisView {
    Q_OBJECT
public:
    enum class Table { CriticalPath, PathByEntry, BlameByPe, CausedByEntry, CausedByPe };

    explicit WhyView(EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] Table shownTable() const;
    void setShownTable(Table table);

    struct Result {
        core::analysis::CriticalPath path;
        std::vector<core::analysis::CriticalEntryShare> pathByEntry;
        core::analysis::IdleBlame blame;
    };
    [[nodiscard]] const std::optional<Result>& result() const { return m_result; }
    // The base's state plus "show" (the table chosen).
    [[nodiscard]] State saveState() const override;

protected:
    void recompute() override;
    void clearResult() override { m_result.reset(); }
    // "show": critical-path, path-entry, blame-pe, caused-entry or caused-pe.
    bool applyViewOption(const QString& name, const QString& value, QString* error) override;

private:
    void display();

    QComboBox* m_chooser = nullptr;
    std::optional<Result> m_result;
};

} // namespace parallax::views
