#pragma once

#include "core/analysis/memory_usage.h"
#include "views/common/line_chart_view.h"

#include <optional>

class QComboBox;

namespace parallax::views {

// Memory Usage: the memory in use (MEMORY_USAGE records) over time, as the mean over the
// selected PEs with the band from the lowest to the highest PE (and, for a few PEs, each PE's
// line), or per PE as bars of its peak in the range. A PE keeps its last level between samples.
// A click on a line, the band or a bar opens the Timeline of that PE (or of the PEs at the
// band's edges) there.
class MemoryView : public LineChartView {
    Q_OBJECT
public:
    explicit MemoryView(EntryPalette* palette, QWidget* parent = nullptr);

    // The CSV of `parallax-cli memory` (--by time, or --by pe when showing PEs).
    [[nodiscard]] QString csv() const override;
    // "by" (time or pe), "interval", "bins".
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    [[nodiscard]] const std::optional<core::analysis::MemoryUsage>& result() const
    {
        return m_result;
    }

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    [[nodiscard]] BarPes pesOfBar(int category) const override;
    [[nodiscard]] bool perPe() const;

    QComboBox* m_by = nullptr;
    std::optional<core::analysis::MemoryUsage> m_result;
    QString m_message; // why there is no result
};

} // namespace parallax::views
