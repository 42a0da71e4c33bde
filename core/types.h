#pragma once

#include <cstdint>
#include <limits>

namespace parallax::core {

// Timestamps and durations in integer microseconds, as written by the Charm++ tracer
// (seconds * 1e6, truncated). Signed so that differences are natural; the readers reject
// values that do not fit.
using TimeUs = std::int64_t;

// A processing element (one log file per PE). SMP comm-thread pseudo-PEs are PEs too.
using PeId = std::int32_t;

// An entry method id as written in the .sts ENTRY lines (0..TOTAL_EPS-1; the writer keeps
// them in an unsigned short, so at most 65535).
using EntryId = std::int32_t;

// A user event id (EVENT lines of the .sts; user-chosen and sparse).
using UserEventId = std::int32_t;

inline constexpr TimeUs kTimeMax = std::numeric_limits<TimeUs>::max();
inline constexpr PeId kNoPe = -1;
inline constexpr EntryId kNoEntry = -1;

// A half-open time window [begin, end) in microseconds.
struct TimeRange {
    TimeUs begin = 0;
    TimeUs end = 0;

    [[nodiscard]] TimeUs length() const { return end - begin; }
    [[nodiscard]] bool empty() const { return end <= begin; }
    [[nodiscard]] bool overlaps(TimeUs b, TimeUs e) const { return b < end && e > begin; }
};

} // namespace parallax::core
