#pragma once

#include "core/analysis/time_profile.h"
#include "core/run_metadata.h"
#include "core/stream/utilization_chunk.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parallax::core::stream {

// An entry method's share of one point of the stream: percent of all PEs' time (0..100).
struct UtilizationShare {
    std::uint16_t entry = 0;
    double percent = 0.0;
};

// The mean utilization over `bins` consecutive 1-ms bins starting at program time beginMs.
struct UtilizationPoint {
    std::uint64_t beginMs = 0; // program time since trace start
    std::uint32_t bins = 0; // width in ms
    std::vector<UtilizationShare> shares; // by increasing entry ("Other" last); no zero shares

    [[nodiscard]] double totalPercent() const;
};

struct AppendOutcome {
    PayloadKind kind = PayloadKind::Corrupt;
    std::string error; // for Corrupt
};

// The utilization stream received so far: chunks in the order they came. The payload carries
// no time, so the k-th chunk (from 0) is taken to cover program time [k, k + 1) s, one 1-ms bin
// after the other. A corrupt payload is refused and leaves the stream as it was.
class UtilizationStream {
public:
    // Decodes a reply payload and appends its chunk; empty replies change nothing.
    AppendOutcome appendPayload(std::span<const std::uint8_t> payload);
    void appendChunk(UtilizationChunk chunk);

    [[nodiscard]] std::size_t chunkCount() const { return m_chunks.size(); }

    // Keeps the 1-ms bins of only the newest `seconds` chunks (0, the default: of all). An older
    // chunk keeps its 100-ms averages, so points(…, 100) and entryTotals() are unchanged, but
    // it has no bins any more: points(…, 1) leaves it out and chunk(k) has none. A multi-hour
    // live session then keeps roughly 2 KB a second instead of a large chunk's ~16 KB.
    void setDetailSeconds(std::size_t seconds);
    [[nodiscard]] std::size_t detailSeconds() const { return m_detailSeconds; }
    // Whether chunk k still has its 1-ms bins.
    [[nodiscard]] bool hasBins(std::size_t k) const
    {
        return k >= m_firstWithBins && k < m_chunks.size();
    }
    [[nodiscard]] const UtilizationChunk& chunk(std::size_t k) const { return m_chunks[k]; }
    // PEs averaged into the newest chunk (0 before the first).
    [[nodiscard]] std::uint32_t pes() const;
    [[nodiscard]] std::uint64_t endMs() const { return m_endMs; }
    // The chunk that covers program time `ms` (the last one past the end; 0 when empty).
    [[nodiscard]] std::size_t chunkAtMs(std::uint64_t ms) const;

    // Averages of `binsPerPoint` bins (100: the scrolling view's 100-ms bars; 1: the detail
    // view) over chunks [first, first + count), clipped to the chunks received; chunks whose
    // bins were let go (setDetailSeconds) give their 100-ms points, and nothing otherwise. A
    // chunk's last point is narrower when its bin count is not a multiple of binsPerPoint.
    [[nodiscard]] std::vector<UtilizationPoint> points(
        std::size_t firstChunk, std::size_t chunks, std::uint32_t binsPerPoint) const;
    // The 100-ms points of the newest `seconds` chunks (the scrolling view).
    [[nodiscard]] std::vector<UtilizationPoint> recentTenths(std::size_t seconds) const;

    // Per entry seen, the mean utilization over all bins received, by increasing entry.
    [[nodiscard]] std::vector<UtilizationShare> entryTotals() const;

    // Entry names: index = entry id (from the program's .sts / .util.sts); empty for none.
    void setEntryNames(std::vector<std::string> names) { m_names = std::move(names); }
    [[nodiscard]] const std::vector<std::string>& entryNames() const { return m_names; }
    // "Other" for entry 10000, the name from the .sts when known, else "Entry N".
    [[nodiscard]] std::string entryName(std::uint16_t entry) const;

private:
    void dropOldBins();

    std::vector<UtilizationChunk> m_chunks;
    std::size_t m_detailSeconds = 0;
    std::size_t m_firstWithBins = 0; // chunks before it have only m_tenths
    std::vector<std::vector<UtilizationPoint>> m_tenths; // 100-ms points of the chunks before
    std::vector<std::uint64_t> m_chunkBeginMs;
    std::uint64_t m_endMs = 0;
    std::vector<std::uint64_t> m_entrySums; // per entry id (Other at kOtherEntry): Σ utilization
    std::uint64_t m_binCount = 0;
    std::vector<std::string> m_names;
};

// The chunks a program would have streamed for a traced run (the simulator's `--from RUN`): a
// time profile at 1-ms intervals, each entry's share of all PEs' time as 0..250 (truncated),
// entries under 10 % of a bin folded into "Other" as the module does, 1000 bins per chunk (the
// last chunk may be shorter).
[[nodiscard]] std::vector<UtilizationChunk> chunksFromTimeProfile(
    const analysis::TimeProfile& profile);

// Names for the stream's entry ids from the program's .sts or .util.sts: "Chare::entry(params)".
[[nodiscard]] std::vector<std::string> streamEntryNames(const RunMetadata& metadata);

} // namespace parallax::core::stream
