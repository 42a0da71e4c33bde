// parallax-bench: how fast Parallax opens a run, against what a minimal reader does with the same
// files on the same machine, and how fast every analysis runs over it. Not a test: it prints
// figures (docs/performance.md). Usage:
//   parallax-bench RUN [--repeat N] [--threads T] [--quick] [--skip-analyses]
// Generate a run to measure with, e.g.
//   build/bin/parallax-gen --out /tmp/bench512 --name bench --pes 512 --events-per-pe 50000
//   build/bin/parallax-bench /tmp/bench512

#include "baselines.h"
#include "core/analysis/communication.h"
#include "core/analysis/extrema.h"
#include "core/analysis/histogram.h"
#include "core/analysis/overview.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/trace.h"
#include "io/index_cache.h"
#include "io/run_loader.h"
#include "peak_memory.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace parallax;
using namespace parallax::core::analysis;

namespace {

struct Options {
    std::string run;
    int repeat = 5; // analyses (median); loads and baselines: best of min(repeat, 3)
    unsigned analysisThreads = 0;
    bool skipAnalyses = false;
};

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

// User + system CPU seconds of the whole process so far.
double cpuSeconds()
{
    rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    auto secondsOf = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime);
}

double best(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

double timed(int repeat, const std::function<void()>& fn)
{
    std::vector<double> runs;
    for (int i = 0; i < repeat; ++i)
        runs.push_back(seconds(fn));
    return median(runs);
}

double mb(std::uint64_t bytes)
{
    return static_cast<double>(bytes) / 1e6;
}

constexpr unsigned kThreadCounts[2] = { 1, 2 };

// One baseline at 1 and 2 threads (best of `repeat` passes each, each mapping mode).
struct BaselineFigures {
    const char* name = "";
    const char* shortName = "";
    bool countsLines = true;
    bench::BaselineResult at[2];
};

BaselineFigures measureBaseline(const char* name, const char* shortName,
    const std::vector<std::string>& files, bench::BaselineKind kind, int repeat)
{
    BaselineFigures f;
    f.name = name;
    f.shortName = shortName;
    f.countsLines = kind == bench::BaselineKind::Tokenize;
    for (int i = 0; i < 2; ++i) {
        std::vector<double> times;
        // Each pass twice, with and without MAP_POPULATE: the baseline gets its best.
        for (int r = 0; r < repeat; ++r)
            for (const bool populate : { true, false }) {
                f.at[i] = bench::runBaseline(files, kind, kThreadCounts[i], populate);
                times.push_back(f.at[i].seconds);
            }
        f.at[i].seconds = best(times);
        if (!f.at[i].error.empty())
            std::fprintf(stderr, "parallax-bench: baseline: %s\n", f.at[i].error.c_str());
    }
    return f;
}

void printBaseline(const BaselineFigures& f)
{
    std::printf("%s\n", f.name);
    std::printf("  %-34s %12.3f %12.3f\n", "time (s)", f.at[0].seconds, f.at[1].seconds);
    std::printf("  %-34s %12.3f %12.3f\n", "GB/s of text",
        mb(f.at[0].textBytes) / 1e3 / f.at[0].seconds,
        mb(f.at[1].textBytes) / 1e3 / f.at[1].seconds);
    std::printf("  %-34s %12.0f %12.0f\n", "MB/s on disk", mb(f.at[0].diskBytes) / f.at[0].seconds,
        mb(f.at[1].diskBytes) / f.at[1].seconds);
    if (f.countsLines)
        std::printf("  %-34s %12.1f %12.1f\n", "M lines/s",
            static_cast<double>(f.at[0].lines) / 1e6 / f.at[0].seconds,
            static_cast<double>(f.at[1].lines) / 1e6 / f.at[1].seconds);
    std::printf("  %-34s %12.2f\n", "2 threads / 1 thread", f.at[0].seconds / f.at[1].seconds);
    std::printf("  (%llu lines, checksum %llu)\n", static_cast<unsigned long long>(f.at[0].lines),
        static_cast<unsigned long long>(f.at[0].checksum));
}

struct IngestFigures {
    double seconds[2] = { 0.0, 0.0 };
    double cpu[2] = { 0.0, 0.0 }; // CPU seconds of the fastest pass (all threads)
    std::uint64_t peakRss[2] = { 0, 0 };
    bool peakPerPhase = false;
    std::uint64_t rssBefore = 0; // before the first load
};

// io::loadRun as the app calls it (logs in parallel, then summaries), best of `repeat` loads per
// thread count (the machine is shared: the fastest pass is the one least disturbed). Keeps the last
// trace for the analyses.
bool measureIngest(const Options& o, int repeat, IngestFigures& f, core::TracePtr& trace)
{
    bench::PeakMemory memory;
    f.rssBefore = bench::PeakMemory::currentBytes();
    for (int i = 0; i < 2; ++i) {
        io::LoadOptions options;
        options.threads = kThreadCounts[i];
        std::vector<double> times;
        for (int r = 0; r < repeat; ++r) {
            trace.reset();
            memory.startPhase();
            io::LoadResult result;
            const double cpuBefore = cpuSeconds();
            times.push_back(seconds([&]() { result = io::loadRun(o.run, options); }));
            if (times.back() <= best(times))
                f.cpu[i] = cpuSeconds() - cpuBefore;
            f.peakRss[i] = std::max(f.peakRss[i], memory.peakBytes());
            f.peakPerPhase = memory.perPhase();
            if (!result.trace) {
                std::fprintf(stderr, "parallax-bench: %s\n", result.error.c_str());
                return false;
            }
            trace = result.trace;
        }
        f.seconds[i] = best(times);
    }
    return true;
}

void printIngest(const IngestFigures& f, const core::Trace& trace, const BaselineFigures& base)
{
    const double events = static_cast<double>(trace.eventCount());
    const auto logBytes = trace.files.logBytes;
    std::printf("Parallax ingest (io::loadRun: parse + store + index, then .sum/.sumd)\n");
    std::printf("  %-34s %12.3f %12.3f\n", "time (s)", f.seconds[0], f.seconds[1]);
    std::printf("  %-34s %12.3f %12.3f\n", "CPU time, all threads (s)", f.cpu[0], f.cpu[1]);
    std::printf("  %-34s %12.1f %12.1f\n", "M events/s", events / 1e6 / f.seconds[0],
        events / 1e6 / f.seconds[1]);
    std::printf("  %-34s %12.0f %12.0f\n", "MB/s on disk", mb(logBytes) / f.seconds[0],
        mb(logBytes) / f.seconds[1]);
    std::printf("  %-34s %12.2f %12.2f\n",
        (std::string("speed ratio to ") + base.shortName).c_str(),
        base.at[0].seconds / f.seconds[0], base.at[1].seconds / f.seconds[1]);
    std::printf("  %-34s %12.0f %12.0f\n",
        f.peakPerPhase ? "peak RSS during the load (MB)" : "peak RSS of the process (MB)",
        mb(f.peakRss[0]), mb(f.peakRss[1]));
    std::printf("  %-34s %12.2f\n", "2 threads / 1 thread", f.seconds[0] / f.seconds[1]);
    std::printf("  (RSS before the loads: %.0f MB)\n", mb(f.rssBefore));
    std::printf("  store: %.1f MB for %llu events = %.2f bytes/event; logs %.1f MB on disk\n",
        mb(trace.storeBytes()), static_cast<unsigned long long>(trace.eventCount()),
        static_cast<double>(trace.storeBytes()) / std::max(events, 1.0), mb(logBytes));
}

// ---------------------------------------------------------------------------------------------
// REOPEN THROUGH THE INDEX CACHE (issue: "reopen through the index cache").
// io::loadRunCached into a fresh temporary cache directory (removed afterwards, the user's cache
// is never touched): the first open parses the logs and writes the cache, every further open
// reads the cache. Prints the first open, the best reopen, the cache file's size and the peak
// RSS of a reopen. Hands back the reopened trace (null when the cache was not used).
// ---------------------------------------------------------------------------------------------
core::TracePtr measureReopenThroughIndexCache(const Options& o, int repeat)
{
    std::printf("Reopen through the index cache (io::loadRunCached, 2 threads)\n");
    std::error_code ec;
    auto dir = std::filesystem::temp_directory_path(ec);
    if (ec) {
        std::printf("  not measured: no temporary directory\n");
        return nullptr;
    }
    std::string pattern = (dir / "parallax-bench-cache-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::printf("  not measured: cannot create a temporary cache directory\n");
        return nullptr;
    }
    io::CacheOptions cache;
    cache.directory = pattern;
    io::LoadOptions options;
    options.threads = 2;

    io::LoadResult first;
    const double firstSeconds
        = seconds([&]() { first = io::loadRunCached(o.run, options, cache); });
    first.trace.reset();
    std::vector<double> times;
    core::TracePtr reopened;
    std::string note;
    bench::PeakMemory memory;
    std::uint64_t peak = 0;
    for (int r = 0; r < repeat; ++r) {
        reopened.reset();
        memory.startPhase();
        io::LoadResult again;
        times.push_back(seconds([&]() { again = io::loadRunCached(o.run, options, cache); }));
        peak = std::max(peak, memory.peakBytes());
        if (!again.fromCache)
            note = again.cacheNote.empty() ? again.error : again.cacheNote;
        reopened = again.trace;
    }
    const auto file = io::cacheFilePath(o.run, options, cache);
    const auto cacheBytes = std::filesystem::file_size(file, ec);
    std::printf("  %-34s %12.3f\n", "first open: load + write cache (s)", firstSeconds);
    if (!note.empty()) {
        std::printf("  not reopened from the cache: %s\n", note.c_str());
        reopened.reset();
    } else {
        std::printf(
            "  %-34s %12.3f   (best of %d)\n", "reopen from the cache (s)", best(times), repeat);
        std::printf("  %-34s %12.1f\n", "cache file (MB)", ec ? 0.0 : mb(cacheBytes));
        std::printf("  %-34s %12.0f\n",
            memory.perPhase() ? "peak RSS during a reopen (MB)" : "peak RSS of the process (MB)",
            mb(peak));
    }
    std::filesystem::remove_all(pattern, ec);
    return reopened;
}

void measureAnalyses(const Options& o, const core::Trace& trace)
{
    struct Case {
        const char* name;
        std::function<void(const AnalysisRequest&)> run;
    };
    const std::vector<Case> cases = {
        { "usage profile",
            [&](const AnalysisRequest& r) {
                (void)computeUsageProfile(trace, r);
            } },
        { "time profile (1000 intervals)",
            [&](const AnalysisRequest& r) {
                (void)computeTimeProfile(trace, r);
            } },
        { "overview",
            [&](const AnalysisRequest& r) {
                (void)computeOverview(trace, r);
            } },
        { "histogram (durations)",
            [&](const AnalysisRequest& r) {
                (void)computeHistogram(trace, r);
            } },
        { "histogram (message sizes)",
            [&](const AnalysisRequest& r) {
                (void)computeHistogram(trace, r, { HistogramMetric::MessageSize, 0, 0, 0 });
            } },
        { "communication over time",
            [&](const AnalysisRequest& r) {
                (void)computeCommunication(trace, r);
            } },
        { "extrema least idle",
            [&](const AnalysisRequest& r) {
                (void)computeExtrema(trace, r);
            } },
        { "extrema clustering",
            [&](const AnalysisRequest& r) {
                (void)computeExtrema(trace, r, { ExtremaCriterion::Clustering, 0, 0 });
            } },
    };
    std::printf("%-36s %12s %12s   (median of %d, whole run, all PEs)\n", "analysis", "default",
        "--compat java", o.repeat);
    for (const auto& c : cases) {
        AnalysisRequest correct;
        correct.threads = o.analysisThreads;
        AnalysisRequest java = correct;
        java.mode = Mode::JavaCompat;
        const double a = timed(o.repeat, [&]() { c.run(correct); });
        const double b = timed(o.repeat, [&]() { c.run(java); });
        std::printf("%-36s %10.3f s %10.3f s\n", c.name, a, b);
    }
}

bool parseArgs(int argc, char** argv, Options& o)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0)
        return false;
    o.run = argv[1];
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") {
            o.repeat = 1;
        } else if (arg == "--skip-analyses") {
            o.skipAnalyses = true;
        } else if ((arg == "--repeat" || arg == "--threads") && i + 1 < argc) {
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || v < 0 || v > 1000)
                return false;
            if (arg == "--repeat")
                o.repeat = std::max(1, static_cast<int>(v));
            else
                o.analysisThreads = static_cast<unsigned>(v);
        } else {
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parseArgs(argc, argv, o)) {
        std::fprintf(stderr,
            "usage: parallax-bench RUN [--repeat N] [--threads T] [--quick] [--skip-analyses]\n"
            "  --repeat N       passes per figure: median for analyses, best of at most 3 for\n"
            "                   loads and baselines\n"
            "  --threads T      threads for the analyses (0 = all)\n"
            "  --quick          one pass of everything (for CI on a tiny run)\n"
            "  --skip-analyses  only the ingest figures\n");
        return 2;
    }
    const int loadRepeat = std::min(o.repeat, 3);

    // The run's log files, found the way the loader finds them.
    const auto found = io::findRun(o.run);
    if (!found.trace) {
        std::fprintf(stderr, "parallax-bench: %s\n", found.error.c_str());
        return 1;
    }
    std::vector<std::string> logs;
    bool anyGzip = false;
    for (const auto& path : found.trace->files.logPaths)
        if (!path.empty()) {
            logs.push_back(path);
            anyGzip = anyGzip || bench::isGzipFile(path);
        }
    std::printf("run: %zu log files, %.1f MB on disk%s\n\n", logs.size(),
        mb(found.trace->files.logBytes), anyGzip ? " (gzip)" : "");

    // Ingest first, so that its peak RSS is not inflated by what the baselines left behind.
    core::TracePtr trace;
    IngestFigures ingest;
    if (!measureIngest(o, loadRepeat, ingest, trace))
        return 1;

    std::vector<BaselineFigures> baselines;
    if (anyGzip) {
        baselines.push_back(measureBaseline("baseline: zlib inflate (output discarded)", "inflate",
            logs, bench::BaselineKind::Inflate, loadRepeat));
        if (bench::libdeflateAvailable())
            baselines.push_back(
                measureBaseline("for comparison: libdeflate whole-file gzip decompression",
                    "libdeflate", logs, bench::BaselineKind::LibdeflateInflate, loadRepeat));
        baselines.push_back(measureBaseline("baseline: zlib inflate + from_chars tokenizer",
            "inflate + tokenizer", logs, bench::BaselineKind::Tokenize, loadRepeat));
    } else {
        baselines.push_back(measureBaseline("baseline: mmap + from_chars tokenizer", "tokenizer",
            logs, bench::BaselineKind::Tokenize, loadRepeat));
    }

    std::printf("%-36s %12s %12s   (best of %d)\n", "ingest", "1 thread", "2 threads", loadRepeat);
    for (const auto& b : baselines)
        printBaseline(b);
    printIngest(ingest, *trace, baselines.front());
    for (std::size_t k = 1; k < baselines.size(); ++k)
        std::printf("  %-34s %12.2f %12.2f\n",
            (std::string("speed ratio to ") + baselines[k].shortName).c_str(),
            baselines[k].at[0].seconds / ingest.seconds[0],
            baselines[k].at[1].seconds / ingest.seconds[1]);
    std::printf("\n");
    // The ingest trace is released first so the reopen's peak RSS is its own; the analyses then
    // run on the reopened trace (the same store) or, without a cache, on a fresh load.
    trace.reset();
    trace = measureReopenThroughIndexCache(o, loadRepeat);
    std::printf("\n");
    if (!trace) {
        auto result = io::loadRun(o.run);
        trace = result.trace;
        if (!trace) {
            std::fprintf(stderr, "parallax-bench: %s\n", result.error.c_str());
            return 1;
        }
    }

    if (!o.skipAnalyses)
        measureAnalyses(o, *trace);
    return 0;
}
