#include "counter_reader.h"

#include "sts_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStsSuffix = ".count.sts";
constexpr std::string_view kCountSuffix = ".count";
constexpr int kMaxEntries = 65536;
constexpr int kMaxCounters = 256;
constexpr std::uintmax_t kMaxFileBytes = 256U << 20U;

// NAME of NAME.<pe>.count (empty when the name is not of that form).
std::string baseOfCountFile(const std::string& file)
{
    if (!file.ends_with(kCountSuffix))
        return {};
    const auto stem = file.substr(0, file.size() - kCountSuffix.size());
    const auto dot = stem.rfind('.');
    if (dot == std::string::npos || dot + 1 == stem.size())
        return {};
    const auto digits = std::string_view(stem).substr(dot + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return {};
    return stem.substr(0, dot);
}

struct Located {
    bool ok = false;
    fs::path directory;
    std::string name;
    std::string error;
};

Located locate(const std::string& path)
{
    Located l;
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) {
        std::vector<std::string> names;
        bool plainSts = false;
        for (const auto& entry : fs::directory_iterator(p, ec)) {
            const auto file = entry.path().filename().string();
            if (file.ends_with(kStsSuffix))
                names.push_back(file.substr(0, file.size() - kStsSuffix.size()));
            else if (file.ends_with(".sts"))
                plainSts = true;
        }
        std::sort(names.begin(), names.end());
        if (names.empty() || plainSts) {
            l.error = path + " holds no counter run (NAME.count.sts)";
            return l;
        }
        if (names.size() > 1) {
            l.error = path + " holds " + std::to_string(names.size())
                + " counter runs; name one of their NAME.count.sts files:";
            for (const auto& n : names)
                l.error += " " + n + std::string(kStsSuffix);
            return l;
        }
        l.directory = p;
        l.name = names.front();
    } else {
        const auto file = p.filename().string();
        l.directory = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        if (file.ends_with(kStsSuffix))
            l.name = file.substr(0, file.size() - kStsSuffix.size());
        else
            l.name = baseOfCountFile(file);
        if (l.name.empty()) {
            l.error = path + " is not a counter file (NAME.count.sts or NAME.<pe>.count)";
            return l;
        }
    }
    const auto sts = l.directory / (l.name + std::string(kStsSuffix));
    if (!fs::is_regular_file(sts, ec)) {
        l.error = "cannot find the counter symbol table " + sts.string();
        return l;
    }
    l.ok = true;
    return l;
}

template <typename T> bool parseNumber(std::string_view text, T& value)
{
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
}

std::vector<std::string_view> split(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        const auto start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

// One PE's file: per counter code, its description and the three per-entry rows.
struct PeCounters {
    struct Counter {
        std::string description;
        std::vector<double> calls;
        std::vector<double> mean;
        std::vector<double> time;
    };
    int entries = 0;
    std::vector<std::string> order; // codes in file order
    std::map<std::string, Counter> counters;
};

bool readCountFile(const fs::path& file, PeCounters& out, std::string& error)
{
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || size > kMaxFileBytes) {
        error = file.string() + ": " + (ec ? ec.message() : std::string("larger than 256 MiB"));
        return false;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        error = file.string() + ": cannot be read";
        return false;
    }
    auto fail = [&](int line, const std::string& what) {
        error = file.string() + ":" + std::to_string(line) + ": " + what;
        return false;
    };
    std::string line;
    int number = 1;
    if (!std::getline(in, line))
        return fail(1, "empty file (expected 'ver:1.0 PE/PES ep:N counters:K')");
    // ver:1.0 0/4 ep:158 counters:2
    int declaredCounters = -1;
    for (const auto token : split(line)) {
        if (token.substr(0, 3) == "ep:" && !parseNumber(token.substr(3), out.entries))
            return fail(1, "ep: is not a number");
        if (token.substr(0, 9) == "counters:" && !parseNumber(token.substr(9), declaredCounters))
            return fail(1, "counters: is not a number");
    }
    if (line.rfind("ver:", 0) != 0 || out.entries <= 0 || out.entries > kMaxEntries
        || declaredCounters < 0 || declaredCounters > kMaxCounters)
        return fail(1, "expected 'ver:1.0 PE/PES ep:N counters:K' with 1 <= N <= 65536");
    while (std::getline(in, line)) {
        ++number;
        const std::string_view text(line);
        if (split(text).empty())
            continue;
        // [CODE {description}] or [CODE key] values...
        const auto close = text.find(']');
        if (text.front() != '[' || close == std::string_view::npos)
            return fail(number, "expected a line starting with [CODE ...]");
        const auto inside = text.substr(1, close - 1);
        const auto space = inside.find(' ');
        const std::string code(inside.substr(0, space));
        const auto label
            = space == std::string_view::npos ? std::string_view() : inside.substr(space + 1);
        if (code.empty())
            return fail(number, "missing counter name in [...]");
        if (!label.empty() && label.front() == '{') {
            if (out.counters.contains(code))
                return fail(number, "counter " + code + " appears twice");
            if (static_cast<int>(out.order.size()) >= kMaxCounters)
                return fail(number, "more than 256 counters");
            out.order.push_back(code);
            auto description = std::string(label.substr(1));
            if (!description.empty() && description.back() == '}')
                description.pop_back();
            out.counters[code].description = description;
            continue;
        }
        const auto it = out.counters.find(code);
        if (it == out.counters.end())
            return fail(
                number, "values for counter " + code + " before its [" + code + " {...}] line");
        std::vector<double>* row = nullptr;
        if (label == "num_called")
            row = &it->second.calls;
        else if (label == "avg_count")
            row = &it->second.mean;
        else if (label.substr(0, 10) == "total_time")
            row = &it->second.time;
        else
            return fail(number, "unknown row [" + code + " " + std::string(label) + "]");
        const auto values = split(text.substr(close + 1));
        if (values.size() != static_cast<std::size_t>(out.entries))
            return fail(number,
                "expected " + std::to_string(out.entries) + " values, found "
                    + std::to_string(values.size()));
        row->resize(values.size());
        for (std::size_t k = 0; k < values.size(); ++k) {
            double v = 0.0;
            if (!parseNumber(values[k], v) || !std::isfinite(v) || v < 0.0)
                return fail(number, "'" + std::string(values[k]) + "' is not a count");
            (*row)[k] = v;
        }
    }
    if (declaredCounters != static_cast<int>(out.order.size()))
        return fail(number,
            "the header says " + std::to_string(declaredCounters) + " counters, the file has "
                + std::to_string(out.order.size()));
    for (const auto& code : out.order) {
        const auto& c = out.counters[code];
        if (c.calls.empty() || c.mean.empty() || c.time.empty())
            return fail(number, "counter " + code + " lacks num_called, avg_count or total_time");
    }
    return true;
}

} // namespace

bool isCounterRunPath(const std::string& path)
{
    std::error_code ec;
    const fs::path p(path);
    if (!fs::is_directory(p, ec)) {
        const auto file = p.filename().string();
        return file.ends_with(kStsSuffix) || !baseOfCountFile(file).empty();
    }
    bool counterSts = false;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
        const auto file = entry.path().filename().string();
        if (file.ends_with(kStsSuffix))
            counterSts = true;
        else if (file.ends_with(".sts"))
            return false;
    }
    return counterSts;
}

CounterRunResult readCounterRun(const std::string& path)
{
    CounterRunResult result;
    const auto where = locate(path);
    if (!where.ok) {
        result.error = where.error;
        return result;
    }
    auto& run = result.run;
    run.name = where.name;
    run.directory = where.directory.string();
    core::ImportReport report;
    auto sts = readSts((where.directory / (where.name + std::string(kStsSuffix))).string(), report);
    if (!sts.ok) {
        result.error = sts.error;
        return result;
    }
    run.metadata = std::move(sts.metadata);
    auto& table = run.table;
    table.entryCount = static_cast<int>(run.metadata.entries.size());
    std::vector<std::pair<core::PeId, PeCounters>> files;
    std::vector<core::PeId> missing;
    for (core::PeId pe = 0; pe < run.metadata.processors; ++pe) {
        const auto file = where.directory / (where.name + "." + std::to_string(pe) + ".count");
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {
            missing.push_back(pe);
            continue;
        }
        PeCounters counters;
        if (!readCountFile(file, counters, result.error))
            return result;
        if (counters.entries != table.entryCount) {
            result.error = file.string() + ": has " + std::to_string(counters.entries)
                + " entry methods, the symbol table " + std::to_string(table.entryCount);
            return result;
        }
        files.emplace_back(pe, std::move(counters));
    }
    if (files.empty()) {
        result.error = "no NAME.<pe>.count file for " + where.name + " in " + run.directory;
        return result;
    }
    if (!missing.empty())
        run.warnings.push_back(std::to_string(missing.size()) + " of "
            + std::to_string(run.metadata.processors) + " PEs have no .count file");
    // The counters of the first file, in its order; other PEs' extra counters are ignored.
    const auto& first = files.front().second;
    table.names = first.order;
    for (const auto& [pe, counters] : files)
        table.pes.push_back(pe);
    table.resize();
    for (std::size_t c = 0; c < table.names.size(); ++c)
        table.descriptions[c] = first.counters.at(table.names[c]).description;
    for (std::size_t k = 0; k < files.size(); ++k) {
        const auto& counters = files[k].second;
        for (std::size_t c = 0; c < table.names.size(); ++c) {
            const auto it = counters.counters.find(table.names[c]);
            if (it == counters.counters.end()) {
                run.warnings.push_back(
                    "PE " + std::to_string(files[k].first) + " has no counter " + table.names[c]);
                continue;
            }
            for (int e = 0; e < table.entryCount; ++e) {
                const auto i = static_cast<std::size_t>(e);
                auto& cell = table.at(c, k, e);
                cell.calls = it->second.calls[i];
                cell.timeUs = it->second.time[i];
                cell.total = it->second.calls[i] * it->second.mean[i];
            }
        }
    }
    result.ok = true;
    return result;
}

} // namespace parallax::io
