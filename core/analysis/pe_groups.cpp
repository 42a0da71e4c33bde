#include "pe_groups.h"

#include "core/text_args.h"
#include "core/trace.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace parallax::core::analysis {

namespace {

std::string peRangeName(PeId first, PeId last)
{
    return first == last ? "PE " + std::to_string(first)
                         : "PEs " + std::to_string(first) + "-" + std::to_string(last);
}

std::string_view trim(std::string_view text)
{
    const auto space = [](char c) {
        return c == ' ' || c == '\t' || c == '\r';
    };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

void sortUnique(std::vector<PeId>& pes)
{
    std::sort(pes.begin(), pes.end());
    pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
}

// Entries with an execution overlapping the range, from the log (visits, not time).
void executedFromLog(const PeTrace& pe, const ResolvedRequest& r, std::vector<bool>& seen)
{
    const auto range = pe.executionsOverlapping(r.range.begin, r.range.end);
    for (auto k = range.first; k < range.last; ++k) {
        const auto entry = static_cast<std::size_t>(pe.executions.entry[k]);
        if (entry < seen.size())
            seen[entry] = true;
    }
}

// Without logs: .sumd cells with calls in an interval overlapping the range, else the .sum's
// whole-run call counts (the .sum has no time axis per entry).
void executedFromSummaries(
    const Trace& trace, PeId pe, const ResolvedRequest& r, std::vector<bool>& seen)
{
    const auto p = static_cast<std::size_t>(pe);
    if (p < trace.details.size() && trace.details[p] && trace.details[p]->intervalUs > 0) {
        const auto& d = *trace.details[p];
        for (const auto& cell : d.cells) {
            const TimeUs begin = static_cast<TimeUs>(cell.interval) * d.intervalUs;
            const TimeUs end = begin + static_cast<TimeUs>(cell.length) * d.intervalUs;
            if (cell.calls > 0 && r.range.overlaps(begin, end) && cell.entry < seen.size())
                seen[cell.entry] = true;
        }
        return;
    }
    if (p < trace.summaries.size() && trace.summaries[p]) {
        const auto& calls = trace.summaries[p]->entryCalls;
        for (std::size_t e = 0; e < calls.size() && e < seen.size(); ++e)
            if (calls[e] > 0)
                seen[e] = true;
    }
}

PeGroup gather(std::vector<PeGroup>::iterator first, std::vector<PeGroup>::iterator last)
{
    PeGroup parent;
    for (auto it = first; it != last; ++it) {
        parent.pes.insert(parent.pes.end(), it->pes.begin(), it->pes.end());
        parent.commThreads.insert(
            parent.commThreads.end(), it->commThreads.begin(), it->commThreads.end());
        parent.children.push_back(std::move(*it));
    }
    sortUnique(parent.pes);
    sortUnique(parent.commThreads);
    parent.name = parent.pes.empty() ? std::string("no PEs")
                                     : peRangeName(parent.pes.front(), parent.pes.back());
    return parent;
}

} // namespace

bool PeGroup::isCommThread(PeId pe) const
{
    return std::binary_search(commThreads.begin(), commThreads.end(), pe);
}

std::optional<GroupBy> parseGroupBy(std::string_view text, std::string* error)
{
    auto fail = [&](std::string message) -> std::optional<GroupBy> {
        if (error != nullptr)
            *error = std::move(message);
        return std::nullopt;
    };
    if (text == "node")
        return GroupBy { GroupKind::Node, 0, {} };
    if (text == "signature")
        return GroupBy { GroupKind::Signature, 0, {} };
    if (text == "cluster")
        return GroupBy { GroupKind::Cluster, 0, {} };
    if (text == "block")
        return GroupBy { GroupKind::Block, 0, {} };
    if (text.starts_with("list:")) {
        if (text.size() == 5)
            return fail("list: needs a file of named PE lists, e.g. list:groups.txt");
        return GroupBy { GroupKind::List, 0, std::string(text.substr(5)) };
    }
    if (text.starts_with("block:")) {
        const auto number = text.substr(6);
        std::size_t size = 0;
        const auto* end = number.data() + number.size();
        const auto [ptr, ec] = std::from_chars(number.data(), end, size);
        if (number.empty() || ec != std::errc() || ptr != end || size == 0 || size > 100'000'000)
            return fail("block size '" + std::string(number)
                + "' is not a whole number of PEs from 1 to 100000000");
        return GroupBy { GroupKind::Block, size, {} };
    }
    return fail("unknown grouping '" + std::string(text)
        + "' (expected node, block:N, signature, cluster or list:FILE)");
}

std::string groupByName(GroupBy by)
{
    switch (by.kind) {
    case GroupKind::Node:
        return "node";
    case GroupKind::Block:
        return by.blockSize == 0 ? "block" : "block:" + std::to_string(by.blockSize);
    case GroupKind::Signature:
        return "signature";
    case GroupKind::Cluster:
        return "cluster";
    case GroupKind::List:
        return "list:" + by.listFile;
    }
    return "node";
}

std::vector<PeGroup> groupByNode(const RunMetadata& metadata, const std::vector<PeId>& pes)
{
    std::map<int, PeGroup> nodes;
    for (const auto pe : pes) {
        auto& group = nodes[metadata.nodeOf(pe)];
        group.pes.push_back(pe);
        if (metadata.isCommThread(pe))
            group.commThreads.push_back(pe);
    }
    std::vector<PeGroup> groups;
    groups.reserve(nodes.size());
    for (auto& [node, group] : nodes) {
        group.name = "node " + std::to_string(node);
        sortUnique(group.pes);
        sortUnique(group.commThreads);
        groups.push_back(std::move(group));
    }
    return groups;
}

std::vector<PeGroup> groupByBlock(const std::vector<PeId>& pes, std::size_t blockSize)
{
    const auto n = static_cast<std::int64_t>(std::max<std::size_t>(blockSize, 1));
    std::map<std::int64_t, PeGroup> blocks;
    for (const auto pe : pes)
        blocks[static_cast<std::int64_t>(pe) / n].pes.push_back(pe);
    std::vector<PeGroup> groups;
    groups.reserve(blocks.size());
    for (auto& [block, group] : blocks) {
        group.name
            = peRangeName(static_cast<PeId>(block * n), static_cast<PeId>(block * n + n - 1));
        sortUnique(group.pes);
        groups.push_back(std::move(group));
    }
    return groups;
}

std::size_t autoBlockSize(std::size_t peCount, std::size_t maxRows)
{
    maxRows = std::max<std::size_t>(maxRows, 1);
    std::size_t size = 1;
    while ((peCount + size - 1) / size > maxRows)
        size *= 2;
    return size;
}

std::optional<PeSignatures> computeSignatures(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto r = resolve(trace, request);
    const auto entries = static_cast<std::size_t>(r.columns.entryCount);
    std::vector<std::vector<EntryId>> perPe(r.pes.size());
    const bool logs = trace.hasLogs();
    const bool ok = parallelFor(r.pes.size(), r.threads, progress, [&](std::size_t k) {
        std::vector<bool> seen(entries, false);
        const auto pe = r.pes[k];
        if (logs)
            executedFromLog(trace.pes[static_cast<std::size_t>(pe)], r, seen);
        else
            executedFromSummaries(trace, pe, r, seen);
        for (std::size_t e = 0; e < entries; ++e)
            if (seen[e] && (e >= r.entrySelected.size() || r.entrySelected[e]))
                perPe[k].push_back(static_cast<EntryId>(e));
    });
    if (!ok)
        return std::nullopt;
    PeSignatures s;
    s.pes = r.pes;
    s.ofPe.assign(r.pes.size(), 0U);
    std::map<std::vector<EntryId>, std::uint32_t> index;
    for (std::size_t k = 0; k < perPe.size(); ++k) {
        const auto [it, added]
            = index.try_emplace(std::move(perPe[k]), static_cast<std::uint32_t>(s.sets.size()));
        if (added)
            s.sets.push_back(it->first);
        s.ofPe[k] = it->second;
    }
    return s;
}

std::vector<PeGroup> groupBySignature(const RunMetadata& metadata, const PeSignatures& signatures)
{
    // Sets are numbered in order of their first PE, since PEs are sorted.
    std::vector<PeGroup> groups(signatures.sets.size());
    for (std::size_t k = 0; k < signatures.pes.size(); ++k)
        groups[signatures.ofPe[k]].pes.push_back(signatures.pes[k]);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        groups[g].name = "signature " + std::to_string(g + 1);
        groups[g].signature = signatures.sets[g];
    }
    markCommThreads(groups, metadata);
    return groups;
}

std::optional<std::vector<PeGroup>> groupBySignature(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress)
{
    const auto signatures = computeSignatures(trace, request, progress);
    if (!signatures)
        return std::nullopt;
    return groupBySignature(trace.metadata, *signatures);
}

std::vector<PeGroup> groupByAssignment(const std::vector<PeId>& pes,
    const std::vector<int>& assignment, const std::function<std::string(int)>& nameFn)
{
    std::map<int, PeGroup> byValue;
    for (std::size_t k = 0; k < pes.size() && k < assignment.size(); ++k)
        if (assignment[k] >= 0)
            byValue[assignment[k]].pes.push_back(pes[k]);
    std::vector<PeGroup> groups;
    groups.reserve(byValue.size());
    for (auto& [value, group] : byValue) {
        group.name = nameFn ? nameFn(value) : "cluster " + std::to_string(value);
        sortUnique(group.pes);
        groups.push_back(std::move(group));
    }
    return groups;
}

std::vector<PeGroup> groupByLists(const std::vector<NamedPeList>& lists)
{
    std::vector<PeGroup> groups;
    groups.reserve(lists.size());
    for (const auto& [name, pes] : lists) {
        PeGroup group;
        group.name = name;
        group.pes = pes;
        sortUnique(group.pes);
        groups.push_back(std::move(group));
    }
    return groups;
}

std::optional<std::vector<NamedPeList>> parsePeLists(std::string_view text, std::string* error)
{
    std::vector<NamedPeList> lists;
    std::set<std::string> names;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const auto line = trim(text.substr(0, eol));
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        ++lineNumber;
        auto fail = [&](const std::string& message) -> std::optional<std::vector<NamedPeList>> {
            if (error != nullptr)
                *error = "line " + std::to_string(lineNumber) + ": " + message;
            return std::nullopt;
        };
        if (line.empty() || line.front() == '#')
            continue;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            return fail("expected 'name: PE list', found '" + std::string(line) + "'");
        const auto name = std::string(trim(line.substr(0, colon)));
        if (name.empty())
            return fail("the list has no name");
        if (!names.insert(name).second)
            return fail("the name '" + name + "' is used twice");
        const auto list = trim(line.substr(colon + 1));
        std::vector<PeId> pes;
        if (!list.empty()) {
            std::string listError;
            const auto parsed = parsePeList(list, &listError);
            if (!parsed)
                return fail(name + ": " + listError);
            pes = *parsed;
        }
        lists.emplace_back(name, std::move(pes));
    }
    return lists;
}

std::string formatPeLists(const std::vector<NamedPeList>& lists)
{
    std::string out;
    for (const auto& [name, pes] : lists) {
        std::string clean = name;
        std::replace_if(
            clean.begin(), clean.end(), [](char c) { return c == ':' || c == '\n'; }, '_');
        auto sorted = pes;
        sortUnique(sorted);
        out += std::string(trim(clean)) + ": " + formatPeList(sorted) + "\n";
    }
    return out;
}

void markCommThreads(std::vector<PeGroup>& groups, const RunMetadata& metadata)
{
    for (auto& group : groups) {
        group.commThreads.clear();
        for (const auto pe : group.pes)
            if (metadata.isCommThread(pe))
                group.commThreads.push_back(pe);
        markCommThreads(group.children, metadata);
    }
}

std::vector<PeGroup> capRows(std::vector<PeGroup> groups, std::size_t maxRows)
{
    maxRows = std::max<std::size_t>(maxRows, 2);
    while (groups.size() > maxRows) {
        const auto per = autoBlockSize(groups.size(), maxRows);
        std::vector<PeGroup> parents;
        parents.reserve((groups.size() + per - 1) / per);
        for (std::size_t first = 0; first < groups.size(); first += per) {
            const auto last = std::min(first + per, groups.size());
            parents.push_back(gather(groups.begin() + static_cast<std::ptrdiff_t>(first),
                groups.begin() + static_cast<std::ptrdiff_t>(last)));
        }
        groups = std::move(parents);
    }
    return groups;
}

std::vector<PeGroup> axisGroups(
    const RunMetadata& metadata, const std::vector<PeId>& pes, std::size_t maxRows)
{
    if (pes.size() <= maxRows)
        return {};
    // Blocks are aligned on multiples of their size, so a span of S ids needs at most
    // ceil(S / N) + 1 of them.
    const auto span = static_cast<std::size_t>(pes.back() - pes.front()) + 1;
    auto groups = metadata.smp ? groupByNode(metadata, pes)
                               : groupByBlock(pes, autoBlockSize(span, maxRows - 1));
    markCommThreads(groups, metadata);
    return capRows(std::move(groups), maxRows);
}

} // namespace parallax::core::analysis
