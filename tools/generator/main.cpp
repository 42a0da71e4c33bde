// parallax-gen: writes synthetic Charm++ Projections runs with planted performance problems.
// Exit status: 0 success, 1 a file could not be written, 2 bad arguments.

#include "generator.h"
#include "generator_options.h"

#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

int main(int argc, char** argv)
{
    using namespace parallax::gen;
    try {
        std::vector<std::string_view> arguments;
        for (int i = 1; i < argc; ++i) {
            arguments.emplace_back(argv[i]);
        }
        const ParsedCommandLine parsed = parseCommandLine(arguments);
        if (parsed.showHelp) {
            std::fputs(usageText().c_str(), stdout);
            return 0;
        }
        if (parsed.showVersion) {
            std::printf("parallax-gen %s\n", PARALLAX_VERSION);
            return 0;
        }
        if (!parsed.error.empty()) {
            std::fprintf(stderr, "parallax-gen: %s\n", parsed.error.c_str());
            return 2;
        }
        const GeneratorOutcome outcome = generateRun(parsed.options);
        if (outcome.exitCode != 0) {
            std::fprintf(stderr, "parallax-gen: %s\n", outcome.error.c_str());
            return outcome.exitCode;
        }
        for (const std::string& line : outcome.planted) {
            std::printf("%s\n", line.c_str());
        }
        return std::fflush(stdout) == 0 ? 0 : 1;
    } catch (const std::exception& exception) {
        std::fprintf(stderr, "parallax-gen: %s\n", exception.what());
    } catch (...) {
        std::fprintf(stderr, "parallax-gen: unexpected error\n");
    }
    return 1;
}
