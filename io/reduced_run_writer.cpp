#include "reduced_run_writer.h"

#include "file_info.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>
#include <unistd.h>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kCopyChunk = std::size_t { 4 } << 20U;

// Absolute, symlinks resolved where the path exists, without a trailing separator.
fs::path normalized(const fs::path& path)
{
    std::error_code ec;
    auto p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec)
        p = fs::absolute(path, ec).lexically_normal();
    if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path();
    return p;
}

// Whether `inner` lies strictly below `outer` (both normalized).
bool isBelow(const fs::path& inner, const fs::path& outer)
{
    if (inner == outer)
        return false;
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i)
        if (i == inner.end() || *i != *o)
            return false;
    return true;
}

std::string relativeTo(const std::string& file, const std::string& directory)
{
    const auto rel = fs::path(file).lexically_relative(directory);
    if (rel.empty() || *rel.begin() == "..")
        return fs::path(file).filename().string();
    return rel.string();
}

std::string makeTempDir(const fs::path& pattern)
{
    auto text = pattern.string();
    std::vector<char> buffer(text.begin(), text.end());
    buffer.push_back('\0');
    const char* made = ::mkdtemp(buffer.data());
    return made == nullptr ? std::string() : std::string(made);
}

// Copies in chunks so that a cancel is heard within a few MB; returns false with `error` set.
bool copyFile(const std::string& from, const fs::path& to, std::vector<char>& buffer,
    const ReducedRunWriteOptions& options, const std::function<void(std::uint64_t)>& advanced,
    bool& cancelled, std::string& error)
{
    std::ifstream in(from, std::ios::binary);
    if (!in) {
        error = "cannot read " + from;
        return false;
    }
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    if (!out) {
        error = "cannot create " + to.string();
        return false;
    }
    while (in) {
        if (options.cancelled && options.cancelled()) {
            cancelled = true;
            return false;
        }
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = in.gcount();
        if (got <= 0)
            break;
        out.write(buffer.data(), got);
        if (!out) {
            error = "cannot write " + to.string() + " (disk full?)";
            return false;
        }
        advanced(static_cast<std::uint64_t>(got));
    }
    if (in.bad()) {
        error = "error while reading " + from;
        return false;
    }
    out.close();
    if (!out) {
        error = "cannot write " + to.string() + " (disk full?)";
        return false;
    }
    return true;
}

bool writeText(const fs::path& to, const std::string& content, std::string& error)
{
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
        error = "cannot write " + to.string();
        return false;
    }
    return true;
}

} // namespace

ReducedRunPlan planReducedRun(
    const core::RunFiles& files, const std::vector<core::PeId>& kept, bool allowNoSummaries)
{
    ReducedRunPlan plan;
    std::set<std::string> tables;
    for (const auto* suffix : { ".sts", ".sum.sts" }) {
        const auto path = (fs::path(files.directory) / (files.baseName + suffix)).string();
        std::error_code ec;
        if (fs::is_regular_file(path, ec))
            tables.insert(path);
    }
    if (!files.stsPath.empty())
        tables.insert(files.stsPath);
    if (!files.projrcPath.empty())
        tables.insert(files.projrcPath);
    auto add = [&](const std::string& path, bool isLog) {
        RunFileCopy copy { path, relativeTo(path, files.directory), fileSizeOrZero(path), isLog };
        plan.copiedBytes += copy.bytes;
        plan.files.push_back(std::move(copy));
    };
    for (const auto& t : tables) {
        add(t, false);
        plan.runBytes += plan.files.back().bytes;
    }
    const auto pes = files.logPaths.size();
    plan.peLogBytes.assign(pes, 0);
    for (std::size_t pe = 0; pe < pes; ++pe) {
        for (const auto* paths : { &files.sumPaths, &files.sumdPaths })
            if (pe < paths->size() && !(*paths)[pe].empty()) {
                add((*paths)[pe], false);
                plan.runBytes += plan.files.back().bytes;
            }
        const bool summary = (pe < files.sumPaths.size() && !files.sumPaths[pe].empty())
            || (pe < files.sumdPaths.size() && !files.sumdPaths[pe].empty());
        plan.pesWithSummary += summary ? 1U : 0U;
        if (!files.logPaths[pe].empty()) {
            plan.peLogBytes[pe] = fileSizeOrZero(files.logPaths[pe]);
            plan.logBytesTotal += plan.peLogBytes[pe];
            plan.runBytes += plan.peLogBytes[pe];
        }
    }
    std::vector<core::PeId> keptSorted = kept;
    std::sort(keptSorted.begin(), keptSorted.end());
    keptSorted.erase(std::unique(keptSorted.begin(), keptSorted.end()), keptSorted.end());
    for (auto pe : keptSorted) {
        const auto p = static_cast<std::size_t>(pe);
        if (pe < 0 || p >= pes || files.logPaths[p].empty()) {
            plan.error = "PE " + std::to_string(pe) + " has no log to keep";
            return plan;
        }
        add(files.logPaths[p], true);
        plan.logBytesKept += plan.files.back().bytes;
    }
    if (plan.pesWithSummary == 0 && !allowNoSummaries)
        plan.error = "the run has no .sum or .sumd files: a reduced run would keep nothing of "
                     "the PEs whose logs are left out";
    const auto noSum = core::Trace::pesLackingFile(files.sumPaths);
    if (!noSum.empty())
        plan.notes.push_back(std::to_string(noSum.size())
            + " PEs have no .sum in the source run either; the reduced run lacks them too");
    return plan;
}

OutputCheck checkReducedRunOutput(
    const core::RunFiles& files, const std::string& outDir, bool force)
{
    using Problem = OutputCheck::Problem;
    if (outDir.empty())
        return { Problem::NotDirectory, "no output directory given" };
    const auto out = normalized(outDir);
    const auto run = normalized(files.directory);
    if (out == run)
        return { Problem::SourceRun,
            outDir + " is the run directory; a reduced run never writes into its source" };
    if (isBelow(out, run))
        return { Problem::SourceRun,
            outDir + " is inside the run directory; a reduced run never writes into its source" };
    if (isBelow(run, out))
        return { Problem::SourceRun, outDir + " contains the run; choose a directory outside it" };
    std::error_code ec;
    if (!fs::exists(out, ec))
        return {};
    if (!fs::is_directory(out, ec))
        return { Problem::NotDirectory, outDir + " exists and is not a directory" };
    fs::directory_iterator it(out, ec);
    if (ec)
        return { Problem::Unreadable, outDir + ": " + ec.message() };
    if (!force && it != fs::directory_iterator())
        return { Problem::NotEmpty, outDir + " is not empty" };
    return {};
}

ReducedRunWriteResult writeReducedRun(const core::RunFiles& files, const ReducedRunPlan& plan,
    const std::vector<std::pair<std::string, std::string>>& reportFiles, const std::string& outDir,
    const ReducedRunWriteOptions& options)
{
    ReducedRunWriteResult result;
    if (!plan.ok()) {
        result.error = plan.error;
        return result;
    }
    if (auto check = checkReducedRunOutput(files, outDir, options.force); !check.ok()) {
        result.error = std::move(check.message);
        return result;
    }
    std::string temp;
    try {
        const auto out = normalized(outDir);
        fs::create_directories(out.parent_path());
        temp = makeTempDir(out.parent_path() / ("." + out.filename().string() + ".partial-XXXXXX"));
        if (temp.empty()) {
            result.error = "cannot create a temporary directory next to " + outDir;
            return result;
        }
        // mkdtemp makes it private (0700); a run directory is as readable as any other.
        fs::permissions(temp,
            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                | fs::perms::others_read | fs::perms::others_exec);
        std::uint64_t total = plan.copiedBytes;
        for (const auto& [name, content] : reportFiles)
            total += content.size();
        std::uint64_t done = 0;
        auto advanced = [&](std::uint64_t bytes) {
            done += bytes;
            if (options.progress && total > 0)
                options.progress(static_cast<double>(done) / static_cast<double>(total));
        };
        auto fail = [&](std::string error) {
            std::error_code ec;
            fs::remove_all(temp, ec);
            result.error = std::move(error);
            return result;
        };
        // One buffer for every file (thousands of small summaries).
        std::vector<char> buffer(kCopyChunk);
        for (const auto& file : plan.files) {
            const auto target = fs::path(temp) / file.relativePath;
            fs::create_directories(target.parent_path());
            std::string error;
            bool cancelled = false;
            if (!copyFile(file.source, target, buffer, options, advanced, cancelled, error)) {
                result.cancelled = cancelled;
                return fail(cancelled ? "cancelled" : error);
            }
            if (fileSizeOrZero(target.string()) != file.bytes)
                return fail(file.source + " changed while it was copied");
        }
        for (const auto& [name, content] : reportFiles) {
            std::string error;
            if (!writeText(fs::path(temp) / name, content, error))
                return fail(error);
            advanced(content.size());
        }
        if (options.cancelled && options.cancelled()) {
            result.cancelled = true;
            return fail("cancelled");
        }
        // An empty OUT is replaced by rename(2) directly; a non-empty one (force) is moved
        // aside first and removed once the new run is in place.
        std::error_code ec;
        std::string aside;
        if (fs::exists(out, ec) && fs::directory_iterator(out, ec) != fs::directory_iterator()) {
            aside
                = makeTempDir(out.parent_path() / ("." + out.filename().string() + ".old-XXXXXX"));
            if (aside.empty() || std::rename(out.c_str(), aside.c_str()) != 0)
                return fail("cannot move the old " + outDir + " aside");
        }
        if (std::rename(temp.c_str(), out.c_str()) != 0) {
            if (!aside.empty())
                std::rename(aside.c_str(), out.c_str());
            return fail("cannot rename the finished run to " + outDir);
        }
        if (!aside.empty())
            fs::remove_all(aside, ec);
        result.ok = true;
        result.bytesWritten = total;
    } catch (const std::exception& e) {
        std::error_code ec;
        if (!temp.empty())
            fs::remove_all(temp, ec);
        result.ok = false;
        result.error = std::string("cannot write the reduced run: ") + e.what();
    }
    return result;
}

} // namespace parallax::io
