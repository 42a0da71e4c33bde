#include "session_file.h"

#include "cache_hash.h"
#include "core/trace.h"
#include "json_value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kFormatName = "parallax-session";
// Session files are small (views, colours, bookmarks); anything much larger is not one.
constexpr std::uintmax_t kMaxSessionBytes = 16U << 20;

std::string hex64(std::uint64_t value)
{
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
    return buf;
}

// ---- writing ----

// `"key": value` members of one object, each on its own line at `indent`.
class SessionJsonObject {
public:
    SessionJsonObject(std::string& out, int indent)
        : m_out(out)
        , m_indent(indent)
    {
        m_out += "{";
    }
    void raw(std::string_view key, const std::string& value)
    {
        m_out += m_first ? "\n" : ",\n";
        m_first = false;
        m_out.append(static_cast<std::size_t>(m_indent + 2), ' ');
        m_out += jsonQuoted(key);
        m_out += ": ";
        m_out += value;
    }
    void text(std::string_view key, std::string_view value) { raw(key, jsonQuoted(value)); }
    void number(std::string_view key, std::int64_t value) { raw(key, std::to_string(value)); }
    void close()
    {
        if (!m_first) {
            m_out += "\n";
            m_out.append(static_cast<std::size_t>(m_indent), ' ');
        }
        m_out += "}";
    }

private:
    std::string& m_out;
    int m_indent;
    bool m_first = true;
};

// A small object on one line: {"a": 1, "b": "x"}.
std::string inlineObject(const std::vector<std::pair<std::string, std::string>>& members)
{
    std::string out = "{";
    for (std::size_t i = 0; i < members.size(); ++i)
        out += (i == 0 ? "" : ", ") + jsonQuoted(members[i].first) + ": " + members[i].second;
    return out + "}";
}

std::string fingerprintJson(const RunFingerprint& f, int indent)
{
    std::string out;
    SessionJsonObject o(out, indent);
    o.text("name", f.name);
    o.number("pes", static_cast<std::int64_t>(f.pes));
    o.number("entries", static_cast<std::int64_t>(f.entries));
    o.number("logs", static_cast<std::int64_t>(f.logs));
    o.number("log_bytes", static_cast<std::int64_t>(f.logBytes));
    o.number("sum_bytes", static_cast<std::int64_t>(f.sumBytes));
    o.text("sts_hash", f.stsHash);
    o.close();
    return out;
}

// ---- reading ----

// Reads the members of a parsed session, stopping at the first one of the wrong type with a
// message naming it ("bookmarks[2].pe").
class SessionReader {
public:
    std::string error;

    const Json* member(const Json& object, std::string_view key, Json::Type type,
        const std::string& where, bool required = false)
    {
        const Json* value = object.get(key);
        if (value == nullptr || value->type == Json::Type::Null) {
            if (required)
                fail(where + std::string(key) + " is missing");
            return nullptr;
        }
        if (value->type != type) {
            fail(where + std::string(key) + " is not " + typeName(type));
            return nullptr;
        }
        return value;
    }

    std::string text(const Json& object, std::string_view key, const std::string& where)
    {
        const Json* value = member(object, key, Json::Type::String, where);
        return value != nullptr ? value->string : std::string();
    }

    // A whole number from `min` to `max`; nullopt when absent or wrong (then error is set).
    std::optional<std::int64_t> integer(const Json& object, std::string_view key,
        const std::string& where, std::int64_t min, std::int64_t max, bool required = false)
    {
        const Json* value = member(object, key, Json::Type::Number, where, required);
        if (value == nullptr)
            return std::nullopt;
        const double n = value->number;
        if (n != std::floor(n) || n < static_cast<double>(min) || n > static_cast<double>(max)) {
            fail(where + std::string(key) + " is not a whole number from " + std::to_string(min)
                + " to " + std::to_string(max));
            return std::nullopt;
        }
        return static_cast<std::int64_t>(n);
    }

    void fail(const std::string& message)
    {
        if (error.empty())
            error = message;
    }

private:
    static const char* typeName(Json::Type type)
    {
        switch (type) {
        case Json::Type::String:
            return "a string";
        case Json::Type::Number:
            return "a number";
        case Json::Type::Array:
            return "a list";
        case Json::Type::Object:
            return "an object";
        case Json::Type::Bool:
            return "true or false";
        case Json::Type::Null:
            break;
        }
        return "null";
    }
};

constexpr std::int64_t kMaxCount = std::int64_t { 1 } << 53; // exact in a JSON number

void readFingerprint(SessionReader& r, const Json& object, RunFingerprint& f)
{
    const std::string at = "run.fingerprint.";
    f.name = r.text(object, "name", at);
    f.pes = static_cast<std::uint64_t>(r.integer(object, "pes", at, 0, kMaxCount).value_or(0));
    f.entries
        = static_cast<std::uint64_t>(r.integer(object, "entries", at, 0, kMaxCount).value_or(0));
    f.logs = static_cast<std::uint64_t>(r.integer(object, "logs", at, 0, kMaxCount).value_or(0));
    f.logBytes
        = static_cast<std::uint64_t>(r.integer(object, "log_bytes", at, 0, kMaxCount).value_or(0));
    f.sumBytes
        = static_cast<std::uint64_t>(r.integer(object, "sum_bytes", at, 0, kMaxCount).value_or(0));
    f.stsHash = r.text(object, "sts_hash", at);
}

void readViews(SessionReader& r, const Json& list, Session& session)
{
    for (std::size_t i = 0; i < list.items.size() && r.error.empty(); ++i) {
        const Json& item = list.items[i];
        const std::string at = "views[" + std::to_string(i) + "].";
        if (item.type != Json::Type::Object) {
            r.fail("views[" + std::to_string(i) + "] is not an object");
            return;
        }
        SessionView view;
        view.view = r.text(item, "view", at);
        if (view.view.empty())
            r.fail(at + "view is missing");
        if (const Json* state = r.member(item, "state", Json::Type::Object, at))
            for (const auto& [key, value] : state->members) {
                if (value.type != Json::Type::String) {
                    r.fail(at + "state." + key + " is not a string");
                    return;
                }
                view.state[key] = value.string;
            }
        session.views.push_back(std::move(view));
    }
}

void readBookmarks(SessionReader& r, const Json& list, Session& session)
{
    for (std::size_t i = 0; i < list.items.size() && r.error.empty(); ++i) {
        const Json& item = list.items[i];
        const std::string at = "bookmarks[" + std::to_string(i) + "].";
        if (item.type != Json::Type::Object) {
            r.fail("bookmarks[" + std::to_string(i) + "] is not an object");
            return;
        }
        Bookmark b;
        b.time = r.integer(item, "time_us", at, 0, kMaxCount, true).value_or(0);
        b.pe = static_cast<core::PeId>(
            r.integer(item, "pe", at, 0, std::numeric_limits<core::PeId>::max(), true).value_or(0));
        b.note = r.text(item, "note", at);
        if (const Json* e = r.member(item, "execution", Json::Type::Object, at)) {
            Bookmark::Execution execution;
            execution.begin
                = r.integer(*e, "begin_us", at + "execution.", 0, kMaxCount, true).value_or(0);
            execution.entry = r.integer(*e, "entry", at + "execution.", -1, kMaxCount).value_or(-1);
            b.execution = execution;
        }
        session.bookmarks.push_back(std::move(b));
    }
}

std::string withFile(const std::string& path, const std::string& message)
{
    return path + ": " + message;
}

} // namespace

RunFingerprint fingerprintOf(const core::Trace& trace)
{
    RunFingerprint f;
    f.name = trace.files.baseName;
    f.pes = static_cast<std::uint64_t>(std::max<core::PeId>(trace.metadata.processors, 0));
    f.entries = trace.metadata.entryCount();
    for (const auto& path : trace.files.logPaths)
        f.logs += path.empty() ? 0U : 1U;
    f.logBytes = trace.files.logBytes;
    f.sumBytes = trace.files.sumBytes;
    CacheHash hash;
    std::ifstream sts(trace.files.stsPath, std::ios::binary);
    char buffer[1 << 14];
    while (sts) {
        sts.read(buffer, sizeof buffer);
        hash.update(buffer, static_cast<std::size_t>(sts.gcount()));
    }
    f.stsHash = hex64(hash.digest());
    return f;
}

std::vector<std::string> fingerprintDifferences(
    const RunFingerprint& saved, const RunFingerprint& now)
{
    std::vector<std::string> out;
    const auto count = [&](std::uint64_t was, std::uint64_t is, const char* what) {
        if (was != is)
            out.push_back(std::to_string(is) + " " + what + ", was " + std::to_string(was));
    };
    if (saved.name != now.name)
        out.push_back("named " + now.name + ", was " + saved.name);
    count(saved.pes, now.pes, "PEs");
    count(saved.entries, now.entries, "entry methods");
    count(saved.logs, now.logs, "logs");
    count(saved.logBytes, now.logBytes, "bytes of logs");
    count(saved.sumBytes, now.sumBytes, "bytes of summaries");
    if (saved.stsHash != now.stsHash && saved.pes == now.pes && saved.entries == now.entries)
        out.emplace_back("another symbol table (.sts)");
    return out;
}

std::string sessionToJson(const Session& session)
{
    std::string out;
    SessionJsonObject top(out, 0);
    top.text("format", kFormatName);
    top.number("version", Session::kFormatVersion);
    {
        std::string run;
        SessionJsonObject o(run, 2);
        o.text("path", session.runPath);
        if (!session.runRelativePath.empty())
            o.text("relative_path", session.runRelativePath);
        if (session.fingerprint)
            o.raw("fingerprint", fingerprintJson(*session.fingerprint, 4));
        o.close();
        top.raw("run", run);
    }
    top.text("current_view", session.currentView);
    {
        std::string views = "[";
        for (std::size_t i = 0; i < session.views.size(); ++i) {
            const auto& v = session.views[i];
            views += i == 0 ? "\n    " : ",\n    ";
            std::string view;
            SessionJsonObject o(view, 4);
            o.text("view", v.view);
            std::string state;
            SessionJsonObject s(state, 6);
            for (const auto& [key, value] : v.state)
                s.text(key, value);
            s.close();
            o.raw("state", state);
            o.close();
            views += view;
        }
        top.raw("views", views + (session.views.empty() ? "]" : "\n  ]"));
    }
    {
        std::string colors;
        SessionJsonObject c(colors, 2);
        for (const auto& [entry, color] : session.entryColors)
            c.text(entry, color);
        c.close();
        top.raw("entry_colors", colors);
    }
    {
        std::string list = "[";
        for (std::size_t i = 0; i < session.bookmarks.size(); ++i) {
            const auto& b = session.bookmarks[i];
            std::vector<std::pair<std::string, std::string>> m {
                { "time_us", std::to_string(b.time) }, { "pe", std::to_string(b.pe) }
            };
            if (b.execution)
                m.emplace_back("execution",
                    inlineObject({ { "begin_us", std::to_string(b.execution->begin) },
                        { "entry", std::to_string(b.execution->entry) } }));
            m.emplace_back("note", jsonQuoted(b.note));
            list += (i == 0 ? "\n    " : ",\n    ") + inlineObject(m);
        }
        top.raw("bookmarks", list + (session.bookmarks.empty() ? "]" : "\n  ]"));
    }
    top.close();
    return out + "\n";
}

SessionReadResult parseSession(std::string_view text)
{
    SessionReadResult result;
    Json json;
    std::string jsonError;
    if (!parseJson(text, json, &jsonError)) {
        result.error = "not a Parallax session (not valid JSON: " + jsonError + ")";
        return result;
    }
    const Json* format = json.get("format");
    if (json.type != Json::Type::Object || format == nullptr || format->type != Json::Type::String
        || format->string != kFormatName) {
        result.error = "not a Parallax session (no \"format\": \"parallax-session\")";
        return result;
    }
    SessionReader r;
    const auto version = r.integer(json, "version", "", 1, 1'000'000, true);
    if (!version) {
        result.error = "damaged session: " + r.error;
        return result;
    }
    if (*version > Session::kFormatVersion) {
        result.error = "saved by a newer Parallax (session format " + std::to_string(*version)
            + "; this version reads format " + std::to_string(Session::kFormatVersion)
            + "): update Parallax to open it";
        return result;
    }
    Session session;
    if (const Json* run = r.member(json, "run", Json::Type::Object, "", true)) {
        session.runPath = r.text(*run, "path", "run.");
        session.runRelativePath = r.text(*run, "relative_path", "run.");
        if (session.runPath.empty() && session.runRelativePath.empty())
            r.fail("run.path is missing");
        if (const Json* f = r.member(*run, "fingerprint", Json::Type::Object, "run.")) {
            RunFingerprint fingerprint;
            readFingerprint(r, *f, fingerprint);
            session.fingerprint = fingerprint;
        }
    }
    session.currentView = r.text(json, "current_view", "");
    if (const Json* views = r.member(json, "views", Json::Type::Array, ""))
        readViews(r, *views, session);
    if (const Json* colors = r.member(json, "entry_colors", Json::Type::Object, ""))
        for (const auto& [entry, color] : colors->members) {
            if (color.type != Json::Type::String) {
                r.fail("entry_colors." + entry + " is not a string");
                break;
            }
            session.entryColors.emplace_back(entry, color.string);
        }
    if (const Json* bookmarks = r.member(json, "bookmarks", Json::Type::Array, ""))
        readBookmarks(r, *bookmarks, session);
    if (!r.error.empty()) {
        result.error = "damaged session: " + r.error;
        return result;
    }
    result.session = std::move(session);
    return result;
}

SessionReadResult readSession(const std::string& path)
{
    SessionReadResult result;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        result.error = withFile(path, "cannot be read (" + ec.message() + ")");
        return result;
    }
    if (size > kMaxSessionBytes) {
        result.error = withFile(path, "not a Parallax session (far too large)");
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) {
        result.error = withFile(path, "cannot be read");
        return result;
    }
    result = parseSession(text.str());
    if (!result.session) {
        result.error = withFile(path, result.error);
        return result;
    }
    // A relative run path alone (a hand-written session) is taken from the session's folder.
    auto& s = *result.session;
    if (s.runPath.empty())
        s.runPath = (fs::absolute(path).parent_path() / s.runRelativePath).lexically_normal();
    return result;
}

bool writeSession(const std::string& path, Session session, std::string* error)
{
    const auto fail = [&](const std::string& why) {
        if (error != nullptr)
            *error = "could not write " + path + ": " + why;
        return false;
    };
    std::error_code ec;
    const fs::path target = fs::absolute(path, ec);
    if (ec)
        return fail(ec.message());
    if (!session.runPath.empty()) {
        const fs::path run = fs::absolute(session.runPath, ec).lexically_normal();
        session.runPath = run.string();
        const fs::path relative = run.lexically_relative(target.parent_path());
        session.runRelativePath = relative.empty() ? std::string() : relative.string();
    }
    const std::string text = sessionToJson(session);
    std::string temp
        = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return fail("cannot create a file in " + target.parent_path().string());
    std::size_t written = 0;
    while (written < text.size()) {
        const auto n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0)
            break;
        written += static_cast<std::size_t>(n);
    }
    const bool complete = written == text.size() && ::fsync(fd) == 0;
    if (::close(fd) != 0 || !complete) {
        ::unlink(temp.c_str());
        return fail("the disk refused the data (full?)");
    }
    // mkstemp makes the file private; a session is an ordinary document.
    ::chmod(temp.c_str(), 0644);
    if (std::rename(temp.c_str(), target.c_str()) != 0) {
        ::unlink(temp.c_str());
        return fail("cannot replace the file");
    }
    return true;
}

SessionRunLocation locateSessionRun(const Session& session, const std::string& sessionPath)
{
    std::error_code ec;
    if (!session.runPath.empty() && fs::exists(session.runPath, ec))
        return { session.runPath, false };
    if (!session.runRelativePath.empty()) {
        const fs::path beside
            = (fs::absolute(sessionPath, ec).parent_path() / session.runRelativePath)
                  .lexically_normal();
        if (fs::exists(beside, ec))
            return { beside.string(), true };
    }
    return {};
}

} // namespace parallax::io
