#pragma once

#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parallax::io {

// What reading a run's logs would cost, known before reading them: the decompressed text size
// (a gzip log's trailer gives it), the number of records (from the line length of a sample) and
// the bytes the store would hold. Reads only file sizes, gzip trailers and the first MiB of one
// log, so it takes milliseconds even for 100,000 PEs.
struct StoreEstimate {
    std::uint64_t logTextBytes = 0; // decompressed bytes of all logs
    double bytesPerRecord = 0; // mean line length in the sampled log
    std::uint64_t records = 0;
    std::uint64_t storeBytes = 0; // records x kStoreBytesPerRecord + PEs x kStoreBytesPerPe
};

// Upper bound of the store's bytes per log record, as measured on generated and real runs
// (docs/performance.md: 21.6 to 22.5).
inline constexpr std::uint64_t kStoreBytesPerRecord = 24;

// What every PE of the run costs in the store and the file tables, log or not.
inline constexpr std::uint64_t kStoreBytesPerPe = sizeof(core::PeTrace) + 3 * sizeof(std::string)
    + sizeof(std::optional<core::PeSummary>) + sizeof(std::optional<core::PeSummaryDetail>);

StoreEstimate estimateStore(const core::RunFiles& files);

} // namespace parallax::io
