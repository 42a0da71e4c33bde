#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parallax::core::stream {

// One second of a Charm++ program's utilization profile as its `-tracemode utilization` module
// streams it over CCS (docs/streaming.md): 1000 bins of 1 ms, each a sparse list of
// (entry method, utilization) records. Utilization is 0..250 = percent × 2.5, averaged over the
// PEs the program reduced; entry 10000 stands for the small entries folded into "Other".

inline constexpr std::uint16_t kOtherEntry = 10000;
inline constexpr std::uint8_t kFullUtilization = 250; // 100 % of every PE
inline constexpr std::uint32_t kBinsPerSecond = 1000;
// Bins one chunk may hold (the module sends 1000; more is refused as corrupt).
inline constexpr std::uint32_t kMaxChunkBins = 1'000'000;

struct UtilizationRecord {
    std::uint16_t entry = 0;
    std::uint8_t utilization = 0; // 0..250

    friend bool operator==(const UtilizationRecord&, const UtilizationRecord&) = default;
};

struct UtilizationChunk {
    std::uint32_t pes = 0; // PEs averaged into the chunk (the payload's numProcs)
    // Bin b's records are records[binStart[b] .. binStart[b + 1]); binStart has bins + 1 items.
    std::vector<std::uint32_t> binStart { 0 };
    std::vector<UtilizationRecord> records;

    [[nodiscard]] std::size_t binCount() const { return binStart.size() - 1; }
    [[nodiscard]] std::span<const UtilizationRecord> bin(std::size_t b) const
    {
        return std::span(records).subspan(binStart[b], binStart[b + 1] - binStart[b]);
    }
    // Appends a bin (records as given: the module sorts them by entry, "Other" last).
    void addBin(std::span<const UtilizationRecord> binRecords);
};

enum class PayloadKind : std::uint8_t {
    Chunk, // a chunk was decoded
    Empty, // nothing was queued in the program (numBins = 0)
    Corrupt // the bytes do not follow the layout; `error` says where
};

struct DecodedPayload {
    PayloadKind kind = PayloadKind::Corrupt;
    UtilizationChunk chunk;
    std::string error;
};

// Decodes one CCS reply payload of the handler "CkPerfSumDetail compressed" (little-endian:
// le32 bins [le32 PEs, then per bin le16 count and count × {le16 entry, u8 utilization}]).
// Strict: every count must fit the bytes, no byte may be left over, bins <= kMaxChunkBins and
// every utilization <= 250.
[[nodiscard]] DecodedPayload decodeUtilizationPayload(std::span<const std::uint8_t> payload);

// The payload of a chunk in the same layout (the simulator's and the tests' server).
[[nodiscard]] std::vector<std::uint8_t> encodeUtilizationPayload(const UtilizationChunk& chunk);
// The payload of an empty reply (4 zero bytes).
[[nodiscard]] std::vector<std::uint8_t> encodeEmptyUtilizationPayload();

// A made-up but plausible second `second` of a program on `pes` PEs (the simulator's stream):
// a few entry methods sharing 60-95 % busy time, a dip every 10 s as if load balancing, small
// entries folded into "Other". Deterministic.
[[nodiscard]] UtilizationChunk syntheticUtilizationChunk(std::uint64_t second, std::uint32_t pes);

} // namespace parallax::core::stream
