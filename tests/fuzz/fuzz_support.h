#pragma once

// Shared by the fuzz harnesses (tests/fuzz/*.cpp). The readers take paths, so each input is
// written to a scratch file first; the scratch directory is made once per process.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <unistd.h>

namespace parallax::fuzz {

inline const std::filesystem::path& scratchDir()
{
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path()
            / ("parallax-fuzz-" + std::to_string(static_cast<long>(::getpid())));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

// Writes `size` bytes to `path` (replacing it); returns false when the disk refuses.
inline bool writeFile(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr)
        return false;
    const bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

inline bool writeFile(const std::filesystem::path& path, std::string_view text)
{
    return writeFile(path, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

} // namespace parallax::fuzz
