#include "arg_parser.h"

namespace parallax::cli {

ArgParser::ArgParser(std::set<std::string> valueOptions, std::set<std::string> flagOptions)
    : m_valueOptions(std::move(valueOptions))
    , m_flagOptions(std::move(flagOptions))
{ }

bool ArgParser::parse(const std::vector<std::string>& args)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& arg = args[i];
        if (arg.size() > 2 && arg.starts_with("--")) {
            auto name = arg.substr(2);
            std::optional<std::string> inlineValue;
            if (const auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            if (m_flagOptions.contains(name) && !inlineValue) {
                m_flags.insert(name);
                continue;
            }
            if (!m_valueOptions.contains(name)) {
                m_error = "unknown option --" + name;
                return false;
            }
            if (inlineValue) {
                m_values[name] = *inlineValue;
            } else if (i + 1 < args.size()) {
                m_values[name] = args[++i];
            } else {
                m_error = "option --" + name + " needs a value";
                return false;
            }
            continue;
        }
        if (arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
            if (arg == "-h") {
                m_flags.insert("help");
                continue;
            }
            m_error = "unknown option " + arg;
            return false;
        }
        m_positionals.push_back(arg);
    }
    return true;
}

std::optional<std::string> ArgParser::value(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

} // namespace parallax::cli
