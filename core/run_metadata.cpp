#include "run_metadata.h"

namespace parallax::core {

namespace {
const std::string kUnknown = "?";
}

const std::string& RunMetadata::entryName(EntryId id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= entries.size())
        return kUnknown;
    return entries[static_cast<std::size_t>(id)].name;
}

const std::string& RunMetadata::chareNameOfEntry(EntryId id) const
{
    if (id < 0 || static_cast<std::size_t>(id) >= entries.size())
        return kUnknown;
    const auto chare = entries[static_cast<std::size_t>(id)].chare;
    if (chare < 0 || static_cast<std::size_t>(chare) >= chares.size())
        return kUnknown;
    return chares[static_cast<std::size_t>(chare)].name;
}

int RunMetadata::objectIdLength(EntryId id) const
{
    // docs/format.md §2.3: arrays of 1..6 dimensions write ndims values; everything else
    // (singleton chares, groups, user-index arrays, the thread entry) writes the raw 4-int
    // CmiObjId.
    if (id < 0 || static_cast<std::size_t>(id) >= entries.size())
        return 4;
    const auto chare = entries[static_cast<std::size_t>(id)].chare;
    if (chare < 0 || static_cast<std::size_t>(chare) >= chares.size())
        return 4;
    const int ndims = chares[static_cast<std::size_t>(chare)].ndims;
    return (ndims >= 1 && ndims <= 6) ? ndims : 4;
}

int RunMetadata::nodeOf(PeId pe) const
{
    if (!smp || nodeSize <= 0)
        return pe;
    const PeId workers = nodeSize * numNodes;
    if (pe >= workers)
        return commThreadsPerNode > 0 ? (pe - workers) / commThreadsPerNode : pe - workers;
    return pe / nodeSize;
}

bool RunMetadata::isCommThread(PeId pe) const
{
    return smp && commThreadsPerNode > 0 && pe >= nodeSize * numNodes && pe < processors;
}

} // namespace parallax::core
