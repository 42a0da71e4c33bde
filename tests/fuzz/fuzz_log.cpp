// Fuzz harness: one PE's log (io::readPeLog, which runs every line through io::LogLineParser).
// The first input byte picks the run's log-format version (the field layouts differ, FORMAT.md
// §2.3) and whether the file is read as NAME.N.log or as gzip NAME.N.log.gz; the rest is the log.

#include "core/pe_trace.h"
#include "fuzz_support.h"
#include "io/run_loader.h"
#include "io/sts_reader.h"

#include <array>
#include <optional>

namespace {

constexpr std::array<std::string_view, 4> kVersions { "11.0", "7.0", "6.0", "3.0" };

// A small symbol table (chares, entries with and without a message type, a user event), read
// once per version by the real .sts reader.
const parallax::core::RunMetadata& metadataFor(std::size_t version)
{
    static std::array<std::optional<parallax::core::RunMetadata>, kVersions.size()> cache;
    auto& slot = cache[version];
    if (!slot) {
        const std::string sts = std::string("PROJECTIONS_ID \nVERSION ")
            + std::string(kVersions[version])
            + "\nTOTAL_PHASES 1\nMACHINE \"netlrts-linux-x86_64\"\nPROCESSORS 2\n"
              "TOTAL_CHARES 3\nTOTAL_EPS 4\nTOTAL_MSGS 1\nTOTAL_PSEUDOS 0\nTOTAL_EVENTS 1\n"
              "CHARE 0 \"dummy_thread_chare\" -1\nCHARE 1 \"Main\" -1\nCHARE 2 \"Worker\" 1\n"
              "ENTRY CHARE 0 \"dummy_thread_ep\" 0 0\nENTRY CHARE 1 \"Main(CkArgMsg* m)\" 1 0\n"
              "ENTRY CHARE 2 \"compute(int n)\" 2 -1\nENTRY CHARE 3 \"halo()\" 2 -1\n"
              "MESSAGE 0 64\nTOTAL_STATS 0\nEVENT 7 Iteration\nEND\n";
        const auto path = parallax::fuzz::scratchDir() / "fuzz-log.sts";
        parallax::fuzz::writeFile(path, sts);
        parallax::core::ImportReport report;
        auto result = parallax::io::readSts(path.string(), report);
        slot = std::move(result.metadata);
    }
    return *slot;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::uint8_t selector = data[0];
    const auto& metadata = metadataFor(selector % kVersions.size());
    const bool gzip = (selector & 0x80U) != 0;
    const auto path = parallax::fuzz::scratchDir() / (gzip ? "fuzz.1.log.gz" : "fuzz.1.log");
    if (!parallax::fuzz::writeFile(path, data + 1, size - 1))
        return 0;
    parallax::core::PeTrace trace;
    parallax::core::ImportReport report;
    (void)parallax::io::readPeLog(path.string(), 1, metadata, trace, report);
    return 0;
}
