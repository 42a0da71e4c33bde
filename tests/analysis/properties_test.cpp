// Properties that must hold between the analyses on real and generated runs (default mode).

#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "support/io_support.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

const char* const kRuns[]
    = { "gen-leanmd-smp", "gen-feat-smp", "pipit-pingpong-v11", "charm-synth-v7" };

// A whole-run range that the interval size divides, so time profile and usage cover the same time.
AnalysisRequest alignedRequest(const core::Trace& trace, core::TimeUs size)
{
    AnalysisRequest r;
    r.range = { 0, (trace.endTime() / size + 1) * size };
    r.includeCommThreads = true; // every PE in the time profile's sums, as in the usage rows
    return r;
}

} // namespace

TEST_CASE(
    "time profile totals equal usage profile totals for every activity", "[analysis][property]")
{
    for (const char* name : kRuns) {
        INFO(name);
        const auto trace = parallax::test::loadOk(realLog(name));
        const auto request = alignedRequest(*trace, 1000);
        const auto profile = computeTimeProfile(*trace, request, { 1000, 0 });
        const auto usage = computeUsageProfile(*trace, request);
        REQUIRE((profile && usage));
        const double length = static_cast<double>(request.range.length());
        for (int c = 0; c < usage->columns.count(); ++c) {
            double fromProfile = 0;
            for (std::int64_t i = 0; i < profile->grid.count; ++i)
                fromProfile += profile->at(i, c);
            double fromUsage = 0;
            for (std::size_t k = 0; k < usage->pes.size(); ++k)
                fromUsage += usage->at(k, c) * length / 100.0;
            INFO("column " << usage->columns.name(c));
            CHECK(fromProfile == Approx(fromUsage).margin(1e-3).epsilon(1e-9));
        }
    }
}

TEST_CASE("no time-profile interval holds more than PEs times its length", "[analysis][property]")
{
    for (const char* name : kRuns) {
        INFO(name);
        const auto trace = parallax::test::loadOk(realLog(name));
        for (const std::int64_t bins : { 7, 100, 1000 }) {
            const auto profile = computeTimeProfile(*trace, {}, { 0, bins });
            REQUIRE(profile);
            const double capacity
                = static_cast<double>(profile->grid.size) * static_cast<double>(profile->peCount);
            for (std::int64_t i = 0; i < profile->grid.count; ++i) {
                double sum = 0;
                for (int c = 0; c < profile->columns.count(); ++c) {
                    REQUIRE(profile->at(i, c) >= -1e-9);
                    sum += profile->at(i, c);
                }
                REQUIRE(sum <= capacity + 1e-6);
            }
        }
    }
}

TEST_CASE("histogram counts add up to the executions and idle periods in the range",
    "[analysis][property]")
{
    for (const char* name : kRuns) {
        INFO(name);
        const auto trace = parallax::test::loadOk(realLog(name));
        AnalysisRequest request;
        request.range = { trace->endTime() / 4, trace->endTime() / 2 };
        const auto h = computeHistogram(*trace, request, { HistogramMetric::Duration, 50, 200, 0 });
        REQUIRE(h);
        double executions = 0;
        double idles = 0;
        for (const auto& pe : trace->pes) {
            for (auto b : pe.executions.begin)
                executions += b >= request.range.begin && b < request.range.end ? 1 : 0;
            for (auto b : pe.idles.begin)
                idles += b >= request.range.begin && b < request.range.end ? 1 : 0;
        }
        double counted = 0;
        double countedIdle = 0;
        for (std::int64_t b = 0; b <= h->bins; ++b) {
            for (int c = 0; c < h->columns.entryCount; ++c)
                counted += h->count(b, c);
            countedIdle += h->count(b, h->columns.idle());
        }
        CHECK(counted == executions);
        CHECK(countedIdle == idles);
    }
}

TEST_CASE(
    "Extrema least-idle top N equals a brute-force ranking by idle time", "[analysis][property]")
{
    for (const char* name : kRuns) {
        INFO(name);
        const auto trace = parallax::test::loadOk(realLog(name));
        const auto usage = computeUsageProfile(*trace, {});
        REQUIRE(usage);
        std::vector<std::pair<double, core::PeId>> byIdle;
        // Comm threads are not ranked by default (they have no idle records).
        for (std::size_t k = 0; k < usage->pes.size(); ++k)
            if (std::find(usage->apart.begin(), usage->apart.end(), usage->pes[k])
                == usage->apart.end())
                byIdle.emplace_back(usage->at(k, usage->columns.idle()), usage->pes[k]);
        std::stable_sort(
            byIdle.begin(), byIdle.end(), [](auto& a, auto& b) { return a.first < b.first; });
        const std::int64_t n = std::min<std::int64_t>(3, static_cast<std::int64_t>(byIdle.size()));
        const auto x = computeExtrema(*trace, {}, { ExtremaCriterion::LeastIdle, n, 0 });
        REQUIRE(x);
        REQUIRE(x->extremes.size() == static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            CHECK(x->extremeScores[static_cast<std::size_t>(i)]
                == Approx(byIdle[static_cast<std::size_t>(i)].first));
        }
        // Scores are non-decreasing idle: the most extreme (least idle) first.
        CHECK(std::is_sorted(x->extremeScores.begin(), x->extremeScores.end()));
    }
}
