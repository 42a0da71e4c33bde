#include "stream_poller.h"

namespace parallax::io::stream {

StreamPoller::StreamPoller(CcsEndpoint endpoint, StreamPollerOptions options)
    : m_endpoint(std::move(endpoint))
    , m_options(std::move(options))
{ }

bool StreamPoller::connect(std::string& error)
{
    auto info = ccsGetInfo(m_endpoint, m_options.client, error);
    if (!info)
        return false;
    m_machine = std::move(*info);
    if (!m_options.recordPath.empty())
        return m_recorder.open(m_options.recordPath, m_endpoint.text(), error);
    return true;
}

StreamPoll StreamPoller::poll()
{
    auto reply = ccsRequest(m_endpoint, kUtilizationHandler, 0, {}, m_options.client);
    StreamPoll result;
    result.status = reply.status;
    result.error = std::move(reply.error);
    result.receivedUs = wallClockUs();
    if (!reply.ok())
        return result;
    // The empty reply is exactly a zero bin count; anything else is a chunk (or corrupt, which
    // the decoder tells; it is recorded as it came).
    result.empty = reply.payload.size() == 4 && reply.payload[0] == 0 && reply.payload[1] == 0
        && reply.payload[2] == 0 && reply.payload[3] == 0;
    result.payload = std::move(reply.payload);
    if (result.empty)
        return result;
    ++m_chunks;
    if (!m_firstChunk)
        m_firstChunk = std::chrono::steady_clock::now();
    if (m_recorder.isOpen())
        m_recorder.append(result.payload, result.receivedUs, result.error);
    return result;
}

std::size_t StreamPoller::behindChunks() const
{
    if (!m_firstChunk)
        return 0;
    const auto made = static_cast<std::size_t>(std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::steady_clock::now() - *m_firstChunk)
                                                   .count())
        + 1;
    return made > m_chunks ? made - m_chunks : 0;
}

bool StreamPoller::finish(std::string& error)
{
    return m_recorder.finish(error);
}

} // namespace parallax::io::stream
