#include "byte_source.h"

#include "file_info.h"

#include <zlib.h>
#if defined(PARALLAX_HAVE_LIBDEFLATE)
#include <libdeflate.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <sys/stat.h>
#include <vector>

namespace parallax::io {

namespace {

// The buffer a thread read its last whole log into, kept for its next one: a run has a log
// per PE, and a fresh buffer per file would cost its page faults every time.
struct WholeBuffer {
    std::unique_ptr<char[]> data;
    std::size_t capacity = 0;
};
thread_local WholeBuffer t_wholeBuffer;

// Larger logs are read through LineReader's buffer, so a huge one is never held at once.
constexpr std::size_t kWholeLimit = std::size_t { 64 } << 20;

class PlainSource final : public ByteSource {
public:
    PlainSource(std::FILE* file, std::uint64_t size)
        : m_file(file)
        , m_size(size)
    { }
    ~PlainSource() override
    {
        if (m_whole.data && m_whole.capacity > t_wholeBuffer.capacity)
            t_wholeBuffer = std::move(m_whole);
        std::fclose(m_file);
    }

    std::ptrdiff_t read(char* buffer, std::size_t capacity) override
    {
        m_started = true;
        const auto n = std::fread(buffer, 1, capacity, m_file);
        if (n == 0 && std::ferror(m_file) != 0) {
            m_error = std::string("read error: ") + std::strerror(errno);
            return -1;
        }
        m_consumed += n;
        return static_cast<std::ptrdiff_t>(n);
    }
    bool whole(std::string_view& text) override
    {
        // Only asked by a reader that takes the whole text, before anything was read: a caller
        // that reads a part (a sample, a header) never pays for the rest of the file.
        if (!m_started) {
            m_started = true;
            readWhole();
        }
        if (!m_whole.data)
            return false;
        text = std::string_view(m_whole.data.get(), m_wholeSize);
        return true;
    }
    void consumedTo(std::size_t position) override { m_consumed = position; }
    [[nodiscard]] std::uint64_t bytesConsumed() const override { return m_consumed; }
    [[nodiscard]] std::uint64_t fileSize() const override { return m_size; }
    [[nodiscard]] bool compressed() const override { return false; }

private:
    // A regular file up to kWholeLimit is read whole with one fread, and the reader splits its
    // lines in place (no per-chunk copy, no carrying of a cut line). Not mapped: a log that
    // another process truncates while it is mapped would kill the load with SIGBUS (a run
    // directory being written again, a parallel file system's I/O error), where fread just
    // returns less and the log reads as cut. A read error leaves the streaming path to report
    // it.
    void readWhole()
    {
        struct stat st { };
        if (::fstat(fileno(m_file), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0
            || static_cast<std::uint64_t>(st.st_size) > kWholeLimit)
            return;
        const auto size = static_cast<std::size_t>(st.st_size);
        WholeBuffer buffer;
        if (t_wholeBuffer.capacity >= size) {
            buffer = std::move(t_wholeBuffer);
            t_wholeBuffer.capacity = 0;
        } else {
            buffer.data = std::make_unique_for_overwrite<char[]>(size);
            buffer.capacity = size;
        }
        const auto got = std::fread(buffer.data.get(), 1, size, m_file);
        if (got < size && std::ferror(m_file) != 0) {
            std::clearerr(m_file);
            std::rewind(m_file);
            if (buffer.capacity > t_wholeBuffer.capacity)
                t_wholeBuffer = std::move(buffer);
            return;
        }
        m_whole = std::move(buffer);
        m_wholeSize = got;
    }

    std::FILE* m_file;
    std::uint64_t m_size;
    std::uint64_t m_consumed = 0;
    WholeBuffer m_whole;
    std::size_t m_wholeSize = 0;
    bool m_started = false; // read() or whole() was called: the way the file is read is set
};

// gzip through zlib's inflate directly (not gzread): every byte inflated before a data error
// reaches the caller, and consumed compressed bytes are known exactly for progress.
class GzipSource final : public ByteSource {
public:
    GzipSource(std::FILE* file, std::uint64_t size)
        : m_file(file)
        , m_size(size)
        , m_input(kInputChunk)
    {
        m_stream.zalloc = Z_NULL;
        m_stream.zfree = Z_NULL;
        m_stream.opaque = Z_NULL;
        m_stream.next_in = Z_NULL;
        m_stream.avail_in = 0;
        m_ready = inflateInit2(&m_stream, 16 + MAX_WBITS) == Z_OK;
        if (!m_ready)
            m_error = "cannot initialise zlib";
    }
    ~GzipSource() override
    {
        if (m_ready)
            inflateEnd(&m_stream);
        std::fclose(m_file);
    }

    std::ptrdiff_t read(char* buffer, std::size_t capacity) override
    {
        if (!m_ready || m_failed)
            return -1;
        if (m_finished)
            return 0;
        m_stream.next_out = reinterpret_cast<Bytef*>(buffer);
        m_stream.avail_out = static_cast<uInt>(std::min<std::size_t>(capacity, 1U << 30));
        const auto startOut = m_stream.avail_out;
        while (m_stream.avail_out > 0) {
            if (m_stream.avail_in == 0) {
                const auto n = std::fread(m_input.data(), 1, m_input.size(), m_file);
                if (n == 0) {
                    if (std::ferror(m_file) != 0)
                        return fail(std::string("read error: ") + std::strerror(errno), startOut);
                    if (!m_sawEnd || m_inMember)
                        return fail(
                            "damaged or truncated gzip data: unexpected end of file", startOut);
                    m_finished = true;
                    break;
                }
                m_consumed += n;
                m_stream.next_in = m_input.data();
                m_stream.avail_in = static_cast<uInt>(n);
            }
            m_inMember = true;
            const int rc = inflate(&m_stream, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                // Another gzip member may follow (concatenated streams are valid gzip).
                m_sawEnd = true;
                m_inMember = false;
                inflateReset(&m_stream);
                continue;
            }
            if (rc == Z_BUF_ERROR && m_stream.avail_in == 0)
                continue; // needs more input
            if (rc != Z_OK) {
                const char* message = m_stream.msg != nullptr ? m_stream.msg : "corrupt data";
                return fail(std::string("damaged gzip data: ") + message, startOut);
            }
        }
        return static_cast<std::ptrdiff_t>(startOut - m_stream.avail_out);
    }
    [[nodiscard]] std::uint64_t bytesConsumed() const override
    {
        return m_consumed - m_stream.avail_in;
    }
    [[nodiscard]] std::uint64_t fileSize() const override { return m_size; }
    [[nodiscard]] bool compressed() const override { return true; }

private:
    static constexpr std::size_t kInputChunk = std::size_t { 1 } << 18;

    // Reports the error; bytes inflated in this call are still returned first.
    std::ptrdiff_t fail(std::string message, uInt startOut)
    {
        m_failed = true;
        m_error = std::move(message);
        const auto produced = startOut - m_stream.avail_out;
        return produced > 0 ? static_cast<std::ptrdiff_t>(produced) : -1;
    }

    std::FILE* m_file;
    std::uint64_t m_size;
    std::vector<unsigned char> m_input;
    z_stream m_stream {};
    std::uint64_t m_consumed = 0;
    bool m_ready = false;
    bool m_failed = false;
    bool m_finished = false;
    bool m_sawEnd = false;
    bool m_inMember = false;
};

#if defined(PARALLAX_HAVE_LIBDEFLATE)
// A gzip file read whole and decompressed by libdeflate, member after member (concatenated
// members are valid gzip). Only files that decode cleanly become a WholeGzipSource: damage,
// truncation, trailing bytes or a file over the size limits make tryOpen() return nullptr, and
// the caller reads the file again with the streaming zlib source, which keeps every byte before
// the damage and reports it. libdeflate checks each member's CRC and length as zlib does.
class WholeGzipSource final : public ByteSource {
public:
    static constexpr std::size_t kMaxCompressed = std::size_t { 16 } << 20;
    static constexpr std::size_t kMaxText = std::size_t { 64 } << 20;

    static std::unique_ptr<ByteSource> tryOpen(std::FILE* file, std::uint64_t size)
    {
        if (size > kMaxCompressed || size < 18) // 18: the smallest gzip member
            return nullptr;
        std::vector<unsigned char> packed(static_cast<std::size_t>(size) + 1);
        const auto got = std::fread(packed.data(), 1, packed.size(), file);
        if (got != size) // read error, or the file changed size since stat
            return nullptr;
        packed.resize(got);

        // Start from the last member's ISIZE (the text size mod 2^32 for one member), but never
        // trust it beyond a plausible ratio: the buffer grows by doubling when it is too small.
        std::uint32_t isize = 0;
        for (int i = 3; i >= 0; --i)
            isize = (isize << 8) | packed[packed.size() - 4 + static_cast<std::size_t>(i)];
        std::size_t capacity = std::clamp<std::size_t>(isize, std::size_t { 1 } << 12,
            std::min(kMaxText, got * 16 + (std::size_t { 1 } << 20)));
        auto text = std::make_unique_for_overwrite<char[]>(capacity);
        std::size_t textSize = 0;

        libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
        if (decompressor == nullptr)
            return nullptr;
        std::size_t in = 0;
        bool ok = true;
        while (ok && in < got) {
            std::size_t used = 0;
            std::size_t produced = 0;
            const auto rc = libdeflate_gzip_decompress_ex(decompressor, packed.data() + in,
                got - in, text.get() + textSize, capacity - textSize, &used, &produced);
            if (rc == LIBDEFLATE_INSUFFICIENT_SPACE && capacity < kMaxText) {
                const auto grown = std::min(capacity * 2, kMaxText);
                auto bigger = std::make_unique_for_overwrite<char[]>(grown);
                std::memcpy(bigger.get(), text.get(), textSize);
                text = std::move(bigger);
                capacity = grown;
                continue;
            }
            ok = rc == LIBDEFLATE_SUCCESS && used > 0;
            in += used;
            textSize += produced;
        }
        libdeflate_free_decompressor(decompressor);
        if (!ok)
            return nullptr;
        return std::unique_ptr<ByteSource>(
            new WholeGzipSource(std::move(text), textSize, got, size));
    }

    std::ptrdiff_t read(char* buffer, std::size_t capacity) override
    {
        const auto n = std::min(capacity, m_textSize - m_position);
        std::memcpy(buffer, m_text.get() + m_position, n);
        m_position += n;
        return static_cast<std::ptrdiff_t>(n);
    }
    bool whole(std::string_view& text) override
    {
        text = std::string_view(m_text.get(), m_textSize);
        return true;
    }
    void consumedTo(std::size_t position) override { m_position = std::min(position, m_textSize); }
    // Proportional to the text handed out, so progress moves evenly and ends at the file size.
    [[nodiscard]] std::uint64_t bytesConsumed() const override
    {
        if (m_position >= m_textSize)
            return m_packedSize;
        return static_cast<std::uint64_t>(static_cast<double>(m_packedSize)
            * (static_cast<double>(m_position) / static_cast<double>(m_textSize)));
    }
    [[nodiscard]] std::uint64_t fileSize() const override { return m_size; }
    [[nodiscard]] bool compressed() const override { return true; }

private:
    WholeGzipSource(std::unique_ptr<char[]> text, std::size_t textSize, std::uint64_t packedSize,
        std::uint64_t size)
        : m_text(std::move(text))
        , m_textSize(textSize)
        , m_packedSize(packedSize)
        , m_size(size)
    { }

    std::unique_ptr<char[]> m_text;
    std::size_t m_textSize;
    std::size_t m_position = 0;
    std::uint64_t m_packedSize;
    std::uint64_t m_size;
};
#endif

} // namespace

std::unique_ptr<ByteSource> ByteSource::open(
    const std::string& path, std::string& error, [[maybe_unused]] Gzip gzipDecoder)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        error = std::string("cannot open: ") + std::strerror(errno);
        return nullptr;
    }
    struct stat st { };
    if (::fstat(fileno(file), &st) == 0 && S_ISDIR(st.st_mode)) {
        std::fclose(file);
        error = "is a directory, not a file";
        return nullptr;
    }
    unsigned char magic[2] = { 0, 0 };
    const auto got = std::fread(magic, 1, 2, file);
    const bool gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    const auto size = fileSizeOrZero(path);
    if (!gzip) {
        std::rewind(file);
        std::setvbuf(file, nullptr, _IOFBF, 1U << 16);
        return std::make_unique<PlainSource>(file, size);
    }
    std::rewind(file);
#if defined(PARALLAX_HAVE_LIBDEFLATE)
    if (gzipDecoder == Gzip::Fastest) {
        auto whole = WholeGzipSource::tryOpen(file, size);
        if (whole) {
            std::fclose(file);
            return whole;
        }
        std::clearerr(file);
        std::rewind(file);
    }
#endif
    return std::make_unique<GzipSource>(file, size);
}

} // namespace parallax::io
