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

enum class SocketStatus : std::uint8_t { Done, Closed, Timeout, Cancelled, Failed };

struct SocketOutcome {
    SocketStatus status = SocketStatus::Failed;
    std::size_t bytes = 0; // transferred before the end
    std::string error; // errno text for Failed
};

// Reads exactly buffer.size() bytes (Closed: EOF came first). Both give up with Cancelled as
// soon as `cancel` (an fd, -1 for none; see CancelSignal) becomes readable.
SocketOutcome readExact(
    int fd, std::span<std::uint8_t> buffer, SocketDeadline deadline, int cancel = -1);
SocketOutcome writeAll(
    int fd, std::span<const std::uint8_t> bytes, SocketDeadline deadline, int cancel = -1);
// Waits until `fd` is readable (or hung up), `wake` (another fd, -1 for none) is readable, or the
// deadline passes. 1: fd ready, 2: wake ready, 0: timeout, -1: error.
int waitReadable(int fd, int wake, SocketDeadline deadline);
int remainingMs(SocketDeadline deadline);
// Waits up to `milliseconds` for `cancel` to be raised; true when it was.
bool waitCancelled(int cancel, int milliseconds);
SocketDeadline deadlineIn(int milliseconds);

// A flag that another thread (or a signal handler: raise() is one write) raises to abandon a
// wait: a request in flight when a live window closes, the server's accept loop on stop().
// Its fd() turns readable for good; the waits above watch it. Linux eventfd.
class CancelSignal {
public:
    CancelSignal();
    ~CancelSignal();
    CancelSignal(const CancelSignal&) = delete;
    CancelSignal& operator=(const CancelSignal&) = delete;

    void raise(); // any thread, any number of times
    [[nodiscard]] bool raised() const;
    [[nodiscard]] int fd() const { return m_fd; }

private:
    int m_fd = -1;
};

} // namespace parallax::io::stream
