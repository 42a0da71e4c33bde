// Fuzz harness: the .sts / .sum.sts symbol table reader (io::readSts).

#include "fuzz_support.h"
#include "io/sts_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto path = parallax::fuzz::scratchDir() / "fuzz.sts";
    if (!parallax::fuzz::writeFile(path, data, size))
        return 0;
    parallax::core::ImportReport report;
    const auto result = parallax::io::readSts(path.string(), report);
    // Touch what a caller uses, so a half-built result is read too.
    if (result.ok)
        (void)result.metadata.workerPes();
    return 0;
}
