// TimelineView's groups of PEs: collapsing rows into groups (by hand, by node, or whenever more
// PEs are shown than fit), the groups' context menu and how groups are drawn (SUM/SET/KEY).

#include "core/analysis/pe_groups.h"
#include "core/text_args.h"
#include "views/timeline/timeline_view.h"

#include <QComboBox>
#include <QMenu>

#include <algorithm>
#include <map>

namespace parallax::views {

bool TimelineView::collapsePeList(const QString& text, QString* error)
{
    const auto pes = parsePes(text, error);
    if (!pes)
        return false;
    const auto& shown = m_timeline->pes();
    std::vector<core::PeId> members;
    for (const auto pe : *pes)
        if (std::find(shown.begin(), shown.end(), pe) != shown.end())
            members.push_back(pe);
    if (members.empty()) {
        if (error != nullptr)
            *error = tr("none of these PEs is shown");
        return false;
    }
    m_timeline->collapse(members,
        members.size() == 1
            ? tr("PE %1").arg(members.front())
            : tr("PEs %1").arg(QString::fromStdString(core::formatPeList(members))));
    updateStatus();
    return true;
}

void TimelineView::groupExcessRows()
{
    if (!m_trace)
        return;
    const auto max = core::analysis::kMaxAxisRows;
    // When the shown PEs fit, the groups made for want of room go (the user's stay).
    const auto& groups = m_timeline->groups();
    if (m_timeline->pes().size() <= max) {
        for (auto g = static_cast<int>(groups.size()) - 1; g >= 0; --g)
            if (groups[static_cast<std::size_t>(g)].automatic)
                m_timeline->ungroup(g);
        return;
    }
    if (m_timeline->rowSources().size() <= max)
        return;
    // More rows than a screen can show: the PEs not in a group yet are grouped into SMP nodes
    // or blocks of PEs (expand one to see its PEs), so the rows stay about 200 (a group takes
    // four rows in KEY).
    const std::size_t perGroup
        = m_timeline->groupMode() == core::analysis::AggregationMode::Key ? 4 : 1;
    std::vector<bool> grouped(m_trace->pes.size(), false);
    for (const auto& g : groups)
        for (const auto pe : g.pes)
            if (pe >= 0 && static_cast<std::size_t>(pe) < grouped.size())
                grouped[static_cast<std::size_t>(pe)] = true;
    std::vector<core::PeId> loose;
    for (const auto pe : m_timeline->pes())
        if (pe >= 0 && static_cast<std::size_t>(pe) < grouped.size()
            && !grouped[static_cast<std::size_t>(pe)])
            loose.push_back(pe);
    std::sort(loose.begin(), loose.end());
    const auto room
        = std::max<std::size_t>((max - std::min(max, groups.size() * perGroup)) / perGroup, 1);
    std::vector<TimelineWidget::GroupSpec> made;
    for (auto& group : core::analysis::axisGroups(m_trace->metadata, loose, room))
        made.emplace_back(std::move(group.pes), QString::fromStdString(group.name));
    m_timeline->collapseAll(made, true);
}

void TimelineView::setGroupMode(core::analysis::AggregationMode mode)
{
    const bool key = mode == core::analysis::AggregationMode::Key;
    const bool wasKey = m_timeline->groupMode() == core::analysis::AggregationMode::Key;
    m_timeline->setGroupMode(mode);
    if (key == wasKey)
        return;
    // KEY draws four rows per group: the automatic groups are made again, fewer or more.
    const auto& groups = m_timeline->groups();
    for (auto g = static_cast<int>(groups.size()) - 1; g >= 0; --g)
        if (groups[static_cast<std::size_t>(g)].automatic)
            m_timeline->ungroup(g);
    groupExcessRows();
    updateStatus();
}

void TimelineView::collapseNodes()
{
    if (!m_trace || !m_trace->metadata.smp)
        return;
    const auto& meta = m_trace->metadata;
    std::map<int, std::vector<core::PeId>> nodes;
    for (const auto pe : m_timeline->pes())
        nodes[meta.nodeOf(pe)].push_back(pe);
    for (const auto& [node, pes] : nodes)
        m_timeline->collapse(pes, tr("node %1").arg(node));
    updateStatus();
}

void TimelineView::addGroupActions(QMenu& menu, int group)
{
    const auto& groups = m_timeline->groups();
    if (group < 0 || static_cast<std::size_t>(group) >= groups.size())
        return;
    const auto& g = groups[static_cast<std::size_t>(group)];
    menu.addAction(g.expanded
            ? tr("Collapse %1").arg(g.label)
            : tr("Expand %1 (show its %n PE(s) under it)", nullptr, static_cast<int>(g.pes.size()))
                  .arg(g.label),
        this, [this, group]() { m_timeline->toggleGroup(group); });
    menu.addAction(tr("Ungroup %1").arg(g.label), this, [this, group]() {
        m_timeline->ungroup(group);
        updateStatus();
    });
    if (groups.size() > 1)
        menu.addAction(tr("Ungroup all"), m_timeline, &TimelineWidget::expandAll);
    // Drill down: the group's key PEs on their own.
    std::vector<core::PeId> keys;
    for (const auto pe : m_timeline->keyPes(group))
        if (pe != core::kNoPe)
            keys.push_back(pe);
    if (keys.size() > 1)
        menu.addAction(tr("Show only the key PEs of %1 (%2)")
                           .arg(g.label, QString::fromStdString(core::formatPeList(keys))),
            this, [this, keys]() { setPes(keys); });
    menu.addSeparator();
}

bool TimelineView::applyOptions(const std::map<QString, QString>& options, QString* error)
{
    for (const auto& [name, value] : options) {
        if (name == QStringLiteral("show")) {
            // --show critical-path (or none): the "Critical path" toggle.
            if (value != QStringLiteral("critical-path") && value != QStringLiteral("none")) {
                if (error != nullptr)
                    *error = tr("--show: '%1' is not critical-path or none").arg(value);
                return false;
            }
            setCriticalPathShown(value == QStringLiteral("critical-path"));
            continue;
        }
        if (name != QStringLiteral("mode")) {
            if (error != nullptr)
                *error = tr("the %1 view has no option --%2").arg(viewKey(kind()), name);
            return false;
        }
        const QStringList keys { QStringLiteral("sum"), QStringLiteral("set"),
            QStringLiteral("key") };
        if (!keys.contains(value)) {
            if (error != nullptr)
                *error = tr("--mode: '%1' is not sum, set or key").arg(value);
            return false;
        }
        m_groupMode->setCurrentIndex(static_cast<int>(keys.indexOf(value)));
    }
    return true;
}

} // namespace parallax::views
