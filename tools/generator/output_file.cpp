#include "output_file.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

namespace parallax::gen {

namespace {

// zlib's default level 6 is what Charm++ uses; 1 is several times faster and still shrinks
// the text logs about five-fold, which matters for runs of thousands of PEs.
constexpr const char* kGzipMode = "wb1";
constexpr unsigned kGzipBufferBytes = 1U << 18;

} // namespace

OutputFile::~OutputFile()
{
    if (m_plain != nullptr) {
        std::fclose(m_plain);
    }
    if (m_compressed != nullptr) {
        gzclose(m_compressed);
    }
}

void OutputFile::fail(std::string_view what)
{
    if (m_error.empty()) {
        m_error = "cannot write " + m_path + ": " + std::string(what);
    }
}

bool OutputFile::open(const std::string& path, bool compressed)
{
    m_path = path;
    errno = 0;
    if (compressed) {
        m_compressed = gzopen(path.c_str(), kGzipMode);
        if (m_compressed == nullptr) {
            fail(errno != 0 ? std::strerror(errno) : "gzopen failed");
            return false;
        }
        gzbuffer(m_compressed, kGzipBufferBytes);
    } else {
        m_plain = std::fopen(path.c_str(), "wb");
        if (m_plain == nullptr) {
            fail(std::strerror(errno));
            return false;
        }
    }
    return true;
}

bool OutputFile::write(std::string_view data)
{
    if (failed()) {
        return false;
    }
    if (m_plain != nullptr) {
        if (std::fwrite(data.data(), 1, data.size(), m_plain) != data.size()) {
            fail(std::strerror(errno));
        }
    } else if (m_compressed != nullptr) {
        while (!data.empty() && !failed()) {
            const std::size_t chunk
                = std::min<std::size_t>(data.size(), std::numeric_limits<int>::max() / 2);
            if (gzwrite(m_compressed, data.data(), static_cast<unsigned>(chunk)) <= 0) {
                int code = Z_OK;
                const char* message = gzerror(m_compressed, &code);
                fail(code == Z_ERRNO ? std::strerror(errno) : message);
            }
            data.remove_prefix(chunk);
        }
    } else {
        fail("file is not open");
    }
    return !failed();
}

bool OutputFile::close()
{
    if (m_plain != nullptr) {
        if (std::fclose(m_plain) != 0) {
            fail(std::strerror(errno));
        }
        m_plain = nullptr;
    }
    if (m_compressed != nullptr) {
        const int code = gzclose(m_compressed);
        m_compressed = nullptr;
        if (code != Z_OK) {
            fail(code == Z_ERRNO ? std::strerror(errno) : "gzclose failed");
        }
    }
    return !failed();
}

std::optional<std::string> createOutputDirectory(const std::string& directory)
{
    std::error_code code;
    std::filesystem::create_directories(directory, code);
    if (code || !std::filesystem::is_directory(directory)) {
        return "cannot create directory " + directory + ": "
            + (code ? code.message() : std::string("not a directory"));
    }
    return std::nullopt;
}

std::optional<std::string> writeWholeFile(const std::string& path, std::string_view contents)
{
    OutputFile file;
    if (!file.open(path, false) || !file.write(contents) || !file.close()) {
        return file.error();
    }
    return std::nullopt;
}

std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view contents)
{
    const std::string temporary = path + ".parallax-gen-tmp";
    if (auto error = writeWholeFile(temporary, contents)) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        // Name the file the user asked for, not the temporary one.
        if (const std::size_t at = error->find(temporary); at != std::string::npos) {
            error->replace(at, temporary.size(), path);
        }
        return error;
    }
    std::error_code code;
    std::filesystem::rename(temporary, path, code);
    if (code) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return "cannot write " + path + ": " + code.message();
    }
    return std::nullopt;
}

} // namespace parallax::gen
