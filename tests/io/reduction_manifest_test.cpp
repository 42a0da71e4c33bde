// Reading a reduced run's reduction.json back (io/reduction_manifest.h): what was written comes
// back; an ordinary run has none; broken or hostile files give one clear error, never a crash.

#include "io/reduction_manifest.h"
#include "io/run_reduction.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

using namespace parallax;
using namespace parallax::test;

TEST_CASE("a reduced run's manifest reads back the kept PEs and their roles", "[io][reduce]")
{
    const auto trace = loadOk(sampleRun("imbalance"));
    TempDir tmp;
    io::ReductionSettings settings;
    settings.keep = *core::analysis::parseKeepAmount("3");
    settings.keepText.assign(1, '3');
    settings.select = io::PeSelectionMethod::Random;
    settings.outDir = (tmp / "out").string();
    settings.source = "imbalance";
    const auto outcome = io::reduceRun(*trace, settings);
    REQUIRE(outcome.ok());
    std::string error;
    const auto m = io::readReductionManifest((tmp / "out").string(), &error);
    INFO(error);
    REQUIRE(m);
    CHECK(m->source == "imbalance");
    CHECK(m->select == "random");
    CHECK(m->processors == 12);
    CHECK(m->pesWithLogs == 12);
    REQUIRE(m->kept.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(m->kept[i].pe == outcome.report.kept[i].pe);
        CHECK(m->kept[i].role == "random");
        CHECK(m->kept[i].cluster == -1);
    }
}

TEST_CASE("an ordinary run has no manifest and that is not an error", "[io][reduce]")
{
    std::string error = "untouched";
    CHECK_FALSE(io::readReductionManifest(sampleRun("imbalance").string(), &error));
    CHECK(error.empty());
}

TEST_CASE("a broken or foreign reduction.json is refused with one sentence", "[io][reduce]")
{
    const auto refuse = [](const std::string& text, const char* expected) {
        INFO(text.substr(0, 80));
        std::string error;
        CHECK_FALSE(io::parseReductionManifest(text, &error));
        CHECK(error.find(expected) != std::string::npos);
    };
    refuse("", "not valid JSON");
    refuse("{\"format\": \"parallax-reduction\", \"kept\": [", "not valid JSON");
    refuse("{\"format\": \"something-else\", \"kept\": []}", "not a Parallax");
    refuse("[1, 2, 3]", "not a Parallax");
    refuse("{\"format\": \"parallax-reduction\"}", "no list of kept PEs");
    refuse("{\"format\": \"parallax-reduction\", \"kept\": [{\"pe\": -1}]}", "valid \"pe\"");
    refuse("{\"format\": \"parallax-reduction\", \"kept\": [{\"pe\": 1e30}]}", "valid \"pe\"");
    refuse("{\"format\": \"parallax-reduction\", \"kept\": [{\"pe\": 2.5}]}", "valid \"pe\"");
    refuse(std::string(100'000, '['), "nesting too deep");
    refuse("{\"format\": \"parallax-reduction\\u00\"}", "bad \\u escape");
    refuse("{\"format\": \"parallax-reduction\"} trailing", "after the value");
    // Escapes and order do not matter.
    const auto ok
        = io::parseReductionManifest("{\"kept\": [{\"pe\": 7, \"role\": \"out\\u006cier\", "
                                     "\"cluster\": 2}, {\"pe\": 3}], \"format\": "
                                     "\"parallax-reduction\"}");
    REQUIRE(ok);
    REQUIRE(ok->kept.size() == 2);
    CHECK(ok->kept[0].pe == 3);
    CHECK(ok->kept[1].role == "outlier");
    CHECK(ok->kept[1].cluster == 2);
}
