#pragma once

// Forging index directories (docs/index.md) for the tests and the fuzz harness: edit any bytes of
// a manifest or shard, then reseal() recomputes every checksum the reader checks (PE data,
// summaries, PE directories, shard headers, the manifest's shard table, sections, section table
// and header), so that what reaches the reader is intact and only the edit itself can be wrong.
// Depends on no test framework.

#include "io/cache_hash.h"
#include "io/index_format.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace parallax::test::forge {

namespace ix = parallax::io::index;

template <typename T> T load(const std::string& bytes, std::size_t at)
{
    T value {};
    if (at <= bytes.size() && sizeof value <= bytes.size() - at)
        std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

template <typename T> void store(std::string& bytes, std::size_t at, T value)
{
    if (at <= bytes.size() && sizeof value <= bytes.size() - at)
        std::memcpy(bytes.data() + at, &value, sizeof value);
}

inline bool fits(const std::string& bytes, std::uint64_t offset, std::uint64_t size)
{
    return offset <= bytes.size() && size <= bytes.size() - offset;
}

inline std::uint64_t hashOf(const std::string& bytes, std::uint64_t offset, std::uint64_t size)
{
    return io::CacheHash::of(bytes.data() + offset, static_cast<std::size_t>(size));
}

// Where PE record `i` of a shard starts.
inline std::size_t recordAt(std::size_t i)
{
    return sizeof(ix::ShardHeader) + i * sizeof(ix::PeRecord);
}

// Recomputes a shard's checksums (as far as its sizes allow).
inline void resealShard(std::string& shard)
{
    if (shard.size() < sizeof(ix::ShardHeader))
        return;
    auto header = load<ix::ShardHeader>(shard, 0);
    const auto peCount = header.peCount;
    if (peCount <= (shard.size() - sizeof header) / sizeof(ix::PeRecord)) {
        for (std::size_t i = 0; i < peCount; ++i) {
            auto r = load<ix::PeRecord>(shard, recordAt(i));
            if (fits(shard, r.dataOffset, r.dataBytes))
                r.dataHash = hashOf(shard, r.dataOffset, r.dataBytes);
            if (fits(shard, r.summaryOffset, r.summaryBytes))
                r.summaryHash = hashOf(shard, r.summaryOffset, r.summaryBytes);
            if (fits(shard, r.detailOffset, r.detailBytes))
                r.detailHash = hashOf(shard, r.detailOffset, r.detailBytes);
            store(shard, recordAt(i), r);
        }
        header.directoryHash = hashOf(shard, sizeof header, peCount * sizeof(ix::PeRecord));
    }
    header.headerHash = io::CacheHash::of(&header, ix::kShardHeaderHashAt);
    store(shard, 0, header);
}

// The manifest's shard table entries: offset of each entry's fileBytes field, keyed by name.
struct ShardEntry {
    std::string name;
    std::size_t fileBytesAt = 0;
};

inline std::vector<ShardEntry> shardEntries(const std::string& manifest)
{
    std::vector<ShardEntry> out;
    const auto table = load<ix::Section>(
        manifest, sizeof(ix::ManifestHeader) + ix::kShardSection * sizeof(ix::Section));
    if (!fits(manifest, table.offset, table.size))
        return out;
    std::size_t at = static_cast<std::size_t>(table.offset) + 8; // build id
    const auto end = static_cast<std::size_t>(table.offset + table.size);
    const auto count = load<std::uint64_t>(manifest, at);
    at += 8;
    for (std::uint64_t k = 0; k < count && at + 8 <= end; ++k) {
        const auto length = load<std::uint64_t>(manifest, at);
        if (length > end - at - 8)
            break;
        ShardEntry e;
        e.name = manifest.substr(at + 8, static_cast<std::size_t>(length));
        at += 8 + static_cast<std::size_t>(length) + 16; // name, firstPe, peCount
        e.fileBytesAt = at;
        at += 16; // fileBytes, headerHash
        if (at > end)
            break;
        out.push_back(e);
    }
    return out;
}

// Recomputes the manifest's checksums; `shards` (name, bytes) updates each named shard's size and
// header checksum in the shard table first.
inline void resealManifest(
    std::string& manifest, const std::vector<std::pair<std::string, std::string>>& shards = {})
{
    if (manifest.size() < sizeof(ix::ManifestHeader) + 3 * sizeof(ix::Section))
        return;
    for (const auto& e : shardEntries(manifest))
        for (const auto& [name, bytes] : shards)
            if (name == e.name) {
                store<std::uint64_t>(manifest, e.fileBytesAt, bytes.size());
                store<std::uint64_t>(
                    manifest, e.fileBytesAt + 8, load<ix::ShardHeader>(bytes, 0).headerHash);
            }
    const auto tableAt = sizeof(ix::ManifestHeader);
    for (std::size_t k = 0; k < ix::kManifestSections; ++k) {
        auto s = load<ix::Section>(manifest, tableAt + k * sizeof(ix::Section));
        if (fits(manifest, s.offset, s.size))
            s.hash = hashOf(manifest, s.offset, s.size);
        store(manifest, tableAt + k * sizeof(ix::Section), s);
    }
    auto header = load<ix::ManifestHeader>(manifest, 0);
    header.tableHash = hashOf(manifest, tableAt, ix::kManifestSections * sizeof(ix::Section));
    header.headerHash = io::CacheHash::of(&header, ix::kManifestHeaderHashAt);
    store(manifest, 0, header);
}

} // namespace parallax::test::forge
