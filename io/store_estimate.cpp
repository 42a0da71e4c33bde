#include "store_estimate.h"

#include "byte_source.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <vector>

namespace parallax::io {

namespace {

constexpr std::size_t kSampleBytes = std::size_t { 1 } << 20;
// Typical compression of a text log by gzip, for trailers that cannot be believed.
constexpr std::uint64_t kAssumedGzipRatio = 4;
constexpr double kFallbackBytesPerRecord = 32.0;

// Decompressed size of a log: the file size, or for gzip the trailer's ISIZE (the size modulo
// 2^32, so a trailer smaller than the file itself has wrapped or is damaged).
std::uint64_t textBytes(const std::string& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return 0;
    std::ifstream in(path, std::ios::binary);
    std::array<unsigned char, 2> magic {};
    if (!in.read(reinterpret_cast<char*>(magic.data()), 2) || magic[0] != 0x1f || magic[1] != 0x8b
        || size < 18)
        return size;
    std::array<unsigned char, 4> trailer {};
    in.seekg(static_cast<std::streamoff>(size - 4));
    if (!in.read(reinterpret_cast<char*>(trailer.data()), 4))
        return size * kAssumedGzipRatio;
    const std::uint64_t isize = std::uint64_t { trailer[0] } | (std::uint64_t { trailer[1] } << 8)
        | (std::uint64_t { trailer[2] } << 16) | (std::uint64_t { trailer[3] } << 24);
    return isize >= size ? isize : size * kAssumedGzipRatio;
}

// Mean line length over the first MiB of a log; 0 when it cannot be read.
double sampleBytesPerRecord(const std::string& path)
{
    std::string error;
    auto source = ByteSource::open(path, error, ByteSource::Gzip::Streaming);
    if (!source)
        return 0;
    std::vector<char> buffer(kSampleBytes);
    std::size_t have = 0;
    while (have < buffer.size()) {
        const auto n = source->read(buffer.data() + have, buffer.size() - have);
        if (n <= 0)
            break;
        have += static_cast<std::size_t>(n);
    }
    std::uint64_t lines = 0;
    for (std::size_t i = 0; i < have; ++i)
        lines += buffer[i] == '\n' ? 1U : 0U;
    return lines == 0 ? 0 : static_cast<double>(have) / static_cast<double>(lines);
}

} // namespace

StoreEstimate estimateStore(const core::RunFiles& files)
{
    StoreEstimate e;
    const auto peBytes = files.logPaths.size() * kStoreBytesPerPe;
    e.storeBytes = peBytes;
    const std::string* sample = nullptr;
    for (const auto& path : files.logPaths) {
        if (path.empty())
            continue;
        e.logTextBytes += textBytes(path);
        if (sample == nullptr)
            sample = &path;
    }
    if (sample == nullptr)
        return e;
    e.bytesPerRecord = sampleBytesPerRecord(*sample);
    if (e.bytesPerRecord <= 0)
        e.bytesPerRecord = kFallbackBytesPerRecord;
    e.records = static_cast<std::uint64_t>(static_cast<double>(e.logTextBytes) / e.bytesPerRecord);
    e.storeBytes = e.records * kStoreBytesPerRecord + peBytes;
    return e;
}

} // namespace parallax::io
