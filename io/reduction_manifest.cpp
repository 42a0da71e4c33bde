#include "reduction_manifest.h"

#include "reduction_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>
#include <utility>

namespace parallax::io {

namespace {

constexpr std::uintmax_t kMaxManifestBytes = std::uintmax_t { 256 } << 20U; // 3 M kept PEs
constexpr int kMaxDepth = 16;

// A JSON value, just enough for reduction.json: objects keep their members in order.
struct Json {
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;

    [[nodiscard]] const Json* get(std::string_view key) const
    {
        if (type != Type::Object)
            return nullptr;
        for (const auto& [k, v] : members)
            if (k == key)
                return &v;
        return nullptr;
    }
};

// Recursive descent over RFC 8259 JSON; stops at the first error with its offset.
class JsonParser {
public:
    explicit JsonParser(std::string_view text)
        : m_text(text)
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
        if (depth > kMaxDepth)
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
            out.members.emplace_back(std::move(key), std::move(v));
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
    std::size_t m_pos = 0;
    std::string m_error;
};

std::optional<ReductionManifest> failWith(std::string* error, std::string message)
{
    if (error != nullptr)
        *error = std::move(message);
    return std::nullopt;
}

// A whole, non-negative number that fits `limit`.
bool wholeNumber(const Json* v, double limit, double& out)
{
    if (v == nullptr || v->type != Json::Type::Number || v->number < 0 || v->number > limit
        || v->number != std::floor(v->number))
        return false;
    out = v->number;
    return true;
}

} // namespace

std::optional<ReductionManifest> parseReductionManifest(const std::string& text, std::string* error)
{
    Json root;
    JsonParser parser(text);
    if (!parser.parse(root))
        return failWith(error, "reduction.json is not valid JSON (" + parser.error() + ")");
    const auto* format = root.get("format");
    if (format == nullptr || format->type != Json::Type::String
        || format->string != "parallax-reduction")
        return failWith(error, "reduction.json is not a Parallax reduction manifest");
    ReductionManifest m;
    if (const auto* s = root.get("source"); s != nullptr && s->type == Json::Type::String)
        m.source = s->string;
    if (const auto* p = root.get("parameters"))
        if (const auto* s = p->get("select"); s != nullptr && s->type == Json::Type::String)
            m.select = s->string;
    double n = 0;
    if (wholeNumber(root.get("processors"), 1e9, n))
        m.processors = static_cast<std::size_t>(n);
    if (wholeNumber(root.get("pes_with_logs"), 1e9, n))
        m.pesWithLogs = static_cast<std::size_t>(n);
    if (const auto* span = root.get("traced_span_us");
        span != nullptr && span->type == Json::Type::Array && span->items.size() == 2) {
        double b = 0;
        double e = 0;
        if (wholeNumber(&span->items[0], 9.0e15, b) && wholeNumber(&span->items[1], 9.0e15, e)
            && e > b)
            m.tracedSpan = { static_cast<core::TimeUs>(b), static_cast<core::TimeUs>(e) };
    }
    const auto* kept = root.get("kept");
    if (kept == nullptr || kept->type != Json::Type::Array)
        return failWith(error, "reduction.json has no list of kept PEs");
    for (const auto& k : kept->items) {
        core::analysis::KeptPe pe;
        double id = 0;
        if (!wholeNumber(k.get("pe"), 2147483647.0, id))
            return failWith(error, "reduction.json: a kept PE without a valid \"pe\"");
        pe.pe = static_cast<core::PeId>(id);
        if (const auto* role = k.get("role"); role != nullptr && role->type == Json::Type::String)
            pe.role = role->string;
        if (const auto* c = k.get("cluster");
            c != nullptr && c->type == Json::Type::Number && std::abs(c->number) < 1e9)
            pe.cluster = static_cast<int>(c->number);
        if (const auto* d = k.get("distance"); d != nullptr && d->type == Json::Type::Number)
            pe.distance = d->number;
        m.kept.push_back(std::move(pe));
    }
    std::sort(
        m.kept.begin(), m.kept.end(), [](const auto& a, const auto& b) { return a.pe < b.pe; });
    return m;
}

std::optional<ReductionManifest> readReductionManifest(
    const std::string& directory, std::string* error)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto path = fs::path(directory) / kReductionJsonName;
    if (!fs::is_regular_file(path, ec))
        return failWith(error, {});
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxManifestBytes)
        return failWith(error, path.string() + ": too large or unreadable");
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (!in)
        return failWith(error, path.string() + ": cannot be read");
    return parseReductionManifest(text, error);
}

bool attachReducedRun(core::Trace& trace)
{
    if (trace.files.directory.empty())
        return false;
    std::string error;
    auto manifest = readReductionManifest(trace.files.directory, &error);
    if (!manifest) {
        if (!error.empty())
            trace.report.add(core::Issue::FileError, "reduction.json", 0,
                error + " (the run opens as an ordinary run)");
        return false;
    }
    core::ReducedRun reduced;
    reduced.source = std::move(manifest->source);
    reduced.select = std::move(manifest->select);
    reduced.sourcePesWithLogs = manifest->pesWithLogs;
    reduced.sourceSpan = manifest->tracedSpan;
    for (auto& k : manifest->kept)
        reduced.kept.push_back({ k.pe, std::move(k.role), k.cluster, k.distance });
    std::sort(reduced.kept.begin(), reduced.kept.end(),
        [](const auto& a, const auto& b) { return a.pe < b.pe; });
    trace.reduced = std::move(reduced);
    return true;
}

} // namespace parallax::io
