#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace parallax::io::stream {

// Blocking-with-deadline I/O on a non-blocking socket (poll() between attempts), shared by the
// CCS client and server. Never waits past `deadline`.
using SocketDeadline = std::chrono::steady_clock::time_point;

enum class SocketStatus : std::uint8_t { Done, Closed, Timeout, Failed };

struct SocketOutcome {
    SocketStatus status = SocketStatus::Failed;
    std::size_t bytes = 0; // transferred before the end
    std::string error; // errno text for Failed
};

// Reads exactly buffer.size() bytes (Closed: EOF came first).
SocketOutcome readExact(int fd, std::span<std::uint8_t> buffer, SocketDeadline deadline);
SocketOutcome writeAll(int fd, std::span<const std::uint8_t> bytes, SocketDeadline deadline);
// Waits until `fd` is readable (or hung up), `wake` (another fd, -1 for none) is readable, or the
// deadline passes. 1: fd ready, 2: wake ready, 0: timeout, -1: error.
int waitReadable(int fd, int wake, SocketDeadline deadline);
int remainingMs(SocketDeadline deadline);
SocketDeadline deadlineIn(int milliseconds);

} // namespace parallax::io::stream
