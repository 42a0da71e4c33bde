// FieldCursor's own integer reader accepts exactly the tokens (and values) std::from_chars
// accepts: the log parser's validation must not change with the speed-up.

#include "io/field_cursor.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using parallax::io::FieldCursor;

namespace {

// What std::from_chars makes of a whole token, as the cursor's contract states it.
template <typename T> bool referenceParse(const std::string& token, T& out)
{
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, out);
    return ec == std::errc() && ptr == end;
}

void checkSameAsFromChars(const std::string& token)
{
    INFO("token '" << token << "'");
    std::int64_t expected = 0;
    std::int64_t got = 0;
    const bool ok = referenceParse(token, expected);
    const std::string line = token + " 7";
    FieldCursor c(line);
    REQUIRE(c.nextInt64(got) == ok);
    if (ok)
        CHECK(got == expected);

    std::uint64_t expectedU = 0;
    std::uint64_t gotU = 0;
    const bool okU = referenceParse(token, expectedU);
    FieldCursor u(token);
    REQUIRE(u.nextUint64(gotU) == okU);
    if (okU)
        CHECK(gotU == expectedU);
}

} // namespace

TEST_CASE("integer fields are accepted and rejected exactly as std::from_chars does")
{
    const std::vector<std::string> edges = { "0", "-0", "7", "-7", "007", "-", "--1", "+1", "1a",
        "a1", "12.5", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "99999999999999999999", "00000000000000000000000000001", "-00000000000000000000000042",
        "1844674407370955161", "18446744073709551610", "1-", "4294967295", "-4294967296" };
    for (const auto& token : edges)
        checkSameAsFromChars(token);

    std::mt19937_64 random(6);
    for (int i = 0; i < 2000; ++i) {
        const auto digits = static_cast<int>(random() % 22) + 1;
        std::string token = (random() % 3 == 0) ? "-" : "";
        for (int d = 0; d < digits; ++d)
            token += static_cast<char>('0' + random() % 10);
        checkSameAsFromChars(token);
    }
}

TEST_CASE("a rejected integer leaves the cursor on the token so another reader can try it")
{
    FieldCursor c("  x12 34");
    std::int64_t v = 0;
    CHECK_FALSE(c.nextInt64(v));
    CHECK(c.skipToken());
    CHECK(c.nextInt64(v));
    CHECK(v == 34);
    CHECK(c.atEnd());

    FieldCursor range("3000000000\t-5");
    std::int32_t small = 0;
    CHECK_FALSE(range.nextInt32(small));
    std::int64_t big = 0;
    CHECK(range.nextInt64(big));
    CHECK(big == 3000000000);
    CHECK(range.nextInt32(small));
    CHECK(small == -5);
}
