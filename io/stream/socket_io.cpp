#include "socket_io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace parallax::io::stream {

int remainingMs(SocketDeadline deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now())
                          .count();
    return static_cast<int>(std::clamp<long long>(left, 0, 24LL * 3600 * 1000));
}

SocketDeadline deadlineIn(int milliseconds)
{
    return std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
}

namespace {

// Polls one fd for `events` and `cancel` (-1: none) for input: 1 ready, 2 cancelled, 0 timeout,
// -1 error (errno kept).
int pollOne(int fd, short events, SocketDeadline deadline, int cancel)
{
    for (;;) {
        pollfd p[2] = { { fd, events, 0 }, { cancel, POLLIN, 0 } };
        const int n = ::poll(p, cancel >= 0 ? 2 : 1, remainingMs(deadline));
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && cancel >= 0 && p[1].revents != 0)
            return 2;
        return n;
    }
}

} // namespace

int waitReadable(int fd, int wake, SocketDeadline deadline)
{
    for (;;) {
        pollfd p[2] = { { fd, POLLIN, 0 }, { wake, POLLIN, 0 } };
        const int n = ::poll(p, wake >= 0 ? 2 : 1, remainingMs(deadline));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n;
        if (wake >= 0 && p[1].revents != 0)
            return 2;
        return 1;
    }
}

namespace {

// Moves `size` bytes with `step` (recv or send: bytes moved, 0 for EOF, -1 with errno), polling
// for `events` while the socket would block.
template <class Step>
SocketOutcome transferAll(
    int fd, std::size_t size, short events, SocketDeadline deadline, int cancel, Step step)
{
    SocketOutcome outcome;
    while (outcome.bytes < size) {
        const ssize_t n = step(outcome.bytes);
        if (n > 0) {
            outcome.bytes += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0 || errno == EPIPE || errno == ECONNRESET) {
            outcome.status = SocketStatus::Closed;
            return outcome;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            outcome.error = std::strerror(errno);
            return outcome;
        }
        const int ready = pollOne(fd, events, deadline, cancel);
        if (ready == 2) {
            outcome.status = SocketStatus::Cancelled;
            return outcome;
        }
        if (ready == 0) {
            outcome.status = SocketStatus::Timeout;
            return outcome;
        }
        if (ready < 0) {
            outcome.error = std::strerror(errno);
            return outcome;
        }
    }
    outcome.status = SocketStatus::Done;
    return outcome;
}

} // namespace

SocketOutcome readExact(int fd, std::span<std::uint8_t> buffer, SocketDeadline deadline, int cancel)
{
    return transferAll(fd, buffer.size(), POLLIN, deadline, cancel, [&](std::size_t done) {
        return ::recv(fd, buffer.data() + done, buffer.size() - done, 0);
    });
}

SocketOutcome writeAll(
    int fd, std::span<const std::uint8_t> bytes, SocketDeadline deadline, int cancel)
{
    return transferAll(fd, bytes.size(), POLLOUT, deadline, cancel, [&](std::size_t done) {
        return ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    });
}

bool waitCancelled(int cancel, int milliseconds)
{
    if (cancel < 0)
        return false;
    return pollOne(cancel, POLLIN, deadlineIn(milliseconds), -1) == 1;
}

CancelSignal::CancelSignal()
    : m_fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{ }

CancelSignal::~CancelSignal()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void CancelSignal::raise()
{
    const std::uint64_t one = 1;
    // Only fails when the counter is about to overflow: it is readable then anyway.
    [[maybe_unused]] const auto written = ::write(m_fd, &one, sizeof one);
}

bool CancelSignal::raised() const
{
    return waitCancelled(m_fd, 0);
}

} // namespace parallax::io::stream
