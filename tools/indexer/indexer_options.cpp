#include "indexer_options.h"

#include <charconv>

namespace parallax::indexer {

std::optional<Options> parseOptions(const std::vector<std::string>& args, std::string& error)
{
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= args.size()) {
                error = a + " needs a value";
                return false;
            }
            out = args[++i];
            return true;
        };
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "-o" || a == "--output") {
            if (!value(o.output))
                return std::nullopt;
        } else if (a == "--cache-dir") {
            if (!value(o.cacheDir))
                return std::nullopt;
        } else if (a == "--threads") {
            std::string text;
            if (!value(text))
                return std::nullopt;
            unsigned n = 0;
            const auto* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, n);
            if (text.empty() || ec != std::errc() || ptr != end || n < 1 || n > 256) {
                error = "--threads needs a number from 1 to 256";
                return std::nullopt;
            }
            o.threads = n;
        } else if (a.size() > 1 && a[0] == '-') {
            error = "unknown option " + a;
            return std::nullopt;
        } else if (o.run.empty()) {
            o.run = a;
        } else {
            error = "unexpected argument '" + a + "'";
            return std::nullopt;
        }
    }
    if (o.run.empty() && !o.help) {
        error = "missing RUN (a run directory or .sts file)";
        return std::nullopt;
    }
    if (!o.output.empty() && o.output == o.cacheDir) {
        error = "-o and --cache-dir name the same directory";
        return std::nullopt;
    }
    return o;
}

} // namespace parallax::indexer
