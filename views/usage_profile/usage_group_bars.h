#pragma once

#include "core/analysis/group_aggregation.h"
#include "core/analysis/pe_groups.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "views/common/stacked_bar_geometry.h"

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace parallax::views {

// How the Usage Profile groups its PEs: Auto groups only above kMaxAxisRows PEs (by node for
// an SMP run, else by blocks); None draws one bar per PE whatever their number.
// Lists: a user's named PE lists (views/common/pe_lists_file.h).
enum class UsageGrouping : std::uint8_t { Auto, None, Node, Block, Signature, Lists };

// One bar of a grouped usage profile.
struct UsageBar {
    QString label; // x tick: "node 3", "PEs 0-15", a PE number
    QString title; // tooltip heading
    QString note; // tooltip lines
    std::vector<double> percent; // per activity column: % of the range (per member for groups)
    std::optional<BarSpread> spread; // SET: the members' entry-method time, in %
    core::PeId pe = core::kNoPe; // the real PE whose own data this is (a PE bar, a KEY bar)
    std::string path; // the group it stands for (click: expand/collapse); empty for a PE bar
    bool expanded = false; // its members follow it
    bool separatorBefore = false;
    bool commThread = false;
    std::vector<core::PeId> pes; // the PEs behind the bar
};

// The groups of a usage profile for the chosen grouping (built on a worker): workers grouped,
// capped so that the bars of `mode` fit in kMaxAxisRows (KEY draws up to 4 bars per group),
// comm threads kept apart by the profile in a group of their own at the end. Empty when the
// grouping leaves the PEs ungrouped. `signatures` is needed for Signature, `lists` for Lists
// (the user's order and names; their PEs outside the profile left out).
std::vector<core::analysis::PeGroup> usageGroups(const core::Trace& trace,
    const core::analysis::UsageProfile& profile, UsageGrouping grouping,
    core::analysis::AggregationMode mode, const core::analysis::PeSignatures* signatures,
    const std::vector<core::analysis::NamedPeList>* lists = nullptr);

// Bars for groups of a usage profile in an aggregation mode (SUM, SET or KEY), each group
// expandable in place into its sub-groups, or its PEs. A group's values are aggregated once,
// when first shown, and kept; expanding a group aggregates only its children.
class UsageGroupBars {
public:
    UsageGroupBars(core::TracePtr trace,
        std::shared_ptr<const core::analysis::UsageProfile> profile,
        std::vector<core::analysis::PeGroup> groups, core::analysis::AggregationMode mode);

    [[nodiscard]] core::analysis::AggregationMode mode() const { return m_mode; }
    [[nodiscard]] const std::vector<core::analysis::PeGroup>& groups() const { return m_groups; }

    // Expands or collapses the group at `path` (collapsing also collapses the groups inside
    // it); false when there is no such group.
    bool toggle(const std::string& path);
    bool expand(const std::string& path);
    void collapse(const std::string& path);
    [[nodiscard]] bool isExpanded(const std::string& path) const;
    // Expanded groups, in the order they were expanded.
    [[nodiscard]] const std::vector<std::string>& expanded() const { return m_expanded; }
    // The group at a path, or null.
    [[nodiscard]] const core::analysis::PeGroup* group(const std::string& path) const;

    // The bars, left to right (the view puts the average first).
    [[nodiscard]] std::vector<UsageBar> bars() const;
    // The values of the groups shown (the top level, then the groups inside each expanded one,
    // in the order of the bars), as `parallax-cli groups` aggregates them.
    [[nodiscard]] core::analysis::GroupAggregation shownAggregation() const;

    // Path of a child group: parent path + '\n' + name (names never hold line breaks).
    [[nodiscard]] static std::string childPath(const std::string& parent, const std::string& name);

private:
    [[nodiscard]] const std::vector<core::analysis::PeGroup>& childrenOf(
        const core::analysis::PeGroup& group, const std::string& path) const;
    [[nodiscard]] const core::analysis::GroupAggregate* aggregate(
        const core::analysis::PeGroup& group, const std::string& path) const;
    void appendGroup(const core::analysis::PeGroup& group, const std::string& path,
        std::vector<UsageBar>& bars, bool& separator) const;
    void appendShown(const core::analysis::PeGroup& group, const std::string& path,
        core::analysis::GroupAggregation& out) const;
    void appendGroupBars(const core::analysis::PeGroup& group, const std::string& path,
        const core::analysis::GroupAggregate& a, std::vector<UsageBar>& bars,
        bool& separator) const;
    [[nodiscard]] UsageBar peBar(core::PeId pe) const;

    core::TracePtr m_trace;
    std::shared_ptr<const core::analysis::UsageProfile> m_profile;
    std::vector<core::analysis::PeGroup> m_groups;
    core::analysis::AggregationMode m_mode;
    std::vector<std::string> m_expanded;
    std::map<core::PeId, std::size_t> m_indexOf; // PE -> profile index
    // Filled lazily from const methods (the GUI thread only, after construction).
    mutable std::map<std::string, core::analysis::GroupAggregate> m_aggregates;
    mutable std::map<std::string, std::vector<core::analysis::PeGroup>> m_splitChildren;
};

} // namespace parallax::views
