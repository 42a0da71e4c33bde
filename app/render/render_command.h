#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::render {

// `parallax-cli render VIEW RUN -o out.png [--width W --height H] [view options]`: draws the
// app's own view widget offscreen (no display needed) and saves it as PNG. The views and the
// options each takes are listed in render_options.cpp (`render VIEW --help` shows them).
int runRender(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::render
