#include "stream_recording.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace parallax::io::stream {

namespace {

constexpr std::array<char, 8> kMagic = { 'P', 'L', 'X', 'S', 'T', 'R', 'M', '1' };

template <class T> void putLittleEndian(std::vector<std::uint8_t>& out, T v)
{
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

template <class T> T getLittleEndian(const std::uint8_t* bytes)
{
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v = static_cast<T>(v | static_cast<T>(static_cast<T>(bytes[i]) << (8 * i)));
    return v;
}

bool writeBytes(std::FILE* file, const std::vector<std::uint8_t>& bytes)
{
    return std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size()
        && std::fflush(file) == 0;
}

} // namespace

std::uint64_t wallClockUs()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

StreamRecorder::~StreamRecorder()
{
    std::string ignored;
    finish(ignored);
}

bool StreamRecorder::open(const std::string& path, const std::string& source, std::string& error)
{
    std::string ignored;
    finish(ignored);
    m_path = path;
    m_temp = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(m_temp.data());
    if (fd < 0) {
        error = "cannot write recording " + path + ": " + std::strerror(errno);
        return false;
    }
    ::fchmod(fd, 0644);
    m_file = ::fdopen(fd, "wb");
    if (m_file == nullptr) {
        error = "cannot write recording " + path + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(m_temp.c_str());
        return false;
    }
    std::vector<std::uint8_t> header(kMagic.begin(), kMagic.end());
    putLittleEndian(header, kRecordingVersion);
    putLittleEndian(header, static_cast<std::uint32_t>(source.size()));
    header.insert(header.end(), source.begin(), source.end());
    m_records = 0;
    if (!writeBytes(m_file, header)) {
        error = "cannot write recording " + path + ": " + std::strerror(errno);
        std::fclose(m_file);
        m_file = nullptr;
        ::unlink(m_temp.c_str());
        return false;
    }
    return true;
}

bool StreamRecorder::append(
    std::span<const std::uint8_t> payload, std::uint64_t receivedUs, std::string& error)
{
    if (m_file == nullptr) {
        error = "recording is not open";
        return false;
    }
    std::vector<std::uint8_t> record;
    record.reserve(12 + payload.size());
    putLittleEndian(record, static_cast<std::uint32_t>(payload.size()));
    putLittleEndian(record, receivedUs);
    record.insert(record.end(), payload.begin(), payload.end());
    if (!writeBytes(m_file, record)) {
        error = "cannot write recording " + m_path + ": " + std::strerror(errno);
        return false;
    }
    ++m_records;
    return true;
}

bool StreamRecorder::finish(std::string& error)
{
    if (m_file == nullptr)
        return true;
    const bool written = std::fflush(m_file) == 0 && ::fsync(::fileno(m_file)) == 0;
    const int savedErrno = errno;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!written || !closed || std::rename(m_temp.c_str(), m_path.c_str()) != 0) {
        error = "cannot write recording " + m_path + ": "
            + std::strerror(written ? errno : savedErrno);
        ::unlink(m_temp.c_str());
        return false;
    }
    return true;
}

bool isStreamRecording(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::array<char, kMagic.size()> head {};
    return in.read(head.data(), head.size()) && head == kMagic;
}

StreamRecording readStreamRecording(const std::string& path)
{
    StreamRecording result;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        result.error = "cannot open recording " + path + ": " + std::strerror(errno);
        return result;
    }
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    if (bytes.size() < 16 || !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
        result.error = path + " is not a Parallax stream recording (no PLXSTRM1 header)";
        return result;
    }
    const auto version = getLittleEndian<std::uint32_t>(bytes.data() + 8);
    if (version != kRecordingVersion) {
        result.error = path + ": recording format version " + std::to_string(version)
            + " is not supported (this build reads version 1)";
        return result;
    }
    const auto sourceBytes = getLittleEndian<std::uint32_t>(bytes.data() + 12);
    std::size_t pos = 16;
    result.ok = true;
    if (bytes.size() - pos < sourceBytes) {
        result.cut = path + " is cut inside its header (" + std::to_string(bytes.size())
            + " bytes): no record";
        return result;
    }
    result.source.assign(bytes.begin() + 16, bytes.begin() + 16 + sourceBytes);
    pos += sourceBytes;
    while (pos < bytes.size()) {
        const std::size_t left = bytes.size() - pos;
        const std::size_t index = result.replies.size() + 1;
        if (left < 12) {
            result.cut = path + " is cut at byte " + std::to_string(pos)
                + " inside the head of record " + std::to_string(index) + "; "
                + std::to_string(result.replies.size()) + " complete records read";
            break;
        }
        const auto length = getLittleEndian<std::uint32_t>(bytes.data() + pos);
        if (length > kMaxRecordedPayload) {
            result.cut = path + ": record " + std::to_string(index) + " at byte "
                + std::to_string(pos) + " claims " + std::to_string(length) + " bytes (damaged); "
                + std::to_string(result.replies.size()) + " complete records read";
            break;
        }
        if (left - 12 < length) {
            result.cut = path + " is cut at byte " + std::to_string(bytes.size())
                + " inside record " + std::to_string(index) + " (" + std::to_string(left - 12)
                + " of " + std::to_string(length) + " payload bytes); "
                + std::to_string(result.replies.size()) + " complete records read";
            break;
        }
        RecordedReply reply;
        reply.receivedUs = getLittleEndian<std::uint64_t>(bytes.data() + pos + 4);
        const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(pos + 12);
        reply.payload.assign(begin, begin + length);
        result.replies.push_back(std::move(reply));
        pos += 12 + length;
    }
    return result;
}

} // namespace parallax::io::stream
