#pragma once

#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::core::analysis {

// Message links: which send caused an execution, and which executions a send started.
//
// A BEGIN_PROCESSING names its message by (source PE, event id); the matching CREATION is in
// the source PE's log (docs/format.md §2.3 and §2.5 item 6). Event ids are reused,
// so a match found only *after* the execution began is a stale id and is rejected. The
// Timeline (arrows, details) and the CLI share these functions.

// A message's creation linked to the execution it caused.
struct MessageLink {
    enum class Status : std::uint8_t {
        Linked, // a matching send at or before the begin: a solid arrow
        Weak, // matched, but a thread resumption or another entry method: a dashed arrow
        NoSource, // the execution names no sender (SDAG serial blocks, runtime messages)
        NotFound, // the sender's log has no send with this event id (or is missing)
        SentAfterBegin, // the only matches are later than the begin: a stale event id
    };
    PeId pe = kNoPe; // the receiving PE
    std::size_t execution = 0; // its execution
    PeId senderPe = kNoPe;
    std::optional<std::size_t> send; // index into the sender's sends (Linked and Weak)
    Status status = Status::NotFound;
    std::string reason; // why the link is weak or missing, in words (tooltips, CLI)

    [[nodiscard]] bool linked() const { return send.has_value(); }
    [[nodiscard]] bool weak() const { return status == Status::Weak; }
};

// How far (µs) a send may lie after the begin it caused and still count (clock skew between
// PEs; the reference tool's clock-skew correction starts at 10 µs).
inline constexpr TimeUs kMessageSkewTolerance = 10;

// Finds the CREATION of the message that started `execution` on `pe`: among the sender's sends
// with the same event id, the latest at or before the execution's begin (within the skew
// tolerance, else the earliest one within tolerance after it). Sends only later than that are
// stale event ids and are rejected. Thread resumptions (`dummy_thread_ep`), entry-method
// mismatches and multicasts that do not list `pe` are Weak. O(log n + matches scanned).
MessageLink findMessageSource(
    const Trace& trace, PeId pe, std::size_t execution, TimeUs tolerance = kMessageSkewTolerance);

// The message's path back through SMP comm threads: the first link is the direct sender; while
// that sender is a comm thread that relayed the message (the send lies inside one of its
// executions), the link of that relaying execution follows. At most `maxHops` links.
//
// With `messages` > 1 the path goes on further back: from a non-relay sender it continues
// with the execution that made the send (the back-trace of N message hops).
std::vector<MessageLink> findMessagePath(const Trace& trace, PeId pe, std::size_t execution,
    std::size_t maxHops = 6, std::size_t messages = 1);

// Forward: the messages `execution` of `pe` sent (sends made during it) and the executions
// they started on the PEs `among` — each one whose findMessageSource names that send, so a
// stale event id never links. Receivers are searched from the send time on, at most
// kForwardSearchLimit executions per PE and kForwardSendLimit sends.
std::vector<MessageLink> findMessageTargets(
    const Trace& trace, PeId pe, std::size_t execution, const std::vector<PeId>& among);
inline constexpr std::size_t kForwardSearchLimit = 200'000;
inline constexpr std::size_t kForwardSendLimit = 64;

} // namespace parallax::core::analysis
