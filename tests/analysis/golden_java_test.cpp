// The Java-compatible mode must reproduce the reference tool's numbers exactly:
// ../shared/real-logs/golden-java holds what Java Projections computes on six datasets
// (see its README). Percentages within 0.01 points, counts and selections exactly.

#include "core/analysis/communication.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/summary_profiles.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "io/run_loader.h"
#include "support/test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

using namespace parallax;
using namespace parallax::core::analysis;
using parallax::test::realLog;

namespace {

const char* const kLogDatasets[] = { "projections-hello-v3", "pipit-pingpong-v11",
    "pipit-hello1darray-v11", "charm-synth-v7", "gen-feat-smp" };

std::filesystem::path goldenFile(const std::string& dataset, const std::string& file)
{
    return parallax::test::sharedDir() / "real-logs" / "golden-java" / dataset / file;
}

// Lines of a golden file without its '#' comment lines, split into whitespace tokens.
std::vector<std::vector<std::string>> goldenRows(
    const std::string& dataset, const std::string& file)
{
    std::ifstream in(goldenFile(dataset, file));
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream tokens(line);
        std::vector<std::string> row;
        for (std::string t; tokens >> t;)
            row.push_back(t);
        rows.push_back(row);
    }
    return rows;
}

core::TracePtr loadRun(const std::filesystem::path& path)
{
    auto result = io::loadRun(path.string());
    INFO(result.error);
    REQUIRE(result.trace);
    return result.trace;
}

AnalysisRequest javaRequest()
{
    AnalysisRequest r;
    r.mode = Mode::JavaCompat;
    return r;
}

// Compares two sparse tables key -> value; every key in either must agree within `tolerance`.
template <typename Key>
void requireSameTable(const std::map<Key, double>& golden, const std::map<Key, double>& ours,
    double tolerance, bool relative = false)
{
    std::size_t mismatches = 0;
    auto check = [&](const Key& key) {
        const auto g = golden.count(key) ? golden.at(key) : 0.0;
        const auto o = ours.count(key) ? ours.at(key) : 0.0;
        const double allowed = relative ? tolerance * std::max(1.0, std::abs(g)) : tolerance;
        if (std::abs(g - o) > allowed && ++mismatches <= 5)
            FAIL_CHECK("golden " << g << " ours " << o);
    };
    for (const auto& [key, value] : golden)
        check(key);
    for (const auto& [key, value] : ours)
        if (!golden.count(key))
            check(key);
    REQUIRE(mismatches == 0);
}

} // namespace

TEST_CASE("compat usage profile equals Java's UsageCalc on every log dataset", "[golden]")
{
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        const auto usage = computeUsageProfile(*trace, javaRequest());
        REQUIRE(usage);
        const int e = usage->columns.entryCount;
        std::map<std::tuple<int, std::string, int>, double> golden;
        std::map<std::tuple<int, std::string, int>, double> ours;
        for (const auto& row : goldenRows(dataset, "usage_profile.txt"))
            golden[{ std::stoi(row[0]), row[1], std::stoi(row[2]) }] = std::stod(row[3]);
        for (std::size_t k = 0; k < usage->pes.size(); ++k) {
            const int pe = usage->pes[k];
            const auto width = static_cast<std::size_t>(usage->columns.count());
            for (int c = 0; c < e; ++c) {
                if (const double v = usage->at(k, c); v != 0)
                    ours[{ pe, "exec", c }] = v;
                if (const double s = usage->sendPercent[k * width + static_cast<std::size_t>(c)];
                    s != 0)
                    ours[{ pe, "send", c }] = s;
            }
            // Java's columns after the entries: PACK, UNPACK, IDLE.
            const int javaColumns[]
                = { usage->columns.pack(), usage->columns.unpack(), usage->columns.idle() };
            for (int j = 0; j < 3; ++j)
                if (const double v = usage->at(k, javaColumns[j]); v != 0)
                    ours[{ pe, "exec", e + j }] = v;
        }
        requireSameTable(golden, ours, 0.01);
    }
}

TEST_CASE(
    "compat time profile equals Java's Time Profile including the bad-interval filter", "[golden]")
{
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        const auto profile = computeTimeProfile(*trace, javaRequest());
        REQUIRE(profile);
        std::map<std::pair<std::int64_t, int>, double> golden;
        std::map<std::pair<std::int64_t, int>, double> ours;
        for (const auto& row : goldenRows(dataset, "time_profile.txt"))
            golden[{ std::stoll(row[0]), std::stoi(row[1]) }] = std::stod(row[2]);
        // Java's columns: entries, then OVERHEAD, IDLE — the same as ours.
        for (std::int64_t i = 0; i < profile->grid.count; ++i)
            for (int c = 0; c < profile->columns.entryCount + 2; ++c)
                if (const double v = profile->percent(i, c); v != 0)
                    ours[{ i + profile->grid.firstIndex, c }] = v;
        requireSameTable(golden, ours, 0.01);
    }
}

TEST_CASE("compat overview equals Java's Overview cell by cell", "[golden]")
{
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        const auto o = computeOverview(*trace, javaRequest());
        REQUIRE(o);
        std::map<std::pair<int, std::int64_t>, std::tuple<int, int, int>> golden;
        for (const auto& row : goldenRows(dataset, "overview.txt"))
            golden[{ std::stoi(row[0]), std::stoll(row[1]) }]
                = { std::stoi(row[2]), std::stoi(row[3]), std::stoi(row[4]) };
        std::size_t compared = 0;
        for (std::size_t k = 0; k < o->pes.size(); ++k)
            for (std::int64_t i = 0; i < o->grid.count; ++i) {
                const auto idx = o->index(k, i);
                const std::tuple<int, int, int> cell { o->dominant[idx],
                    static_cast<int>(o->utilization[idx]), static_cast<int>(o->idle[idx]) };
                const auto key
                    = std::make_pair(static_cast<int>(o->pes[k]), i + o->grid.firstIndex);
                const bool omitted = std::get<1>(cell) == 0
                    && std::get<0>(cell) == o->columns.overhead() && std::get<2>(cell) == 0;
                if (omitted) {
                    CHECK(golden.count(key) == 0);
                } else {
                    INFO("pe " << key.first << " column " << key.second);
                    REQUIRE(golden.count(key) == 1);
                    CHECK(golden.at(key) == cell);
                    ++compared;
                }
            }
        CHECK(compared == golden.size());
    }
}

TEST_CASE(
    "compat histograms equal Java's for durations, accumulated time, message sizes and idle %",
    "[golden]")
{
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        std::map<std::tuple<std::string, std::int64_t, int>, double> golden;
        for (const auto& row : goldenRows(dataset, "histogram.txt"))
            golden[{ row[0], std::stoll(row[1]), std::stoi(row[2]) }] = std::stod(row[3]);
        std::map<std::tuple<std::string, std::int64_t, int>, double> ours;
        const auto duration
            = computeHistogram(*trace, javaRequest(), { HistogramMetric::Duration, 0, 0, 0 });
        const auto sizes
            = computeHistogram(*trace, javaRequest(), { HistogramMetric::MessageSize, 0, 0, 0 });
        const auto idle
            = computeHistogram(*trace, javaRequest(), { HistogramMetric::IdlePercent, 0, 0, 0 });
        REQUIRE((duration && sizes && idle));
        const int e = duration->columns.entryCount;
        auto javaColumn = [&](int c) {
            return c == duration->columns.idle() ? e : c;
        };
        const auto width = static_cast<std::size_t>(duration->columns.count());
        for (std::int64_t b = 0; b <= duration->bins; ++b)
            for (int c = 0; c < duration->columns.count(); ++c) {
                if (const double n = duration->count(b, c); n != 0)
                    ours[{ "exec_time_count", b, javaColumn(c) }] = n;
                if (const double us = duration->accumulated[static_cast<std::size_t>(b) * width
                        + static_cast<std::size_t>(c)];
                    us != 0)
                    ours[{ "exec_time_accumulated_us", b, javaColumn(c) }] = us;
            }
        for (std::int64_t b = 0; b <= sizes->bins; ++b)
            for (int c = 0; c < sizes->columns.count(); ++c)
                if (const double n = sizes->count(b, c); n != 0)
                    ours[{ "msg_size_count", b, c }] = n;
        for (std::int64_t b = 0; b <= idle->bins; ++b)
            if (const double n = idle->count(b, idle->columns.idle()); n != 0)
                ours[{ "idle_pct_pes", b, 0 }] = n;
        requireSameTable(golden, ours, 1e-9);
    }
}

TEST_CASE("compat communication over time equals Java's per-millisecond values", "[golden]")
{
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        const auto c = computeCommunication(*trace, javaRequest());
        REQUIRE(c);
        std::map<std::tuple<std::string, std::int64_t, int>, double> golden;
        for (const auto& row : goldenRows(dataset, "comm_over_time.txt"))
            golden[{ row[0], std::stoll(row[1]), std::stoi(row[2]) }] = std::stod(row[3]);
        std::map<std::tuple<std::string, std::int64_t, int>, double> ours;
        for (int m = 0; m < kCommMetrics; ++m)
            for (std::int64_t i = 0; i < c->grid.count; ++i)
                for (int col = 0; col < c->columns.entryCount; ++col)
                    if (const double v = c->at(static_cast<CommMetric>(m), i, col); v != 0)
                        ours[{ std::string(commMetricName(static_cast<CommMetric>(m))),
                            i + c->grid.firstIndex, col }]
                            = v;
        requireSameTable(golden, ours, 1e-5, true);
    }
}

TEST_CASE("compat Extrema vectors and selections equal Java's for all four attributes", "[golden]")
{
    const std::map<int, ExtremaCriterion> attributes
        = { { 0, ExtremaCriterion::LeastIdle }, { 1, ExtremaCriterion::MostIdle },
              { 4, ExtremaCriterion::GrainSize }, { 5, ExtremaCriterion::Clustering } };
    for (const std::string dataset : kLogDatasets) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        std::ifstream in(goldenFile(dataset, "extrema.txt"));
        REQUIRE(in.good());
        std::string line;
        std::optional<Extrema> x;
        while (std::getline(in, line)) {
            if (line.rfind("# attribute", 0) == 0) {
                std::istringstream t(line);
                std::string hash, word;
                int attribute = 0;
                t >> hash >> word >> attribute;
                INFO("attribute " << attribute);
                x = computeExtrema(*trace, javaRequest(), { attributes.at(attribute), 0, 0 });
                REQUIRE(x);
            } else if (line.rfind("vec pe", 0) == 0) {
                REQUIRE(x);
                std::istringstream t(line.substr(7));
                int pe = 0;
                char colon = 0;
                t >> pe >> colon;
                const auto k = static_cast<std::size_t>(
                    std::find(x->pes.begin(), x->pes.end(), pe) - x->pes.begin());
                REQUIRE(k < x->pes.size());
                const auto width = static_cast<std::size_t>(x->columns.count());
                std::map<int, double> golden;
                for (std::string pair; t >> pair;) {
                    const auto eq = pair.find('=');
                    golden[std::stoi(pair.substr(0, eq))] = std::stod(pair.substr(eq + 1));
                }
                std::map<int, double> ours;
                for (int c = 0; c < x->columns.entryCount + 2; ++c)
                    if (const double v = x->vectors[k * width + static_cast<std::size_t>(c)];
                        v != 0)
                        ours[c] = v;
                INFO("pe " << pe);
                requireSameTable(golden, ours, 1e-5, true);
            } else if (line.rfind("selected PEs", 0) == 0) {
                REQUIRE(x);
                std::istringstream t(line.substr(line.find(':') + 1));
                std::vector<core::PeId> golden;
                for (int pe = 0; t >> pe;)
                    golden.push_back(pe);
                std::vector<core::PeId> ours(
                    x->extremes.rbegin(), x->extremes.rend()); // ascending significance
                CHECK(ours == golden);
            } else if (line.rfind("selected (clustering needs", 0) == 0) {
                REQUIRE(x);
                CHECK_FALSE(x->error.empty());
            }
        }
    }
}

TEST_CASE("summary average equals Java's main-window data before rebinning", "[golden]")
{
    for (const std::string dataset : { "projections-hello-v3", "gen-feat-smp" }) {
        INFO(dataset);
        const auto trace = loadRun(realLog(dataset));
        const auto avg = summaryAverage(*trace, Mode::JavaCompat);
        const auto rows = goldenRows(dataset, "summary_average.txt");
        REQUIRE(rows.size() == avg.utilization.size());
        for (const auto& row : rows) {
            const auto i = static_cast<std::size_t>(std::stoll(row[0]));
            CHECK(avg.utilization[i] == Approx(std::stod(row[1])).margin(1e-6));
            const double idle = avg.idle.empty() ? 0.0 : avg.idle[i];
            CHECK(idle == Approx(std::stod(row[2])).margin(1e-6));
        }
    }
}

TEST_CASE("a summary-only run gives Java's usage profile from the .sumd files", "[golden]")
{
    parallax::test::TempDir dir;
    const auto source = realLog("gen-feat-smp");
    for (const auto& entry : std::filesystem::directory_iterator(source)) {
        const auto name = entry.path().filename().string();
        if (name.ends_with(".sts") || name.ends_with(".sum") || name.ends_with(".sumd"))
            std::filesystem::copy_file(entry.path(), dir.path() / name);
    }
    const auto trace = loadRun(dir.path());
    REQUIRE_FALSE(trace->hasLogs());
    CHECK(javaEndTime(*trace) == 1263000);
    const auto usage = computeUsageProfile(*trace, javaRequest());
    REQUIRE(usage);
    std::map<std::pair<int, int>, double> golden;
    for (const auto& row : goldenRows("gen-feat-smp-sumonly", "usage_profile_summary.txt"))
        golden[{ std::stoi(row[0]), std::stoi(row[2]) }] = std::stod(row[3]);
    std::map<std::pair<int, int>, double> ours;
    for (std::size_t k = 0; k < usage->pes.size(); ++k)
        for (int c = 0; c < usage->columns.entryCount; ++c)
            if (const double v = usage->at(k, c); v != 0)
                ours[{ usage->pes[k], c }] = v;
    requireSameTable(golden, ours, 0.01);
    const auto avg = summaryAverage(*trace, Mode::JavaCompat);
    const auto rows = goldenRows("gen-feat-smp-sumonly", "summary_average.txt");
    REQUIRE(rows.size() == avg.utilization.size());
    for (const auto& row : rows) {
        const auto i = static_cast<std::size_t>(std::stoll(row[0]));
        CHECK(avg.utilization[i] == Approx(std::stod(row[1])).margin(1e-6));
        CHECK(avg.idle[i] == Approx(std::stod(row[2])).margin(1e-6));
    }
}
