// parallax-cli: the command-line face of Parallax (reports, scripts, CI).

#include "commands.h"

#include <exception>
#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        const int rc = parallax::cli::runCli(args, std::cout, std::cerr);
        std::cout.flush();
        return rc;
    } catch (const std::exception& e) {
        std::cerr << "parallax-cli: internal error: " << e.what() << "\n";
        return 1;
    }
}
