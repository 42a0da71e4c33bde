#include "ccs_client.h"

#include "io/stream/socket_io.h"
#include "io/unique_fd.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

namespace parallax::io::stream {

namespace {

CcsResult ccsFailure(CcsStatus status, std::string message)
{
    CcsResult result;
    result.status = status;
    result.error = std::move(message);
    return result;
}

CcsStatus connectStatus(int error)
{
    switch (error) {
    case ECONNREFUSED:
        return CcsStatus::Refused;
    case ENETUNREACH:
    case EHOSTUNREACH:
    case ENETDOWN:
    case EHOSTDOWN:
        return CcsStatus::Unreachable;
    case ETIMEDOUT:
        return CcsStatus::Timeout;
    default:
        return CcsStatus::Failed;
    }
}

std::string connectMessage(const CcsEndpoint& endpoint, CcsStatus status, int error)
{
    const auto where = endpoint.text();
    switch (status) {
    case CcsStatus::Refused:
        return "connection to " + where
            + " refused: no program listens there (started with ++server ++server-port?)";
    case CcsStatus::Unreachable:
        return "cannot reach " + where + ": " + std::strerror(error);
    case CcsStatus::Timeout:
        return "no answer from " + where + " while connecting (timed out)";
    default:
        return "cannot connect to " + where + ": " + std::strerror(error);
    }
}

std::string cancelledMessage(const CcsEndpoint& endpoint)
{
    return "request to " + endpoint.text() + " abandoned (stopped)";
}

// Connects within the deadline: the socket, or -1 with `result` set.
int connectTo(const CcsEndpoint& endpoint, SocketDeadline deadline, int cancel, CcsResult& result)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const auto service = std::to_string(endpoint.port);
    if (const int rc = ::getaddrinfo(endpoint.host.c_str(), service.c_str(), &hints, &found);
        rc != 0) {
        result = ccsFailure(CcsStatus::Unresolved,
            "cannot resolve host '" + endpoint.host + "': " + ::gai_strerror(rc));
        return -1;
    }
    int lastError = ECONNREFUSED;
    CcsStatus lastStatus = CcsStatus::Refused;
    int connected = -1;
    for (addrinfo* a = found; a != nullptr && connected < 0; a = a->ai_next) {
        UniqueFd fd(
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
        if (fd.get() < 0) {
            lastError = errno;
            lastStatus = CcsStatus::Failed;
            continue;
        }
        int rc = ::connect(fd.get(), a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p[2] = { { fd.get(), POLLOUT, 0 }, { cancel, POLLIN, 0 } };
            do
                rc = ::poll(p, cancel >= 0 ? 2 : 1, remainingMs(deadline));
            while (rc < 0 && errno == EINTR);
            if (rc > 0 && cancel >= 0 && p[1].revents != 0) {
                ::freeaddrinfo(found);
                result = ccsFailure(CcsStatus::Cancelled, cancelledMessage(endpoint));
                return -1;
            }
            if (rc == 0) {
                lastError = ETIMEDOUT;
                lastStatus = CcsStatus::Timeout;
                continue;
            }
            int soError = 0;
            socklen_t length = sizeof soError;
            if (rc < 0)
                soError = errno;
            else if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soError, &length) != 0)
                soError = errno;
            rc = soError == 0 ? 0 : -1;
            errno = soError;
        }
        if (rc != 0) {
            lastError = errno;
            lastStatus = connectStatus(errno);
            continue;
        }
        connected = fd.release();
    }
    ::freeaddrinfo(found);
    if (connected < 0)
        result = ccsFailure(lastStatus, connectMessage(endpoint, lastStatus, lastError));
    return connected;
}

} // namespace

std::optional<CcsEndpoint> parseCcsEndpoint(std::string_view text, std::string& error)
{
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) {
        error = "expected HOST:PORT, got '" + std::string(text) + "'";
        return std::nullopt;
    }
    auto host = text.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const auto portText = text.substr(colon + 1);
    unsigned port = 0;
    const auto [end, ec]
        = std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (ec != std::errc {} || end != portText.data() + portText.size() || port == 0
        || port > 65535) {
        error = "port '" + std::string(portText) + "' is not a number from 1 to 65535";
        return std::nullopt;
    }
    return CcsEndpoint { std::string(host), static_cast<std::uint16_t>(port) };
}

CcsResult ccsRequest(const CcsEndpoint& endpoint, std::string_view handler, std::int32_t pe,
    std::span<const std::uint8_t> data, const CcsClientOptions& options)
{
    CcsResult result;
    const int cancel = options.cancelFd;
    if (waitCancelled(cancel, 0))
        return ccsFailure(CcsStatus::Cancelled, cancelledMessage(endpoint));
    const UniqueFd fd(connectTo(endpoint, deadlineIn(options.connectTimeoutMs), cancel, result));
    if (fd.get() < 0)
        return result;
    const auto where = endpoint.text();
    const auto deadline = deadlineIn(options.replyTimeoutMs);
    const auto request = encodeCcsRequest(handler, pe, data);
    const auto sent = writeAll(fd.get(), request, deadline, cancel);
    if (sent.status == SocketStatus::Cancelled)
        return ccsFailure(CcsStatus::Cancelled, cancelledMessage(endpoint));
    if (sent.status == SocketStatus::Timeout)
        return ccsFailure(CcsStatus::Timeout, "no answer from " + where + " (sending timed out)");
    if (sent.status == SocketStatus::Closed)
        return ccsFailure(CcsStatus::ClosedWithoutReply,
            where + " closed the connection before taking the request");
    if (sent.status != SocketStatus::Done)
        return ccsFailure(CcsStatus::Failed, "cannot send to " + where + ": " + sent.error);

    std::uint8_t lengthBytes[4] = {};
    const auto head = readExact(fd.get(), lengthBytes, deadline, cancel);
    const auto timeoutText = "no reply from " + where + " within "
        + std::to_string(options.replyTimeoutMs) + " ms (timed out)";
    if (head.status == SocketStatus::Cancelled)
        return ccsFailure(CcsStatus::Cancelled, cancelledMessage(endpoint));
    if (head.status == SocketStatus::Timeout)
        return ccsFailure(CcsStatus::Timeout, timeoutText);
    if (head.status == SocketStatus::Closed && head.bytes == 0)
        return ccsFailure(CcsStatus::ClosedWithoutReply,
            where + " closed the connection without a reply (handler '" + std::string(handler)
                + "', PE " + std::to_string(pe) + ")");
    if (head.status == SocketStatus::Closed)
        return ccsFailure(CcsStatus::Truncated,
            "reply from " + where + " cut after " + std::to_string(head.bytes)
                + " of its 4 length bytes");
    if (head.status != SocketStatus::Done)
        return ccsFailure(CcsStatus::Failed, "cannot read from " + where + ": " + head.error);
    const std::uint32_t length = readBigEndian32(lengthBytes);
    if (length > options.maxReplyBytes)
        return ccsFailure(CcsStatus::TooLarge,
            "reply from " + where + " claims " + std::to_string(length) + " bytes (at most "
                + std::to_string(options.maxReplyBytes) + " accepted): not a CCS server?");
    result.payload.resize(length);
    const auto body = readExact(fd.get(), result.payload, deadline, cancel);
    if (body.status == SocketStatus::Cancelled)
        return ccsFailure(CcsStatus::Cancelled, cancelledMessage(endpoint));
    if (body.status == SocketStatus::Timeout)
        return ccsFailure(CcsStatus::Timeout, timeoutText);
    if (body.status == SocketStatus::Closed)
        return ccsFailure(CcsStatus::Truncated,
            "reply from " + where + " cut after " + std::to_string(body.bytes) + " of "
                + std::to_string(length) + " bytes");
    if (body.status != SocketStatus::Done)
        return ccsFailure(CcsStatus::Failed, "cannot read from " + where + ": " + body.error);
    result.status = CcsStatus::Reply;
    return result;
}

std::optional<CcsMachineInfo> ccsGetInfo(
    const CcsEndpoint& endpoint, const CcsClientOptions& options, std::string& error)
{
    const auto reply = ccsRequest(endpoint, kGetInfoHandler, 0, {}, options);
    if (!reply.ok()) {
        error = reply.error;
        return std::nullopt;
    }
    auto info = decodeMachineInfo(reply.payload, error);
    if (!info)
        error = endpoint.text() + ": " + error;
    return info;
}

} // namespace parallax::io::stream
