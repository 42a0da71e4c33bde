#pragma once

#include "core/analysis/comm_matrix.h"
#include "views/comm_matrix/comm_matrix_axis.h"
#include "views/common/heat_map_view.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;

namespace parallax::views {

// Communication per Processor: who sent how many messages (or bytes) to whom, as a sender ×
// receiver heat map with the PEs' totals as bars beside it (sent at the right of each row,
// received above each column), the heaviest sender and receiver outlined. Relays by comm threads
// count once, from worker to worker (core::analysis::computeCommMatrix). Options: messages or
// bytes; PEs by id, PEs by node, or nodes; messages between nodes only. Above ~200 PEs the axes
// show groups (nodes or blocks of PEs); a click on a group's label or cell expands it in place.
// A click on a PE × PE cell opens both PEs in the Timeline.
class CommMatrixView : public HeatMapView {
    Q_OBJECT
public:
    explicit CommMatrixView(EntryPalette* palette, QWidget* parent = nullptr);

    // src_pe,dst_pe,messages,bytes as `parallax-cli comm-matrix` (nodes: src_node,dst_node,...).
    [[nodiscard]] QString csv() const override;
    // "metric" (messages, bytes), "by" (pe, pe-by-node, node), "external" (on, off).
    bool applyOptions(const std::map<QString, QString>& options, QString* error) override;

    // For tests and the app.
    [[nodiscard]] const std::optional<core::analysis::CommMatrix>& result() const
    {
        return m_result;
    }
    [[nodiscard]] const std::vector<CommAxisItem>& axis() const { return m_axis; }
    [[nodiscard]] bool showsBytes() const;
    [[nodiscard]] CommAxisMode axisMode() const;
    // Expands (or collapses) a group of the axis by name and redraws.
    void setExpanded(const std::string& group, bool expanded);

private:
    void recompute() override;
    void clearResult() override;
    void rebuildChart();
    void itemClicked(std::size_t item);
    void cellClicked(int row, int column);
    void showContextMenu(QPoint globalPos, int row, int column);
    [[nodiscard]] QString cellToolTip(std::size_t row, std::size_t column) const;

    QComboBox* m_metric = nullptr;
    QComboBox* m_axisMode = nullptr;
    QCheckBox* m_external = nullptr;
    std::optional<core::analysis::CommMatrix> m_result;
    core::analysis::CommCells m_cells;
    std::vector<CommAxisItem> m_axis;
    std::set<std::string> m_expanded;
    QString m_requestKey; // inputs of the last computation: a new metric or axis needs none
};

} // namespace parallax::views
