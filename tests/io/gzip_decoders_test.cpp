// The two gzip decoders of ByteSource (whole-file libdeflate when built with it, streaming
// zlib) hand out the same bytes and the same errors, whatever the damage: the fast path must
// never change what a log reads as.

#include "io/byte_source.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

namespace {

struct Decoded {
    std::string bytes;
    bool failed = false;
    std::string error;
    bool endsAtFileSize = false;
};

Decoded decode(const fs::path& path, io::ByteSource::Gzip decoder)
{
    std::string error;
    auto source = io::ByteSource::open(path.string(), error, decoder);
    INFO(error);
    REQUIRE(source);
    Decoded d;
    std::vector<char> buffer(1 << 15);
    std::uint64_t lastConsumed = 0;
    for (;;) {
        const auto n = source->read(buffer.data(), buffer.size());
        if (n < 0) {
            d.failed = true;
            break;
        }
        if (n == 0)
            break;
        d.bytes.append(buffer.data(), static_cast<std::size_t>(n));
        CHECK(source->bytesConsumed() >= lastConsumed);
        lastConsumed = source->bytesConsumed();
    }
    d.failed = d.failed || !source->error().empty();
    d.error = source->error();
    d.endsAtFileSize = source->bytesConsumed() == source->fileSize();
    return d;
}

void requireSameDecoding(const fs::path& path)
{
    const auto fast = decode(path, io::ByteSource::Gzip::Fastest);
    const auto streaming = decode(path, io::ByteSource::Gzip::Streaming);
    CHECK(fast.bytes == streaming.bytes);
    CHECK(fast.failed == streaming.failed);
    CHECK(fast.error == streaming.error);
    CHECK(fast.endsAtFileSize == streaming.endsAtFileSize);
}

std::string sampleLog(int lines)
{
    std::string text = "PROJECTIONS-RECORD 0\n";
    for (int i = 0; i < lines; ++i)
        text += "2 4 151 " + std::to_string(1000 + i) + " 7 0 80 0 0 1108\n";
    return text;
}

} // namespace

TEST_CASE("both gzip decoders read a log to the same bytes and progress ends at the file size")
{
    TempDir dir;
    const auto text = sampleLog(40'000);
    gzipString(dir / "run.0.log.gz", text);
    const auto fast = decode(dir / "run.0.log.gz", io::ByteSource::Gzip::Fastest);
    CHECK(fast.bytes == text);
    CHECK_FALSE(fast.failed);
    CHECK(fast.endsAtFileSize);
    requireSameDecoding(dir / "run.0.log.gz");
}

TEST_CASE("both gzip decoders read concatenated gzip members as one text")
{
    TempDir dir;
    const auto first = sampleLog(3000);
    const auto second = sampleLog(5);
    gzipString(dir / "a.gz", first);
    gzipString(dir / "b.gz", second);
    writeFile(dir / "both.log.gz", readFile(dir / "a.gz") + readFile(dir / "b.gz"));
    CHECK(decode(dir / "both.log.gz", io::ByteSource::Gzip::Fastest).bytes == first + second);
    requireSameDecoding(dir / "both.log.gz");
}

TEST_CASE("damaged gzip reads the same through both decoders: cut, corrupted, wrong length, "
          "trailing bytes")
{
    TempDir dir;
    gzipString(dir / "good.gz", sampleLog(20'000));
    const auto good = readFile(dir / "good.gz");

    std::vector<std::pair<std::string, std::string>> cases;
    cases.emplace_back("cut.log.gz", good.substr(0, good.size() / 2));
    cases.emplace_back("cut-trailer.log.gz", good.substr(0, good.size() - 3));
    auto corrupted = good;
    corrupted[corrupted.size() / 2] = static_cast<char>(corrupted[corrupted.size() / 2] ^ 0x55);
    cases.emplace_back("corrupted.log.gz", corrupted);
    auto wrongLength = good;
    wrongLength[wrongLength.size() - 1] = static_cast<char>(0x7f); // ISIZE says 2 GB
    cases.emplace_back("wrong-length.log.gz", wrongLength);
    auto wrongCrc = good;
    wrongCrc[wrongCrc.size() - 8] = static_cast<char>(wrongCrc[wrongCrc.size() - 8] ^ 1);
    cases.emplace_back("wrong-crc.log.gz", wrongCrc);
    cases.emplace_back("trailing.log.gz", good + std::string(10, '\0'));
    cases.emplace_back("magic-only.log.gz", good.substr(0, 2));

    for (const auto& [name, bytes] : cases) {
        INFO(name);
        writeFile(dir / name, bytes);
        const auto streaming = decode(dir / name, io::ByteSource::Gzip::Streaming);
        CHECK(streaming.failed);
        requireSameDecoding(dir / name);
    }
}
