#include "summary_reader.h"

#include "byte_source.h"
#include "field_cursor.h"
#include "file_info.h"
#include "integer_scan_avx512.h"
#include "line_reader.h"
#include "reader_limits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <type_traits>
#include <vector>

namespace parallax::io {

namespace {

// No per-PE series may grow beyond kMaxSummaryValues values, whatever a header claims.
// Charm++ keeps at most +bincount bins (default 60000) and shrinks them when full; 2^22 bins
// is far beyond any real run yet only 8 MiB of int16. Sparse .sumd cells and marks likewise.
constexpr std::int64_t kMaxValues = kMaxSummaryValues;
// All phase lines of one .sum together (they are not shown by any view).
constexpr std::int64_t kMaxPhaseValues = std::int64_t { 1 } << 20;

// A .projrc end time past kMaxProjrcTime (35 years) is a damaged file, not a run: honouring
// it would make every time grid overflow or hold billions of intervals.

// Header fields are `key:value` tokens; `/`, `:` separate like spaces (Java's tokenizer).
struct Header {
    double version = 0.0;
    std::int64_t pe = -1;
    std::int64_t numPes = 0;
    std::int64_t count = -1;
    std::int64_t entries = -1;
    double interval = 0.0;
    std::int64_t phases = 0;
};

bool parseNumber(std::string_view s, double& out)
{
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool parseNumber(std::string_view s, std::int64_t& out)
{
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool parseHeader(std::string_view line, Header& h)
{
    bool sawVersion = false;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const auto start = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        const auto tok = line.substr(start, i - start);
        if (tok.empty())
            continue;
        const auto colon = tok.find(':');
        const auto key
            = colon == std::string_view::npos ? std::string_view {} : tok.substr(0, colon);
        const auto value = colon == std::string_view::npos ? tok : tok.substr(colon + 1);
        const auto slash = value.find('/');
        if (key == "ver") {
            sawVersion = parseNumber(value, h.version);
        } else if ((key.empty() || key == "cpu") && slash != std::string_view::npos) {
            parseNumber(value.substr(0, slash), h.pe);
            parseNumber(value.substr(slash + 1), h.numPes);
        } else if (key == "count" || key == "numIntervals") {
            parseNumber(value, h.count);
        } else if (key == "ep" || key == "numEPs") {
            parseNumber(value, h.entries);
        } else if (key == "interval" || key == "intervalSize") {
            parseNumber(value, h.interval);
        } else if (key == "phases") {
            parseNumber(value, h.phases);
        }
    }
    return sawVersion && std::isfinite(h.version) && h.version >= 0 && h.count >= 0
        && h.entries >= 0 && std::isfinite(h.interval) && h.interval > 0;
}

// Interval in µs as Java computes it: floor(interval * 1e6).
core::TimeUs intervalMicros(double seconds)
{
    const double us = std::floor(seconds * 1e6 + 1e-6);
    return us < 1 ? 1
                  : (us > 1e15 ? static_cast<core::TimeUs>(1e15) : static_cast<core::TimeUs>(us));
}

// Reads a plain `[-]digits[+digits]` token at p (at most 18 digits each, so nothing overflows)
// ending at a blank or at e, into value and repeat, and moves p past it; false (p unchanged) for
// anything else, which the caller then reads the long way.
[[gnu::always_inline]] inline bool readPlainRun(
    const char*& p, const char* e, std::int64_t& value, std::int64_t& repeat)
{
    const char* q = p;
    const auto digits = [&](std::int64_t& out) {
        const char* first = q;
        std::int64_t v = 0;
        while (q != e && static_cast<unsigned>(*q - '0') < 10 && q - first < 18)
            v = v * 10 + (*q++ - '0');
        out = v;
        return q != first && (q == e || static_cast<unsigned>(*q - '0') >= 10);
    };
    const bool negative = q != e && *q == '-';
    if (negative)
        ++q;
    if (!digits(value))
        return false;
    if (negative)
        value = -value;
    repeat = 1;
    if (q != e && *q == '+') {
        ++q;
        if (!digits(repeat) || repeat < 1)
            return false;
    }
    if (q != e && *q != ' ' && *q != '\t')
        return false;
    p = q;
    return true;
}

// Calls `emit(value, repeat)` for every `value[+repeat]` token after an optional label.
// Returns false on a token that is not a number.
// A template rather than a std::function: it is called for every value of a .sumd, and the
// indirect call was a few percent of a run's load.
template <typename Emit> bool forEachRun(std::string_view line, Emit&& emit)
{
    std::size_t i = 0;
    bool first = true;
#if PARALLAX_HAVE_WIDE_SCAN
    const bool wide = scan::wideEnabled();
#endif
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
#if PARALLAX_HAVE_WIDE_SCAN
        // After the label, whole blocks of plain tokens at once where the processor can.
        if (wide && !first && line.size() - i >= 64) {
            bool full = false;
            i = scan::runsWide(line.data(), i, line.size(), emit, full);
            if (full)
                return true; // consumer is full
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
                ++i;
        }
#endif
        if (!first && i < line.size()) { // the common token, read in one pass
            const char* p = line.data() + i;
            std::int64_t value = 0;
            std::int64_t repeat = 1;
            if (readPlainRun(p, line.data() + line.size(), value, repeat)) {
                i = static_cast<std::size_t>(p - line.data());
                if (!emit(value, repeat))
                    return true; // consumer is full
                continue;
            }
        }
        const auto start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        auto tok = line.substr(start, i - start);
        if (tok.empty())
            continue;
        if (first && tok.back() == ':') {
            first = false;
            continue;
        }
        if (first && !tok.empty() && std::isalpha(static_cast<unsigned char>(tok.front())) != 0) {
            first = false; // a label without colon (e.g. ExeTimePerEPperInterval)
            continue;
        }
        first = false;
        std::int64_t repeat = 1;
        if (const auto plus = tok.find('+'); plus != std::string_view::npos && plus > 0) {
            if (!parseNumber(tok.substr(plus + 1), repeat) || repeat < 1)
                return false;
            tok = tok.substr(0, plus);
        }
        std::int64_t value = 0;
        if (!parseNumber(tok, value))
            return false;
        if (!emit(value, repeat))
            return true; // consumer is full
    }
    return true;
}

// Expands `value[+repeat]` runs into exactly min(expected, kMaxValues) values (padding with 0).
// Negative values (a time or count cannot be) are read as 0 and flag `negative`.
template <typename T = std::int64_t>
std::vector<T> readValues(
    std::string_view line, std::int64_t expected, bool& damaged, bool& negative)
{
    std::vector<T> out;
    const auto cap = std::min(expected, kMaxValues);
    bool overflow = false;
    damaged = !forEachRun(line, [&](std::int64_t value, std::int64_t repeat) {
        const auto room = cap - static_cast<std::int64_t>(out.size());
        if (repeat > room) {
            overflow = true;
            repeat = room;
        }
        if (value < 0) {
            negative = true;
            value = 0;
        }
        if constexpr (std::is_same_v<T, std::int16_t>)
            value = std::min<std::int64_t>(value, 1000);
        out.insert(out.end(), static_cast<std::size_t>(repeat), static_cast<T>(value));
        return !overflow;
    });
    if (overflow || static_cast<std::int64_t>(out.size()) != expected)
        damaged = true;
    out.resize(static_cast<std::size_t>(cap), 0);
    return out;
}

} // namespace

std::optional<core::PeSummary> readSummary(
    const std::string& path, core::PeId pe, core::ImportReport& report)
{
    const auto fileName = fileNameOf(path);
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        report.add(core::Issue::FileError, fileName, 0, error);
        return std::nullopt;
    }
    LineReader lines(*source);
    std::string_view line;
    Header h;
    if (!lines.next(line) || !parseHeader(line, h)) {
        report.add(core::Issue::SummaryProblem, fileName, 1,
            "not a .sum header (expected 'ver:7.1 P/N count:.. ep:.. interval:..'); file skipped");
        return std::nullopt;
    }
    auto problem = [&](const std::string& message) {
        report.add(core::Issue::SummaryProblem, fileName, lines.lineNumber(), message);
    };
    if (h.count > kMaxValues || h.entries > 65536) {
        problem("implausible count:" + std::to_string(h.count) + " ep:" + std::to_string(h.entries)
            + "; values beyond the limit are ignored");
    }
    core::PeSummary s;
    s.pe = pe;
    s.version = h.version;
    s.numPes = static_cast<core::PeId>(std::clamp<std::int64_t>(h.numPes, 0, INT32_MAX));
    s.intervalUs = intervalMicros(h.interval);
    const auto entries = std::min<std::int64_t>(h.entries, 65536);

    auto nextLine = [&](std::string_view& out) {
        while (lines.next(out))
            if (out.find_first_not_of(" \t") != std::string_view::npos)
                return true;
        return false;
    };
    bool damaged = false;
    bool negative = false;
    // Reported once, at whatever point reading stops.
    struct NegativeNote {
        bool& seen;
        decltype(problem)& report;
        ~NegativeNote()
        {
            if (seen)
                report("negative times, counts or percentages read as 0");
        }
    } negativeNote { negative, problem };
    if (!nextLine(line)) {
        problem("file ends after the header");
        return s;
    }
    s.utilization = readValues<std::int16_t>(line, h.count, damaged, negative);
    if (damaged)
        problem("utilisation line does not hold count:" + std::to_string(h.count) + " values");
    std::vector<std::int64_t>* perEntry[] = { &s.entryTime, &s.entryCalls, &s.entryMaxTime };
    const int perEntryLines = h.version >= 4.0 ? 3 : 2;
    for (int k = 0; k < perEntryLines; ++k) {
        if (!nextLine(line)) {
            problem("file ends before the per-entry totals");
            return s;
        }
        *perEntry[k] = readValues(line, entries, damaged, negative);
        if (damaged)
            problem("per-entry line does not hold ep:" + std::to_string(h.entries) + " values");
    }
    // NumMarks: m {type time}  (ver >= 2)
    if (h.version >= 2.0 && nextLine(line)) {
        FieldCursor c(line);
        if (line.find(':') != std::string_view::npos)
            c.skipToken();
        std::int64_t marks = 0;
        if (c.nextInt64(marks) && marks >= 0) {
            for (std::int64_t m = 0; m < marks && m < kMaxValues; ++m) {
                std::int64_t type = 0;
                double seconds = 0;
                if (!c.nextInt64(type) || !c.nextDouble(seconds)) {
                    problem("marks line is shorter than its count");
                    break;
                }
                if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e9 || type < INT32_MIN
                    || type > INT32_MAX) {
                    problem("a mark's type or time is out of range; the remaining marks are "
                            "skipped");
                    break;
                }
                s.marks.push_back({ static_cast<std::int32_t>(type),
                    static_cast<core::TimeUs>(std::llround(seconds * 1e6)) });
            }
        } else {
            problem("marks line is not 'NumMarks: <n> ...'");
        }
    }
    // Phase lines (ver >= 3): the writer emits three per phase (calls, times, maxima), each
    // starting with "[p]"; Java reads two and misaligns (docs/format.md §3.1) — we follow the
    // writer. Phase vectors keep only what the lines hold: trailing zeros are dropped, and all
    // phases of a file together keep at most kMaxPhaseValues values (a `phases:1024` header with
    // `0+65536` lines must not cost gigabytes).
    const auto phases = std::clamp<std::int64_t>(h.phases, 0, 4096);
    std::int64_t phaseValues = 0;
    bool phasesCut = false;
    for (std::int64_t p = 0; p < phases && h.version >= 3.0; ++p) {
        core::SummaryPhase phase;
        std::vector<std::int64_t>* parts[]
            = { &phase.entryCalls, &phase.entryTime, &phase.entryMaxTime };
        for (auto* part : parts) {
            if (!nextLine(line)) {
                problem("file ends inside the phase lines");
                return s;
            }
            if (const auto close = line.find(']'); close != std::string_view::npos)
                line.remove_prefix(close + 1);
            *part = readValues(line, entries, damaged, negative);
            while (!part->empty() && part->back() == 0)
                part->pop_back();
            if (phaseValues + static_cast<std::int64_t>(part->size()) > kMaxPhaseValues) {
                part->resize(static_cast<std::size_t>(kMaxPhaseValues - phaseValues));
                phasesCut = true;
            }
            part->shrink_to_fit();
            phaseValues += static_cast<std::int64_t>(part->size());
        }
        s.phases.push_back(std::move(phase));
    }
    if (phasesCut)
        problem("phase lines hold more than " + std::to_string(kMaxPhaseValues)
            + " non-zero values in all; the rest are ignored");
    // IdlePercent: (ver 7.1)
    while (nextLine(line)) {
        if (line.find("IdlePercent") != std::string_view::npos) {
            s.idlePercent = readValues<std::int16_t>(line, h.count, damaged, negative);
            if (damaged)
                problem(
                    "IdlePercent line does not hold count:" + std::to_string(h.count) + " values");
        }
    }
    if (lines.failed())
        report.add(core::Issue::GzipError, fileName, lines.lineNumber(), lines.error());
    return s;
}

namespace {

// A run of equal non-zero values of a .sumd line, never crossing an entry.
struct Run {
    std::int64_t start = 0;
    std::int64_t length = 0;
    std::int64_t value = 0;
};

// readSummaryDetail's working rows, kept per thread from one file to the next: a run has a
// .sumd per PE, and vectors grown afresh for each cost their copies and page faults every time.
struct DetailScratch {
    std::vector<Run> times;
    std::vector<Run> calls;
    std::vector<core::SummaryDetailCell> cells;

    void clear()
    {
        times.clear();
        calls.clear();
        cells.clear();
    }
    // Gives the memory back after an unusually large file.
    void release()
    {
        constexpr std::size_t kKeepBytes = std::size_t { 16 } << 20;
        if (times.capacity() * sizeof(Run) + calls.capacity() * sizeof(Run)
                + cells.capacity() * sizeof(core::SummaryDetailCell)
            > kKeepBytes)
            *this = DetailScratch {};
    }
};
thread_local DetailScratch t_detailScratch;

} // namespace

std::optional<core::PeSummaryDetail> readSummaryDetail(
    const std::string& path, core::PeId pe, core::ImportReport& report)
{
    const auto fileName = fileNameOf(path);
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        report.add(core::Issue::FileError, fileName, 0, error);
        return std::nullopt;
    }
    LineReader lines(*source);
    std::string_view line;
    Header h;
    if (!lines.next(line) || !parseHeader(line, h)) {
        report.add(core::Issue::SummaryProblem, fileName, 1,
            "not a .sumd header (expected 'ver:7.1 cpu:P/N numIntervals:.. numEPs:.. "
            "intervalSize:..'); file skipped");
        return std::nullopt;
    }
    auto problem = [&](const std::string& message) {
        report.add(core::Issue::SummaryProblem, fileName, lines.lineNumber(), message);
    };
    core::PeSummaryDetail d;
    d.pe = pe;
    d.version = h.version;
    d.intervalUs = intervalMicros(h.interval);
    d.intervalCount = std::min(h.count, kMaxValues);
    d.entryCount = static_cast<std::int32_t>(std::min<std::int64_t>(h.entries, 65536));
    if (d.intervalCount != h.count || d.entryCount != h.entries)
        problem("implausible numIntervals/numEPs; values beyond the limit are ignored");
    const auto total = d.intervalCount * d.entryCount;
    const auto n = d.intervalCount;

    // Both lines are one EP-major sequence of n*e values; runs continue across EP boundaries.
    // Only non-zero runs are kept, as runs (split where an entry ends): memory follows the
    // tokens of the file, never what a `1+4194304` or the header claims.
    bool negative = false;
    auto readRuns = [&](std::string_view text, std::vector<Run>& out) {
        std::int64_t position = 0;
        std::int64_t entryEnd = 0; // end of the entry holding the last run kept
        bool full = false;
        const bool ok = forEachRun(text, [&](std::int64_t value, std::int64_t repeat) {
            if (repeat > total - position) {
                full = true;
                repeat = total - position;
            }
            if (value < 0) {
                negative = true;
                value = 0;
            }
            for (std::int64_t at = position; value != 0 && at < position + repeat;) {
                if (static_cast<std::int64_t>(out.size()) >= kMaxValues) {
                    full = true;
                    return false;
                }
                if (at >= entryEnd) // (a division only where a new entry starts)
                    entryEnd = (at / n + 1) * n;
                const auto length = std::min(position + repeat, entryEnd) - at;
                out.push_back({ at, length, value });
                at += length;
            }
            position += repeat;
            return !full;
        });
        if (!ok || full || position != total)
            problem("detail line does not hold numIntervals*numEPs = " + std::to_string(total)
                + " values");
    };
    auto& scratch = t_detailScratch;
    scratch.clear();
    auto& times = scratch.times;
    auto& calls = scratch.calls;
    auto& cells = scratch.cells;
    while (n > 0 && lines.next(line)) {
        if (line.starts_with("ExeTimePerEPperInterval"))
            readRuns(line, times);
        else if (line.starts_with("EPCallTimePerInterval"))
            readRuns(line, calls);
        // other labels are skipped, as in Java
    }
    if (lines.failed())
        report.add(core::Issue::GzipError, fileName, lines.lineNumber(), lines.error());
    if (negative)
        problem("negative times or call counts read as 0");
    // Merge the two run sequences (both ascending, neither crossing an entry) into cells
    // where both values are constant.
    std::size_t a = 0;
    std::size_t b = 0;
    std::int64_t position = 0;
    while (a < times.size() || b < calls.size()) {
        const auto aStart = a < times.size() ? std::max(times[a].start, position) : INT64_MAX;
        const auto bStart = b < calls.size() ? std::max(calls[b].start, position) : INT64_MAX;
        const auto start = std::min(aStart, bStart);
        const bool inA = aStart == start;
        const bool inB = bStart == start;
        auto end = INT64_MAX;
        if (a < times.size())
            end = std::min(end, inA ? times[a].start + times[a].length : aStart);
        if (b < calls.size())
            end = std::min(end, inB ? calls[b].start + calls[b].length : bStart);
        core::SummaryDetailCell cell;
        cell.entry = static_cast<std::uint32_t>(start / n);
        cell.interval = static_cast<std::uint32_t>(start % n);
        cell.length = static_cast<std::uint32_t>(end - start);
        cell.timeUs = inA ? times[a].value : 0;
        cell.calls = inB ? calls[b].value : 0;
        cells.push_back(cell);
        position = end;
        if (a < times.size() && times[a].start + times[a].length <= position)
            ++a;
        if (b < calls.size() && calls[b].start + calls[b].length <= position)
            ++b;
    }
    d.cells.assign(cells.begin(), cells.end()); // exactly as many as there are
    scratch.release();
    return d;
}

core::TimeUs readProjrcEndTime(const std::string& path, core::ImportReport& report)
{
    const auto fileName = fileNameOf(path);
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        report.add(core::Issue::FileError, fileName, 0, error);
        return 0;
    }
    LineReader lines(*source);
    std::string_view line;
    core::TimeUs end = 0;
    while (lines.next(line)) {
        FieldCursor c(line);
        if (line.starts_with("RC_GLOBAL_END_TIME")) {
            c.skipToken();
            std::int64_t value = 0;
            if (c.nextInt64(value) && value >= 0 && value <= kMaxProjrcTime)
                end = value;
            else if (value > kMaxProjrcTime)
                report.add(core::Issue::SummaryProblem, fileName, lines.lineNumber(),
                    "RC_GLOBAL_END_TIME " + std::to_string(value)
                        + " µs is beyond any traced run (more than 2^50 µs, 35 years); ignored");
            else
                report.add(core::Issue::SummaryProblem, fileName, lines.lineNumber(),
                    "RC_GLOBAL_END_TIME is not a time");
        }
    }
    return end;
}

} // namespace parallax::io
