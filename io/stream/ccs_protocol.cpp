#include "ccs_protocol.h"

#include <algorithm>

namespace parallax::io::stream {

namespace {

void putBigEndian32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(v >> shift));
}

} // namespace

std::uint32_t readBigEndian32(std::span<const std::uint8_t> bytes)
{
    return static_cast<std::uint32_t>(bytes[0]) << 24U | static_cast<std::uint32_t>(bytes[1]) << 16U
        | static_cast<std::uint32_t>(bytes[2]) << 8U | static_cast<std::uint32_t>(bytes[3]);
}

std::vector<std::uint8_t> encodeCcsRequest(
    std::string_view handler, std::int32_t pe, std::span<const std::uint8_t> data)
{
    std::vector<std::uint8_t> out;
    out.reserve(kCcsHeaderBytes + data.size());
    putBigEndian32(out, static_cast<std::uint32_t>(data.size()));
    putBigEndian32(out, static_cast<std::uint32_t>(pe));
    const auto name = handler.substr(0, kCcsHandlerBytes);
    out.insert(out.end(), name.begin(), name.end());
    out.resize(kCcsHeaderBytes, 0);
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::optional<CcsRequestHeader> decodeCcsRequestHeader(
    std::span<const std::uint8_t, kCcsHeaderBytes> bytes, std::string& error)
{
    // The first byte tells the kind: below 0x20 a plain request (the length's top byte).
    if (bytes[0] >= 0x20) {
        error = "unsupported CCS request kind (first byte " + std::to_string(bytes[0])
            + "; authenticated requests are not served)";
        return std::nullopt;
    }
    CcsRequestHeader header;
    header.dataBytes = readBigEndian32(bytes.subspan(0, 4));
    header.pe = static_cast<std::int32_t>(readBigEndian32(bytes.subspan(4, 4)));
    const auto name = bytes.subspan(8, kCcsHandlerBytes);
    const auto end = std::find(name.begin(), name.end(), std::uint8_t { 0 });
    header.handler.assign(name.begin(), end);
    return header;
}

std::vector<std::uint8_t> encodeCcsReply(std::span<const std::uint8_t> payload)
{
    std::vector<std::uint8_t> out;
    out.reserve(4 + payload.size());
    putBigEndian32(out, static_cast<std::uint32_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

std::uint64_t CcsMachineInfo::pes() const
{
    std::uint64_t total = 0;
    for (const auto n : pesPerNode)
        total += n;
    return total;
}

std::vector<std::uint8_t> encodeMachineInfo(const CcsMachineInfo& info)
{
    std::vector<std::uint8_t> out;
    putBigEndian32(out, static_cast<std::uint32_t>(info.pesPerNode.size()));
    for (const auto n : info.pesPerNode)
        putBigEndian32(out, n);
    return out;
}

std::optional<CcsMachineInfo> decodeMachineInfo(
    std::span<const std::uint8_t> payload, std::string& error)
{
    if (payload.size() < 4) {
        error
            = "ccs_getinfo reply of " + std::to_string(payload.size()) + " bytes has no node count";
        return std::nullopt;
    }
    const std::uint32_t nodes = readBigEndian32(payload);
    if (payload.size() != 4 + 4ULL * nodes) {
        error = "ccs_getinfo reply of " + std::to_string(payload.size()) + " bytes does not hold "
            + std::to_string(nodes) + " nodes";
        return std::nullopt;
    }
    CcsMachineInfo info;
    for (std::uint32_t n = 0; n < nodes; ++n)
        info.pesPerNode.push_back(readBigEndian32(payload.subspan(4 + 4ULL * n, 4)));
    return info;
}

} // namespace parallax::io::stream
