#include "byte_source.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

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

class GzipSource final : public ByteSource {
public:
    GzipSource(gzFile file, std::uint64_t size)
        : m_file(file)
        , m_size(size)
    {
        gzbuffer(m_file, 1U << 18);
    }
    ~GzipSource() override { gzclose(m_file); }

    std::ptrdiff_t read(char* buffer, std::size_t capacity) override
    {
        if (m_failed)
            return -1;
        const auto want = static_cast<unsigned>(std::min<std::size_t>(capacity, 1U << 30));
        const int n = gzread(m_file, buffer, want);
        int code = Z_OK;
        const char* message = gzerror(m_file, &code);
        if (n < 0 || (code != Z_OK && code != Z_STREAM_END)) {
            // A truncated stream reports Z_BUF_ERROR ("unexpected end of file") after the
            // last decodable bytes; anything decoded in this call is still returned first.
            m_failed = true;
            m_error = std::string("damaged or truncated gzip data: ") + (message ? message : "?");
            if (n > 0)
                return n;
            return -1;
        }
        return n;
    }
    [[nodiscard]] std::uint64_t bytesConsumed() const override
    {
        const auto offset = gzoffset(m_file);
        return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
    }
    [[nodiscard]] std::uint64_t fileSize() const override { return m_size; }
    [[nodiscard]] bool compressed() const override { return true; }

private:
    gzFile m_file;
    std::uint64_t m_size;
    bool m_failed = false;
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
    std::fclose(file);
    gzFile gz = gzopen(path.c_str(), "rb");
    if (gz == nullptr) {
        error = "cannot open gzip file";
        return nullptr;
    }
    return std::make_unique<GzipSource>(gz, size);
}

} // namespace parallax::io
