#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::render {

// `parallax-cli render live --replay FILE -o out.png [--second N] [--up-to N] [--sts FILE]`:
// the Live Utilization view (docs/streaming.md) over a recording, drawn offscreen. Needs the
// QApplication that runRender makes.
int renderLive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::render
