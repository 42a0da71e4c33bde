// Fuzz harness: the .projrc reader (io::readProjrcEndTime).

#include "fuzz_support.h"
#include "io/summary_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto path = parallax::fuzz::scratchDir() / "fuzz.projrc";
    if (!parallax::fuzz::writeFile(path, data, size))
        return 0;
    parallax::core::ImportReport report;
    (void)parallax::io::readProjrcEndTime(path.string(), report);
    return 0;
}
