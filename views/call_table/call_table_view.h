#pragma once

#include "core/analysis/call_table.h"
#include "views/common/table_analysis_view.h"

#include <optional>

namespace parallax::views {

// The Call Table: for each entry method, the entry methods (and PEs) that sent the messages
// that started its executions, with counts, bytes and send-to-begin latencies
// (core/analysis/call_table.h). Messages relayed by SMP comm threads are followed back to the
// PE that sent them. A row opens the caller PE's Timeline over the range.
class CallTableView : public TableAnalysisView {
    Q_OBJECT
public:
    explicit CallTableView(EntryPalette* palette, QWidget* parent = nullptr);

    [[nodiscard]] const std::optional<core::analysis::CallTable>& result() const
    {
        return m_result;
    }

protected:
    void recompute() override;
    void clearResult() override { m_result.reset(); }
    [[nodiscard]] bool takesEntries() const override { return true; }

private:
    void show(core::analysis::CallTable table);

    std::optional<core::analysis::CallTable> m_result;
};

} // namespace parallax::views
