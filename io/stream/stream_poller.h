#pragma once

#include "io/stream/ccs_client.h"
#include "io/stream/stream_recording.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parallax::io::stream {

// Polls a running Charm++ program's utilization stream, the way the CLI and the app's live view
// both do: ccs_getinfo on connect, then one "CkPerfSumDetail compressed" request per poll,
// every non-empty reply recorded when a recording was asked for. The caller waits between
// polls (not at all after a chunk: more may be queued; pollMs after an empty reply).

struct StreamPollerOptions {
    CcsClientOptions client;
    int pollMs = 900; // wait after an empty reply (the program makes one chunk a second)
    std::string recordPath; // empty: no recording
};

struct StreamPoll {
    CcsStatus status = CcsStatus::Failed;
    std::vector<std::uint8_t> payload; // the reply's payload (for Reply)
    bool empty = false; // the reply said nothing was queued
    std::uint64_t receivedUs = 0;
    std::string error; // a failed request, or a recording that could not be written
};

class StreamPoller {
public:
    StreamPoller(CcsEndpoint endpoint, StreamPollerOptions options);

    // Asks ccs_getinfo and opens the recording. False with a one-line `error`.
    bool connect(std::string& error);
    [[nodiscard]] const CcsMachineInfo& machine() const { return m_machine; }
    [[nodiscard]] const CcsEndpoint& endpoint() const { return m_endpoint; }
    [[nodiscard]] const StreamPollerOptions& options() const { return m_options; }

    // One request. Replies that are not empty are recorded as they came.
    StreamPoll poll();
    // Non-empty replies received so far.
    [[nodiscard]] std::size_t chunksReceived() const { return m_chunks; }
    // How many chunks the program has made that were not fetched yet, estimated from the time
    // since the first chunk (the program makes one a second).
    [[nodiscard]] std::size_t behindChunks() const;
    // Stops the recording (renamed into place). False with `error`.
    bool finish(std::string& error);
    [[nodiscard]] bool recording() const { return m_recorder.isOpen(); }

private:
    CcsEndpoint m_endpoint;
    StreamPollerOptions m_options;
    CcsMachineInfo m_machine;
    StreamRecorder m_recorder;
    std::size_t m_chunks = 0;
    std::optional<std::chrono::steady_clock::time_point> m_firstChunk;
};

} // namespace parallax::io::stream
