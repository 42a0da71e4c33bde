#pragma once

// A small strict JSON reader for the tests (the export's Perfetto round trip): RFC 8259 values
// into a tree; any syntax error makes parseJson return std::nullopt with the offset.

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::test {

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<JsonValue> items;
    std::map<std::string, JsonValue> members;

    [[nodiscard]] bool has(const std::string& key) const { return members.count(key) > 0; }
    [[nodiscard]] const JsonValue& operator[](const std::string& key) const
    {
        static const JsonValue none;
        const auto it = members.find(key);
        return it == members.end() ? none : it->second;
    }
};

class JsonParser {
public:
    explicit JsonParser(std::string_view text)
        : m_text(text)
    { }

    std::optional<JsonValue> parse(std::size_t* errorOffset = nullptr)
    {
        JsonValue v;
        const bool ok = value(v, 0) && (space(), m_pos == m_text.size());
        if (!ok) {
            if (errorOffset != nullptr)
                *errorOffset = m_pos;
            return std::nullopt;
        }
        return v;
    }

private:
    void space()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'
                || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }
    bool value(JsonValue& v, int depth)
    {
        if (depth > 64)
            return false;
        space();
        if (m_pos >= m_text.size())
            return false;
        const char c = m_text[m_pos];
        if (c == '{')
            return object(v, depth);
        if (c == '[')
            return array(v, depth);
        if (c == '"') {
            v.type = JsonValue::Type::String;
            return string(v.text);
        }
        if (c == 't' || c == 'f') {
            v.type = JsonValue::Type::Bool;
            v.boolean = c == 't';
            return literal(c == 't' ? "true" : "false");
        }
        if (c == 'n')
            return literal("null");
        return number(v);
    }
    bool number(JsonValue& v)
    {
        const std::size_t start = m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == '-')
            ++m_pos;
        const std::size_t digits = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
            ++m_pos;
        if (m_pos == digits || (m_text[digits] == '0' && m_pos - digits > 1))
            return false;
        if (m_pos < m_text.size() && m_text[m_pos] == '.') {
            const std::size_t fraction = ++m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos;
            if (m_pos == fraction)
                return false;
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
                ++m_pos;
            const std::size_t exponent = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos;
            if (m_pos == exponent)
                return false;
        }
        v.type = JsonValue::Type::Number;
        v.number = std::strtod(std::string(m_text.substr(start, m_pos - start)).c_str(), nullptr);
        return true;
    }
    bool string(std::string& out)
    {
        ++m_pos; // the opening quote
        while (m_pos < m_text.size()) {
            const auto c = static_cast<unsigned char>(m_text[m_pos++]);
            if (c == '"')
                return true;
            if (c < 0x20)
                return false;
            if (c != '\\') {
                out.push_back(static_cast<char>(c));
                continue;
            }
            if (m_pos >= m_text.size())
                return false;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out.push_back(e);
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                if (m_pos + 4 > m_text.size())
                    return false;
                const auto hex = std::string(m_text.substr(m_pos, 4));
                char* end = nullptr;
                const auto code = std::strtoul(hex.c_str(), &end, 16);
                if (end != hex.c_str() + 4)
                    return false;
                m_pos += 4;
                // UTF-8 of a BMP code point (surrogate pairs are not needed by the tests).
                if (code < 0x80) {
                    out.push_back(static_cast<char>(code));
                } else if (code < 0x800) {
                    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
                    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
                } else {
                    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
                    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
                    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
                }
                break;
            }
            default:
                return false;
            }
        }
        return false;
    }
    bool array(JsonValue& v, int depth)
    {
        v.type = JsonValue::Type::Array;
        ++m_pos;
        space();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            v.items.emplace_back();
            if (!value(v.items.back(), depth + 1))
                return false;
            space();
            if (m_pos >= m_text.size())
                return false;
            if (m_text[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            if (m_text[m_pos++] != ',')
                return false;
        }
    }
    bool object(JsonValue& v, int depth)
    {
        v.type = JsonValue::Type::Object;
        ++m_pos;
        space();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            space();
            std::string key;
            if (m_pos >= m_text.size() || m_text[m_pos] != '"' || !string(key))
                return false;
            space();
            if (m_pos >= m_text.size() || m_text[m_pos++] != ':')
                return false;
            if (!value(v.members[key], depth + 1))
                return false;
            space();
            if (m_pos >= m_text.size())
                return false;
            if (m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            if (m_text[m_pos++] != ',')
                return false;
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

inline std::optional<JsonValue> parseJson(std::string_view text, std::size_t* errorOffset = nullptr)
{
    return JsonParser(text).parse(errorOffset);
}

} // namespace parallax::test
