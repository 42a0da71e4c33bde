#include "reduction_manifest.h"

#include "json_value.h"
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
    std::string jsonError;
    if (!parseJson(text, root, &jsonError))
        return failWith(error, "reduction.json is not valid JSON (" + jsonError + ")");
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
