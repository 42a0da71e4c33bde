// parallax-bench: how fast Parallax opens a run and computes every analysis over it.
// Not a test: it prints figures. Usage:
//   parallax-bench RUN [--repeat N] [--threads T]
// Generate a run to measure with, e.g.
//   build/bin/parallax-gen --out /tmp/bench64 --pes 64 --events-per-pe 200000 --gz
//   build/bin/parallax-bench /tmp/bench64

#include "core/analysis/communication.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "io/run_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace parallax;
using namespace parallax::core::analysis;

namespace {

double seconds(const std::function<void()>& fn)
{
    const auto start = std::chrono::steady_clock::now();
    fn();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double timed(int repeat, const std::function<void()>& fn)
{
    std::vector<double> runs;
    for (int i = 0; i < repeat; ++i)
        runs.push_back(seconds(fn));
    return median(runs);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0) {
        std::fprintf(stderr, "usage: parallax-bench RUN [--repeat N] [--threads T]\n");
        return 2;
    }
    const std::string run = argv[1];
    int repeat = 5;
    unsigned threads = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--repeat") == 0)
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--threads") == 0)
            threads = static_cast<unsigned>(std::max(0, std::atoi(argv[i + 1])));
    }

    core::TracePtr trace;
    std::string error;
    for (const unsigned t : { 1U, 2U }) {
        io::LoadOptions options;
        options.threads = t;
        const double s = timed(std::min(repeat, 3), [&]() {
            auto result = io::loadRun(run, options);
            trace = result.trace;
            error = result.error;
        });
        if (!trace) {
            std::fprintf(stderr, "parallax-bench: %s\n", error.c_str());
            return 1;
        }
        const double events = static_cast<double>(trace->eventCount());
        std::printf("load %u thread%s: %.3f s  %.1f M events/s  %.0f MB/s (on-disk bytes)\n", t,
            t == 1 ? " " : "s", s, events / s / 1e6,
            static_cast<double>(trace->files.logBytes) / s / 1e6);
    }
    std::printf("run: %zu PEs, %llu events, %.1f MB of logs, store %.1f MB = %.2f bytes/event\n\n",
        trace->pes.size(), static_cast<unsigned long long>(trace->eventCount()),
        static_cast<double>(trace->files.logBytes) / 1e6,
        static_cast<double>(trace->storeBytes()) / 1e6,
        static_cast<double>(trace->storeBytes())
            / static_cast<double>(std::max<std::uint64_t>(trace->eventCount(), 1)));

    struct Case {
        const char* name;
        std::function<void(const AnalysisRequest&)> run;
    };
    const std::vector<Case> cases = {
        { "usage profile",
            [&](const AnalysisRequest& r) {
                (void)computeUsageProfile(*trace, r);
            } },
        { "time profile (1000 intervals)",
            [&](const AnalysisRequest& r) {
                (void)computeTimeProfile(*trace, r);
            } },
        { "overview",
            [&](const AnalysisRequest& r) {
                (void)computeOverview(*trace, r);
            } },
        { "histogram (durations)",
            [&](const AnalysisRequest& r) {
                (void)computeHistogram(*trace, r);
            } },
        { "histogram (message sizes)",
            [&](const AnalysisRequest& r) {
                (void)computeHistogram(*trace, r, { HistogramMetric::MessageSize, 0, 0, 0 });
            } },
        { "communication over time",
            [&](const AnalysisRequest& r) {
                (void)computeCommunication(*trace, r);
            } },
        { "extrema least idle",
            [&](const AnalysisRequest& r) {
                (void)computeExtrema(*trace, r);
            } },
        { "extrema clustering",
            [&](const AnalysisRequest& r) {
                (void)computeExtrema(*trace, r, { ExtremaCriterion::Clustering, 0, 0 });
            } },
    };
    std::printf("%-32s %12s %12s   (median of %d, whole run, all PEs)\n", "analysis", "default",
        "--compat java", repeat);
    for (const auto& c : cases) {
        AnalysisRequest correct;
        correct.threads = threads;
        AnalysisRequest java = correct;
        java.mode = Mode::JavaCompat;
        const double a = timed(repeat, [&]() { c.run(correct); });
        const double b = timed(repeat, [&]() { c.run(java); });
        std::printf("%-32s %10.3f s %10.3f s\n", c.name, a, b);
    }
    return 0;
}
