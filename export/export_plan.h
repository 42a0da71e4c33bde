#pragma once

#include "core/analysis/analysis_request.h"
#include "core/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::exporter {

// What every export format shares, computed once in the store's terms (docs/otf2.md): which
// PEs and time window, which regions (entry methods and the runtime's activities), each PE's
// activity as properly nested intervals, and the messages, each a send paired with the
// execution it started through core/analysis/message_links (the Timeline's verified links,
// comm-thread relays followed). The format writers (otf2_writer, perfetto_writer) only
// translate this into their records.

// What to export: a time window and PEs.
struct ExportRequest {
    core::TimeRange range; // {0, 0}: the run's traced span (tracedRunSpan); end kTimeMax: to it
    std::vector<core::PeId> pes; // empty: every PE with a log (comm threads included)
    unsigned threads = 0; // 0: all cores
};

// A region is what an interval of a PE's time was spent in. Its index is the usage profile's
// activity column (ActivityColumns): entry methods by id, then overhead, idle, pack, unpack; one
// more region holds executions of entry ids the symbol table does not name.
enum class RegionKind : std::uint8_t { Entry, Overhead, Idle, Pack, Unpack, UnknownEntry };

struct Region {
    RegionKind kind = RegionKind::Entry;
    core::EntryId entry = core::kNoEntry;
    std::string name; // "Chare::method(args)", or "Overhead", "Idle", "Pack", "Unpack"
    std::string chare; // the entry method's chare, empty for the runtime's regions
    std::string method; // the entry method's own name ("method(args)")
};

// One interval of a PE's time, clipped to the export window. A PE's activities come in
// nesting order (preorder): sorted by begin, a parent before its children, and each child lies
// inside the closest preceding activity of depth one less. Depth 0 is an Overhead interval (a
// traced span of the PE, whose time not covered by its children is the usage profile's
// overhead) or, outside the traced spans, an execution or idle interval; executions and idle
// inside a traced span have depth 1, pack and unpack inside an execution one more.
struct Activity {
    core::TimeUs begin = 0;
    core::TimeUs end = 0;
    std::uint32_t region = 0;
    std::uint32_t execution = kNotAnExecution; // index into the PE's executions
    std::uint8_t depth = 0;
    static constexpr std::uint32_t kNotAnExecution = 0xFFFFFFFFU;
    [[nodiscard]] bool isExecution() const { return execution != kNotAnExecution; }
};

// A message between exported PEs: a send paired with the execution it started. When the
// message went through SMP comm threads that are not exported, the send is the original
// one and `relays` counts the comm threads passed.
struct Message {
    core::PeId senderPe = core::kNoPe;
    std::uint32_t send = 0; // index into the sender's sends
    std::uint32_t sendExecution = Activity::kNotAnExecution; // the execution that made it
    core::TimeUs sendTime = 0;
    core::PeId receiverPe = core::kNoPe;
    std::uint32_t execution = 0; // the execution it started, on the receiver
    core::TimeUs receiveTime = 0; // that execution's begin
    std::int32_t bytes = 0; // the send's message size
    std::uint8_t relays = 0;
};

struct ExportedPe {
    core::PeId pe = core::kNoPe;
    int node = 0; // SMP node (the PE itself without SMP)
    bool commThread = false;
    std::size_t executions = 0; // executions overlapping the window (Enter/Leave pairs)
    // Messages this PE received: messages[firstIncoming, lastIncoming), in execution order.
    std::size_t firstIncoming = 0;
    std::size_t lastIncoming = 0;
    std::vector<std::uint32_t> outgoing; // indices into messages, by send time
    // Sends in the window that started no exported execution (index into the PE's sends).
    std::vector<std::uint32_t> unmatchedSends;
};

struct ExportPlan {
    core::TimeRange range;
    std::vector<Region> regions; // index = Activity::region
    std::vector<ExportedPe> pes; // sorted by PE
    std::vector<int> nodes; // the distinct nodes of `pes`, sorted
    std::vector<Message> messages; // grouped by receiver (in `pes` order), execution order
    std::size_t weakLinks = 0; // executions whose only link was weak (left unpaired)

    [[nodiscard]] std::uint32_t region(RegionKind kind) const;
    // Index of `pe` in `pes`, or -1.
    [[nodiscard]] int indexOf(core::PeId pe) const;
    [[nodiscard]] std::size_t executionCount() const;
    [[nodiscard]] std::size_t unmatchedSendCount() const;
};

struct PlanOutcome {
    std::optional<ExportPlan> plan;
    std::string error; // one sentence when there is no plan (and not cancelled)
    bool cancelled = false;
};

// Checks the request against the run (logs present, PEs with logs, a non-empty window) and
// pairs the messages. Never throws.
PlanOutcome planExport(const core::Trace& trace, const ExportRequest& request,
    const core::analysis::Progress& progress = {});

// The activity of exported PE `peIndex` (an index into plan.pes) in nesting order. Overlaps in
// damaged logs are resolved by trimming the idle or pack interval, never an execution.
std::vector<Activity> peActivities(
    const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex);

// A user event (USER_EVENT), a bracketed user event or a note of a PE in the window, clipped
// to it (points and notes by their begin, brackets by overlap).
struct Mark {
    enum class Kind : std::uint8_t { UserEvent, Bracket, Note };
    Kind kind = Kind::UserEvent;
    core::TimeUs begin = 0;
    core::TimeUs end = 0; // == begin for a point
    std::string name; // the event's name from the .sts ("user event N" without one), "note"
    std::string text; // a note's text
};
std::vector<Mark> peMarks(const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex);

// A user stat, memory or user-supplied value sample of a PE in the window, in time order per
// kind.
struct Sample {
    enum class Kind : std::uint8_t { Stat, Memory, UserValue };
    Kind kind = Kind::Stat;
    core::TimeUs time = 0;
    std::string name; // the stat's name ("stat N" without one), "memory", "user-supplied value"
    double value = 0; // Stat
    std::int64_t integer = 0; // Memory (bytes) and UserValue
};
std::vector<Sample> peSamples(
    const core::Trace& trace, const ExportPlan& plan, std::size_t peIndex);

// "[3,1,2]" for an array element's index, "" when the execution carries none.
std::string objectIndexText(const core::Trace& trace, core::PeId pe, std::size_t execution);

} // namespace parallax::exporter
