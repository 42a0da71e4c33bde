#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>

namespace parallax::io {

// The last component of a path ("pe.3.log.gz"), as the import report names files.
inline std::string fileNameOf(const std::string& path)
{
    return std::filesystem::path(path).filename().string();
}

// A file's size in bytes, or 0 when it cannot be stat'ed (missing, no permission).
inline std::uint64_t fileSizeOrZero(const std::string& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0 : static_cast<std::uint64_t>(size);
}

} // namespace parallax::io
