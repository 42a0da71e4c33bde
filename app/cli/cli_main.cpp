// parallax-cli: the command-line face of Parallax (reports, scripts, CI).

#include "commands.h"

#ifdef PARALLAX_WITH_RENDER
#include "app/render/render_command.h"
#endif

#include <exception>
#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    try {
#ifdef PARALLAX_WITH_RENDER
        parallax::cli::registerCommand("render", &parallax::render::runRender);
#endif
        std::vector<std::string> args(argv + 1, argv + argc);
        const int rc = parallax::cli::runCli(args, std::cout, std::cerr);
        std::cout.flush();
        return rc;
    } catch (const std::exception& e) {
        std::cerr << "parallax-cli: internal error: " << e.what() << "\n";
        return 1;
    }
}
