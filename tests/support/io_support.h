#pragma once

// Helpers for tests that read files through parallax_io: loading a run and making gzip
// fixtures at test time (zlib; the io test executable links ZLIB::ZLIB).

#include "io/run_loader.h"
#include "support/report_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>
#include <zlib.h>

#include <chrono>
#include <string>
#include <vector>

namespace parallax::test {

// Sets the modification time of every file of `dir` and of `dir` itself an hour back, so an
// index cache may be written for it (files changed in the last 2 s are not cached).
inline void ageFiles(const fs::path& dir)
{
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const auto& entry : fs::directory_iterator(dir))
        fs::last_write_time(entry.path(), old);
    fs::last_write_time(dir, old);
}

// Loads a run and requires success (the error is shown when it fails).
inline core::TracePtr loadOk(const fs::path& path, io::LoadOptions options = {})
{
    auto result = io::loadRun(path.string(), options);
    INFO("loadRun(" << path.string() << ") error: " << result.error);
    REQUIRE(result.trace != nullptr);
    REQUIRE_FALSE(result.cancelled);
    return result.trace;
}

// Loads a run and requires a fatal error; returns the message.
inline std::string loadFails(const fs::path& path)
{
    auto result = io::loadRun(path.string());
    CHECK(result.trace == nullptr);
    CHECK_FALSE(result.cancelled);
    CHECK_FALSE(result.error.empty());
    return result.error;
}

inline std::string gunzipToString(const fs::path& path)
{
    gzFile in = gzopen(path.string().c_str(), "rb");
    REQUIRE(in != nullptr);
    std::string out;
    std::vector<char> buffer(1 << 16);
    for (;;) {
        const int n = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()));
        REQUIRE(n >= 0);
        if (n == 0)
            break;
        out.append(buffer.data(), static_cast<std::size_t>(n));
    }
    gzclose(in);
    return out;
}

inline void gzipString(const fs::path& path, const std::string& content)
{
    gzFile out = gzopen(path.string().c_str(), "wb");
    REQUIRE(out != nullptr);
    if (!content.empty())
        REQUIRE(gzwrite(out, content.data(), static_cast<unsigned>(content.size()))
            == static_cast<int>(content.size()));
    REQUIRE(gzclose(out) == Z_OK);
}

} // namespace parallax::test
