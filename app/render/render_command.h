#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::render {

// `parallax-cli render VIEW RUN -o out.png [--width W --height H] [view options]`: draws the
// app's own view widget offscreen (no display needed) and saves it as PNG. VIEW is one of
// overview, usage, time-profile, histogram, comm, extrema, timeline; the options are those of
// the matching analysis command (--range, --pes, --interval, --metric, --criterion, ...).
int runRender(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::render
