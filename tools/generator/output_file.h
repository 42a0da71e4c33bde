#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

struct gzFile_s; // zlib's gzFile, kept out of this header

namespace parallax::gen {

// A file being written, plain or gzip-compressed (zlib). Every failure is turned into one
// message naming the file; after a failure further writes are ignored.
class OutputFile {
public:
    OutputFile() = default;
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    bool open(const std::string& path, bool compressed);
    bool write(std::string_view data);
    // Flushes and closes; false (with error()) if anything went wrong.
    bool close();

    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }

private:
    void fail(std::string_view what);

    std::string m_path;
    std::string m_error;
    std::FILE* m_plain = nullptr;
    gzFile_s* m_compressed = nullptr;
};

// Creates `directory` and its parents if missing. Returns an error message naming it.
std::optional<std::string> createOutputDirectory(const std::string& directory);

// Writes a small file in one go (plain text). Returns an error message naming the file.
std::optional<std::string> writeWholeFile(const std::string& path, std::string_view contents);

// The same, but through a temporary file in the same directory renamed over `path` at the
// end, so that `path` is either absent, its old contents or the complete new contents.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view contents);

} // namespace parallax::gen
