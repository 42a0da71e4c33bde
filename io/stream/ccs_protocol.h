#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::io::stream {

// The framing of classic, unauthenticated CCS (Converse Client-Server; docs/streaming.md): one
// TCP connection per request. A request is a 40-byte header (big-endian u32 data length,
// big-endian s32 destination PE, the handler name NUL-padded to 32 bytes) and its data; the reply
// is a big-endian u32 length and that many payload bytes, then the server closes.

inline constexpr std::size_t kCcsHeaderBytes = 40;
inline constexpr std::size_t kCcsHandlerBytes = 32;
// The handler of Charm++'s utilization trace module (one 1-s chunk per request, or empty).
inline constexpr std::string_view kUtilizationHandler = "CkPerfSumDetail compressed";
// The built-in handler that tells the machine's layout (nodes and PEs per node).
inline constexpr std::string_view kGetInfoHandler = "ccs_getinfo";

struct CcsRequestHeader {
    std::uint32_t dataBytes = 0;
    std::int32_t pe = 0;
    std::string handler;
};

[[nodiscard]] std::vector<std::uint8_t> encodeCcsRequest(
    std::string_view handler, std::int32_t pe, std::span<const std::uint8_t> data = {});
// The header of a request; nullopt with `error` for an authenticated or unknown request kind.
[[nodiscard]] std::optional<CcsRequestHeader> decodeCcsRequestHeader(
    std::span<const std::uint8_t, kCcsHeaderBytes> bytes, std::string& error);
// A reply as the server writes it: the big-endian length, then the payload.
[[nodiscard]] std::vector<std::uint8_t> encodeCcsReply(std::span<const std::uint8_t> payload);

[[nodiscard]] std::uint32_t readBigEndian32(std::span<const std::uint8_t> bytes);

// What ccs_getinfo answers: big-endian u32 node count, then that many PEs-per-node counts.
struct CcsMachineInfo {
    std::vector<std::uint32_t> pesPerNode;
    [[nodiscard]] std::uint64_t pes() const;
};
[[nodiscard]] std::vector<std::uint8_t> encodeMachineInfo(const CcsMachineInfo& info);
[[nodiscard]] std::optional<CcsMachineInfo> decodeMachineInfo(
    std::span<const std::uint8_t> payload, std::string& error);

} // namespace parallax::io::stream
