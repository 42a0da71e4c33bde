#include "staged_output.h"

#include "core/trace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdlib.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace parallax::exporter {

namespace fs = std::filesystem;

namespace {

// Absolute, without "." and "..", and without a trailing separator ("out/" names "out").
fs::path normalized(const std::string& path)
{
    std::error_code ec;
    auto p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec)
        p = fs::path(path).lexically_normal();
    while (!p.has_filename() && p.has_relative_path())
        p = p.parent_path();
    return p;
}

// Whether `inner` is `outer` or lies below it.
bool isWithin(const fs::path& inner, const fs::path& outer)
{
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty())
            continue; // a trailing separator
        if (i == inner.end() || *i != *o)
            return false;
    }
    return true;
}

// "DIR/.NAME<suffix>" beside `target`, as a mkstemp/mkdtemp pattern.
std::vector<char> siblingPattern(const fs::path& target, const char* suffix)
{
    std::string name = target.parent_path().string();
    name += "/.";
    name += target.filename().string();
    name += suffix;
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    return buffer;
}

} // namespace

TargetCheck checkExportTarget(
    const core::RunFiles& run, const std::string& path, TargetKind kind, bool force)
{
    using Problem = TargetCheck::Problem;
    if (path.empty())
        return { Problem::Empty, "no output path given" };
    const auto target = normalized(path);
    if (!run.directory.empty() && isWithin(target, normalized(run.directory)))
        return { Problem::InsideRun,
            path + " is inside the run's directory, which an export never writes to" };
    std::error_code ec;
    const auto status = fs::status(target, ec);
    if (!fs::exists(status))
        return {};
    const bool isDir = fs::is_directory(status);
    if (kind == TargetKind::File && isDir)
        return { Problem::WrongKind, path + " is a directory, not a file" };
    if (kind == TargetKind::Directory && !isDir)
        return { Problem::WrongKind, path + " exists and is not a directory" };
    if (!force)
        return { Problem::Exists, path + " already exists" };
    return {};
}

StagedOutput::StagedOutput(std::string target, TargetKind kind)
    : m_target(std::move(target))
    , m_kind(kind)
{
    const auto out = normalized(m_target);
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    if (ec) {
        m_error = "cannot create " + out.parent_path().string() + ": " + ec.message();
        return;
    }
    auto buffer = siblingPattern(out, ".partial-XXXXXX");
    if (kind == TargetKind::Directory) {
        if (::mkdtemp(buffer.data()) == nullptr) {
            m_error = "cannot create a temporary directory next to " + m_target + ": "
                + std::strerror(errno);
            return;
        }
        // mkdtemp makes it private (0700); an export is as readable as any other directory.
        fs::permissions(buffer.data(),
            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                | fs::perms::others_read | fs::perms::others_exec,
            ec);
    } else {
        const int fd = ::mkstemp(buffer.data());
        if (fd < 0) {
            m_error = "cannot create a temporary file next to " + m_target + ": "
                + std::strerror(errno);
            return;
        }
        ::close(fd);
        fs::permissions(buffer.data(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
                | fs::perms::others_read,
            ec);
    }
    m_temp = buffer.data();
}

StagedOutput::~StagedOutput()
{
    if (m_committed || m_temp.empty())
        return;
    std::error_code ec;
    fs::remove_all(m_temp, ec);
}

bool StagedOutput::commit()
{
    if (!ok() || m_committed)
        return m_committed;
    const auto out = normalized(m_target);
    std::error_code ec;
    // A file is replaced by rename(2) directly; an existing directory is moved aside first and
    // removed once the new one is in place (or moved back when the rename fails).
    std::string aside;
    if (m_kind == TargetKind::Directory && fs::exists(out, ec)) {
        auto buffer = siblingPattern(out, ".old-XXXXXX");
        if (::mkdtemp(buffer.data()) == nullptr || std::rename(out.c_str(), buffer.data()) != 0) {
            m_error = "cannot move the old " + m_target + " aside";
            return false;
        }
        aside = buffer.data();
    }
    if (std::rename(m_temp.c_str(), out.c_str()) != 0) {
        m_error = "cannot rename the finished export to " + m_target + ": " + std::strerror(errno);
        if (!aside.empty())
            std::rename(aside.c_str(), out.c_str());
        return false;
    }
    m_committed = true;
    if (!aside.empty())
        fs::remove_all(aside, ec);
    return true;
}

std::uint64_t outputBytes(const std::string& path)
{
    std::error_code ec;
    if (fs::is_regular_file(path, ec))
        return fs::file_size(path, ec);
    std::uint64_t total = 0;
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec))
            total += it->file_size(ec);
    return total;
}

} // namespace parallax::exporter
