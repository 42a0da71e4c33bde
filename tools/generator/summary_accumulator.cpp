#include "summary_accumulator.h"

#include "symbol_table.h"

#include <algorithm>

namespace parallax::gen {

TimeUs summaryBinSize(TimeUs requestedBinSize, TimeUs endTime)
{
    TimeUs binSize = requestedBinSize;
    while (summaryBinCount(binSize, endTime) >= kMaxSummaryBins) {
        binSize *= 2;
    }
    return binSize;
}

std::int64_t summaryBinCount(TimeUs binSize, TimeUs endTime)
{
    return endTime / binSize + 1;
}

void SummaryAccumulator::reset(int entryCount, TimeUs binSize, std::int64_t binCount)
{
    m_entryCount = entryCount;
    m_binSize = binSize;
    m_binCount = binCount;
    m_busyTime.assign(static_cast<std::size_t>(binCount), 0);
    m_idleTime.assign(static_cast<std::size_t>(binCount), 0);
    m_totals.assign(static_cast<std::size_t>(entryCount), EntryTotals {});
    m_cells.resize(static_cast<std::size_t>(entryCount));
    for (auto& cells : m_cells) {
        cells.clear();
    }
    m_inEntry = false;
    m_idleBegin = -1;
    m_packBegin = -1;
    m_unpackBegin = -1;
}

std::int64_t SummaryAccumulator::binOf(TimeUs time) const
{
    return std::clamp<std::int64_t>(time / m_binSize, 0, m_binCount - 1);
}

void SummaryAccumulator::add(const TraceRecord& record)
{
    switch (record.type) {
    case RecordType::BeginProcessing:
        m_inEntry = true;
        m_openEntry = record.entry;
        m_entryBegin = record.time;
        break;
    case RecordType::EndProcessing:
        if (m_inEntry) {
            addExecution(m_openEntry, m_entryBegin, record.time, true);
            m_inEntry = false;
        }
        break;
    case RecordType::BeginIdle:
        m_idleBegin = record.time;
        break;
    case RecordType::EndIdle:
        if (m_idleBegin >= 0) {
            addTime(m_idleTime, m_idleBegin, record.time);
            m_idleBegin = -1;
        }
        break;
    case RecordType::BeginPack:
        m_packBegin = record.time;
        break;
    case RecordType::EndPack:
        if (m_packBegin >= 0) {
            addExecution(entry::kDummyPack, m_packBegin, record.time, false);
            m_packBegin = -1;
        }
        break;
    case RecordType::BeginUnpack:
        m_unpackBegin = record.time;
        break;
    case RecordType::EndUnpack:
        if (m_unpackBegin >= 0) {
            addExecution(entry::kDummyUnpack, m_unpackBegin, record.time, false);
            m_unpackBegin = -1;
        }
        break;
    default:
        break;
    }
}

void SummaryAccumulator::addTime(std::vector<std::int64_t>& bins, TimeUs begin, TimeUs end)
{
    for (std::int64_t bin = binOf(begin); begin < end; ++bin) {
        const TimeUs binEnd = bin + 1 < m_binCount ? (bin + 1) * m_binSize : end;
        const TimeUs sliceEnd = std::min(end, binEnd);
        bins[static_cast<std::size_t>(bin)] += sliceEnd - begin;
        begin = sliceEnd;
    }
}

SummaryAccumulator::BinCell& SummaryAccumulator::cellFor(EntryId entry, std::int64_t bin)
{
    std::vector<BinCell>& cells = m_cells[static_cast<std::size_t>(entry)];
    if (cells.empty() || cells.back().bin != bin) {
        cells.push_back({ bin, 0, 0 });
    }
    return cells.back();
}

void SummaryAccumulator::addExecution(EntryId entry, TimeUs begin, TimeUs end, bool busy)
{
    if (entry < 0 || entry >= m_entryCount || end < begin) {
        return;
    }
    EntryTotals& totals = m_totals[static_cast<std::size_t>(entry)];
    totals.time += end - begin;
    totals.calls += 1;
    totals.maxTime = std::max(totals.maxTime, end - begin);
    cellFor(entry, binOf(begin)).calls += 1;
    for (std::int64_t bin = binOf(begin); begin < end; ++bin) {
        const TimeUs binEnd = bin + 1 < m_binCount ? (bin + 1) * m_binSize : end;
        const TimeUs sliceEnd = std::min(end, binEnd);
        cellFor(entry, bin).time += sliceEnd - begin;
        if (busy) {
            m_busyTime[static_cast<std::size_t>(bin)] += sliceEnd - begin;
        }
        begin = sliceEnd;
    }
}

} // namespace parallax::gen
