#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parallax::io {

// Reading JSON (RFC 8259): a run's reduction.json, session files, and the tests' reading back
// of exported trace-event files.

struct JsonMember;

// A JSON value: objects keep their members in order (lookups are linear, which suits the small
// objects of reduction.json and of trace events).
struct Json {
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Json> items;
    // A named struct rather than std::pair<std::string, Json>: a pair of the incomplete Json is
    // refused by Clang with libstdc++, where a vector of an incomplete struct is allowed.
    std::vector<JsonMember> members;

    [[nodiscard]] const Json* get(std::string_view key) const;
};

// One `"key": value` of an object (it unpacks as [key, value]).
struct JsonMember {
    std::string first;
    Json second;
};

inline const Json* Json::get(std::string_view key) const
{
    if (type != Type::Object)
        return nullptr;
    for (const auto& [k, v] : members)
        if (k == key)
            return &v;
    return nullptr;
}

// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters
// escaped (UTF-8 passes through).
std::string jsonQuoted(std::string_view text);

// Parses `text` as one JSON value into `out`. False with `error` ("what at byte N") at the first
// syntax error or when arrays and objects nest deeper than `maxDepth`.
bool parseJson(std::string_view text, Json& out, std::string* error = nullptr, int maxDepth = 16);

} // namespace parallax::io
