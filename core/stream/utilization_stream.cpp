#include "utilization_stream.h"

#include <algorithm>
#include <map>

namespace parallax::core::stream {

namespace {

constexpr std::uint32_t kTenthBins = 100; // the bins of a 100-ms point

double utilizationPercent(std::uint64_t utilizationSum, std::uint64_t bins)
{
    // 250 = 100 %, averaged over the bins.
    return bins == 0 ? 0.0
                     : static_cast<double>(utilizationSum) * 100.0
            / (static_cast<double>(kFullUtilization) * static_cast<double>(bins));
}

} // namespace

double UtilizationPoint::totalPercent() const
{
    double total = 0.0;
    for (const auto& share : shares)
        total += share.percent;
    return total;
}

AppendOutcome UtilizationStream::appendPayload(std::span<const std::uint8_t> payload)
{
    auto decoded = decodeUtilizationPayload(payload);
    AppendOutcome outcome { decoded.kind, std::move(decoded.error) };
    if (decoded.kind == PayloadKind::Chunk)
        appendChunk(std::move(decoded.chunk));
    return outcome;
}

void UtilizationStream::appendChunk(UtilizationChunk chunk)
{
    for (const auto& record : chunk.records) {
        if (record.entry >= m_entrySums.size())
            m_entrySums.resize(std::size_t { record.entry } + 1, 0);
        m_entrySums[record.entry] += record.utilization;
    }
    m_binCount += chunk.binCount();
    m_chunkBeginMs.push_back(m_endMs);
    m_endMs += chunk.binCount();
    m_chunks.push_back(std::move(chunk));
    dropOldBins();
}

void UtilizationStream::setDetailSeconds(std::size_t seconds)
{
    m_detailSeconds = seconds;
    dropOldBins();
}

void UtilizationStream::dropOldBins()
{
    if (m_detailSeconds == 0)
        return;
    while (m_chunks.size() - m_firstWithBins > m_detailSeconds) {
        const auto k = m_firstWithBins;
        m_tenths.push_back(points(k, 1, kTenthBins));
        m_chunks[k].records = {};
        m_chunks[k].binStart = { 0 };
        ++m_firstWithBins;
    }
}

std::uint32_t UtilizationStream::pes() const
{
    return m_chunks.empty() ? 0 : m_chunks.back().pes;
}

std::size_t UtilizationStream::chunkAtMs(std::uint64_t ms) const
{
    const auto after = std::upper_bound(m_chunkBeginMs.begin(), m_chunkBeginMs.end(), ms);
    return after == m_chunkBeginMs.begin()
        ? 0
        : static_cast<std::size_t>(after - m_chunkBeginMs.begin()) - 1;
}

std::vector<UtilizationPoint> UtilizationStream::points(
    std::size_t firstChunk, std::size_t chunks, std::uint32_t binsPerPoint) const
{
    std::vector<UtilizationPoint> result;
    if (binsPerPoint == 0 || firstChunk >= m_chunks.size())
        return result;
    const std::size_t last = firstChunk + std::min(chunks, m_chunks.size() - firstChunk);
    std::map<std::uint16_t, std::uint64_t> sums;
    for (std::size_t k = firstChunk; k < last; ++k) {
        if (!hasBins(k)) {
            if (binsPerPoint == kTenthBins)
                result.insert(result.end(), m_tenths[k].begin(), m_tenths[k].end());
            continue;
        }
        const auto& chunk = m_chunks[k];
        for (std::size_t begin = 0; begin < chunk.binCount(); begin += binsPerPoint) {
            const std::size_t end = std::min(chunk.binCount(), begin + binsPerPoint);
            sums.clear();
            for (std::size_t b = begin; b < end; ++b)
                for (const auto& record : chunk.bin(b))
                    sums[record.entry] += record.utilization;
            UtilizationPoint point;
            point.beginMs = m_chunkBeginMs[k] + begin;
            point.bins = static_cast<std::uint32_t>(end - begin);
            for (const auto& [entry, sum] : sums)
                if (sum > 0)
                    point.shares.push_back({ entry, utilizationPercent(sum, end - begin) });
            result.push_back(std::move(point));
        }
    }
    return result;
}

std::vector<UtilizationPoint> UtilizationStream::recentTenths(std::size_t seconds) const
{
    const std::size_t first = m_chunks.size() > seconds ? m_chunks.size() - seconds : 0;
    return points(first, seconds, 100);
}

std::vector<UtilizationShare> UtilizationStream::entryTotals() const
{
    std::vector<UtilizationShare> totals;
    for (std::size_t e = 0; e < m_entrySums.size(); ++e)
        if (m_entrySums[e] > 0)
            totals.push_back(
                { static_cast<std::uint16_t>(e), utilizationPercent(m_entrySums[e], m_binCount) });
    return totals;
}

std::string UtilizationStream::entryName(std::uint16_t entry) const
{
    if (entry == kOtherEntry)
        return "Other";
    if (entry < m_names.size() && !m_names[entry].empty())
        return m_names[entry];
    return "Entry " + std::to_string(entry);
}

std::vector<UtilizationChunk> chunksFromTimeProfile(const analysis::TimeProfile& profile)
{
    std::vector<UtilizationChunk> chunks;
    const auto& columns = profile.columns;
    std::vector<UtilizationRecord> bin;
    for (std::int64_t i = 0; i < profile.grid.count; ++i) {
        if (i % kBinsPerSecond == 0) {
            chunks.emplace_back();
            chunks.back().pes = static_cast<std::uint32_t>(profile.peCount);
        }
        bin.clear();
        unsigned other = 0;
        for (int entry = 0; entry < columns.entryCount && entry < kOtherEntry; ++entry) {
            const double scaled = profile.percent(i, entry) * kFullUtilization / 100.0;
            const auto utilization
                = static_cast<unsigned>(std::clamp(scaled, 0.0, double { kFullUtilization }));
            if (utilization == 0)
                continue;
            if (utilization < kFullUtilization / 10)
                other += utilization;
            else
                bin.push_back(
                    { static_cast<std::uint16_t>(entry), static_cast<std::uint8_t>(utilization) });
        }
        if (other > 0)
            bin.push_back({ kOtherEntry,
                static_cast<std::uint8_t>(std::min(other, unsigned { kFullUtilization })) });
        chunks.back().addBin(bin);
    }
    return chunks;
}

std::vector<std::string> streamEntryNames(const RunMetadata& metadata)
{
    std::vector<std::string> names;
    names.reserve(metadata.entries.size());
    for (std::size_t e = 0; e < metadata.entries.size(); ++e) {
        const auto& entry = metadata.entries[e];
        const auto id = static_cast<EntryId>(e);
        const auto& chare = metadata.chareNameOfEntry(id);
        names.push_back(chare.empty() ? entry.name : chare + "::" + entry.name);
    }
    return names;
}

} // namespace parallax::core::stream
