#pragma once

#include <cstdint>
#include <string>

namespace parallax::core {
struct RunFiles;
}

namespace parallax::exporter {

// Where an export goes. Every export is written under a temporary name next to its target
// (".NAME.partial-XXXXXX") and renamed into place only once complete, so a failed, cancelled or
// killed export leaves no half-written file or archive under the target's name.

enum class TargetKind : std::uint8_t { File, Directory };

struct TargetCheck {
    enum class Problem : std::uint8_t { None, Empty, InsideRun, Exists, WrongKind };
    Problem problem = Problem::None;
    std::string message; // one sentence naming the path; empty when fine
    [[nodiscard]] bool ok() const { return problem == Problem::None; }
};

// Whether `path` may receive an export of the run in `run.directory`: never the run directory
// or a path inside it (a run's directory is never written to), nothing that exists unless
// `force`, and never a directory in place of a file or the other way round.
TargetCheck checkExportTarget(
    const core::RunFiles& run, const std::string& path, TargetKind kind, bool force);

// A temporary file or directory beside the target, removed on destruction unless committed.
class StagedOutput {
public:
    // Creates the temporary sibling (and the target's parent directories). On failure
    // `ok()` is false and `error()` says why.
    StagedOutput(std::string target, TargetKind kind);
    ~StagedOutput();
    StagedOutput(const StagedOutput&) = delete;
    StagedOutput& operator=(const StagedOutput&) = delete;

    [[nodiscard]] bool ok() const { return m_error.empty(); }
    [[nodiscard]] const std::string& error() const { return m_error; }
    [[nodiscard]] const std::string& path() const { return m_temp; } // where to write
    [[nodiscard]] const std::string& target() const { return m_target; }

    // Renames the temporary into place; an existing target (allowed by checkExportTarget with
    // force) is replaced, and kept when the rename fails. False with error() set on failure.
    bool commit();

private:
    std::string m_target;
    TargetKind m_kind;
    std::string m_temp;
    std::string m_error;
    bool m_committed = false;
};

// The size of a file, or of everything under a directory, in bytes.
std::uint64_t outputBytes(const std::string& path);

} // namespace parallax::exporter
