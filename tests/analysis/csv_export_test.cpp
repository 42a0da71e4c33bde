// csv_export: the CSV behind every view's "Export Data" and parallax-cli. Each activity id is
// followed by its name, quoted as CSV wants (tests/data/runs/tiny has entry names with a comma
// and a quote: `compute(int n, double x)` on PE 0 at 1500-2000 us, `say"hi` on PE 1).

#include "core/analysis/csv_export.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "io/run_loader.h"

#include <catch2/catch.hpp>

#include <string>

using namespace parallax;
namespace analysis = core::analysis;

namespace {

core::TracePtr tinyRun()
{
    auto result = io::loadRun(std::string(PARALLAX_TEST_DATA_DIR) + "/runs/tiny");
    INFO(result.error);
    REQUIRE(result.trace);
    return result.trace;
}

bool hasLineStarting(const std::string& csv, const std::string& prefix)
{
    return csv.rfind(prefix, 0) == 0 || csv.find('\n' + prefix) != std::string::npos;
}

} // namespace

TEST_CASE("csv fields with a comma, a quote or a line break are quoted, quotes doubled")
{
    CHECK(analysis::csvField("idle") == "idle");
    CHECK(analysis::csvField("compute(int n, double x)") == "\"compute(int n, double x)\"");
    CHECK(analysis::csvField("say\"hi") == "\"say\"\"hi\"");
    CHECK(analysis::csvField("two\nlines") == "\"two\nlines\"");
    CHECK(analysis::csvField("") == "");
}

TEST_CASE("usage csv names each entry method after its id")
{
    const auto trace = tinyRun();
    const auto usage = analysis::computeUsageProfile(*trace, {});
    REQUIRE(usage);
    const auto csv = analysis::usageCsv(&*usage);
    CHECK(csv.rfind("pe,activity,activity_name,percent\n", 0) == 0);
    CHECK(hasLineStarting(csv, "0,2,\"compute(int n, double x)\","));
    CHECK(hasLineStarting(csv, "1,3,\"say\"\"hi\","));
    CHECK(hasLineStarting(csv, "0,idle,idle,"));
    CHECK(hasLineStarting(csv, "avg,2,\"compute(int n, double x)\","));
}

TEST_CASE("time profile, overview, histogram and extrema csv carry the entry names too")
{
    const auto trace = tinyRun();

    const auto profile = analysis::computeTimeProfile(*trace, {}, { 1000, 0 });
    REQUIRE(profile);
    const auto profileCsv = analysis::timeProfileCsv(&*profile);
    CHECK(profileCsv.rfind("interval,begin_us,end_us,activity,activity_name,time_us,percent\n", 0)
        == 0);
    CHECK(profileCsv.find(",2,\"compute(int n, double x)\",") != std::string::npos);

    const auto overview = analysis::computeOverview(*trace, {}, { 3 });
    REQUIRE(overview);
    const auto overviewCsv = analysis::overviewCsv(&*overview);
    CHECK(overviewCsv.rfind(
              "pe,column,begin_us,end_us,dominant,dominant_name,utilization_pct,idle_pct\n", 0)
        == 0);

    const auto histogram = analysis::computeHistogram(*trace, {});
    REQUIRE(histogram);
    const auto histogramCsv = analysis::histogramCsv(&*histogram);
    CHECK(histogramCsv.rfind("metric,bin,lo,hi,activity,activity_name,count\n", 0) == 0);
    CHECK(histogramCsv.find(",3,\"say\"\"hi\",") != std::string::npos);

    const auto extrema = analysis::computeExtrema(*trace, {}, {});
    REQUIRE(extrema);
    const auto extremaCsv = analysis::extremaCsv(&*extrema);
    CHECK(extremaCsv.find("group,activity,activity_name,value\n") != std::string::npos);
    CHECK(extremaCsv.find("avg,2,\"compute(int n, double x)\",") != std::string::npos);
}
