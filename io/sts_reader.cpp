#include "sts_reader.h"

#include "byte_source.h"
#include "field_cursor.h"
#include "line_reader.h"
#include "reader_limits.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <vector>

namespace parallax::io {

namespace {

constexpr double kNewestVersion = 11.0;
constexpr std::int64_t kMaxTableId = 65535; // entry, chare and message ids are unsigned shorts

std::vector<std::string_view> tokenize(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    auto space = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\n';
    };
    while (i < line.size()) {
        while (i < line.size() && space(line[i]))
            ++i;
        const auto start = i;
        while (i < line.size() && !space(line[i]))
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

bool toInt(std::string_view s, std::int64_t& out)
{
    FieldCursor c(s);
    return c.nextInt64(out) && c.atEnd();
}

// Java's matchQuotes (docs/format.md §1.1): an unquoted token is the whole value; "x" is stripped;
// otherwise tokens are joined with single spaces up to one ending in '"'.
std::string matchQuotes(const std::vector<std::string_view>& t, std::size_t& i)
{
    if (i >= t.size())
        return {};
    const auto first = t[i++];
    if (first.front() != '"')
        return std::string(first);
    if (first.size() >= 2 && first.back() == '"')
        return std::string(first.substr(1, first.size() - 2));
    std::string name(first.substr(1));
    while (i < t.size()) {
        const auto tok = t[i++];
        name += ' ';
        if (tok.back() == '"') {
            name += tok.substr(0, tok.size() - 1);
            return name;
        }
        name += tok;
    }
    return {}; // no closing quote: Java yields the empty string
}

std::string restOfLine(const std::vector<std::string_view>& t, std::size_t from)
{
    std::string out;
    for (std::size_t i = from; i < t.size(); ++i) {
        if (!out.empty())
            out += ' ';
        out += t[i];
    }
    return out;
}

} // namespace

StsResult readSts(const std::string& path, core::ImportReport& report)
{
    StsResult result;
    const auto fileName = std::filesystem::path(path).filename().string();
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        result.error = path + ": " + error + " (check the path and permissions)";
        return result;
    }
    LineReader lines(*source);
    auto& meta = result.metadata;
    std::int64_t declaredEntries = -1;
    std::int64_t declaredChares = -1;
    std::int64_t declaredEvents = -1;
    std::int64_t declaredStats = -1;
    std::int64_t declaredPapi = -1;
    std::size_t entryLines = 0;
    std::size_t chareLines = 0;
    bool sawProcessors = false;
    bool sawEnd = false;
    bool sawAnyKeyword = false;
    std::uint64_t badLines = 0;
    std::string_view line;

    auto warn = [&](const std::string& message) {
        report.add(core::Issue::StsProblem, fileName, lines.lineNumber(), message);
    };

    while (lines.next(line)) {
        const auto t = tokenize(line);
        if (t.empty())
            continue; // Java throws on blank lines; we skip them
        const auto key = t[0];
        std::int64_t n = 0;
        auto needInt = [&](std::size_t index, std::int64_t& out) {
            if (index < t.size() && toInt(t[index], out))
                return true;
            warn("malformed " + std::string(key) + " line skipped");
            ++badLines;
            return false;
        };
        if (key == "END") {
            sawEnd = true;
            break;
        }
        if (key == "VERSION") {
            sawAnyKeyword = true;
            double version = 0;
            FieldCursor c(t.size() > 1 ? t[1] : std::string_view {});
            // NaN and infinity pass every range comparison, so test for them first.
            if (t.size() < 2 || !c.nextDouble(version) || !c.atEnd() || !std::isfinite(version)
                || version < 0) {
                result.error = path + ":" + std::to_string(lines.lineNumber())
                    + ": VERSION is not a number; this does not look like a Projections .sts file";
                return result;
            }
            if (version > kNewestVersion) {
                result.error = path + ":" + std::to_string(lines.lineNumber()) + ": VERSION "
                    + std::string(t[1])
                    + " is newer than the newest format Parallax reads (11.0); update Parallax";
                return result;
            }
            meta.version = version;
        } else if (key == "MACHINE") {
            std::size_t i = 1;
            meta.machine = matchQuotes(t, i);
        } else if (key == "PROCESSORS") {
            sawAnyKeyword = true;
            if (!needInt(1, n))
                continue;
            if (n <= 0 || n > kMaxProcessors) {
                result.error = path + ":" + std::to_string(lines.lineNumber()) + ": PROCESSORS "
                    + std::string(t[1]) + " is not a plausible processor count";
                return result;
            }
            meta.processors = static_cast<core::PeId>(n);
            sawProcessors = true;
        } else if (key == "SMPMODE") {
            std::int64_t nodeSize = 0;
            std::int64_t numNodes = 0;
            if (!needInt(1, nodeSize) || !needInt(2, numNodes))
                continue;
            if (nodeSize <= 0 || numNodes <= 0 || nodeSize > kMaxProcessors
                || numNodes > kMaxProcessors) {
                warn("SMPMODE " + std::to_string(nodeSize) + " " + std::to_string(numNodes)
                    + " is not plausible; treating every PE as its own node");
                continue;
            }
            meta.smp = true;
            meta.nodeSize = static_cast<int>(nodeSize);
            meta.numNodes = static_cast<int>(numNodes);
        } else if (key == "USERNAME" || key == "HOSTNAME" || key == "COMMANDLINE") {
            std::size_t i = 1;
            auto value = matchQuotes(t, i);
            (key == "USERNAME"          ? meta.userName
                    : key == "HOSTNAME" ? meta.hostName
                                        : meta.commandLine)
                = std::move(value);
        } else if (key == "TIMESTAMP") {
            meta.timestamp = t.size() > 1 ? std::string(t[1]) : std::string();
        } else if (key == "CHARMVERSION") {
            meta.charmVersion = t.size() > 1 ? std::string(t[1]) : std::string();
        } else if (key == "TOTAL_PHASES") {
            if (needInt(1, n))
                meta.totalPhases = static_cast<int>(std::clamp<std::int64_t>(n, 0, 1 << 30));
        } else if (key == "TOTAL_CHARES") {
            sawAnyKeyword = true;
            needInt(1, declaredChares);
        } else if (key == "TOTAL_EPS") {
            sawAnyKeyword = true;
            needInt(1, declaredEntries);
        } else if (key == "TOTAL_MSGS" || key == "TOTAL_PSEUDOS" || key == "PROJECTIONS_ID"
            || key == "TOTAL_FUNCTIONS" || key == "FUNCTION") {
            // Known and not needed (docs/format.md §1.2).
        } else if (key == "TOTAL_EVENTS") {
            needInt(1, declaredEvents);
        } else if (key == "TOTAL_STATS") {
            needInt(1, declaredStats);
        } else if (key == "TOTAL_PAPI_EVENTS") {
            needInt(1, declaredPapi);
        } else if (key == "PAPI_EVENT") {
            std::int64_t index = 0;
            if (!needInt(1, index))
                continue;
            if (index < 0 || index > 1024) {
                warn("PAPI_EVENT index " + std::to_string(index) + " out of range");
                continue;
            }
            if (meta.papiEvents.size() <= static_cast<std::size_t>(index))
                meta.papiEvents.resize(static_cast<std::size_t>(index) + 1);
            meta.papiEvents[static_cast<std::size_t>(index)] = restOfLine(t, 2);
        } else if (key == "CHARE") {
            // CHARE id name [ndims >= 9.0]
            std::int64_t id = 0;
            if (!needInt(1, id))
                continue;
            if (id < 0 || id > kMaxTableId) {
                warn("CHARE id " + std::to_string(id) + " out of range; line skipped");
                continue;
            }
            std::size_t i = 2;
            core::Chare chare;
            chare.name = matchQuotes(t, i);
            if (meta.version >= 9.0 && i < t.size()) {
                std::int64_t ndims = 0;
                if (toInt(t[i], ndims) && ndims >= -1 && ndims <= 6)
                    chare.ndims = static_cast<int>(ndims);
                else
                    warn("CHARE ndims '" + std::string(t[i]) + "' is not -1..6");
            }
            if (meta.chares.size() <= static_cast<std::size_t>(id))
                meta.chares.resize(static_cast<std::size_t>(id) + 1);
            meta.chares[static_cast<std::size_t>(id)] = std::move(chare);
            ++chareLines;
        } else if (key == "ENTRY") {
            // ENTRY CHARE id name chareId msgId
            std::int64_t id = 0;
            if (!needInt(2, id))
                continue;
            if (id < 0 || id > kMaxTableId) {
                warn("ENTRY id " + std::to_string(id) + " out of range; line skipped");
                continue;
            }
            std::size_t i = 3;
            core::EntryMethod entry;
            entry.name = matchQuotes(t, i);
            // Old unquoted names with spaces: append tokens until the parenthesis closes.
            if (entry.name.find('(') != std::string::npos
                && entry.name.find(')') == std::string::npos) {
                while (i < t.size()) {
                    entry.name += ' ';
                    entry.name += t[i];
                    if (t[i++].back() == ')')
                        break;
                }
            }
            std::int64_t chareId = -1;
            std::int64_t msgId = -1;
            if (i + 1 < t.size() && toInt(t[i], chareId) && toInt(t[i + 1], msgId)) {
                entry.chare
                    = static_cast<std::int32_t>(std::clamp<std::int64_t>(chareId, -1, kMaxTableId));
                entry.message
                    = static_cast<std::int32_t>(std::clamp<std::int64_t>(msgId, -1, kMaxTableId));
            } else {
                warn("ENTRY " + std::to_string(id) + " has no chare/message ids");
            }
            if (meta.entries.size() <= static_cast<std::size_t>(id))
                meta.entries.resize(static_cast<std::size_t>(id) + 1);
            meta.entries[static_cast<std::size_t>(id)] = std::move(entry);
            ++entryLines;
        } else if (key == "MESSAGE") {
            std::int64_t id = 0;
            std::int64_t size = 0;
            if (!needInt(1, id) || !needInt(2, size))
                continue;
            if (id < 0 || id > kMaxTableId) {
                warn("MESSAGE id " + std::to_string(id) + " out of range; line skipped");
                continue;
            }
            if (meta.messages.size() <= static_cast<std::size_t>(id))
                meta.messages.resize(static_cast<std::size_t>(id) + 1);
            meta.messages[static_cast<std::size_t>(id)].size = size;
        } else if (key == "EVENT" || key == "STAT") {
            std::int64_t id = 0;
            if (!needInt(1, id))
                continue;
            auto& table = key == "EVENT" ? meta.userEvents : meta.stats;
            const auto id32
                = static_cast<std::int32_t>(std::clamp<std::int64_t>(id, INT32_MIN, INT32_MAX));
            if (!table.contains(id32)) // duplicates are ignored, as in Java
                table.emplace(id32, restOfLine(t, 2));
        } else if (key == "BOC") {
            // Java accepts a line whose whole text is BOC (a historic typo); nothing to do.
        } else {
            warn("unknown keyword '" + std::string(key.substr(0, 40)) + "' skipped");
        }
    }
    if (lines.failed()) {
        result.error = path + ": " + lines.error();
        return result;
    }
    if (lines.overlongLines() > 0)
        warn(std::to_string(lines.overlongLines()) + " overlong lines skipped");
    if (!sawProcessors) {
        result.error = path + ": no PROCESSORS line; "
            + (sawAnyKeyword ? std::string("the symbol table is incomplete")
                             : std::string("this is not a Projections .sts file"));
        return result;
    }
    if (!sawEnd)
        warn("no END line; the symbol table may be cut short");
    if (declaredEntries >= 0 && static_cast<std::size_t>(declaredEntries) != entryLines)
        warn("TOTAL_EPS says " + std::to_string(declaredEntries) + " but "
            + std::to_string(entryLines) + " ENTRY lines follow; using the lines");
    if (declaredChares >= 0 && static_cast<std::size_t>(declaredChares) != chareLines)
        warn("TOTAL_CHARES says " + std::to_string(declaredChares) + " but "
            + std::to_string(chareLines) + " CHARE lines follow; using the lines");
    if (declaredEvents >= 0 && static_cast<std::size_t>(declaredEvents) < meta.userEvents.size())
        warn("TOTAL_EVENTS says " + std::to_string(declaredEvents) + " but "
            + std::to_string(meta.userEvents.size()) + " EVENT lines follow; using the lines");
    if (declaredPapi >= 0 && static_cast<std::size_t>(declaredPapi) != meta.papiEvents.size()) {
        warn("TOTAL_PAPI_EVENTS says " + std::to_string(declaredPapi) + " but "
            + std::to_string(meta.papiEvents.size()) + " PAPI_EVENT lines follow");
        if (declaredPapi <= 1024)
            meta.papiEvents.resize(
                static_cast<std::size_t>(std::max<std::int64_t>(declaredPapi, 0)));
    }
    if (declaredPapi < 0 && !meta.papiEvents.empty()) {
        // The writer always puts TOTAL_PAPI_EVENTS first; without it the PAPI_EVENT lines do
        // not say whether the logs carry counter values, and assuming they do would make every
        // BEGIN/END_PROCESSING malformed. The logs are read without counters.
        warn("PAPI_EVENT lines without TOTAL_PAPI_EVENTS; hardware counters are ignored and "
             "the logs are read without counter values");
        meta.papiEvents.clear();
    }
    (void)declaredStats;

    // SMP layout (docs/format.md §1.2): comm threads are traced as pseudo-PEs when
    // nodesize*numnodes < PROCESSORS.
    if (meta.smp) {
        const std::int64_t workers = std::int64_t { meta.nodeSize } * meta.numNodes;
        if (workers > meta.processors) {
            warn("SMPMODE " + std::to_string(meta.nodeSize) + " " + std::to_string(meta.numNodes)
                + " describes more PEs than PROCESSORS; treating every PE as its own node");
            meta.smp = false;
            meta.nodeSize = 1;
            meta.numNodes = meta.processors;
        } else if (workers < meta.processors) {
            const auto extra = meta.processors - workers;
            if (extra % meta.numNodes != 0) {
                warn("PROCESSORS does not match SMPMODE with whole comm threads per node");
            }
            meta.commThreadsPerNode = static_cast<int>(extra / meta.numNodes);
        }
    } else {
        meta.nodeSize = 1;
        meta.numNodes = meta.processors;
    }
    (void)badLines;
    result.ok = true;
    return result;
}

} // namespace parallax::io
