#include "cache_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace parallax::io {

namespace {

constexpr std::size_t kReadBuffer = 64U << 10;
constexpr std::size_t kDirectChunk = 1U << 20;

void writeAll(int fd, std::uint64_t offset, const char* data, std::size_t size)
{
    while (size > 0) {
        const auto n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error(std::string("write failed: ") + std::strerror(errno));
        data += n;
        offset += static_cast<std::uint64_t>(n);
        size -= static_cast<std::size_t>(n);
    }
}

void readAll(int fd, std::uint64_t offset, char* data, std::size_t size)
{
    while (size > 0) {
        const auto n = ::pread(fd, data, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw CacheFormatError("the file is shorter than its header says (truncated)");
        data += n;
        offset += static_cast<std::uint64_t>(n);
        size -= static_cast<std::size_t>(n);
    }
}

} // namespace

void CacheWriter::beginSection()
{
    m_sectionStart = m_position;
    m_hash.reset();
}

CacheSection CacheWriter::endSection()
{
    return { m_sectionStart, m_position - m_sectionStart, m_hash.digest() };
}

void CacheWriter::bytes(const void* data, std::size_t size)
{
    m_hash.update(data, size);
    m_position += size;
    const auto* p = static_cast<const char*>(data);
    if (m_buffer.size() + size <= kBufferSize) {
        m_buffer.insert(m_buffer.end(), p, p + size);
        return;
    }
    flush();
    if (size >= kBufferSize) {
        writeAll(m_fd, m_flushed, p, size);
        m_flushed += size;
    } else {
        m_buffer.insert(m_buffer.end(), p, p + size);
    }
}

void CacheWriter::flush()
{
    writeAll(m_fd, m_flushed, m_buffer.data(), m_buffer.size());
    m_flushed += m_buffer.size();
    m_buffer.clear();
}

void CacheWriter::writeAt(std::uint64_t offset, const void* data, std::size_t size)
{
    writeAll(m_fd, offset, static_cast<const char*>(data), size);
}

CacheReader::CacheReader(int fd, const CacheSection& section)
    : m_fd(fd)
    , m_section(section)
    , m_fileOffset(section.offset)
    , m_left(section.size)
{ }

std::size_t CacheReader::count(std::size_t itemBytes)
{
    const auto n = get<std::uint64_t>();
    if (itemBytes > 0 && n > m_left / itemBytes)
        throw CacheFormatError("a length runs past the end of its section");
    return static_cast<std::size_t>(n);
}

void CacheReader::fill()
{
    if (m_buffer.empty())
        m_buffer.resize(kReadBuffer);
    const auto inFile = m_section.offset + m_section.size - m_fileOffset;
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kReadBuffer, inFile));
    readAll(m_fd, m_fileOffset, m_buffer.data(), n);
    m_hash.update(m_buffer.data(), n);
    m_fileOffset += n;
    m_begin = 0;
    m_end = n;
}

void CacheReader::bytes(void* data, std::size_t size)
{
    if (size > m_left)
        throw CacheFormatError("a section ends in the middle of a value");
    m_left -= size;
    auto* out = static_cast<char*>(data);
    const auto buffered = std::min(size, m_end - m_begin);
    if (buffered > 0) {
        std::memcpy(out, m_buffer.data() + m_begin, buffered);
        m_begin += buffered;
        out += buffered;
        size -= buffered;
    }
    if (size == 0)
        return;
    if (size >= kReadBuffer) {
        // Bulk column: straight from the file into its vector, hashed while still in cache.
        while (size > 0) {
            const auto n = std::min(size, kDirectChunk);
            readAll(m_fd, m_fileOffset, out, n);
            m_hash.update(out, n);
            m_fileOffset += n;
            out += n;
            size -= n;
        }
        return;
    }
    fill();
    std::memcpy(out, m_buffer.data(), size);
    m_begin = size;
}

void CacheReader::finish()
{
    if (m_left != 0 || m_begin != m_end)
        throw CacheFormatError("a section holds more bytes than its contents");
    if (m_hash.digest() != m_section.hash)
        throw CacheFormatError("checksum mismatch");
}

} // namespace parallax::io
