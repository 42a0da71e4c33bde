// parseTime / parseTimeRange / parsePeList / formatPeList: the argument syntaxes shared by the
// command line and the views (core/text_args.h).

#include "core/text_args.h"

#include <catch2/catch.hpp>

#include <random>

using namespace parallax;
using core::PeId;
using core::TimeUs;

TEST_CASE("parseTime reads microseconds milliseconds and seconds")
{
    CHECK(core::parseTime("100us") == TimeUs { 100 });
    CHECK(core::parseTime("12ms") == TimeUs { 12'000 });
    CHECK(core::parseTime("3.5s") == TimeUs { 3'500'000 });
    CHECK(core::parseTime("2min") == TimeUs { 120'000'000 });
    CHECK(core::parseTime("1000ns") == TimeUs { 1 });
}

TEST_CASE("parseTime reads microseconds spelled us, µs and μs alike")
{
    CHECK(core::parseTime("100\xC2\xB5s") == TimeUs { 100 }); // MICRO SIGN
    CHECK(core::parseTime("100\xCE\xBCs") == TimeUs { 100 }); // GREEK SMALL LETTER MU
    CHECK(core::parseTime("250 \xC2\xB5s") == TimeUs { 250 });
    CHECK(core::parseTime("100us") == TimeUs { 100 });
    std::string error;
    CHECK_FALSE(core::parseTime("\xC2\xB5s", &error).has_value());
    CHECK_FALSE(error.empty());
}

TEST_CASE("parseTime takes a plain number as microseconds")
{
    CHECK(core::parseTime("250") == TimeUs { 250 });
    CHECK(core::parseTime("0") == TimeUs { 0 });
    CHECK(core::parseTime("1e3") == TimeUs { 1000 });
    CHECK(core::parseTime("  7ms  ") == TimeUs { 7000 });
}

TEST_CASE("parseTime rejects negative unknown-unit empty and non-numeric input with a message")
{
    for (const char* bad : { "-5", "-1ms", "12parsecs", "", "   ", "abc", "ms", "1e400", "0x10",
             "5 5", "nan", "1.2.3s" }) {
        std::string error;
        INFO("input '" << bad << "'");
        CHECK_FALSE(core::parseTime(bad, &error).has_value());
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("parseTime rejects times that do not fit the time type")
{
    std::string error;
    CHECK_FALSE(core::parseTime("1e30s", &error).has_value());
    CHECK(error.find("too large") != std::string::npos);
}

TEST_CASE("parseTimeRange with units equals the same range in plain microseconds")
{
    const auto withUnits = core::parseTimeRange("1ms:2ms");
    const auto plain = core::parseTimeRange("1000:2000");
    REQUIRE(withUnits);
    REQUIRE(plain);
    CHECK(withUnits->begin == TimeUs { 1000 });
    CHECK(withUnits->end == TimeUs { 2000 });
    CHECK(plain->begin == withUnits->begin);
    CHECK(plain->end == withUnits->end);
}

TEST_CASE("parseTimeRange leaves an empty side open")
{
    const auto toEnd = core::parseTimeRange(":5ms");
    REQUIRE(toEnd);
    CHECK_FALSE(toEnd->begin.has_value());
    CHECK(toEnd->end == TimeUs { 5000 });
    const auto fromBegin = core::parseTimeRange("1s:");
    REQUIRE(fromBegin);
    CHECK(fromBegin->begin == TimeUs { 1'000'000 });
    CHECK_FALSE(fromBegin->end.has_value());
}

TEST_CASE("parseTimeRange rejects reversed empty and malformed ranges")
{
    for (const char* bad : { "5:1", "5:5", "2ms:1000", "abc", "a:b", "1ms", "-1:5", "1:x" }) {
        std::string error;
        INFO("input '" << bad << "'");
        CHECK_FALSE(core::parseTimeRange(bad, &error).has_value());
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("parsePeList expands ranges and strides")
{
    const auto pes = core::parsePeList("0-3,5,7-15:2");
    REQUIRE(pes);
    CHECK(*pes == std::vector<PeId> { 0, 1, 2, 3, 5, 7, 9, 11, 13, 15 });
}

TEST_CASE("parsePeList sorts and removes duplicates")
{
    const auto pes = core::parsePeList("9, 2-4, 3, 2");
    REQUIRE(pes);
    CHECK(*pes == std::vector<PeId> { 2, 3, 4, 9 });
}

TEST_CASE("parsePeList rejects backwards ranges words empty items and bad strides")
{
    for (const char* bad : { "3-1", "a", "1,,2", "", ",", "-1", "1-", "1-x", "7-15:0", "7-15:-2",
             "7-15:x", "2147483648", "0-99999999999" }) {
        std::string error;
        INFO("input '" << bad << "'");
        CHECK_FALSE(core::parsePeList(bad, &error).has_value());
        CHECK_FALSE(error.empty());
    }
}

TEST_CASE("parsePeList stops quickly at its limit instead of expanding a huge range")
{
    // The range is counted, not expanded: the default limit refuses it, and so does a limit of
    // one PE more than the list before it (the count is checked against what is left).
    std::string error;
    CHECK_FALSE(core::parsePeList("0-2000000000", &error).has_value());
    CHECK(error.find("more than") != std::string::npos);
    CHECK_FALSE(core::parsePeList("0-4,10-14", nullptr, 9).has_value());
    CHECK(core::parsePeList("0-4,10-14", nullptr, 10).has_value());
    CHECK(core::parsePeList("0-9:3", nullptr, 4) == std::vector<PeId> { 0, 3, 6, 9 });
    CHECK_FALSE(core::parsePeList("0-9:3", nullptr, 3).has_value());

    // A caller-supplied limit applies exactly.
    CHECK(core::parsePeList("0-9", nullptr, 10).has_value());
    CHECK_FALSE(core::parsePeList("0-10", nullptr, 10).has_value());
}

TEST_CASE("formatPeList writes compact ranges and round-trips through parsePeList")
{
    CHECK(core::formatPeList({ 0, 1, 2, 3, 5, 7, 8, 9 }) == "0-3,5,7-9");
    CHECK(core::formatPeList({}).empty());
    CHECK(core::formatPeList({ 4 }) == "4");
    CHECK(core::formatPeList({ 4, 6 }) == "4,6");

    std::mt19937 rng(12345);
    for (int round = 0; round < 200; ++round) {
        std::vector<PeId> pes;
        for (PeId p = 0; p < 64; ++p)
            if (rng() % 3 == 0)
                pes.push_back(p);
        if (pes.empty())
            continue;
        const auto text = core::formatPeList(pes);
        const auto back = core::parsePeList(text);
        INFO(text);
        REQUIRE(back);
        CHECK(*back == pes);
    }
}

TEST_CASE("formatDuration picks a readable unit")
{
    CHECK(core::formatDuration(12) == "12 \xC2\xB5s"); // µs, the one spelling shown
    CHECK(core::formatDuration(3250) == "3.25 ms");
    CHECK(core::formatDuration(1'500'000) == "1.5 s");
}

TEST_CASE("sizes take binary units and reject the rest")
{
    CHECK(core::parseByteSize("4096") == 4096U);
    CHECK(core::parseByteSize("512K") == 512U * 1024U);
    CHECK(core::parseByteSize("4G") == std::uint64_t { 4 } << 30);
    CHECK(core::parseByteSize("1.5GiB") == std::uint64_t { 3 } << 29);
    CHECK(core::parseByteSize("800mb") == std::uint64_t { 800 } << 20);
    CHECK(core::parseByteSize("2T") == std::uint64_t { 2 } << 40);
    std::string error;
    CHECK_FALSE(core::parseByteSize("", &error));
    CHECK_FALSE(core::parseByteSize("lots", &error));
    CHECK_FALSE(core::parseByteSize("4X", &error));
    CHECK(error.find("unit") != std::string::npos);
    CHECK_FALSE(core::parseByteSize("-1G", &error));
    CHECK_FALSE(core::parseByteSize("99999999999T", &error));
    CHECK(core::formatBytes(512) == "512 B");
    CHECK(core::formatBytes(std::uint64_t { 3 } << 29) == "1.5 GiB");
    CHECK(core::formatBytes(std::uint64_t { 800 } << 20) == "800 MiB");
}
