#pragma once

#include "analysis_request.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parallax::core {
struct RunMetadata;
}

namespace parallax::core::analysis {

// Groups of PEs, so that a PE axis never needs more rows than it has pixels for: the whole run
// → SMP nodes or blocks of consecutive PEs → PEs; or PEs grouped by what they executed
// (signature), by a clustering, or by a user's named lists.

// A PE-axis view shows at most about this many rows or bars; above it, PEs are grouped.
inline constexpr std::size_t kMaxAxisRows = 200;

struct PeGroup {
    std::string name; // "node 3", "PEs 0-63", "signature 2", "cluster 1" or the user's name
    std::vector<PeId> pes; // members, sorted, without duplicates
    // Members that are SMP comm-thread pseudo-PEs (sorted; a subset of `pes`). They are marked
    // so that views and aggregations can keep them apart from the workers.
    std::vector<PeId> commThreads;
    // Signature groups: the entry methods every member executed in the range (sorted).
    std::vector<EntryId> signature;
    // Sub-groups one level down (a group of nodes holds its nodes); empty when the next level
    // is the PEs themselves.
    std::vector<PeGroup> children;

    [[nodiscard]] PeId firstPe() const { return pes.empty() ? kNoPe : pes.front(); }
    [[nodiscard]] PeId lastPe() const { return pes.empty() ? kNoPe : pes.back(); }
    [[nodiscard]] bool isCommThread(PeId pe) const;
};

// --by: how to group.
enum class GroupKind : std::uint8_t { Node, Block, Signature, Cluster, List };
struct GroupBy {
    GroupKind kind = GroupKind::Node;
    std::size_t blockSize = 0; // Block: PEs per block; 0 = chosen by autoBlockSize
    std::string listFile; // List: the file of named PE lists (parsePeLists)
};
// "node", "block:N" ("block" alone: automatic size), "signature", "cluster" or "list:FILE";
// nullopt with one sentence in `error` otherwise (block:0 and an empty FILE included).
std::optional<GroupBy> parseGroupBy(std::string_view text, std::string* error = nullptr);
// The inverse of parseGroupBy ("block:64", "list:FILE").
std::string groupByName(GroupBy by);

// One group per SMP node (RunMetadata::nodeOf), named "node N", in node order. Comm-thread
// pseudo-PEs go with the node they serve and are marked. Without SMP every PE is its own node.
std::vector<PeGroup> groupByNode(const RunMetadata& metadata, const std::vector<PeId>& pes);

// Blocks of `blockSize` consecutive PE ids ([k·N, (k+1)·N)), named "PEs B-E" after the ids the
// block covers; only blocks holding a selected PE are made. blockSize 0 is taken as 1.
std::vector<PeGroup> groupByBlock(const std::vector<PeId>& pes, std::size_t blockSize);

// The smallest power of two N such that blocks of N PEs give at most `maxRows` groups.
std::size_t autoBlockSize(std::size_t peCount, std::size_t maxRows = kMaxAxisRows);

// The entry methods each PE executed in the request's range: an execution overlapping the range
// counts however short it is (seed 001's CALLTREE: visits > 0). Without logs, from the .sumd
// cells with calls in the range, else the .sum call counts of the whole run. Only the
// request's entry methods count. `sets` are distinct sorted entry lists; `ofPe[k]` is the set of
// resolved PE k (order of ResolvedRequest::pes, also `pes`).
struct PeSignatures {
    std::vector<PeId> pes;
    std::vector<std::vector<EntryId>> sets;
    std::vector<std::uint32_t> ofPe;
};
std::optional<PeSignatures> computeSignatures(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// One group per distinct signature, named "signature K" (K from 1, in order of first PE),
// with the entry set in PeGroup::signature; comm threads marked.
std::vector<PeGroup> groupBySignature(const RunMetadata& metadata, const PeSignatures& signatures);
// Both steps; nullopt when cancelled.
std::optional<std::vector<PeGroup>> groupBySignature(
    const Trace& trace, const AnalysisRequest& request, const Progress& progress = {});

// Groups from a per-PE assignment (a clustering): assignment[k] is the group of pes[k]; a
// negative value leaves the PE out. Groups in increasing assignment order, named by nameFn
// (default "cluster N").
std::vector<PeGroup> groupByAssignment(const std::vector<PeId>& pes,
    const std::vector<int>& assignment, const std::function<std::string(int)>& nameFn = {});

// A user's named PE lists, in the order given (members sorted, duplicates dropped; empty lists
// are kept so that the user sees them).
using NamedPeList = std::pair<std::string, std::vector<PeId>>;
std::vector<PeGroup> groupByLists(const std::vector<NamedPeList>& lists);

// The saved form of named lists, one per line: "name: 0-15,32" (PE list syntax of
// parsePeList). Blank lines and lines starting with '#' are skipped; the name ends at the first
// ':' and is trimmed. nullopt with "line N: ..." in `error` on a malformed line, an empty name
// or a repeated name.
std::optional<std::vector<NamedPeList>> parsePeLists(
    std::string_view text, std::string* error = nullptr);
// Writes lists so that parsePeLists reads them back (':' and line breaks in names become '_').
std::string formatPeLists(const std::vector<NamedPeList>& lists);

// Marks the comm-thread members of groups (and their children) from the .sts SMP layout.
void markCommThreads(std::vector<PeGroup>& groups, const RunMetadata& metadata);

// Keeps a PE axis at most `maxRows` rows: when there are more groups than that, consecutive
// groups are gathered into parents ("node 0-15", "PEs 0-1023", ...) of a power-of-two count
// each, the original groups becoming their children; repeated until it fits.
std::vector<PeGroup> capRows(std::vector<PeGroup> groups, std::size_t maxRows = kMaxAxisRows);

// The groups for a PE axis: empty when `pes` fit (one row per PE), else blocks of
// autoBlockSize PEs, or nodes for an SMP run (capped with capRows).
std::vector<PeGroup> axisGroups(
    const RunMetadata& metadata, const std::vector<PeId>& pes, std::size_t maxRows = kMaxAxisRows);

} // namespace parallax::core::analysis
