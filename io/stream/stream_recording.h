#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace parallax::io::stream {

// A recording of a utilization stream (docs/streaming.md, "Recording format"). All integers are
// little-endian:
//   header: 8 bytes "PLXSTRM1", u32 format version (1), u32 n, n bytes of UTF-8 source
//           (where the stream came from, e.g. "host:7000")
//   then records, one per non-empty reply as it came: u32 payload bytes, u64 receive time
//           (microseconds since the Unix epoch), the payload (the CCS reply without its length)
// A replay decodes the payloads with the same decoder as the live stream.

inline constexpr std::uint32_t kRecordingVersion = 1;
inline constexpr std::uint32_t kMaxRecordedPayload = 64U << 20U;

// Writes a recording to a temporary sibling of `path`, flushed after every record, and renames
// it into place by finish() (or the destructor): `path` never holds a half-written header.
class StreamRecorder {
public:
    StreamRecorder() = default;
    ~StreamRecorder();
    StreamRecorder(const StreamRecorder&) = delete;
    StreamRecorder& operator=(const StreamRecorder&) = delete;

    bool open(const std::string& path, const std::string& source, std::string& error);
    bool append(
        std::span<const std::uint8_t> payload, std::uint64_t receivedUs, std::string& error);
    // Flushes, closes and renames into place. False with `error` (the temporary file is removed).
    bool finish(std::string& error);

    [[nodiscard]] bool isOpen() const { return m_file != nullptr; }
    [[nodiscard]] const std::string& path() const { return m_path; }
    [[nodiscard]] std::size_t records() const { return m_records; }

private:
    std::FILE* m_file = nullptr;
    std::string m_path;
    std::string m_temp;
    std::size_t m_records = 0;
};

struct RecordedReply {
    std::uint64_t receivedUs = 0;
    std::vector<std::uint8_t> payload;
};

struct StreamRecording {
    bool ok = false;
    std::string error; // fatal: unreadable, not a recording, unknown version
    std::string source;
    std::vector<RecordedReply> replies; // every complete record
    // Non-empty when the file ends inside a record (or the header's source): where and how.
    std::string cut;
};

[[nodiscard]] StreamRecording readStreamRecording(const std::string& path);

// Whether `path` is a file that starts like a recording (its magic).
[[nodiscard]] bool isStreamRecording(const std::string& path);

// Microseconds since the Unix epoch, for receive times.
[[nodiscard]] std::uint64_t wallClockUs();

} // namespace parallax::io::stream
