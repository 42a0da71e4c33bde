#pragma once

#include "types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core {

// Parsing of the user-facing argument syntaxes shared by the command line and the views.
// Each parser returns the value or fills `error` with one clear sentence.

// A time with an optional unit: `100us`, `12ms`, `3.5s`, `2m`; a plain number is µs.
std::optional<TimeUs> parseTime(std::string_view text, std::string* error = nullptr);

// A time range `B:E` (either side may be empty: `:5ms`, `1s:`); missing sides stay nullopt.
struct TimeRangeArg {
    std::optional<TimeUs> begin;
    std::optional<TimeUs> end;
};
std::optional<TimeRangeArg> parseTimeRange(std::string_view text, std::string* error = nullptr);

// A PE list `0-3,5,7-15:2` (ranges inclusive, `:k` a stride). Sorted, without duplicates.
// `limit` bounds the number of PEs produced so that `0-2000000000` cannot exhaust memory.
std::optional<std::vector<PeId>> parsePeList(
    std::string_view text, std::string* error = nullptr, std::size_t limit = 10'000'000);

// The inverse of parsePeList: `0-3,5,7-9` (compact ranges).
std::string formatPeList(const std::vector<PeId>& pes);

// A size in bytes with an optional binary unit: `512K`, `4G`, `1.5GiB`, `800MB` (K, M, G, T are
// powers of 1024, with or without `B`/`iB`); a plain number is bytes.
std::optional<std::uint64_t> parseByteSize(std::string_view text, std::string* error = nullptr);

// Human-readable size: `512 B`, `3.2 MiB`, `1.5 GiB`.
std::string formatBytes(std::uint64_t bytes);

// Human-readable duration: `12 µs`, `3.25 ms`, `1.5 s`.
std::string formatDuration(TimeUs us);

} // namespace parallax::core
