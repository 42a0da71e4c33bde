#pragma once

#include "io/stream/ccs_protocol.h"
#include "io/stream/socket_io.h"
#include "io/unique_fd.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace parallax::io::stream {

// A small CCS server (the simulator, `parallax-cli stream-serve`, and the tests' server): accepts
// one connection after another, reads the request header and data, and writes what the handler
// answers. Unauthenticated requests only.

struct CcsRequest {
    std::string handler;
    std::int32_t pe = 0;
    std::vector<std::uint8_t> data;
};

struct CcsAnswer {
    std::vector<std::uint8_t> bytes; // written as they are, then the connection is closed
    // Keep the connection open, unanswered, until the server stops (a client's timeout test).
    bool holdOpen = false;

    // A proper reply: the length, then the payload.
    static CcsAnswer reply(std::span<const std::uint8_t> payload)
    {
        return { encodeCcsReply(payload), false };
    }
    // Closes without a byte, as charmrun does for a PE out of range.
    static CcsAnswer closeSilently() { return {}; }
};

using CcsHandler = std::function<CcsAnswer(const CcsRequest&)>;

class CcsServer {
public:
    CcsServer();
    ~CcsServer();
    CcsServer(const CcsServer&) = delete;
    CcsServer& operator=(const CcsServer&) = delete;

    // Binds and listens; port 0 picks a free port (see port()). False with a one-line `error`.
    bool listen(const std::string& host, std::uint16_t port, std::string& error);
    [[nodiscard]] std::uint16_t port() const { return m_port; }

    // Serves connections until stop(). Returns at once when not listening.
    void run(const CcsHandler& handler);
    // Makes run() return (from any thread, or a signal handler); held connections are closed.
    void stop();

    [[nodiscard]] std::size_t requestsServed() const { return m_served.load(); }

private:
    // Serves one accepted connection (owning `fd`: closed here unless held open).
    void serveConnection(int fd, const CcsHandler& handler);

    int m_listen = -1;
    CancelSignal m_stop; // raised by stop(); wakes run()
    std::uint16_t m_port = 0;
    std::atomic<std::size_t> m_served { 0 };
    std::vector<std::unique_ptr<UniqueFd>> m_held;
};

} // namespace parallax::io::stream
