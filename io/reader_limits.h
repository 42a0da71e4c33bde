#pragma once

#include "core/types.h"

#include <cstdint>

namespace parallax::io {

// Limits shared by the readers and by the index cache's validation, so that a cached run is
// held to exactly the rules its files were read by. Each is far above any real run and keeps
// memory bounded by what a file holds rather than by what its header claims.

// PROCESSORS (and an SMP layout's node size or count) above this is rejected as absurd.
inline constexpr std::int64_t kMaxProcessors = std::int64_t { 1 } << 24;

// Values per .sum/.sumd line (intervals, entries).
inline constexpr std::int64_t kMaxSummaryValues = std::int64_t { 1 } << 22;

// .projrc times above this (about 35 years in µs) are ignored with a warning.
inline constexpr core::TimeUs kMaxProjrcTime = core::TimeUs { 1 } << 50;

} // namespace parallax::io
