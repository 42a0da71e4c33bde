#pragma once

#include "io/stream/ccs_protocol.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::io::stream {

// A CCS client over POSIX sockets (docs/streaming.md): one connection per request, a
// non-blocking connect and poll() with deadlines, so that no call waits longer than its
// timeouts, and a one-line message for every way a request can fail.

struct CcsEndpoint {
    std::string host;
    std::uint16_t port = 0;
    [[nodiscard]] std::string text() const { return host + ":" + std::to_string(port); }
};

// "HOST:PORT" (port 1..65535); nullopt with a one-line `error`.
[[nodiscard]] std::optional<CcsEndpoint> parseCcsEndpoint(
    std::string_view text, std::string& error);

struct CcsClientOptions {
    int connectTimeoutMs = 3000;
    int replyTimeoutMs = 5000; // from the request sent to the last reply byte
    std::uint32_t maxReplyBytes = 64U << 20U; // longer replies are refused unread
    // An fd (CancelSignal::fd(), -1 for none) whose turning readable abandons the request at
    // once with Cancelled: closing a live window does not wait for a silent program.
    int cancelFd = -1;
};

enum class CcsStatus : std::uint8_t {
    Reply, // `payload` holds the reply
    ClosedWithoutReply, // the server closed without a byte (e.g. a PE out of range)
    Unresolved, // the host name does not resolve
    Unreachable, // no route, network down
    Refused, // nothing listens on the port
    Timeout, // connect or reply took longer than allowed
    Truncated, // the connection ended inside the reply
    TooLarge, // the reply length passes maxReplyBytes
    Cancelled, // abandoned through CcsClientOptions::cancelFd
    Failed // any other socket error
};

struct CcsResult {
    CcsStatus status = CcsStatus::Failed;
    std::vector<std::uint8_t> payload;
    std::string error; // one line naming the endpoint, empty for Reply

    [[nodiscard]] bool ok() const { return status == CcsStatus::Reply; }
};

// Sends one request and reads its reply.
[[nodiscard]] CcsResult ccsRequest(const CcsEndpoint& endpoint, std::string_view handler,
    std::int32_t pe, std::span<const std::uint8_t> data, const CcsClientOptions& options);

// Asks ccs_getinfo for the machine's nodes and PEs; nullopt with `error`.
[[nodiscard]] std::optional<CcsMachineInfo> ccsGetInfo(
    const CcsEndpoint& endpoint, const CcsClientOptions& options, std::string& error);

} // namespace parallax::io::stream
