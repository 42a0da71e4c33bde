// Fuzz harness: the per-PE summary reader (io::readSummary, NAME.N.sum).

#include "fuzz_support.h"
#include "io/summary_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto path = parallax::fuzz::scratchDir() / "fuzz.0.sum";
    if (!parallax::fuzz::writeFile(path, data, size))
        return 0;
    parallax::core::ImportReport report;
    (void)parallax::io::readSummary(path.string(), 0, report);
    return 0;
}
