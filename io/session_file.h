#pragma once

#include "core/types.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::io {

// A Parallax session (`NAME.parallax`, docs/sessions.md): the run, the views that were open with
// their state, entry colours chosen by the analyst and bookmarks with notes. Stored as JSON with
// a format version; the app and `parallax-cli render --session` read it, the app writes it.

// What identifies a run's content without reading its logs: a moved or copied run has the same
// fingerprint, a changed one (another symbol table, logs rewritten, PEs added) has not.
struct RunFingerprint {
    std::string name; // the run's base name
    std::uint64_t pes = 0; // PROCESSORS in the symbol table
    std::uint64_t entries = 0; // entry methods in the symbol table
    std::uint64_t logs = 0; // PEs with a log file
    std::uint64_t logBytes = 0; // on-disk bytes of the logs
    std::uint64_t sumBytes = 0; // on-disk bytes of the .sum files
    std::string stsHash; // 16 hex digits over the symbol table's bytes
    friend bool operator==(const RunFingerprint&, const RunFingerprint&) = default;
};

// The fingerprint of an opened run (reads its symbol table once more for the hash).
RunFingerprint fingerprintOf(const core::Trace& trace);
// How `now` differs from `saved`, one phrase each ("12 PEs, was 16"); empty when equal.
std::vector<std::string> fingerprintDifferences(
    const RunFingerprint& saved, const RunFingerprint& now);

// A view's state as text, key -> value (views::AnalysisView::saveState says which keys).
using ViewStateMap = std::map<std::string, std::string>;

struct SessionView {
    std::string view; // the view's key: "timeline", "usage", ... (views::viewKey)
    ViewStateMap state;
};

// A place in the run worth coming back to: a time on a PE, optionally one execution there.
struct Bookmark {
    struct Execution {
        core::TimeUs begin = 0;
        std::int64_t entry = -1;
        friend bool operator==(const Execution&, const Execution&) = default;
    };
    core::TimeUs time = 0;
    core::PeId pe = 0;
    std::optional<Execution> execution;
    std::string note;
    friend bool operator==(const Bookmark&, const Bookmark&) = default;
};

struct Session {
    // The format written; files of a higher version are refused, lower ones read.
    static constexpr int kFormatVersion = 1;

    std::string runPath; // absolute, as the run was opened (directory or .sts)
    // The run from the session file's directory ("../runs/x"): finds a run moved together with
    // its session. Written by writeSession(); empty when there is no relative way.
    std::string runRelativePath;
    std::optional<RunFingerprint> fingerprint;
    std::vector<SessionView> views; // in tab order
    std::string currentView; // the key of the current tab; empty = the run's summary
    std::vector<std::pair<std::string, std::string>> entryColors; // entry name -> "#rrggbb"
    std::vector<Bookmark> bookmarks;
};

// The session as JSON text (UTF-8, with a trailing newline).
std::string sessionToJson(const Session& session);

struct SessionReadResult {
    std::optional<Session> session;
    std::string error; // one sentence when session is empty
};
// Parses session JSON. Refuses text that is not JSON, not a Parallax session, or of a newer
// format version, and fields of the wrong type, each with a message saying which.
SessionReadResult parseSession(std::string_view text);
// Reads and parses a session file; the message names the file.
SessionReadResult readSession(const std::string& path);
// Writes the session atomically (a temporary sibling renamed over `path`), filling in the run's
// path relative to the session's directory. False with *error (one sentence) on failure; an
// existing file is then left as it was.
bool writeSession(const std::string& path, Session session, std::string* error);

// Where the session's run is now: its recorded path when that exists, else the path relative
// to the session file when that exists (the run moved with its session; `moved` set), else
// empty (missing).
struct SessionRunLocation {
    std::string path;
    bool moved = false;
};
SessionRunLocation locateSessionRun(const Session& session, const std::string& sessionPath);

} // namespace parallax::io
