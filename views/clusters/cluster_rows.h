#pragma once

#include "core/analysis/clustering.h"

#include <QRect>
#include <QString>

#include <utility>
#include <vector>

class QPainter;

namespace parallax::views {

// One non-empty cluster as the Clusters view lists it.
struct ClusterRow {
    int cluster = 0;
    int size = 0;
    core::PeId exemplar = core::kNoPe;
    double exemplarDistance = 0; // µs
    std::vector<std::pair<core::PeId, double>> outliers; // (PE, distance µs), farthest first
    double meanDistance = 0; // µs
};

// The non-empty clusters in cluster order.
std::vector<ClusterRow> clusterRows(const core::analysis::PeClustering& clustering);

// "3, 17, 40 … (12 in all)": the first `shown` outlier PEs, farthest first; "none".
QString outliersText(const ClusterRow& row, std::size_t shown);

// The cluster rows and the sweep as text tables inside `area` (for the exported picture, where
// the view's table widgets are not drawn): clusters on the left, the sweep on the right, as many
// rows as fit, then "… N more".
void paintClusterTables(QPainter& painter, QRect area, const std::vector<ClusterRow>& rows,
    const core::analysis::PeClustering& clustering);

} // namespace parallax::views
