#include "byte_source.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <vector>

namespace parallax::io {

namespace {

std::uint64_t sizeOf(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return 0;
    return static_cast<std::uint64_t>(st.st_size);
}

class PlainSource final : public ByteSource {
public:
    PlainSource(std::FILE* file, std::uint64_t size)
        : m_file(file)
        , m_size(size)
    { }
    ~PlainSource() override { std::fclose(m_file); }

    std::ptrdiff_t read(char* buffer, std::size_t capacity) override
    {
        const auto n = std::fread(buffer, 1, capacity, m_file);
        if (n == 0 && std::ferror(m_file) != 0) {
            m_error = std::string("read error: ") + std::strerror(errno);
            return -1;
        }
        m_consumed += n;
        return static_cast<std::ptrdiff_t>(n);
    }
    [[nodiscard]] std::uint64_t bytesConsumed() const override { return m_consumed; }
    [[nodiscard]] std::uint64_t fileSize() const override { return m_size; }
    [[nodiscard]] bool compressed() const override { return false; }

private:
    std::FILE* m_file;
    std::uint64_t m_size;
    std::uint64_t m_consumed = 0;
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

} // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, std::string& error)
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
    const auto size = sizeOf(path);
    if (!gzip) {
        std::rewind(file);
        std::setvbuf(file, nullptr, _IOFBF, 1U << 16);
        return std::make_unique<PlainSource>(file, size);
    }
    std::rewind(file);
    return std::make_unique<GzipSource>(file, size);
}

} // namespace parallax::io
