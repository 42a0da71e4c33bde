#include "utilization_chunk.h"

namespace parallax::core::stream {

namespace {

// Reads little-endian fields, remembering whether a read ran past the end.
class LittleEndianCursor {
public:
    explicit LittleEndianCursor(std::span<const std::uint8_t> bytes)
        : m_bytes(bytes)
    { }
    [[nodiscard]] std::size_t offset() const { return m_offset; }
    [[nodiscard]] std::size_t remaining() const { return m_bytes.size() - m_offset; }
    std::uint32_t u32()
    {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i)
            v |= static_cast<std::uint32_t>(m_bytes[m_offset + i]) << (8 * i);
        m_offset += 4;
        return v;
    }
    std::uint16_t u16()
    {
        const auto v = static_cast<std::uint16_t>(
            m_bytes[m_offset] | static_cast<unsigned>(m_bytes[m_offset + 1]) << 8U);
        m_offset += 2;
        return v;
    }
    std::uint8_t u8() { return m_bytes[m_offset++]; }

private:
    std::span<const std::uint8_t> m_bytes;
    std::size_t m_offset = 0;
};

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (unsigned i = 0; i < 4; ++i)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void putU16(std::vector<std::uint8_t>& out, std::uint16_t v)
{
    out.push_back(static_cast<std::uint8_t>(v & 0xffU));
    out.push_back(static_cast<std::uint8_t>(v >> 8U));
}

DecodedPayload corruptPayload(std::string message)
{
    DecodedPayload result;
    result.kind = PayloadKind::Corrupt;
    result.error = std::move(message);
    return result;
}

} // namespace

void UtilizationChunk::addBin(std::span<const UtilizationRecord> binRecords)
{
    records.insert(records.end(), binRecords.begin(), binRecords.end());
    binStart.push_back(static_cast<std::uint32_t>(records.size()));
}

DecodedPayload decodeUtilizationPayload(std::span<const std::uint8_t> payload)
{
    LittleEndianCursor in(payload);
    if (in.remaining() < 4)
        return corruptPayload("utilization payload of " + std::to_string(payload.size())
            + " bytes is shorter than its 4-byte bin count");
    const std::uint32_t bins = in.u32();
    if (bins == 0) {
        if (in.remaining() != 0)
            return corruptPayload("empty utilization payload has " + std::to_string(in.remaining())
                + " trailing bytes");
        DecodedPayload empty;
        empty.kind = PayloadKind::Empty;
        return empty;
    }
    if (bins > kMaxChunkBins)
        return corruptPayload("utilization payload claims " + std::to_string(bins)
            + " bins (at most " + std::to_string(kMaxChunkBins) + ")");
    if (in.remaining() < 4)
        return corruptPayload("utilization payload ends before its PE count");
    DecodedPayload result;
    result.kind = PayloadKind::Chunk;
    auto& chunk = result.chunk;
    chunk.pes = in.u32();
    // Every bin needs at least its 2-byte count: refuse before reserving anything.
    if (in.remaining() < 2ULL * bins)
        return corruptPayload("utilization payload of " + std::to_string(payload.size())
            + " bytes is too short for " + std::to_string(bins) + " bins");
    chunk.binStart.reserve(bins + 1);
    for (std::uint32_t b = 0; b < bins; ++b) {
        if (in.remaining() < 2)
            return corruptPayload("utilization payload ends in bin " + std::to_string(b) + " of "
                + std::to_string(bins) + " (byte " + std::to_string(in.offset()) + ")");
        const std::uint16_t count = in.u16();
        if (in.remaining() < 3ULL * count)
            return corruptPayload("bin " + std::to_string(b) + " claims " + std::to_string(count)
                + " records but only " + std::to_string(in.remaining()) + " bytes are left (byte "
                + std::to_string(in.offset()) + ")");
        for (std::uint16_t r = 0; r < count; ++r) {
            UtilizationRecord record;
            record.entry = in.u16();
            record.utilization = in.u8();
            if (record.utilization > kFullUtilization)
                return corruptPayload("bin " + std::to_string(b) + " has utilization "
                    + std::to_string(record.utilization) + " (at most 250) for entry "
                    + std::to_string(record.entry));
            chunk.records.push_back(record);
        }
        chunk.binStart.push_back(static_cast<std::uint32_t>(chunk.records.size()));
    }
    if (in.remaining() != 0)
        return corruptPayload("utilization payload has " + std::to_string(in.remaining())
            + " trailing bytes after its " + std::to_string(bins) + " bins");
    return result;
}

std::vector<std::uint8_t> encodeUtilizationPayload(const UtilizationChunk& chunk)
{
    std::vector<std::uint8_t> out;
    out.reserve(8 + 2 * chunk.binCount() + 3 * chunk.records.size());
    putU32(out, static_cast<std::uint32_t>(chunk.binCount()));
    if (chunk.binCount() == 0)
        return out;
    putU32(out, chunk.pes);
    for (std::size_t b = 0; b < chunk.binCount(); ++b) {
        const auto records = chunk.bin(b);
        putU16(out, static_cast<std::uint16_t>(records.size()));
        for (const auto& record : records) {
            putU16(out, record.entry);
            out.push_back(record.utilization);
        }
    }
    return out;
}

UtilizationChunk syntheticUtilizationChunk(std::uint64_t second, std::uint32_t pes)
{
    UtilizationChunk chunk;
    chunk.pes = pes;
    chunk.binStart.reserve(kBinsPerSecond + 1);
    std::vector<UtilizationRecord> bin;
    for (std::uint32_t b = 0; b < kBinsPerSecond; ++b) {
        const std::uint64_t ms = second * kBinsPerSecond + b;
        // A 10-s cycle: steady work, then a 400-ms valley (load balancing) at its end.
        const bool balancing = ms % 10'000 >= 9'600;
        // Each 40-ms step: compute grows and shrinks, communication fills some of the rest.
        const auto phase = static_cast<unsigned>(ms % 40);
        bin.clear();
        if (balancing) {
            bin.push_back({ 5, static_cast<std::uint8_t>(40 + (ms % 7)) });
        } else {
            const auto compute = static_cast<std::uint8_t>(phase < 30 ? 130 + phase * 2 : 60);
            const auto exchange = static_cast<std::uint8_t>(phase < 30 ? 20 : 120);
            bin.push_back({ 0, compute });
            bin.push_back({ 1, exchange });
            if (phase % 8 == 0)
                bin.push_back({ 2, 20 });
        }
        bin.push_back({ kOtherEntry, static_cast<std::uint8_t>(5 + (ms % 11)) });
        chunk.addBin(bin);
    }
    return chunk;
}

std::vector<std::uint8_t> encodeEmptyUtilizationPayload()
{
    return { 0, 0, 0, 0 };
}

} // namespace parallax::core::stream
