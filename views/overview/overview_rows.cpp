#include "views/overview/overview_rows.h"

#include "views/overview/overview_chart.h"

#include <algorithm>
#include <unordered_map>

namespace parallax::views {

using core::analysis::GroupOverview;
using Kind = OverviewRowInfo::Kind;

int rowsPerGroup(GroupDisplay display)
{
    switch (display) {
    case GroupDisplay::Mean:
        return 1;
    case GroupDisplay::Spread:
        return 3;
    case GroupDisplay::Key:
        return 4;
    }
    return 1;
}

core::TimeRange tracedSpanOf(const core::Trace& trace, core::PeId pe)
{
    if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
        return {};
    const auto& p = trace.pes[static_cast<std::size_t>(pe)];
    if (p.firstTime < 0)
        return {};
    return { p.beginComputation >= 0 ? p.beginComputation : p.firstTime,
        std::max(p.endComputation, p.lastTime) };
}

QString fromSummaryLabel(const QString& label)
{
    // "PE 4 (comm)" becomes "PE 4 (comm, .sum)".
    if (label.endsWith(QLatin1Char(')')))
        return label.chopped(1) + OverviewChart::tr(", .sum)");
    return OverviewChart::tr("%1 (.sum)").arg(label);
}

namespace {

class Composer {
public:
    Composer(const core::Trace& trace, const GroupOverview& groups, ComposedOverview& out)
        : m_trace(trace)
        , m_groups(groups)
        , m_out(out)
    {
        m_out.overview.grid = groups.grid;
        m_out.overview.columns = groups.columns;
    }

    void add(OverviewRowInfo info, const float* util, const float* idle, const std::int32_t* dom)
    {
        const auto n = static_cast<std::size_t>(m_groups.grid.count);
        auto& o = m_out.overview;
        o.pes.push_back(info.pe >= 0 ? info.pe : firstMember(info.group));
        o.utilization.insert(o.utilization.end(), util, util + n);
        o.idle.insert(o.idle.end(), idle, idle + n);
        if (dom != nullptr)
            o.dominant.insert(o.dominant.end(), dom, dom + n);
        else
            o.dominant.insert(o.dominant.end(), n, m_groups.columns.overhead());
        m_out.rows.push_back(std::move(info));
    }

    [[nodiscard]] core::PeId firstMember(int group) const
    {
        const auto& m = m_groups.members[static_cast<std::size_t>(group)];
        return m.empty() ? -1 : m.front();
    }

    [[nodiscard]] core::TimeRange unionSpan(int group) const
    {
        core::TimeRange span;
        for (const auto pe : m_groups.members[static_cast<std::size_t>(group)]) {
            const auto s = tracedSpanOf(m_trace, pe);
            if (s.empty())
                continue;
            span = span.empty()
                ? s
                : core::TimeRange { std::min(span.begin, s.begin), std::max(span.end, s.end) };
        }
        return span;
    }

private:
    const core::Trace& m_trace;
    const GroupOverview& m_groups;
    ComposedOverview& m_out;
};

QString keyLabel(Kind kind, core::PeId pe)
{
    switch (kind) {
    case Kind::KeyFirst:
        return OverviewChart::tr("first: PE %1").arg(pe);
    case Kind::KeySlowest:
        return OverviewChart::tr("busiest PE %1").arg(pe);
    case Kind::KeyFastest:
        return OverviewChart::tr("least busy PE %1").arg(pe);
    default:
        return OverviewChart::tr("the rest, mean");
    }
}

} // namespace

ComposedOverview composeOverview(const core::Trace& trace, const GroupOverview& groups,
    const std::vector<QString>& names, GroupDisplay display, const std::set<int>& expanded,
    const core::analysis::Overview* memberRows)
{
    ComposedOverview out;
    Composer c(trace, groups, out);
    std::unordered_map<core::PeId, std::size_t> memberIndex;
    if (memberRows != nullptr)
        for (std::size_t k = 0; k < memberRows->pes.size(); ++k)
            memberIndex.emplace(memberRows->pes[k], k);
    const bool sameGrid = memberRows != nullptr && memberRows->grid.count == groups.grid.count
        && memberRows->grid.origin == groups.grid.origin
        && memberRows->grid.size == groups.grid.size;

    for (std::size_t g = 0; g < groups.groupCount(); ++g) {
        const int group = static_cast<int>(g);
        const QString name = g < names.size() ? names[g] : OverviewChart::tr("group %1").arg(g);
        const auto at = groups.index(g, 0);
        OverviewRowInfo base;
        base.group = group;
        base.traced = c.unionSpan(group);
        const auto aggregate = [&](Kind kind, QString label, const std::vector<float>& util,
                                   bool ramp) {
            OverviewRowInfo info = base;
            info.kind = kind;
            info.label = std::move(label);
            info.utilizationOnly = ramp;
            c.add(info, util.data() + at, groups.meanIdle.data() + at, groups.dominant.data() + at);
        };
        switch (display) {
        case GroupDisplay::Mean:
            aggregate(Kind::GroupMean, name, groups.meanUtilization, false);
            break;
        case GroupDisplay::Spread:
            // Three rows in the utilization ramp, read as a band: the name on the middle one.
            aggregate(Kind::GroupMax, {}, groups.maxUtilization, true);
            aggregate(Kind::GroupMean, name, groups.meanUtilization, true);
            aggregate(Kind::GroupMin, {}, groups.minUtilization, true);
            break;
        case GroupDisplay::Key: {
            const Kind kinds[]
                = { Kind::KeyFirst, Kind::KeySlowest, Kind::KeyFastest, Kind::KeyRest };
            for (int role = 0; role < GroupOverview::kKeyRoles; ++role) {
                const auto pe
                    = groups.keyPe[g * GroupOverview::kKeyRoles + static_cast<std::size_t>(role)];
                const bool rest = role == GroupOverview::Rest;
                const auto size = groups.members[g].size();
                if ((!rest && pe < 0) || (rest && size < 4))
                    continue;
                OverviewRowInfo info = base;
                info.kind = kinds[role];
                info.pe = rest ? -1 : pe;
                info.label = role == GroupOverview::First ? name + QStringLiteral(": PE %1").arg(pe)
                                                          : keyLabel(info.kind, pe);
                if (!rest)
                    info.traced = tracedSpanOf(trace, pe);
                info.fromSummary = !rest
                    && std::binary_search(groups.fromSummary.begin(), groups.fromSummary.end(), pe);
                if (info.fromSummary) {
                    info.label = fromSummaryLabel(info.label);
                    info.utilizationOnly = true;
                }
                const auto k = groups.keyIndex(g, role, 0);
                c.add(info, groups.keyUtilization.data() + k, groups.keyIdle.data() + k,
                    groups.keyDominant.data() + k);
            }
            break;
        }
        }
        if (!expanded.contains(group) || !sameGrid)
            continue;
        const auto n = static_cast<std::size_t>(memberRows->grid.count);
        for (const auto pe : groups.members[g]) {
            const auto it = memberIndex.find(pe);
            if (it == memberIndex.end())
                continue;
            OverviewRowInfo info;
            info.kind = Kind::Pe;
            info.pe = pe;
            info.group = group;
            info.member = true;
            info.commThread = trace.metadata.isCommThread(pe);
            info.label = QStringLiteral("  ") + overviewRowLabel(pe, info.commThread);
            info.traced = tracedSpanOf(trace, pe);
            info.fromSummary = std::binary_search(
                memberRows->fromSummary.begin(), memberRows->fromSummary.end(), pe);
            if (info.fromSummary) {
                // No entry methods in a .sum: the utilization ramp, named as such.
                info.label = fromSummaryLabel(info.label);
                info.utilizationOnly = true;
            }
            const auto k = it->second * n;
            c.add(info, memberRows->utilization.data() + k, memberRows->idle.data() + k,
                memberRows->dominant.data() + k);
        }
    }
    return out;
}

} // namespace parallax::views
