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
#include "io/integer_scan_avx512.h"
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

// Median wall time and median CPU time (all threads) of `repeat` runs.
struct Timing {
    double wall = 0;
    double cpu = 0;
};
Timing timedWithCpu(int repeat, const std::function<void()>& fn)
{
    std::vector<double> walls;
    std::vector<double> cpus;
    for (int i = 0; i < repeat; ++i) {
        const double cpuBefore = cpuSeconds();
        walls.push_back(seconds(fn));
        cpus.push_back(cpuSeconds() - cpuBefore);
    }
    return { median(walls), median(cpus) };
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
    double cpu[2] = { 0.0, 0.0 }; // CPU seconds of the fastest pass (all threads)
};

BaselineFigures measureBaseline(const char* name, const char* shortName,
    const std::vector<std::string>& files, bench::BaselineKind kind, int repeat)
{
    BaselineFigures f;
    f.name = name;
    f.shortName = shortName;
    f.countsLines = kind == bench::BaselineKind::Tokenize || kind == bench::BaselineKind::Scan;
    for (int i = 0; i < 2; ++i) {
        std::vector<double> times;
        // Each pass twice, with and without MAP_POPULATE: the baseline gets its best.
        for (int r = 0; r < repeat; ++r)
            for (const bool populate : { true, false }) {
                const double cpuBefore = cpuSeconds();
                f.at[i] = bench::runBaseline(files, kind, kThreadCounts[i], populate);
                times.push_back(f.at[i].seconds);
                if (times.back() <= best(times))
                    f.cpu[i] = cpuSeconds() - cpuBefore;
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
    std::printf("  %-34s %12.3f %12.3f\n", "CPU time, all threads (s)", f.cpu[0], f.cpu[1]);
    if (f.countsLines)
        std::printf("  %-34s %12.1f %12.1f\n", "CPU ns per line",
            f.cpu[0] * 1e9 / std::max(static_cast<double>(f.at[0].lines), 1.0),
            f.cpu[1] * 1e9 / std::max(static_cast<double>(f.at[1].lines), 1.0));
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
    std::printf("  %-34s %12.1f %12.1f\n", "CPU ns per event",
        f.cpu[0] * 1e9 / std::max(events, 1.0), f.cpu[1] * 1e9 / std::max(events, 1.0));
    std::printf("  %-34s %12.1f %12.1f\n", "M events/s", events / 1e6 / f.seconds[0],
        events / 1e6 / f.seconds[1]);
    std::printf("  %-34s %12.0f %12.0f\n", "MB/s on disk", mb(logBytes) / f.seconds[0],
        mb(logBytes) / f.seconds[1]);
    std::printf("  %-34s %12.2f %12.2f\n",
        (std::string("speed ratio to ") + base.shortName).c_str(),
        base.at[0].seconds / f.seconds[0], base.at[1].seconds / f.seconds[1]);
    // The same ratio by CPU time (load on a shared machine inflates wall times, not CPU times);
    // a pass's CPU time includes the threads' start, so at 2 threads it is the ratio of work.
    std::printf("  %-34s %12.2f %12.2f\n", (std::string("CPU ratio to ") + base.shortName).c_str(),
        base.cpu[0] / std::max(f.cpu[0], 1e-9), base.cpu[1] / std::max(f.cpu[1], 1e-9));
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
// REOPEN THROUGH THE MAPPED INDEX, and every analysis on it against the in-memory store.
// io::loadRunCached into a fresh temporary cache directory (removed at the end, the user's cache
// is never touched): the first open parses the logs and writes the index (the cold open), every
// further open maps it. Prints both, their ratio, the index's size and the RSS an open adds.
// ---------------------------------------------------------------------------------------------
struct MappedIndex {
    std::string cacheDir; // removed by the destructor
    io::CacheOptions cache;
    io::LoadOptions options;
    MappedIndex() = default;
    MappedIndex(const MappedIndex&) = delete;
    MappedIndex& operator=(const MappedIndex&) = delete;
    ~MappedIndex()
    {
        std::error_code ec;
        if (!cacheDir.empty())
            std::filesystem::remove_all(cacheDir, ec);
    }
    // Opens the run through its index; null (with a note) when the index was not used.
    [[nodiscard]] core::TracePtr open(const std::string& run) const
    {
        auto result = io::loadRunCached(run, options, cache);
        if (!result.fromCache) {
            std::printf("  not opened from the index: %s\n",
                (result.cacheNote.empty() ? result.error : result.cacheNote).c_str());
            return nullptr;
        }
        return result.trace;
    }
};

std::uint64_t directoryBytes(const std::string& dir)
{
    std::uint64_t total = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        total += std::filesystem::file_size(entry.path(), ec);
    return total;
}

bool measureReopenThroughIndex(const Options& o, int repeat, MappedIndex& index)
{
    std::printf("Reopen through the mapped index (io::loadRunCached, 2 threads)\n");
    std::error_code ec;
    auto dir = std::filesystem::temp_directory_path(ec);
    std::string pattern = (dir / "parallax-bench-cache-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr) {
        std::printf("  not measured: cannot create a temporary cache directory\n");
        return false;
    }
    index.cacheDir = pattern;
    index.cache.directory = pattern;
    index.options.threads = 2;

    io::LoadResult first;
    const double cold
        = seconds([&]() { first = io::loadRunCached(o.run, index.options, index.cache); });
    first.trace.reset();
    bench::PeakMemory::trimHeap();
    std::vector<double> times;
    std::uint64_t added = 0;
    for (int r = 0; r < std::max(repeat, 3); ++r) {
        const auto before = bench::PeakMemory::currentBytes();
        core::TracePtr reopened;
        times.push_back(seconds([&]() { reopened = index.open(o.run); }));
        if (!reopened)
            return false;
        const auto after = bench::PeakMemory::currentBytes();
        added = std::max(added, after > before ? after - before : 0);
        reopened.reset();
        bench::PeakMemory::trimHeap();
    }
    const auto indexDir = io::cacheFilePath(o.run, index.options, index.cache);
    std::printf("  %-34s %12.3f\n", "cold open: parse + write index (s)", cold);
    std::printf(
        "  %-34s %12.4f   (best of %zu)\n", "reopen: map the index (s)", best(times), times.size());
    std::printf("  %-34s %12.4f   (target <= 0.05)\n", "reopen / cold open", best(times) / cold);
    std::printf("  %-34s %12.1f   (target <= 50)\n", "RSS added by an open (MB)", mb(added));
    std::printf("  %-34s %12.1f\n", "index on disk (MB)", mb(directoryBytes(indexDir)));
    return true;
}

void measureAnalyses(const Options& o, const core::Trace& inMemory, const MappedIndex* index)
{
    struct Case {
        const char* name;
        std::function<void(const core::Trace&, const AnalysisRequest&)> run;
    };
    const std::vector<Case> cases = {
        { "usage profile",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeUsageProfile(t, r);
            } },
        { "time profile (1000 intervals)",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeTimeProfile(t, r);
            } },
        { "overview",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeOverview(t, r);
            } },
        { "histogram (durations)",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeHistogram(t, r);
            } },
        { "histogram (message sizes)",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeHistogram(t, r, { HistogramMetric::MessageSize, 0, 0, 0 });
            } },
        { "communication over time",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeCommunication(t, r);
            } },
        { "extrema least idle",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeExtrema(t, r);
            } },
        { "extrema clustering",
            [](const core::Trace& t, const AnalysisRequest& r) {
                (void)computeExtrema(t, r, { ExtremaCriterion::Clustering, 0, 0 });
            } },
    };
    std::printf("Analyses, whole run, all PEs (median of %d; \"1st\" = the first one after a fresh "
                "open of the index,\nwhich checks every PE it reads; CPU = user + system time of "
                "the process, which other load on the machine inflates less than the wall time)\n",
        o.repeat);
    std::printf("%-36s %10s %10s %10s %7s %7s   %s\n", "", "in memory", "mapped", "1st mapped",
        "ratio", "1st/mem", "CPU: in memory / mapped / 1st (ratio)");
    for (const bool java : { false, true }) {
        std::printf("%s\n", java ? "--compat java" : "default");
        for (const auto& c : cases) {
            AnalysisRequest request;
            request.threads = o.analysisThreads;
            if (java)
                request.mode = Mode::JavaCompat;
            const auto memory = timedWithCpu(o.repeat, [&]() { c.run(inMemory, request); });
            if (index == nullptr) {
                std::printf("  %-34s %8.3f s\n", c.name, memory.wall);
                continue;
            }
            const auto mapped = index->open(o.run);
            if (!mapped)
                return;
            const auto first = timedWithCpu(1, [&]() { c.run(*mapped, request); });
            const auto steady = timedWithCpu(o.repeat, [&]() { c.run(*mapped, request); });
            std::printf(
                "  %-34s %8.3f s %8.3f s %8.3f s %7.2f %7.2f   %.3f / %.3f / %.3f s (%.2f)\n",
                c.name, memory.wall, steady.wall, first.wall, steady.wall / memory.wall,
                first.wall / memory.wall, memory.cpu, steady.cpu, first.cpu,
                steady.cpu / memory.cpu);
        }
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
    // Where the loader runs the AVX-512 integer scan, the same loads with the portable one.
    const bool wideScan = io::scan::wideEnabled();
    IngestFigures portable;
    if (wideScan) {
        core::TracePtr portableTrace;
        io::scan::allowWideScan(false);
        const bool ok = measureIngest(o, loadRepeat, portable, portableTrace);
        io::scan::allowWideScan(true);
        if (!ok)
            return 1;
    }

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
        baselines.push_back(
            measureBaseline("for comparison: mmap + the loader's integer scan alone", "scan alone",
                logs, bench::BaselineKind::Scan, loadRepeat));
    }

    std::printf("%-36s %12s %12s   (best of %d)\n", "ingest", "1 thread", "2 threads", loadRepeat);
    for (const auto& b : baselines)
        printBaseline(b);
    std::printf("integer scan of the loader: %s\n",
        wideScan ? "AVX-512 VBMI2" : "SSE2 (the processor has no AVX-512 VBMI2)");
    printIngest(ingest, *trace, baselines.front());
    for (std::size_t k = 1; k < baselines.size(); ++k) {
        std::printf("  %-34s %12.2f %12.2f\n",
            (std::string("speed ratio to ") + baselines[k].shortName).c_str(),
            baselines[k].at[0].seconds / ingest.seconds[0],
            baselines[k].at[1].seconds / ingest.seconds[1]);
        std::printf("  %-34s %12.2f %12.2f\n",
            (std::string("CPU ratio to ") + baselines[k].shortName).c_str(),
            baselines[k].cpu[0] / std::max(ingest.cpu[0], 1e-9),
            baselines[k].cpu[1] / std::max(ingest.cpu[1], 1e-9));
    }
    if (wideScan) {
        const double events = static_cast<double>(trace->eventCount());
        std::printf("the same ingest with the portable SSE2 scan\n");
        std::printf("  %-34s %12.1f %12.1f\n", "CPU ns per event",
            portable.cpu[0] * 1e9 / std::max(events, 1.0),
            portable.cpu[1] * 1e9 / std::max(events, 1.0));
        std::printf("  %-34s %12.2f %12.2f\n",
            (std::string("CPU ratio to ") + baselines.front().shortName).c_str(),
            baselines.front().cpu[0] / std::max(portable.cpu[0], 1e-9),
            baselines.front().cpu[1] / std::max(portable.cpu[1], 1e-9));
        std::printf("  %-34s %12.2f %12.2f\n", "AVX-512 scan's CPU / this",
            ingest.cpu[0] / std::max(portable.cpu[0], 1e-9),
            ingest.cpu[1] / std::max(portable.cpu[1], 1e-9));
    }
    std::printf("\n");
    // The ingest trace is released first so that the reopen's RSS is its own; the analyses then
    // run on the in-memory store and on the mapped index side by side.
    trace.reset();
    MappedIndex index;
    const bool mapped = measureReopenThroughIndex(o, loadRepeat, index);
    std::printf("\n");
    if (!o.skipAnalyses) {
        auto result = io::loadRun(o.run);
        if (!result.trace) {
            std::fprintf(stderr, "parallax-bench: %s\n", result.error.c_str());
            return 1;
        }
        measureAnalyses(o, *result.trace, mapped ? &index : nullptr);
    }
    return 0;
}
