#pragma once

#include "types.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace parallax::core {

struct Chare {
    std::string name;
    // Array dimensions from the .sts (VERSION >= 9.0): 1..6 for N-D chare arrays, -1 for
    // singletons, groups, nodegroups and user-index arrays. 0 when the .sts predates 9.0.
    int ndims = 0;
};

struct EntryMethod {
    std::string name;
    std::int32_t chare = -1; // index into RunMetadata::chares, -1 if unknown
    std::int32_t message = -1; // message type id, -1 for marshalled parameters
};

struct MessageType {
    std::int64_t size = 0;
};

// What the .sts symbol table (and the .projrc) says about a run.
struct RunMetadata {
    double version = 0.0; // log-format version; 0.0 when the .sts has no VERSION line
    std::string machine;
    PeId processors = 0; // number of PEs including comm-thread pseudo-PEs

    // SMP layout (SMPMODE nodesize numnodes). Without SMPMODE every PE is its own node.
    bool smp = false;
    int nodeSize = 1;
    int numNodes = 0;
    int commThreadsPerNode = 0; // > 0 when comm threads are traced as pseudo-PEs

    std::string userName;
    std::string hostName;
    std::string commandLine;
    std::string timestamp;
    std::string charmVersion;
    int totalPhases = 0;

    std::vector<Chare> chares;
    std::vector<EntryMethod> entries; // index == entry id
    std::vector<MessageType> messages;
    std::map<std::int32_t, std::string> userEvents; // EVENT id -> name (trailing space trimmed)
    std::map<std::int32_t, std::string> stats; // STAT id -> name
    std::vector<std::string> papiEvents; // hardware counter names, in order

    // .projrc RC_GLOBAL_END_TIME (0 when absent).
    TimeUs projrcEndTime = 0;

    [[nodiscard]] std::size_t entryCount() const { return entries.size(); }
    [[nodiscard]] const std::string& entryName(EntryId id) const;
    [[nodiscard]] const std::string& chareNameOfEntry(EntryId id) const;
    // Number of object-id values a BEGIN_PROCESSING of this entry carries (VERSION >= 9.0).
    [[nodiscard]] int objectIdLength(EntryId id) const;

    // Node of a PE (comm-thread pseudo-PEs belong to the node they serve).
    [[nodiscard]] int nodeOf(PeId pe) const;
    [[nodiscard]] bool isCommThread(PeId pe) const;
    [[nodiscard]] PeId workerPes() const { return smp ? nodeSize * numNodes : processors; }
};

} // namespace parallax::core
