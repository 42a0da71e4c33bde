#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parallax::indexer {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFatal = 1; // the run cannot be indexed
inline constexpr int kExitUsage = 2; // bad arguments

inline constexpr const char* kUsage
    = "usage: mpirun -n R parallax-index RUN [-o INDEX_DIR] [--threads T] [--cache-dir DIR]\n"
      "\n"
      "Parses the run's logs and summaries on R MPI ranks (each a slice of PEs of about equal\n"
      "log bytes, T threads inside each rank) and writes an index that parallax and parallax-cli\n"
      "map instead of parsing the run (parallax-cli COMMAND RUN --index INDEX_DIR).\n"
      "\n"
      "  -o INDEX_DIR     where to write the index (default: the index cache's place for RUN,\n"
      "                   so that parallax finds it there without --index)\n"
      "  --threads T      threads per rank (default: the node's cores / its ranks, at most the\n"
      "                   cores the rank is bound to; mpirun binds each rank to one core for\n"
      "                   2 ranks or fewer: add --bind-to none or --map-by slot:PE=T)\n"
      "  --cache-dir DIR  the index cache directory for the default INDEX_DIR\n"
      "\n"
      "  --version        print the version and exit\n"
      "\n"
      "Reads only: nothing is written into the run's directory unless -o names it.\n"
      "exit codes: 0 success, 1 the run cannot be indexed, 2 bad arguments\n";

struct Options {
    std::string run;
    std::string output; // empty: the cache's place for the run
    std::string cacheDir;
    unsigned threads = 0; // 0: cores per node / ranks per node
    bool help = false;
};

// Parses the arguments after the program name; returns the options or, in `error`, one line
// saying what is wrong.
std::optional<Options> parseOptions(const std::vector<std::string>& args, std::string& error);

} // namespace parallax::indexer
