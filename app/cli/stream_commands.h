#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace parallax::cli {

// The live utilization stream (docs/streaming.md): `stream` polls a running Charm++ program over
// CCS (or replays a recording) and writes 100-ms points as CSV; `stream-serve` is a simulator
// that serves a made-up stream (or a recording) over the same protocol.
int runStream(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runStreamServe(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace parallax::cli
