#include "ccs_server.h"

#include "io/stream/socket_io.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace parallax::io::stream {

namespace {

// Requests carry no data for the utilization stream; anything larger is not a client of ours.
constexpr std::uint32_t kMaxRequestData = 1U << 20U;
constexpr int kRequestTimeoutMs = 5000;

} // namespace

CcsServer::CcsServer() = default;

CcsServer::~CcsServer()
{
    if (m_listen >= 0)
        ::close(m_listen);
}

bool CcsServer::listen(const std::string& host, std::uint16_t port, std::string& error)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    const auto service = std::to_string(port);
    if (const int rc
        = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found);
        rc != 0) {
        error = "cannot resolve '" + host + "': " + ::gai_strerror(rc);
        return false;
    }
    error = "no address to listen on";
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
        UniqueFd fd(
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
        if (fd.get() < 0)
            continue;
        const int yes = 1;
        ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd.get(), 16) != 0) {
            error = "cannot listen on " + host + ":" + service + ": " + std::strerror(errno);
            continue;
        }
        sockaddr_storage bound {};
        socklen_t length = sizeof bound;
        ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &length);
        char portText[NI_MAXSERV] = {};
        ::getnameinfo(reinterpret_cast<sockaddr*>(&bound), length, nullptr, 0, portText,
            sizeof portText, NI_NUMERICSERV);
        m_port = static_cast<std::uint16_t>(std::atoi(portText));
        m_listen = fd.release();
        break;
    }
    ::freeaddrinfo(found);
    return m_listen >= 0;
}

void CcsServer::run(const CcsHandler& handler)
{
    if (m_listen < 0)
        return;
    const auto forever = std::chrono::steady_clock::now() + std::chrono::hours(24 * 365);
    for (;;) {
        const int ready = waitReadable(m_listen, m_stop.fd(), forever);
        if (ready == 2 || ready < 0)
            break;
        if (ready == 0)
            continue;
        const int connection = ::accept4(m_listen, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (connection >= 0)
            serveConnection(connection, handler);
    }
    m_held.clear();
}

void CcsServer::stop()
{
    m_stop.raise(); // one write(): fine in a signal handler
}

void CcsServer::serveConnection(int fd, const CcsHandler& handler)
{
    auto connection = std::make_unique<UniqueFd>(fd);
    const auto deadline = deadlineIn(kRequestTimeoutMs);
    std::array<std::uint8_t, kCcsHeaderBytes> headerBytes {};
    if (readExact(connection->get(), headerBytes, deadline).status != SocketStatus::Done)
        return;
    std::string error;
    const auto header = decodeCcsRequestHeader(headerBytes, error);
    if (!header || header->dataBytes > kMaxRequestData)
        return;
    CcsRequest request { header->handler, header->pe, {} };
    // A multicast lists -pe PE numbers before the data (not counted in the length).
    std::size_t extra = 0;
    if (header->pe < -1)
        extra = 4 * static_cast<std::size_t>(-static_cast<std::int64_t>(header->pe));
    if (extra > kMaxRequestData)
        return;
    request.data.resize(extra + header->dataBytes);
    if (readExact(connection->get(), request.data, deadline).status != SocketStatus::Done)
        return;
    request.data.erase(
        request.data.begin(), request.data.begin() + static_cast<std::ptrdiff_t>(extra));
    auto answer = handler(request);
    ++m_served;
    if (!answer.bytes.empty())
        writeAll(connection->get(), answer.bytes, deadlineIn(kRequestTimeoutMs));
    if (answer.holdOpen)
        m_held.push_back(std::move(connection));
}

} // namespace parallax::io::stream
