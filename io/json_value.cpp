#include "json_value.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace parallax::io {

namespace {

// Recursive descent over RFC 8259 JSON; stops at the first error with its offset.
class JsonParser {
public:
    JsonParser(std::string_view text, int maxDepth)
        : m_text(text)
        , m_maxDepth(maxDepth)
    { }

    bool parse(Json& out)
    {
        if (!value(out, 0))
            return false;
        skipSpace();
        if (m_pos != m_text.size())
            return fail("unexpected text after the value");
        return true;
    }
    [[nodiscard]] const std::string& error() const { return m_error; }

private:
    bool fail(const char* what)
    {
        if (m_error.empty())
            m_error = std::string(what) + " at byte " + std::to_string(m_pos);
        return false;
    }
    void skipSpace()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'
                || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return fail("unknown literal");
        m_pos += word.size();
        return true;
    }
    bool value(Json& out, int depth)
    {
        if (depth > m_maxDepth)
            return fail("nesting too deep");
        skipSpace();
        if (m_pos >= m_text.size())
            return fail("unexpected end");
        const char c = m_text[m_pos];
        switch (c) {
        case '{':
            return object(out, depth);
        case '[':
            return array(out, depth);
        case '"':
            out.type = Json::Type::String;
            return string(out.string);
        case 't':
            out.type = Json::Type::Bool;
            out.boolean = true;
            return literal("true");
        case 'f':
            out.type = Json::Type::Bool;
            return literal("false");
        case 'n':
            out.type = Json::Type::Null;
            return literal("null");
        default:
            return number(out);
        }
    }
    bool number(Json& out)
    {
        const char* begin = m_text.data() + m_pos;
        const char* end = m_text.data() + m_text.size();
        double v = 0;
        const auto [ptr, ec] = std::from_chars(begin, end, v);
        if (ec != std::errc() || ptr == begin || !std::isfinite(v))
            return fail("not a number");
        out.type = Json::Type::Number;
        out.number = v;
        m_pos += static_cast<std::size_t>(ptr - begin);
        return true;
    }
    bool string(std::string& out)
    {
        ++m_pos; // the opening quote
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"')
                return true;
            if (static_cast<unsigned char>(c) < 0x20)
                return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                break;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned code = 0;
                const char* begin = m_text.data() + m_pos;
                if (m_text.size() - m_pos < 4
                    || std::from_chars(begin, begin + 4, code, 16).ptr != begin + 4)
                    return fail("bad \\u escape");
                m_pos += 4;
                // UTF-8 of the code unit (surrogate pairs are not joined: names only).
                if (code < 0x80) {
                    out += static_cast<char>(code);
                } else if (code < 0x800) {
                    out += static_cast<char>(0xC0U | (code >> 6U));
                    out += static_cast<char>(0x80U | (code & 0x3FU));
                } else {
                    out += static_cast<char>(0xE0U | (code >> 12U));
                    out += static_cast<char>(0x80U | ((code >> 6U) & 0x3FU));
                    out += static_cast<char>(0x80U | (code & 0x3FU));
                }
                break;
            }
            default:
                return fail("bad escape");
            }
        }
        return fail("unterminated string");
    }
    bool array(Json& out, int depth)
    {
        out.type = Json::Type::Array;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        for (;;) {
            out.items.emplace_back();
            if (!value(out.items.back(), depth + 1))
                return false;
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            return fail("expected , or ]");
        }
    }
    bool object(Json& out, int depth)
    {
        out.type = Json::Type::Object;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        for (;;) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                return fail("expected a member name");
            std::string key;
            if (!string(key))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                return fail("expected :");
            ++m_pos;
            Json v;
            if (!value(v, depth + 1))
                return false;
            out.members.push_back({ std::move(key), std::move(v) });
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            return fail("expected , or }");
        }
    }

    std::string_view m_text;
    int m_maxDepth;
    std::size_t m_pos = 0;
    std::string m_error;
};

} // namespace

bool parseJson(std::string_view text, Json& out, std::string* error, int maxDepth)
{
    JsonParser parser(text, maxDepth);
    if (parser.parse(out))
        return true;
    if (error != nullptr)
        *error = parser.error();
    return false;
}

std::string jsonQuoted(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

} // namespace parallax::io
