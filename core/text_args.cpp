#include "text_args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <utility>

namespace parallax::core {

namespace {

void setError(std::string* error, std::string message)
{
    if (error != nullptr)
        *error = std::move(message);
}

// Concatenates pieces by appending (GCC 12 -Wrestrict warns falsely on literal + std::string).
template <typename... Parts> std::string cat(const Parts&... parts)
{
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool parseInt(std::string_view s, std::int64_t& out)
{
    if (s.empty())
        return false;
    const auto* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && ptr == end;
}

} // namespace

std::optional<TimeUs> parseTime(std::string_view text, std::string* error)
{
    const auto s = trim(text);
    if (s.empty()) {
        setError(error,
            "empty time; expected a number with an optional unit such as 100us, 12ms or 3.5s");
        return std::nullopt;
    }
    // Microseconds are written µs in everything Parallax shows; typed, "us", "µs" (U+00B5) and
    // "μs" (Greek mu, U+03BC) all mean the same.
    std::size_t unitStart = s.size();
    std::string_view unit;
    for (const std::string_view micro :
        { std::string_view("\xC2\xB5s"), std::string_view("\xCE\xBCs") })
        if (s.size() >= micro.size() && s.substr(s.size() - micro.size()) == micro) {
            unitStart = s.size() - micro.size();
            unit = "us";
        }
    if (unit.empty()) {
        while (unitStart > 0 && std::isalpha(static_cast<unsigned char>(s[unitStart - 1])) != 0)
            --unitStart;
        unit = s.substr(unitStart);
    }
    const auto number = trim(s.substr(0, unitStart));
    double scale = 0.0;
    if (unit.empty() || unit == "us")
        scale = 1.0;
    else if (unit == "ns")
        scale = 1e-3;
    else if (unit == "ms")
        scale = 1e3;
    else if (unit == "s")
        scale = 1e6;
    else if (unit == "m" || unit == "min")
        scale = 60e6;
    else {
        setError(error,
            cat("unknown time unit '", unit, "' in '", s) + "'; use ns, us (or µs), ms, s or min");
        return std::nullopt;
    }
    double value = 0.0;
    const auto* end = number.data() + number.size();
    auto [ptr, ec] = std::from_chars(number.data(), end, value);
    if (number.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
        setError(error, cat("'", s, "' is not a time; expected e.g. 100us, 12ms or 3.5s"));
        return std::nullopt;
    }
    const double us = value * scale;
    if (us < 0) {
        setError(error, cat("time '", s, "' is negative"));
        return std::nullopt;
    }
    if (us > 9.0e18) {
        setError(error, cat("time '", s, "' is too large"));
        return std::nullopt;
    }
    return static_cast<TimeUs>(std::llround(us));
}

std::optional<TimeRangeArg> parseTimeRange(std::string_view text, std::string* error)
{
    const auto s = trim(text);
    const auto colon = s.find(':');
    if (colon == std::string_view::npos) {
        setError(error, cat("time range '", s, "' needs the form BEGIN:END, e.g. 10ms:25ms"));
        return std::nullopt;
    }
    TimeRangeArg range;
    const auto b = trim(s.substr(0, colon));
    const auto e = trim(s.substr(colon + 1));
    if (!b.empty()) {
        range.begin = parseTime(b, error);
        if (!range.begin)
            return std::nullopt;
    }
    if (!e.empty()) {
        range.end = parseTime(e, error);
        if (!range.end)
            return std::nullopt;
    }
    if (range.begin && range.end && *range.end <= *range.begin) {
        setError(error, cat("time range '", s, "' ends before it begins"));
        return std::nullopt;
    }
    return range;
}

std::optional<std::vector<PeId>> parsePeList(
    std::string_view text, std::string* error, std::size_t limit)
{
    std::vector<PeId> out;
    auto rest = trim(text);
    if (rest.empty()) {
        setError(error, "empty PE list; expected e.g. 0-3,5,7-15:2");
        return std::nullopt;
    }
    constexpr std::int64_t kMaxPe = std::numeric_limits<PeId>::max();
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const auto item = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view {} : rest.substr(comma + 1);
        if (comma != std::string_view::npos && trim(rest).empty()) {
            setError(error, cat("PE list '", text, "' ends with a comma"));
            return std::nullopt;
        }
        if (item.empty()) {
            setError(error, cat("empty item in PE list '", text, "'"));
            return std::nullopt;
        }
        auto rangePart = item;
        std::int64_t stride = 1;
        if (const auto colon = item.find(':'); colon != std::string_view::npos) {
            rangePart = trim(item.substr(0, colon));
            if (!parseInt(trim(item.substr(colon + 1)), stride) || stride <= 0) {
                setError(error, cat("bad stride in '", item, "'; expected e.g. 7-15:2"));
                return std::nullopt;
            }
        }
        std::int64_t first = 0;
        std::int64_t last = 0;
        if (const auto dash = rangePart.find('-'); dash != std::string_view::npos && dash > 0) {
            if (!parseInt(trim(rangePart.substr(0, dash)), first)
                || !parseInt(trim(rangePart.substr(dash + 1)), last)) {
                setError(error, cat("'", item, "' is not a PE range; expected e.g. 0-3"));
                return std::nullopt;
            }
        } else {
            if (!parseInt(rangePart, first)) {
                setError(error, cat("'", item, "' is not a PE number"));
                return std::nullopt;
            }
            last = first;
        }
        if (first < 0 || last < 0 || first > kMaxPe || last > kMaxPe) {
            setError(error, cat("PE number out of range in '", item, "'"));
            return std::nullopt;
        }
        if (last < first) {
            setError(error, cat("PE range '", item, "' goes backwards"));
            return std::nullopt;
        }
        // Counted before expanding, so that `0-2000000000` is refused at once.
        const auto count = static_cast<std::size_t>((last - first) / stride + 1);
        if (count > limit || out.size() > limit - count) {
            setError(
                error, cat("PE list '", text, "' has more than ") + std::to_string(limit) + " PEs");
            return std::nullopt;
        }
        for (std::int64_t p = first; p <= last; p += stride)
            out.push_back(static_cast<PeId>(p));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string formatPeList(const std::vector<PeId>& pes)
{
    std::string out;
    std::size_t i = 0;
    while (i < pes.size()) {
        std::size_t j = i;
        while (j + 1 < pes.size() && pes[j + 1] == pes[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(pes[i]);
        if (j > i) {
            out += '-';
            out += std::to_string(pes[j]);
        }
        i = j + 1;
    }
    return out;
}

std::string formatDuration(TimeUs us)
{
    char buf[64];
    const double v = static_cast<double>(us);
    if (us < 1000 && us > -1000)
        std::snprintf(buf, sizeof buf, "%lld \xC2\xB5s", static_cast<long long>(us));
    else if (us < 1'000'000 && us > -1'000'000)
        std::snprintf(buf, sizeof buf, "%.3g ms", v / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.4g s", v / 1e6);
    return buf;
}

std::optional<std::uint64_t> parseByteSize(std::string_view text, std::string* error)
{
    // Messages are appended piecewise: GCC 12 warns (-Wrestrict) on chains of operator+.
    auto fail = [&](std::string_view before, std::string_view what,
                    std::string_view after) -> std::optional<std::uint64_t> {
        if (error != nullptr) {
            std::string message;
            message.reserve(before.size() + what.size() + after.size());
            message.append(before).append(what).append(after);
            *error = std::move(message);
        }
        return std::nullopt;
    };
    std::size_t i = 0;
    while (i < text.size()
        && (std::isdigit(static_cast<unsigned char>(text[i])) != 0 || text[i] == '.'))
        ++i;
    const std::string number(text.substr(0, i));
    std::string unit(text.substr(i));
    for (auto& c : unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (number.empty() || number == ".")
        return fail("'", text, "' is not a size (e.g. 512M, 4G)");
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size())
        return fail("'", text, "' is not a size (e.g. 512M, 4G)");
    double scale = 1.0;
    static constexpr std::pair<const char*, double> kUnits[]
        = { { "", 1.0 }, { "B", 1.0 }, { "K", 1024.0 }, { "KB", 1024.0 }, { "KIB", 1024.0 },
              { "M", 1048576.0 }, { "MB", 1048576.0 }, { "MIB", 1048576.0 }, { "G", 1073741824.0 },
              { "GB", 1073741824.0 }, { "GIB", 1073741824.0 }, { "T", 1099511627776.0 },
              { "TB", 1099511627776.0 }, { "TIB", 1099511627776.0 } };
    bool known = false;
    for (const auto& [name, factor] : kUnits)
        if (unit == name) {
            scale = factor;
            known = true;
        }
    if (!known)
        return fail("unknown size unit '", text.substr(i), "' (use K, M, G or T)");
    const double bytes = value * scale;
    if (!(bytes < 1.8e19))
        return fail("'", text, "' is too large");
    return static_cast<std::uint64_t>(bytes);
}

std::string formatBytes(std::uint64_t bytes)
{
    static constexpr const char* kNames[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    std::size_t k = 0;
    while (value >= 1024.0 && k + 1 < std::size(kNames)) {
        value /= 1024.0;
        ++k;
    }
    char buf[32];
    if (k == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, value < 10.0 ? "%.1f %s" : "%.0f %s", value, kNames[k]);
    return buf;
}

} // namespace parallax::core
