#pragma once

#include "core/pe_trace.h"

#include <cstdint>
#include <vector>

namespace parallax::core::analysis {

// One record as the reference tool's readers saw it, rebuilt from the store.
struct JavaEvent {
    enum class Kind : std::uint8_t {
        BeginProcessing,
        EndProcessing,
        BeginIdle,
        EndIdle,
        BeginPack,
        EndPack,
        BeginUnpack,
        EndUnpack,
        Creation, // point-to-point CREATION only (value = send duration)
        EndTrace,
        EndComputation
    };
    Kind kind;
    TimeUs time;
    EntryId entry = kNoEntry; // processing events; the destination entry of a creation
    std::int64_t value = 0; // creation: sendT
};

struct JavaStreamParts {
    bool packs = false;
    bool creations = false;
};

// Rebuilds one PE's event stream in file order from the store, for replaying the reference
// tool's per-tool state machines in Java-compatible mode:
// - executions and idles in time order, BEGIN then END, leaving out the ENDs the log did not
//   have (pretend ends: the replaying tool re-creates them, as Java did);
// - an execution closed at END_TRACE gets END_TRACE and then its END at the time tracing
//   resumed (Java keeps it open through the gap, docs/format.md §5.3);
// - pack/unpack records and CREATIONs are placed inside or after the execution they belong to
//   (the store remembers the execution each send followed);
// - END_COMPUTATION last.
std::vector<JavaEvent> javaEventStream(const PeTrace& pe, JavaStreamParts parts = {});

} // namespace parallax::core::analysis
