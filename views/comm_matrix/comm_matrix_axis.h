#pragma once

#include "core/analysis/comm_matrix.h"
#include "core/analysis/pe_groups.h"
#include "core/run_metadata.h"

#include <QString>

#include <set>
#include <string>
#include <vector>

namespace parallax::views {

// The axis of the Communication per Processor matrix (the same for senders and receivers).
enum class CommAxisMode {
    Pes, // one item per PE, in PE order
    PesByNode, // one item per PE, node after node (comm threads after their node's workers)
    Nodes, // one item per SMP node
};

// One row (and column) of the matrix: a PE, a node, or a collapsed group of PEs.
struct CommAxisItem {
    QString label; // "PE 3", "PE 4 (comm)", "node 1", "PEs 0-63"
    std::vector<core::PeId> pes;
    std::string group; // a collapsed group: its name (a click expands it); empty otherwise
    std::string parent; // the expanded group this item came from (empty at the top level)
};

// The axis for a matrix. Above `maxItems` PEs the PE modes start from groups (SMP nodes, else
// blocks of PEs, core::analysis::axisGroups), each a single item until its name is in `expanded`,
// when its sub-groups or its PEs take its place; so the axis stays about `maxItems` long however
// many PEs the run has.
std::vector<CommAxisItem> buildCommAxis(const core::analysis::CommMatrix& matrix,
    const core::RunMetadata& metadata, CommAxisMode mode, const std::set<std::string>& expanded,
    std::size_t maxItems = core::analysis::kMaxAxisRows);

} // namespace parallax::views
