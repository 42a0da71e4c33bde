#include "cache_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace parallax::io {

namespace {

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

void CacheWriter::pad(std::size_t alignment)
{
    static constexpr char kZeros[256] = {};
    auto n = static_cast<std::size_t>((alignment - m_position % alignment) % alignment);
    while (n > 0) {
        const auto k = std::min(n, sizeof kZeros);
        bytes(kZeros, k);
        n -= k;
    }
}

CacheReader::CacheReader(const void* data, std::size_t size, std::uint64_t hash)
    : m_data(static_cast<const char*>(data))
    , m_left(size)
{
    if (CacheHash::of(data, size) != hash)
        throw CacheFormatError("checksum mismatch");
}

std::size_t CacheReader::count(std::size_t itemBytes)
{
    const auto n = get<std::uint64_t>();
    if (itemBytes > 0 && n > m_left / itemBytes)
        throw CacheFormatError("a length runs past the end of its section");
    return static_cast<std::size_t>(n);
}

void CacheReader::bytes(void* data, std::size_t size)
{
    if (size > m_left)
        throw CacheFormatError("a section ends in the middle of a value");
    if (size > 0)
        std::memcpy(data, m_data, size);
    m_data += size;
    m_left -= size;
}

void CacheReader::finish()
{
    if (m_left != 0)
        throw CacheFormatError("a section holds more bytes than its contents");
}

} // namespace parallax::io
