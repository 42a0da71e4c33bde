#pragma once

// The on-disk layout of an index (docs/index.md): a directory holding a manifest and one or more
// shard files. Shared by the writer (io/index_writer.cpp), the reader (io/mapped_index.cpp) and
// the tests that forge damaged indexes. Everything is little-endian (the byte-order mark refuses
// anything else), fixed-width and aligned so that a shard is used in place once mapped.

#include "core/pe_trace.h"
#include "core/summary_data.h"

#include <cstddef>
#include <cstdint>

namespace parallax::io::index {

// Bump whenever what is written changes (a new column, a new field, another order).
inline constexpr std::uint32_t kFormatVersion = 9;
inline constexpr char kManifestMagic[8] = { 'P', 'L', 'X', 'I', 'N', 'D', 'E', 'X' };
inline constexpr char kShardMagic[8] = { 'P', 'L', 'X', 'S', 'H', 'A', 'R', 'D' };
inline constexpr std::uint32_t kByteOrderMark = 0x01020304U;
inline constexpr const char* kManifestName = "manifest";
// Columns start at multiples of this many bytes of the shard (the mapping is page-aligned).
inline constexpr std::uint64_t kAlign = 64;

// The manifest: this header, a table of kManifestSections sections, the sections.
struct ManifestHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t byteOrder;
    std::uint64_t layout; // layoutFingerprint() of the writer
    std::uint64_t sectionCount;
    std::uint64_t tableHash; // checksum of the section table that follows the header
    std::uint64_t headerHash; // checksum of the fields above
    std::uint64_t reserved[2];
};
static_assert(sizeof(ManifestHeader) == 64);
inline constexpr std::size_t kManifestHeaderHashAt = 40;

struct Section {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t hash = 0;
};
static_assert(sizeof(Section) == 24);

// Manifest sections: the run key (which files, sizes and times, load options), the run (symbol
// table, file tables, import report, row counts), the shard table.
enum ManifestSection : std::size_t { kKeySection = 0, kRunSection = 1, kShardSection = 2 };
inline constexpr std::size_t kManifestSections = 3;

// A shard file: this header, the PE directory (one PeRecord per PE of the shard), the data.
struct ShardHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t byteOrder;
    std::uint64_t layout;
    std::uint64_t buildId; // the same in the manifest and every shard of one index
    std::uint64_t shardIndex;
    std::uint64_t shardCount;
    std::uint64_t firstPe;
    std::uint64_t peCount;
    std::uint64_t directoryHash; // checksum of the PE directory
    std::uint64_t fileBytes; // size of the whole shard file
    std::uint64_t reserved[5];
    std::uint64_t headerHash; // checksum of the fields above
};
static_assert(sizeof(ShardHeader) == 128);
inline constexpr std::size_t kShardHeaderHashAt = 120;

// The columns of one PE, in the order they follow each other in the PE's data block, each
// starting at a multiple of kAlign. Their offsets follow from the counts, so a record cannot
// describe overlapping or out-of-order columns. A packed column (core/packed_column.h) is four
// in a row: the narrow values, the escaped rows, their values, the base (kPackedParts); a sparse
// one two: the rows and their values (its size is that of its table).
inline constexpr std::size_t kPackedParts = 4;
enum Column : std::size_t {
    kExecBegin, // packed, 4 parts
    kExecEnd = kExecBegin + kPackedParts, // packed
    kExecEntry = kExecEnd + kPackedParts,
    kExecSourcePe,
    kExecMsgBytes, // packed
    kExecEventId = kExecMsgBytes + kPackedParts,
    kExecObject,
    kExecCpuBegin, // packed
    kExecCpuDuration = kExecCpuBegin + kPackedParts,
    kExecFlags,
    kExecPapi,
    kIdleBegin, // these nine packed
    kIdleEnd = kIdleBegin + kPackedParts,
    kPackBegin = kIdleEnd + kPackedParts,
    kPackEnd = kPackBegin + kPackedParts,
    kUnpackBegin = kPackEnd + kPackedParts,
    kUnpackEnd = kUnpackBegin + kPackedParts,
    kFlushBegin = kUnpackEnd + kPackedParts,
    kFlushEnd = kFlushBegin + kPackedParts,
    kSendTime = kFlushEnd + kPackedParts,
    kSendEntry = kSendTime + kPackedParts,
    kSendKind,
    kSendMessageType,
    kSendMsgBytes, // packed
    kSendEventId = kSendMsgBytes + kPackedParts,
    kSendDestinationCount, // sparse, 2 parts
    kSendDuration = kSendDestinationCount + 2, // packed
    kSendExecution = kSendDuration + kPackedParts,
    kMulticastSend,
    kMulticastOffset,
    kMulticastPes,
    kObjectOffset, // objects + 1 offsets into kObjectValues (or none without objects)
    kObjectValues, // packed
    kUserEvents = kObjectValues + kPackedParts,
    kUserBrackets,
    kStats,
    kMemory,
    kUserSupplied,
    kTraceGaps,
    kPhaseEnds,
    kNoteBegin, // notes: times and ids as columns, texts as offsets into one blob
    kNoteEnd,
    kNoteId,
    kNoteTextOffset, // notes + 1 offsets (or none without notes)
    kNoteText,
    kColumnCount
};

// Bytes of one element of each column.
#define PARALLAX_CLOCK_PARTS 4, 4, sizeof(core::TimeUs), sizeof(core::TimeUs)
inline constexpr std::size_t kColumnElementBytes[kColumnCount] = {
    PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS, 2, // begin, end (packed), entry
    sizeof(core::PeId), // source PE
    2, 4, 4, 4, // message bytes, packed
    4, 4, //
    PARALLAX_CLOCK_PARTS, // CPU begin, packed
    4, 1, 8, // executions
    PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS,
    PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS, PARALLAX_CLOCK_PARTS,
    PARALLAX_CLOCK_PARTS, // idle, pack, unpack, flush (packed)
    PARALLAX_CLOCK_PARTS, 2, 1, 1, // send time (packed), entry, kind, type
    2, 4, 4, 4, // message bytes, packed
    4, //
    4, 4, // destination count, sparse
    2, 4, 4, 4, // send duration, packed
    4, 4, 4, sizeof(core::PeId), // sends
    4, 2, 4, 4, 4, // object offsets; values, packed
    sizeof(core::UserEventPoint), sizeof(core::UserEventBracket), sizeof(core::StatSample),
    sizeof(core::MemorySample), sizeof(core::UserSuppliedValue), sizeof(core::TraceGap),
    sizeof(core::PhaseEnd), // structs, padding zeroed
    8, 8, 4, 8, 1, // notes
};
#undef PARALLAX_CLOCK_PARTS

constexpr bool everyColumnHasAWidth()
{
    for (const auto bytes : kColumnElementBytes)
        if (bytes == 0)
            return false;
    return true;
}
static_assert(everyColumnHasAWidth(), "kColumnElementBytes lists fewer widths than columns");

// One PE of a shard's directory: its scalar fields, where its data is, how many elements each
// column has, and the scalar fields of its summaries (so an open knows them without decoding).
struct PeRecord {
    std::int32_t pe;
    std::uint8_t hasLog; // 0/1
    std::uint8_t lastIdleFlags;
    std::uint8_t hasSummary; // 0/1: a .sum blob follows the columns
    std::uint8_t hasDetail; // 0/1: a .sumd blob follows
    std::int64_t beginComputation;
    std::int64_t endComputation;
    std::int64_t firstTime;
    std::int64_t lastTime;
    std::uint64_t recordCount;
    std::uint64_t storeBytes; // PeTrace::memoryBytes() of the store the index was written from
    std::uint64_t dataOffset; // of the columns, from the start of the shard file
    std::uint64_t dataBytes;
    std::uint64_t dataHash;
    std::uint64_t counts[kColumnCount];
    std::uint64_t summaryOffset;
    std::uint64_t summaryBytes;
    std::uint64_t summaryHash;
    std::uint64_t detailOffset;
    std::uint64_t detailBytes;
    std::uint64_t detailHash;
    // The summaries' scalar fields (doubles as their bits), also inside their blobs.
    std::uint64_t summaryVersionBits;
    std::int64_t summaryIntervalUs;
    std::int32_t summaryNumPes;
    std::int32_t detailEntryCount;
    std::uint64_t detailVersionBits;
    std::int64_t detailIntervalUs;
    std::int64_t detailIntervalCount;
};
static_assert(sizeof(PeRecord) == 8 + 21 * 8 + kColumnCount * 8);
static_assert(std::has_unique_object_representations_v<PeRecord>);

// Bytes of a PE's column block with these counts (each column aligned), or 0 on overflow of
// `limit` (a forged count).
inline std::uint64_t columnBlockBytes(
    const std::uint64_t (&counts)[kColumnCount], std::uint64_t limit, bool& overflow)
{
    std::uint64_t at = 0;
    overflow = false;
    for (std::size_t c = 0; c < kColumnCount; ++c) {
        at = (at + kAlign - 1) / kAlign * kAlign;
        if (counts[c] > limit / kColumnElementBytes[c]) {
            overflow = true;
            return 0;
        }
        at += counts[c] * kColumnElementBytes[c];
        if (at > limit) {
            overflow = true;
            return 0;
        }
    }
    return at;
}

inline std::uint64_t alignUp(std::uint64_t v)
{
    return (v + kAlign - 1) / kAlign * kAlign;
}

// A fingerprint of the sizes and field offsets of everything stored raw (a shard is read in
// place as these structs): an index from a build that lays them out differently is refused.
std::uint64_t layoutFingerprint();

} // namespace parallax::io::index
