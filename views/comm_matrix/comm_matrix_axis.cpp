#include "views/comm_matrix/comm_matrix_axis.h"

#include "core/analysis/pe_groups.h"

#include <QObject>

#include <algorithm>

namespace parallax::views {

namespace {

CommAxisItem peItem(const core::RunMetadata& metadata, core::PeId pe, const std::string& parent)
{
    CommAxisItem item;
    item.label = metadata.isCommThread(pe) ? QObject::tr("PE %1 (comm)").arg(pe)
                                           : QObject::tr("PE %1").arg(pe);
    item.pes = { pe };
    item.parent = parent;
    return item;
}

void addGroup(const core::analysis::PeGroup& group, const core::RunMetadata& metadata,
    const std::set<std::string>& expanded, const std::string& parent,
    std::vector<CommAxisItem>& out)
{
    if (!expanded.contains(group.name)) {
        CommAxisItem item;
        item.label = QString::fromStdString(group.name);
        item.pes = group.pes;
        item.group = group.name;
        item.parent = parent;
        out.push_back(std::move(item));
        return;
    }
    if (!group.children.empty()) {
        for (const auto& child : group.children)
            addGroup(child, metadata, expanded, group.name, out);
        return;
    }
    for (const auto pe : group.pes)
        out.push_back(peItem(metadata, pe, group.name));
}

} // namespace

std::vector<CommAxisItem> buildCommAxis(const core::analysis::CommMatrix& matrix,
    const core::RunMetadata& metadata, CommAxisMode mode, const std::set<std::string>& expanded,
    std::size_t maxItems)
{
    std::vector<CommAxisItem> out;
    if (mode == CommAxisMode::Nodes) {
        std::vector<int> nodes;
        const auto axis = core::analysis::commNodeAxis(matrix, metadata, &nodes);
        for (std::size_t k = 0; k < axis.size(); ++k) {
            CommAxisItem item;
            item.label = QObject::tr("node %1").arg(nodes[k]);
            item.pes = axis[k];
            out.push_back(std::move(item));
        }
        return out;
    }
    const auto groups = core::analysis::axisGroups(metadata, matrix.pes, maxItems);
    if (!groups.empty()) {
        for (const auto& group : groups)
            addGroup(group, metadata, expanded, {}, out);
        return out;
    }
    auto pes = matrix.pes;
    if (mode == CommAxisMode::PesByNode)
        std::stable_sort(pes.begin(), pes.end(), [&](core::PeId a, core::PeId b) {
            const int na = metadata.nodeOf(a);
            const int nb = metadata.nodeOf(b);
            if (na != nb)
                return na < nb;
            return metadata.isCommThread(a) == metadata.isCommThread(b) ? a < b
                                                                        : metadata.isCommThread(b);
        });
    for (const auto pe : pes)
        out.push_back(peItem(metadata, pe, {}));
    return out;
}

} // namespace parallax::views
