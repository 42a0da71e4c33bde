#include "views/usage_profile/usage_group_bars.h"

#include "core/text_args.h"

#include <QCoreApplication>

#include <algorithm>

namespace parallax::views {

namespace {

namespace analysis = core::analysis;

QString groupBarsTr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("parallax::views::UsageGroupBars", text, disambiguation, n);
}

QString percentText(double value)
{
    return QString::number(value, 'f', value < 10.0 ? 2 : 1) + QStringLiteral(" %");
}

QString shortPeListText(const std::vector<core::PeId>& pes)
{
    const auto text = QString::fromStdString(core::formatPeList(pes));
    return text.size() > 60 ? text.left(57) + QStringLiteral("…") : text;
}

std::size_t barsPerGroup(analysis::AggregationMode mode)
{
    return mode == analysis::AggregationMode::Key ? 4 : 1;
}

} // namespace

std::vector<analysis::PeGroup> usageGroups(const core::Trace& trace,
    const analysis::UsageProfile& profile, UsageGrouping grouping, analysis::AggregationMode mode,
    const analysis::PeSignatures* signatures, const std::vector<analysis::NamedPeList>* lists)
{
    const auto& metadata = trace.metadata;
    const auto maxRows = analysis::kMaxAxisRows / barsPerGroup(mode);
    if (grouping == UsageGrouping::None
        || (grouping == UsageGrouping::Auto && profile.pes.size() <= analysis::kMaxAxisRows))
        return {};
    std::vector<core::PeId> workers;
    std::set_difference(profile.pes.begin(), profile.pes.end(), profile.apart.begin(),
        profile.apart.end(), std::back_inserter(workers));
    const std::size_t rows = std::max<std::size_t>(maxRows - (profile.apart.empty() ? 0 : 1), 2);
    // Blocks are aligned on multiples of their size: a span of S ids needs ceil(S / N) + 1.
    auto blocks = [&]() {
        const auto span = workers.empty()
            ? std::size_t { 0 }
            : static_cast<std::size_t>(workers.back() - workers.front() + 1);
        return analysis::groupByBlock(workers, analysis::autoBlockSize(span, rows - 1));
    };
    std::vector<analysis::PeGroup> groups;
    switch (grouping) {
    case UsageGrouping::Auto:
    case UsageGrouping::None:
        groups = metadata.smp ? analysis::groupByNode(metadata, workers) : blocks();
        break;
    case UsageGrouping::Node:
        groups = analysis::groupByNode(metadata, workers);
        break;
    case UsageGrouping::Block:
        groups = blocks();
        break;
    case UsageGrouping::Lists:
        if (lists != nullptr)
            groups = analysis::groupByLists(*lists);
        break;
    case UsageGrouping::Signature:
        if (signatures != nullptr)
            groups = analysis::groupBySignature(metadata, *signatures);
        break;
    }
    if (grouping == UsageGrouping::Signature || grouping == UsageGrouping::Lists) {
        // Workers only: the comm threads get their own group below.
        for (auto& g : groups) {
            std::vector<core::PeId> kept;
            std::set_intersection(g.pes.begin(), g.pes.end(), workers.begin(), workers.end(),
                std::back_inserter(kept));
            g.pes = std::move(kept);
        }
        std::erase_if(groups, [](const analysis::PeGroup& g) { return g.pes.empty(); });
    }
    analysis::markCommThreads(groups, metadata);
    groups = analysis::capRows(std::move(groups), rows);
    if (!profile.apart.empty()) {
        analysis::PeGroup comm;
        comm.name = "comm threads";
        comm.pes = profile.apart;
        comm.commThreads = profile.apart;
        if (comm.pes.size() > maxRows)
            comm.children = analysis::capRows(analysis::groupByNode(metadata, comm.pes), maxRows);
        analysis::markCommThreads(comm.children, metadata);
        groups.push_back(std::move(comm));
    }
    return groups;
}

UsageGroupBars::UsageGroupBars(core::TracePtr trace,
    std::shared_ptr<const analysis::UsageProfile> profile, std::vector<analysis::PeGroup> groups,
    analysis::AggregationMode mode)
    : m_trace(std::move(trace))
    , m_profile(std::move(profile))
    , m_groups(std::move(groups))
    , m_mode(mode)
{
    for (std::size_t k = 0; k < m_profile->pes.size(); ++k)
        m_indexOf[m_profile->pes[k]] = k;
    // The top level now, on the worker that builds this; deeper levels when expanded.
    for (const auto& g : m_groups)
        static_cast<void>(aggregate(g, g.name));
}

std::string UsageGroupBars::childPath(const std::string& parent, const std::string& name)
{
    return parent + '\n' + name;
}

const analysis::PeGroup* UsageGroupBars::group(const std::string& path) const
{
    const std::vector<analysis::PeGroup>* level = &m_groups;
    std::string sofar;
    std::size_t begin = 0;
    for (;;) {
        const auto end = path.find('\n', begin);
        const auto name = path.substr(begin, end == std::string::npos ? end : end - begin);
        const auto it = std::find_if(level->begin(), level->end(),
            [&](const analysis::PeGroup& g) { return g.name == name; });
        if (it == level->end())
            return nullptr;
        sofar = sofar.empty() ? name : childPath(sofar, name);
        if (end == std::string::npos)
            return &*it;
        level = &childrenOf(*it, sofar);
        begin = end + 1;
    }
}

const std::vector<analysis::PeGroup>& UsageGroupBars::childrenOf(
    const analysis::PeGroup& group, const std::string& path) const
{
    // An expansion adds at most kMaxAxisRows bars: in KEY a group takes four.
    const auto maxGroups = analysis::kMaxAxisRows / barsPerGroup(m_mode);
    if (group.children.size() <= maxGroups
        && (!group.children.empty() || group.pes.size() <= analysis::kMaxAxisRows))
        return group.children;
    // Too many sub-groups, or a leaf group too big to show its PEs: parents of its sub-groups,
    // or blocks of its PEs, made once.
    auto& split = m_splitChildren[path];
    if (split.empty()) {
        // Sparse members (a signature's) may span many blocks: capped like the top level.
        split = group.children.empty()
            ? analysis::capRows(analysis::groupByBlock(group.pes,
                                    analysis::autoBlockSize(group.pes.size(), maxGroups)),
                maxGroups)
            : analysis::capRows(group.children, maxGroups);
        analysis::markCommThreads(split, m_trace->metadata);
    }
    return split;
}

const analysis::GroupAggregate* UsageGroupBars::aggregate(
    const analysis::PeGroup& group, const std::string& path) const
{
    if (const auto it = m_aggregates.find(path); it != m_aggregates.end())
        return &it->second;
    // The group's PEs are all workers or all comm threads (usageGroups keeps them apart), so
    // the aggregation gives one row.
    auto a = analysis::aggregateGroups(*m_profile, { group }, m_mode, nullptr, 1);
    if (a.groups.empty())
        return nullptr;
    return &m_aggregates.emplace(path, std::move(a.groups.front())).first->second;
}

bool UsageGroupBars::isExpanded(const std::string& path) const
{
    return std::find(m_expanded.begin(), m_expanded.end(), path) != m_expanded.end();
}

bool UsageGroupBars::expand(const std::string& path)
{
    if (group(path) == nullptr)
        return false;
    if (!isExpanded(path))
        m_expanded.push_back(path);
    return true;
}

void UsageGroupBars::collapse(const std::string& path)
{
    const auto prefix = path + '\n';
    std::erase_if(
        m_expanded, [&](const std::string& p) { return p == path || p.rfind(prefix, 0) == 0; });
}

bool UsageGroupBars::toggle(const std::string& path)
{
    if (isExpanded(path)) {
        collapse(path);
        return true;
    }
    return expand(path);
}

UsageBar UsageGroupBars::peBar(core::PeId pe) const
{
    const auto& p = *m_profile;
    const auto& metadata = m_trace->metadata;
    const auto k = m_indexOf.at(pe);
    UsageBar bar;
    bar.pe = pe;
    bar.pes = { pe };
    bar.commThread = std::binary_search(p.apart.begin(), p.apart.end(), pe);
    bar.label = bar.commThread ? QStringLiteral("%1c").arg(pe) : QString::number(pe);
    bar.title = groupBarsTr("PE %1").arg(pe);
    if (std::binary_search(p.fromSummary.begin(), p.fromSummary.end(), pe)) {
        bar.label += QStringLiteral("*");
        bar.title = groupBarsTr("PE %1 · from its summary file").arg(pe);
        bar.note
            = groupBarsTr("This reduced run has no log of it: busy and idle from its .sum file\n");
    }
    if (metadata.isCommThread(pe))
        bar.note += groupBarsTr("Communication thread of node %1\n").arg(metadata.nodeOf(pe));
    else if (metadata.smp)
        bar.note += groupBarsTr("Node %1\n").arg(metadata.nodeOf(pe));
    bar.note += groupBarsTr("Click to open its timeline");
    const auto width = static_cast<std::size_t>(p.columns.count());
    bar.percent.assign(p.percent.begin() + static_cast<std::ptrdiff_t>(k * width),
        p.percent.begin() + static_cast<std::ptrdiff_t>((k + 1) * width));
    return bar;
}

void UsageGroupBars::appendGroupBars(const analysis::PeGroup& group, const std::string& path,
    const analysis::GroupAggregate& a, std::vector<UsageBar>& bars, bool& separator) const
{
    const auto length = m_profile->range.length();
    const int width = m_profile->columns.count();
    const bool expanded = isExpanded(path);
    const auto name = QString::fromStdString(group.name);
    const auto members = a.pes.size();
    const QString action = expanded
        ? groupBarsTr("Click to collapse")
        : groupBarsTr("Click to show its %1")
              .arg(childrenOf(group, path).empty() ? groupBarsTr("PEs") : groupBarsTr("groups"));
    const auto& summary = m_profile->fromSummary;
    const auto fromSummary = std::count_if(a.pes.begin(), a.pes.end(),
        [&](core::PeId pe) { return std::binary_search(summary.begin(), summary.end(), pe); });
    const QString who = groupBarsTr("%n PE(s): %1", nullptr, static_cast<int>(members))
                            .arg(shortPeListText(a.pes))
        + (group.commThreads.empty() || a.commThreads ? QString()
                                                      : groupBarsTr(" (with comm threads)"))
        + (fromSummary > 0
                ? groupBarsTr("\n%n of them from their summary files (no log in this reduced "
                              "run)",
                    nullptr, static_cast<int>(fromSummary))
                : QString());
    auto make = [&](const analysis::GroupValues& v) {
        UsageBar bar;
        bar.path = path;
        bar.expanded = expanded;
        bar.pes = a.pes;
        bar.commThread = a.commThreads;
        bar.percent.resize(static_cast<std::size_t>(width));
        for (int c = 0; c < width; ++c)
            bar.percent[static_cast<std::size_t>(c)] = v.percent(c, length);
        bar.separatorBefore = separator;
        separator = false;
        return bar;
    };
    const QString marker = expanded ? QStringLiteral("▾ ") : QString();
    auto toPercent = [&](double us) {
        return length > 0 ? us * 100.0 / static_cast<double>(length) : 0.0;
    };
    const auto& busy = a.busy;
    switch (m_mode) {
    case analysis::AggregationMode::Sum:
    case analysis::AggregationMode::Signature: {
        const auto* sum = a.find(analysis::ValueRole::Sum);
        if (sum == nullptr)
            return;
        auto bar = make(*sum);
        bar.label = marker + name;
        bar.title = groupBarsTr("%1 · SUM").arg(name);
        bar.note = who + QLatin1Char('\n')
            + groupBarsTr("Bars: the members' total per PE (sum ÷ %1); entry-method time %2 in all")
                  .arg(members)
                  .arg(formatTime(busy.meanUs * static_cast<double>(members)))
            + QLatin1Char('\n') + action;
        bars.push_back(std::move(bar));
        break;
    }
    case analysis::AggregationMode::Set: {
        const auto* mean = a.find(analysis::ValueRole::Mean);
        if (mean == nullptr)
            return;
        auto bar = make(*mean);
        bar.label = marker + name;
        bar.title = groupBarsTr("%1 · SET").arg(name);
        const double lo = toPercent(busy.minUs);
        const double hi = toPercent(busy.maxUs);
        const double m = toPercent(busy.meanUs);
        const double sd = toPercent(busy.sdUs);
        bar.spread = BarSpread { lo, hi, std::max(0.0, m - sd), m + sd };
        bar.note = who + QLatin1Char('\n')
            + groupBarsTr(
                "Bar: the members' mean. Entry-method time: min %1 (PE %2), max %3 (PE %4), "
                "mean %5 ± %6 (whisker: min–max, band: mean ± σ)")
                  .arg(percentText(lo))
                  .arg(busy.minPe)
                  .arg(percentText(hi))
                  .arg(busy.maxPe)
                  .arg(percentText(m))
                  .arg(percentText(sd))
            + QLatin1Char('\n') + action;
        bars.push_back(std::move(bar));
        break;
    }
    case analysis::AggregationMode::Key:
        for (const auto& v : a.values) {
            auto bar = make(v);
            bar.pe = v.pe;
            switch (v.role) {
            case analysis::ValueRole::First:
                bar.label = marker + QString::number(v.pe);
                bar.title = groupBarsTr("PE %1 · first of %2").arg(v.pe).arg(name);
                bar.note = groupBarsTr("The group's first PE, kept as it is");
                break;
            case analysis::ValueRole::Slowest:
                bar.label = QStringLiteral("%1▲").arg(v.pe);
                bar.title = groupBarsTr("PE %1 · slowest of %2").arg(v.pe).arg(name);
                bar.note = groupBarsTr("The most entry-method time of the others");
                break;
            case analysis::ValueRole::Fastest:
                bar.label = QStringLiteral("%1▼").arg(v.pe);
                bar.title = groupBarsTr("PE %1 · fastest of %2").arg(v.pe).arg(name);
                bar.note = groupBarsTr("The least entry-method time of the others");
                break;
            default:
                bar.label = groupBarsTr("rest");
                bar.title = groupBarsTr("the rest of %1").arg(name);
                bar.note = groupBarsTr(
                    "The mean of the other %n PE(s)", nullptr, static_cast<int>(v.peCount));
                break;
            }
            bar.note += QLatin1Char('\n') + who + QLatin1Char('\n') + action;
            bars.push_back(std::move(bar));
        }
        break;
    }
}

void UsageGroupBars::appendGroup(const analysis::PeGroup& group, const std::string& path,
    std::vector<UsageBar>& bars, bool& separator) const
{
    const auto* a = aggregate(group, path);
    if (a == nullptr)
        return;
    if (m_mode == analysis::AggregationMode::Key)
        separator = separator || !bars.empty();
    appendGroupBars(group, path, *a, bars, separator);
    if (!isExpanded(path))
        return;
    separator = true;
    const auto& children = childrenOf(group, path);
    if (children.empty()) {
        for (const auto pe : a->pes) {
            auto bar = peBar(pe);
            bar.separatorBefore = separator;
            separator = false;
            bars.push_back(std::move(bar));
        }
    } else {
        for (const auto& child : children)
            appendGroup(child, childPath(path, child.name), bars, separator);
    }
    separator = true; // the expansion ends
}

void UsageGroupBars::appendShown(
    const analysis::PeGroup& group, const std::string& path, analysis::GroupAggregation& out) const
{
    if (const auto* a = aggregate(group, path))
        out.groups.push_back(*a);
    if (isExpanded(path))
        for (const auto& child : childrenOf(group, path))
            appendShown(child, childPath(path, child.name), out);
}

analysis::GroupAggregation UsageGroupBars::shownAggregation() const
{
    analysis::GroupAggregation out;
    out.mode = m_mode;
    out.range = m_profile->range;
    out.columns = m_profile->columns;
    for (const auto& g : m_groups)
        appendShown(g, g.name, out);
    return out;
}

std::vector<UsageBar> UsageGroupBars::bars() const
{
    std::vector<UsageBar> bars;
    bool separator = false;
    for (const auto& g : m_groups) {
        if (!g.commThreads.empty() && g.commThreads.size() == g.pes.size())
            separator = true; // the comm threads kept apart
        appendGroup(g, g.name, bars, separator);
    }
    return bars;
}

} // namespace parallax::views
