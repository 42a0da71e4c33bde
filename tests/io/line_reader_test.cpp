// ByteSource (plain/gzip by magic, byte counting, damaged gzip) and LineReader (line splitting,
// CRLF, last line without newline, overlong lines).

#include "io/byte_source.h"
#include "io/line_reader.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace parallax;
using namespace parallax::test;

namespace {

struct Lines {
    std::vector<std::string> lines;
    std::vector<std::uint64_t> numbers;
    bool failed = false;
    bool endedMidLine = false;
    std::uint64_t overlong = 0;
    std::string error;
};

Lines readLines(const fs::path& path)
{
    std::string error;
    auto source = io::ByteSource::open(path.string(), error);
    INFO(error);
    REQUIRE(source);
    io::LineReader reader(*source);
    Lines out;
    std::string_view line;
    while (reader.next(line)) {
        out.lines.emplace_back(line);
        out.numbers.push_back(reader.lineNumber());
    }
    out.failed = reader.failed();
    out.endedMidLine = reader.endedMidLine();
    out.overlong = reader.overlongLines();
    out.error = reader.error();
    return out;
}

} // namespace

TEST_CASE("lines are split on newline with CR stripped and blank lines kept")
{
    TempDir dir;
    writeFile(dir / "a.log", "PROJECTIONS-RECORD 3\r\n6 100\n\n7 200\n");
    const auto r = readLines(dir / "a.log");
    CHECK(r.lines == std::vector<std::string> { "PROJECTIONS-RECORD 3", "6 100", "", "7 200" });
    CHECK(r.numbers == std::vector<std::uint64_t> { 1, 2, 3, 4 });
    CHECK_FALSE(r.endedMidLine);
    CHECK_FALSE(r.failed);
}

TEST_CASE("a last line without newline is returned and flagged")
{
    TempDir dir;
    writeFile(dir / "a.log", "6 100\n7 20");
    const auto r = readLines(dir / "a.log");
    CHECK(r.lines == std::vector<std::string> { "6 100", "7 20" });
    CHECK(r.endedMidLine);
}

TEST_CASE("gzip is detected by its magic bytes, not by the file name")
{
    TempDir dir;
    const std::string text = "PROJECTIONS-RECORD 2\n6 100\n7 200\n";
    gzipString(dir / "compressed.log", text); // gzip named .log
    writeFile(dir / "plain.log.gz", text); // plain text named .log.gz
    for (const char* name : { "compressed.log", "plain.log.gz" }) {
        INFO(name);
        const auto r = readLines(dir / name);
        CHECK(r.lines == std::vector<std::string> { "PROJECTIONS-RECORD 2", "6 100", "7 200" });
        CHECK_FALSE(r.failed);
    }
    std::string error;
    CHECK(io::ByteSource::open((dir / "compressed.log").string(), error)->compressed());
    CHECK_FALSE(io::ByteSource::open((dir / "plain.log.gz").string(), error)->compressed());
}

TEST_CASE("bytes consumed end at the on-disk file size for plain and gzip files")
{
    TempDir dir;
    std::string text;
    for (int i = 0; i < 50'000; ++i)
        text += "2 4 151 " + std::to_string(1000 + i) + " 7 0 80 0 0 1108\n";
    writeFile(dir / "plain.log", text);
    gzipString(dir / "packed.log.gz", text);
    for (const char* name : { "plain.log", "packed.log.gz" }) {
        INFO(name);
        std::string error;
        auto source = io::ByteSource::open((dir / name).string(), error);
        REQUIRE(source);
        std::vector<char> buffer(1 << 16);
        std::size_t total = 0;
        std::uint64_t lastConsumed = 0;
        for (;;) {
            const auto n = source->read(buffer.data(), buffer.size());
            REQUIRE(n >= 0);
            if (n == 0)
                break;
            total += static_cast<std::size_t>(n);
            CHECK(source->bytesConsumed() >= lastConsumed);
            lastConsumed = source->bytesConsumed();
        }
        CHECK(total == text.size());
        CHECK(source->fileSize() == fs::file_size(dir / name));
        CHECK(source->bytesConsumed() == source->fileSize());
    }
}

TEST_CASE("a truncated gzip returns the decodable lines and then fails with a message")
{
    TempDir dir;
    std::string text;
    for (int i = 0; i < 20'000; ++i)
        text += "14 " + std::to_string(1000 + i) + " 0\n";
    gzipString(dir / "full.log.gz", text);
    const auto packed = readFile(dir / "full.log.gz");
    writeFile(dir / "half.log.gz", packed.substr(0, packed.size() / 2));
    const auto r = readLines(dir / "half.log.gz");
    CHECK(r.failed);
    CHECK_FALSE(r.error.empty());
    REQUIRE(r.lines.size() > 100);
    CHECK(r.lines.size() < 20'000);
    // Every complete line decoded before the cut is intact.
    for (std::size_t i = 0; i + 1 < r.lines.size(); ++i)
        REQUIRE(r.lines[i] == "14 " + std::to_string(1000 + i) + " 0");
}

TEST_CASE("a gzip with a corrupted middle fails with a message after the good part")
{
    TempDir dir;
    std::string text;
    for (int i = 0; i < 20'000; ++i)
        text += "15 " + std::to_string(5000 + i * 7) + " 1\n";
    gzipString(dir / "full.log.gz", text);
    auto packed = readFile(dir / "full.log.gz");
    for (std::size_t i = packed.size() / 2; i < packed.size() / 2 + 64; ++i)
        packed[i] = static_cast<char>(packed[i] ^ 0x5A);
    writeFile(dir / "bad.log.gz", packed);
    const auto r = readLines(dir / "bad.log.gz");
    // Depending on where the damage hits, inflate fails at once or only at the CRC check.
    CHECK(r.failed);
    CHECK_FALSE(r.error.empty());
    // The lines inflated before the damage are returned (zlib's gzread drops everything it
    // inflated in a call that ends in a data error, so a reader must not ask for megabytes at
    // once).
    REQUIRE(r.lines.size() > 1000);
    CHECK(r.lines.front() == "15 5000 1");
}

TEST_CASE("an overlong line is skipped and counted and the following lines keep their numbers")
{
    TempDir dir;
    std::string text = "6 100\n";
    text += std::string(2u << 20, 'x');
    text += "\n7 200\n";
    writeFile(dir / "a.log", text);
    const auto r = readLines(dir / "a.log");
    CHECK(r.overlong == 1);
    CHECK(r.lines == std::vector<std::string> { "6 100", "7 200" });
    CHECK(r.numbers == std::vector<std::uint64_t> { 1, 3 });
}

TEST_CASE("an overlong line without newline at the end of the file is skipped and counted")
{
    TempDir dir;
    writeFile(dir / "a.log", "6 100\n" + std::string(2u << 20, '7'));
    const auto r = readLines(dir / "a.log");
    CHECK(r.overlong == 1);
    CHECK(r.lines == std::vector<std::string> { "6 100" });
}

TEST_CASE("lines just below the limit are returned whole")
{
    TempDir dir;
    const std::string longLine(io::LineReader::kMaxLine - 10, 'y');
    writeFile(dir / "a.log", longLine + "\n" + longLine + "\nend\n");
    const auto r = readLines(dir / "a.log");
    CHECK(r.overlong == 0);
    REQUIRE(r.lines.size() == 3);
    CHECK(r.lines[0] == longLine);
    CHECK(r.lines[1] == longLine);
    CHECK(r.lines[2] == "end");
}

TEST_CASE("opening a missing file or a directory fails with a message")
{
    TempDir dir;
    std::string error;
    CHECK(io::ByteSource::open((dir / "missing.log").string(), error) == nullptr);
    CHECK_FALSE(error.empty());
    error.clear();
    CHECK(io::ByteSource::open(dir.path().string(), error) == nullptr);
    CHECK_FALSE(error.empty());
}

TEST_CASE("a plain file read whole and a streamed gzip of the same text give the same lines and "
          "numbers")
{
    // Plain files are split in place once read whole, damaged-gzip fallbacks through the
    // buffer: the overlong-line rule, CR stripping and the cut-off last line must agree.
    TempDir dir;
    std::string text = "PROJECTIONS-RECORD 3\r\n6 100\n\n";
    text += std::string(2u << 20, 'x');
    text += "\n7 200\n" + std::string(io::LineReader::kMaxLine - 10, 'y') + "\n8 300";
    writeFile(dir / "a.log", text);
    gzipString(dir / "b.log", text);
    const auto whole = readLines(dir / "a.log");
    std::string error;
    auto source
        = io::ByteSource::open((dir / "b.log").string(), error, io::ByteSource::Gzip::Streaming);
    REQUIRE(source);
    io::LineReader reader(*source);
    CHECK(reader.cursor() == nullptr);
    Lines streamed;
    std::string_view line;
    while (reader.next(line)) {
        streamed.lines.emplace_back(line);
        streamed.numbers.push_back(reader.lineNumber());
    }
    CHECK(whole.lines == streamed.lines);
    CHECK(whole.numbers == streamed.numbers);
    CHECK(whole.numbers == std::vector<std::uint64_t> { 1, 2, 3, 5, 6, 7 });
    CHECK(whole.overlong == 1);
    CHECK(reader.overlongLines() == 1);
    CHECK(whole.endedMidLine);
    CHECK(reader.endedMidLine());
    CHECK(whole.lines.back() == "8 300");
}

TEST_CASE("skipping a line in place over a file read whole counts it as next() would")
{
    TempDir dir;
    writeFile(dir / "a.log", "6 100\n7 200\n8 300\n");
    std::string error;
    auto source = io::ByteSource::open((dir / "a.log").string(), error);
    REQUIRE(source);
    io::LineReader reader(*source);
    REQUIRE(reader.cursor() != nullptr);
    std::string_view line;
    REQUIRE(reader.next(line));
    CHECK(line == "6 100");
    const char* nl = static_cast<const char*>(std::memchr(
        reader.cursor(), '\n', static_cast<std::size_t>(reader.textEnd() - reader.cursor())));
    REQUIRE(nl != nullptr);
    reader.skipLine(nl);
    CHECK(reader.lineNumber() == 2);
    REQUIRE(reader.next(line));
    CHECK(line == "8 300");
    CHECK(reader.lineNumber() == 3);
    CHECK_FALSE(reader.next(line));
    CHECK(reader.bytesConsumed() == 18);
}

TEST_CASE("a thread reading a long log and then a short one sees only the short one's text")
{
    // The buffer a log is read whole into is kept for the thread's next log: the second, shorter
    // file must not show the first one's tail.
    TempDir dir;
    writeFile(dir / "long.log", "6 100\n7 200\n8 300\n9 400\n");
    writeFile(dir / "short.log", "1 2\n3");
    const auto first = readLines(dir / "long.log");
    CHECK(first.lines.size() == 4);
    const auto second = readLines(dir / "short.log");
    CHECK(second.lines == std::vector<std::string> { "1 2", "3" });
    CHECK(second.endedMidLine);
}

TEST_CASE(
    "a plain file is read whole only for a reader that asks first, never behind a partial read")
{
    // A caller that samples the start of a log (the store estimate reads 1 MiB) must not pay for
    // the whole file: once read() was called, whole() declines and the file streams.
    TempDir dir;
    writeFile(dir / "a.log", "6 100\n7 200\n");
    std::string error;
    auto sampled = io::ByteSource::open((dir / "a.log").string(), error);
    REQUIRE(sampled);
    char head[4];
    REQUIRE(sampled->read(head, sizeof head) == 4);
    std::string_view text;
    CHECK_FALSE(sampled->whole(text));
    auto entire = io::ByteSource::open((dir / "a.log").string(), error);
    REQUIRE(entire);
    REQUIRE(entire->whole(text));
    CHECK(text == "6 100\n7 200\n");
}
