#pragma once

#include "cache_hash.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace parallax::io {

// Raised by CacheReader on any inconsistency (short file, a length beyond the section, a
// checksum mismatch). The index cache catches it and rebuilds the cache.
class CacheFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An index written by another format version of Parallax: not damaged, just out of date.
class CacheVersionError : public CacheFormatError {
public:
    using CacheFormatError::CacheFormatError;
};

// Where one section of a file is, and the checksum of its bytes.
struct CacheSection {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t hash = 0;
};

// Buffered, checksummed writer of an index file (manifest or shard), section by section, in
// host byte order (the headers record the byte order and type sizes; a foreign index is refused).
class CacheWriter {
public:
    explicit CacheWriter(int fd)
        : m_fd(fd)
    {
        m_buffer.reserve(kBufferSize);
    }
    CacheWriter(const CacheWriter&) = delete;
    CacheWriter& operator=(const CacheWriter&) = delete;

    void beginSection();
    CacheSection endSection();

    void bytes(const void* data, std::size_t size);
    // Only types without padding bytes are written raw (padding is uninitialised memory: the
    // file would differ between two writes of the same run); write the fields of the others.
    template <typename T>
    static constexpr bool kRaw
        = std::is_trivially_copyable_v<
              T> && (std::has_unique_object_representations_v<T> || std::is_floating_point_v<T>);
    template <typename T> void put(const T& value)
    {
        static_assert(kRaw<T>);
        bytes(&value, sizeof value);
    }
    template <typename C> void vec(const C& v)
    {
        using T = typename C::value_type;
        static_assert(kRaw<T>);
        put<std::uint64_t>(v.size());
        bytes(v.data(), v.size() * sizeof(T));
    }
    void str(const std::string& s)
    {
        put<std::uint64_t>(s.size());
        bytes(s.data(), s.size());
    }

    // Zero bytes up to the next multiple of `alignment` (a power of two) of the file offset.
    void pad(std::size_t alignment);
    [[nodiscard]] std::uint64_t position() const { return m_position; }
    // Flushes the buffer; throws std::runtime_error when the disk refuses.
    void flush();
    // Writes `size` bytes at `offset` (the header, once the sections are known).
    void writeAt(std::uint64_t offset, const void* data, std::size_t size);

private:
    static constexpr std::size_t kBufferSize = 1U << 20;
    int m_fd;
    std::vector<char> m_buffer;
    std::uint64_t m_flushed = 0; // file offset of m_buffer[0]
    std::uint64_t m_position = 0;
    std::uint64_t m_sectionStart = 0;
    CacheHash m_hash;
};

// Reads one section of an index file that is in memory (mapped or read), checking every
// length against the bytes left in the section before allocating, so a damaged length can never
// ask for more memory than the file holds. The checksum is checked first, so damaged bytes are
// never decoded: the constructor throws CacheFormatError on a mismatch.
class CacheReader {
public:
    CacheReader(const void* data, std::size_t size, std::uint64_t hash);
    CacheReader(const CacheReader&) = delete;
    CacheReader& operator=(const CacheReader&) = delete;

    void bytes(void* data, std::size_t size);
    template <typename T> T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        bytes(&value, sizeof value);
        return value;
    }
    template <typename C> void vec(C& v)
    {
        using T = typename C::value_type;
        static_assert(std::is_trivially_copyable_v<T>);
        const auto n = count(sizeof(T));
        std::vector<T> values(n);
        bytes(values.data(), n * sizeof(T));
        v = std::move(values);
    }
    void str(std::string& s)
    {
        const auto n = count(1);
        s.resize(n);
        bytes(s.data(), n);
    }
    // A count of items of `itemBytes` each, checked against the bytes left.
    std::size_t count(std::size_t itemBytes);
    // Throws unless the whole section was consumed.
    void finish();

private:
    const char* m_data;
    std::size_t m_left;
};

} // namespace parallax::io
