#include "socket_io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
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

// Polls one fd for `events`: 1 ready, 0 timeout, -1 error (errno kept).
int pollOne(int fd, short events, SocketDeadline deadline)
{
    for (;;) {
        pollfd p { fd, events, 0 };
        const int n = ::poll(&p, 1, remainingMs(deadline));
        if (n < 0 && errno == EINTR)
            continue;
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

SocketOutcome readExact(int fd, std::span<std::uint8_t> buffer, SocketDeadline deadline)
{
    SocketOutcome outcome;
    while (outcome.bytes < buffer.size()) {
        const ssize_t n
            = ::recv(fd, buffer.data() + outcome.bytes, buffer.size() - outcome.bytes, 0);
        if (n > 0) {
            outcome.bytes += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0) {
            outcome.status = SocketStatus::Closed;
            return outcome;
        }
        if (errno == EINTR)
            continue;
        if (errno == ECONNRESET) {
            outcome.status = SocketStatus::Closed;
            return outcome;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            outcome.error = std::strerror(errno);
            return outcome;
        }
        const int ready = pollOne(fd, POLLIN, deadline);
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

SocketOutcome writeAll(int fd, std::span<const std::uint8_t> bytes, SocketDeadline deadline)
{
    SocketOutcome outcome;
    while (outcome.bytes < bytes.size()) {
        const ssize_t n
            = ::send(fd, bytes.data() + outcome.bytes, bytes.size() - outcome.bytes, MSG_NOSIGNAL);
        if (n >= 0) {
            outcome.bytes += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EPIPE || errno == ECONNRESET) {
            outcome.status = SocketStatus::Closed;
            return outcome;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            outcome.error = std::strerror(errno);
            return outcome;
        }
        const int ready = pollOne(fd, POLLOUT, deadline);
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

} // namespace parallax::io::stream
