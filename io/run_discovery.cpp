#include "run_discovery.h"

#include "file_info.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>
#include <vector>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

// collectFiles: a run may claim up to this many PEs whatever files it has, and beyond that up to
// kPesPerFile PEs per file found.
constexpr std::int64_t kMinPlausiblePes = 65536;
constexpr std::int64_t kPesPerFile = 64;

std::string baseNameOf(const std::string& stsFile)
{
    if (stsFile.ends_with(".sum.sts"))
        return stsFile.substr(0, stsFile.size() - 8);
    if (stsFile.ends_with(".sts"))
        return stsFile.substr(0, stsFile.size() - 4);
    return stsFile;
}

enum class Kind { Log, Sum, Sumd };

struct Candidate {
    Kind kind;
    std::int64_t pe;
    fs::path path;
    bool gz;
};

// `<base>.<pe>.log`, `<base>.<pe>.log.gz`, `<base>.<pe>.sum`, `<base>.<pe>.sumd`.
// Returns false when the name does not belong to the run; pe = -1 when the PE part is not a
// number (reported by the caller).
bool classify(const std::string& name, const std::string& base, Candidate& out)
{
    if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0
        || name[base.size()] != '.')
        return false;
    std::string_view rest(name);
    rest.remove_prefix(base.size() + 1);
    out.gz = false;
    if (rest.ends_with(".log.gz")) {
        out.kind = Kind::Log;
        out.gz = true;
        rest.remove_suffix(7);
    } else if (rest.ends_with(".log")) {
        out.kind = Kind::Log;
        rest.remove_suffix(4);
    } else if (rest.ends_with(".sumd")) {
        out.kind = Kind::Sumd;
        rest.remove_suffix(5);
    } else if (rest.ends_with(".sum")) {
        out.kind = Kind::Sum;
        rest.remove_suffix(4);
    } else {
        return false;
    }
    std::int64_t pe = -1;
    auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pe);
    if (rest.empty() || ec != std::errc() || p != rest.data() + rest.size() || pe < 0) {
        // e.g. NAME.foo.log, or NAME.sum.sts-like names: only report real log-looking names
        if (rest.find('.') != std::string_view::npos)
            return false;
        pe = -1;
    }
    out.pe = pe;
    return true;
}

void scan(const fs::path& dir, const std::string& base, std::vector<Candidate>& out, int depth)
{
    std::error_code ec;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec)
        return;
    for (const auto& entry : it) {
        const auto name = entry.path().filename().string();
        std::error_code typeEc;
        if (entry.is_directory(typeEc)) {
            // NAME.projdir.K written by +trace-subdirs (searched recursively).
            if (depth < 4 && name.compare(0, base.size(), base) == 0
                && name.find(".projdir.", base.size()) == base.size())
                scan(entry.path(), base, out, depth + 1);
            continue;
        }
        Candidate c {};
        if (classify(name, base, c)) {
            c.path = entry.path();
            out.push_back(std::move(c));
        }
    }
}

} // namespace

DiscoveryResult locateSymbolTable(const std::string& path)
{
    DiscoveryResult result;
    std::error_code ec;
    fs::path p(path);
    if (!fs::exists(p, ec)) {
        result.error = path + ": no such file or directory";
        return result;
    }
    if (fs::is_directory(p, ec)) {
        std::vector<fs::path> sts;
        std::vector<fs::path> sumSts;
        fs::directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
        if (ec) {
            result.error = path + ": cannot list the directory (" + ec.message() + ")";
            return result;
        }
        for (const auto& entry : it) {
            const auto name = entry.path().filename().string();
            if (name.ends_with(".sum.sts"))
                sumSts.push_back(entry.path());
            else if (name.ends_with(".count.sts"))
                continue; // hardware-counter tables are not runs of their own
            else if (name.ends_with(".sts"))
                sts.push_back(entry.path());
        }
        auto& chosen = sts.empty() ? sumSts : sts;
        if (chosen.empty()) {
            result.error = path
                + ": no .sts symbol table in this directory; open the directory "
                  "that holds NAME.sts and NAME.N.log(.gz) files";
            return result;
        }
        std::sort(chosen.begin(), chosen.end());
        if (chosen.size() > 1) {
            std::string names;
            for (const auto& c : chosen)
                names += (names.empty() ? "" : ", ") + c.filename().string();
            result.error = path + ": several runs in this directory (" + names
                + "); open one of the .sts files instead";
            return result;
        }
        p = chosen.front();
    }
    const auto fileName = p.filename().string();
    if (!fileName.ends_with(".sts")) {
        result.error = path
            + ": not a Projections symbol table; open a run directory, a NAME.sts "
              "or a NAME.sum.sts file";
        return result;
    }
    auto& files = result.files;
    files.directory = p.parent_path().empty() ? std::string(".") : p.parent_path().string();
    files.baseName = baseNameOf(fileName);
    files.stsPath = p.string();
    if (fileName.ends_with(".sum.sts")) {
        const auto full = fs::path(files.directory) / (files.baseName + ".sts");
        if (fs::exists(full, ec))
            files.stsPath = full.string();
    }
    const auto projrc = fs::path(files.directory) / (files.baseName + ".projrc");
    if (fs::exists(projrc, ec))
        files.projrcPath = projrc.string();
    result.ok = true;
    return result;
}

core::PeId collectFiles(core::RunFiles& files, core::PeId processors, core::ImportReport& report)
{
    std::vector<Candidate> found;
    scan(fs::path(files.directory), files.baseName, found, 0);
    std::sort(found.begin(), found.end(),
        [](const Candidate& a, const Candidate& b) { return a.path.string() < b.path.string(); });
    // Every PE costs tables whether it has files or not, so the PE count a header claims may
    // not exceed what the files can justify (a run traced on a subset of its PEs still fits).
    const auto limit = static_cast<core::PeId>(std::min<std::int64_t>(
        std::max<std::int64_t>(kMinPlausiblePes,
            kPesPerFile * static_cast<std::int64_t>(std::max<std::size_t>(found.size(), 1))),
        INT32_MAX));
    if (processors > limit) {
        report.add(core::Issue::StsProblem, fs::path(files.stsPath).filename().string(), 0,
            "PROCESSORS " + std::to_string(processors) + " is implausible for a run of "
                + std::to_string(found.size()) + " files; only PEs below " + std::to_string(limit)
                + " are read");
        processors = limit;
    }
    const auto n = static_cast<std::size_t>(std::max<core::PeId>(processors, 0));
    files.logPaths.assign(n, {});
    files.sumPaths.assign(n, {});
    files.sumdPaths.assign(n, {});
    files.logBytes = 0;
    files.sumBytes = 0;
    for (const auto& c : found) {
        const auto name = c.path.filename().string();
        if (c.pe < 0) {
            report.add(core::Issue::PeOutOfRange, name, 0,
                "the PE part of the file name is not a number; skipped");
            continue;
        }
        if (c.pe >= processors) {
            report.add(core::Issue::PeOutOfRange, name, 0,
                "PE " + std::to_string(c.pe) + " is not below PROCESSORS "
                    + std::to_string(processors) + "; skipped");
            continue;
        }
        const auto pe = static_cast<std::size_t>(c.pe);
        auto& slot = c.kind == Kind::Log ? files.logPaths[pe]
            : c.kind == Kind::Sum        ? files.sumPaths[pe]
                                         : files.sumdPaths[pe];
        if (!slot.empty()) {
            // Both NAME.N.log and NAME.N.log.gz: take the newer one and say so.
            std::error_code ec;
            const auto tNew = fs::last_write_time(c.path, ec);
            const auto tOld = fs::last_write_time(slot, ec);
            report.add(core::Issue::DuplicateFile, name, 0,
                "two files for PE " + std::to_string(c.pe) + "; using the newer one");
            if (tNew <= tOld)
                continue;
        }
        slot = c.path.string();
    }
    for (const auto& path : files.logPaths)
        if (!path.empty())
            files.logBytes += fileSizeOrZero(path);
    for (const auto& path : files.sumPaths)
        if (!path.empty())
            files.sumBytes += fileSizeOrZero(path);
    return processors;
}

} // namespace parallax::io
