#pragma once

// Shared helpers for all test executables: where the data is, temporary directories, and
// small file utilities. Standard library and Catch2 only (no project library).

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace parallax::test {

namespace fs = std::filesystem;

// The shared directory with real-logs/ (outside the repository; passed in by CMake).
inline fs::path sharedDir()
{
    return fs::path(PARALLAX_SHARED_DIR);
}

// One dataset of ../shared/real-logs (fails the test with a clear message when missing).
inline fs::path realLog(std::string_view name)
{
    const auto path = sharedDir() / "real-logs" / std::string(name);
    INFO("real dataset " << path.string()
                         << " is missing; configure with -DPARALLAX_SHARED_DIR=<dir holding "
                            "real-logs/>");
    REQUIRE(fs::exists(path));
    return path;
}

// tests/data in the source tree.
inline fs::path dataDir()
{
    return fs::path(PARALLAX_TEST_DATA_DIR);
}

// One of the sample runs the repository ships (sample-logs/NAME).
inline fs::path sampleRun(std::string_view name)
{
    const auto path = fs::path(PARALLAX_SAMPLE_DIR) / std::string(name);
    REQUIRE(fs::is_directory(path));
    return path;
}

inline fs::path brokenCase(std::string_view name)
{
    const auto path = dataDir() / "broken" / std::string(name);
    REQUIRE(fs::is_directory(path));
    return path;
}

// A fresh directory under the system temp dir, removed (with its content) on destruction.
class TempDir {
public:
    TempDir()
    {
        auto pattern = (fs::temp_directory_path() / "parallax-test-XXXXXX").string();
        std::vector<char> buffer(pattern.begin(), pattern.end());
        buffer.push_back('\0');
        const char* made = ::mkdtemp(buffer.data());
        REQUIRE(made != nullptr);
        m_path = made;
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const fs::path& path() const { return m_path; }
    [[nodiscard]] fs::path operator/(std::string_view name) const
    {
        return m_path / std::string(name);
    }

private:
    fs::path m_path;
};

inline void writeFile(const fs::path& path, std::string_view content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    REQUIRE(out.good());
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    REQUIRE(out.good());
}

inline std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::string content(static_cast<std::size_t>(fs::file_size(path)), '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    REQUIRE(in.gcount() == static_cast<std::streamsize>(content.size()));
    return content;
}

// Copies the regular files of `from` whose names pass `keep` into `to` (created if needed),
// making the copies writable (the shared datasets are read-only).
inline void copyFiles(const fs::path& from, const fs::path& to,
    const std::function<bool(const std::string&)>& keep = {})
{
    fs::create_directories(to);
    for (const auto& entry : fs::directory_iterator(from)) {
        if (!entry.is_regular_file())
            continue;
        const auto name = entry.path().filename().string();
        if (keep && !keep(name))
            continue;
        const auto target = to / name;
        fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
        fs::permissions(
            target, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
    }
}

inline bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    return lines;
}

} // namespace parallax::test
