#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace parallax::io {

// A file's bytes, decompressed if it is gzip (detected by its magic bytes, not by its name).
// Counts the on-disk bytes consumed so progress is honest for compressed logs.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    ByteSource() = default;
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    enum class Gzip {
        // Whole-file libdeflate when the build has it and the file is small enough (several
        // times faster); anything it cannot decode cleanly is read again by Streaming.
        Fastest,
        // zlib inflate in chunks: keeps every byte before damage and says what went wrong.
        Streaming,
    };

    // Opens `path`; returns nullptr and sets `error` when the file cannot be opened.
    static std::unique_ptr<ByteSource> open(
        const std::string& path, std::string& error, Gzip gzip = Gzip::Fastest);

    // Reads up to `capacity` bytes. Returns the number read, 0 at the end of the data, or -1
    // on an error (see error()); bytes decoded before a gzip error were returned earlier.
    virtual std::ptrdiff_t read(char* buffer, std::size_t capacity) = 0;
    // On-disk bytes consumed so far.
    [[nodiscard]] virtual std::uint64_t bytesConsumed() const = 0;
    [[nodiscard]] virtual std::uint64_t fileSize() const = 0;
    [[nodiscard]] virtual bool compressed() const = 0;
    // The whole text at once, when the source holds it in memory (a plain log read whole, a gzip
    // file decompressed whole): LineReader then splits it in place instead of copying it out
    // with read(). False for a streaming source.
    virtual bool whole(std::string_view& text)
    {
        (void)text;
        return false;
    }
    // For a whole source: the reader has used the text up to `position` (bytesConsumed()).
    virtual void consumedTo(std::size_t position) { (void)position; }
    [[nodiscard]] const std::string& error() const { return m_error; }

protected:
    std::string m_error;
};

} // namespace parallax::io
