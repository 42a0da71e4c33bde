#pragma once

// A CCS server inside the test (a thread on 127.0.0.1, an ephemeral port) that speaks the
// utilization stream's protocol exactly: "CkPerfSumDetail compressed" pops the oldest queued
// answer (a chunk's payload, or a scripted misbehaviour) and answers an empty payload when the
// queue is empty; ccs_getinfo answers the machine's layout; any other handler gets an empty
// reply, as a Charm++ program does. Used by the io, CLI and GUI stream tests.

#include "core/stream/utilization_chunk.h"
#include "io/stream/ccs_server.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace parallax::test {

class CcsTestServer {
public:
    explicit CcsTestServer(io::stream::CcsMachineInfo machine = { { 2 } })
        : m_machine(std::move(machine))
    {
        std::string error;
        if (!m_server.listen("127.0.0.1", 0, error))
            throw std::runtime_error(error);
        m_thread = std::thread([this] {
            m_server.run([this](const io::stream::CcsRequest& r) { return answer(r); });
        });
    }
    ~CcsTestServer()
    {
        m_server.stop();
        m_thread.join();
    }
    CcsTestServer(const CcsTestServer&) = delete;
    CcsTestServer& operator=(const CcsTestServer&) = delete;

    [[nodiscard]] std::uint16_t port() const { return m_server.port(); }
    [[nodiscard]] std::string endpoint() const { return "127.0.0.1:" + std::to_string(port()); }

    void queueChunk(const core::stream::UtilizationChunk& chunk)
    {
        queuePayload(core::stream::encodeUtilizationPayload(chunk));
    }
    void queuePayload(const std::vector<std::uint8_t>& payload)
    {
        queueAnswer(io::stream::CcsAnswer::reply(payload));
    }
    void queueAnswer(io::stream::CcsAnswer answer)
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(answer));
    }
    // Stream requests answered so far (empty replies included).
    [[nodiscard]] std::size_t streamRequests() const
    {
        std::lock_guard lock(m_mutex);
        return m_streamRequests;
    }
    // Blocks until the queue has been served (a condition, not a sleep); false after 10 s.
    bool waitUntilDrained()
    {
        std::unique_lock lock(m_mutex);
        return m_drained.wait_for(
            lock, std::chrono::seconds(10), [this] { return m_queue.empty(); });
    }

private:
    io::stream::CcsAnswer answer(const io::stream::CcsRequest& request)
    {
        using io::stream::CcsAnswer;
        if (request.handler == io::stream::kGetInfoHandler)
            return CcsAnswer::reply(io::stream::encodeMachineInfo(m_machine));
        if (request.handler != io::stream::kUtilizationHandler || request.pe != 0)
            return CcsAnswer::reply({});
        std::lock_guard lock(m_mutex);
        ++m_streamRequests;
        if (m_queue.empty()) {
            m_drained.notify_all();
            return CcsAnswer::reply(core::stream::encodeEmptyUtilizationPayload());
        }
        auto next = std::move(m_queue.front());
        m_queue.pop_front();
        if (m_queue.empty())
            m_drained.notify_all();
        return next;
    }

    io::stream::CcsMachineInfo m_machine;
    io::stream::CcsServer m_server;
    mutable std::mutex m_mutex;
    std::condition_variable m_drained;
    std::deque<io::stream::CcsAnswer> m_queue;
    std::size_t m_streamRequests = 0;
    std::thread m_thread;
};

// A chunk built by hand (1000 bins), checked in the tests by hand: bins 0-49 entry 3 at 250,
// bins 50-99 entry 3 at 125 and Other at 25, bins 100-199 entry 7 at 100, the rest idle.
// 100-ms points: [0, 100) entry 3 75 %, Other 5 %; [100, 200) entry 7 40 %; then nothing.
// Whole second: entry 3 7.5 %, entry 7 4 %, Other 0.5 %.
inline core::stream::UtilizationChunk handMadeChunk(std::uint32_t pes = 2)
{
    using core::stream::UtilizationRecord;
    core::stream::UtilizationChunk chunk;
    chunk.pes = pes;
    for (std::uint32_t b = 0; b < core::stream::kBinsPerSecond; ++b) {
        std::vector<UtilizationRecord> bin;
        if (b < 50)
            bin = { { 3, 250 } };
        else if (b < 100)
            bin = { { 3, 125 }, { core::stream::kOtherEntry, 25 } };
        else if (b < 200)
            bin = { { 7, 100 } };
        chunk.addBin(bin);
    }
    return chunk;
}

} // namespace parallax::test
