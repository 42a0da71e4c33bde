// parallax-index: builds a run's index on an MPI job (docs/cluster.md). Rank r parses its own
// slice of PEs (slices of about equal log bytes, threads inside the rank) with the loader's own
// parser and writes its own shard; rank 0 writes the manifest once every rank has reported
// success, so a failed or killed rank leaves no index that looks complete. Every rank returns the
// same exit code; MPI_Abort is called only when a rank fails between the guarded steps (out of
// memory), where the others would otherwise wait for it forever.

#include "indexer_options.h"
#include "io/cache_hash.h"
#include "io/index_build.h"
#include "io/index_cache.h"
#include "io/mapped_index.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mpi.h>
#include <sched.h>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace parallax;

namespace {

constexpr std::int64_t kRacyNs = 2'000'000'000; // as the index cache (io/index_cache.cpp)

struct Job {
    int rank = 0;
    int size = 1;
    std::string host;
};

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- Collectives (every rank calls them in the same order) ----

bool allOk(bool mine)
{
    int in = mine ? 1 : 0;
    int out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return out == 1;
}

std::vector<std::string> gatherStrings(const std::string& mine, const Job& job)
{
    std::uint64_t length = mine.size();
    std::vector<std::uint64_t> lengths(static_cast<std::size_t>(job.size));
    MPI_Gather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::vector<int> counts(static_cast<std::size_t>(job.size));
    std::vector<int> displs(static_cast<std::size_t>(job.size));
    int total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        counts[r] = static_cast<int>(lengths[r]);
        displs[r] = total;
        total += counts[r];
    }
    std::string all(job.rank == 0 ? static_cast<std::size_t>(total) : 0, '\0');
    MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), counts.data(),
        displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (job.rank == 0)
        for (std::size_t r = 0; r < counts.size(); ++r)
            out.push_back(all.substr(
                static_cast<std::size_t>(displs[r]), static_cast<std::size_t>(counts[r])));
    return out;
}

void broadcast(std::string& s)
{
    std::uint64_t length = s.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    s.resize(static_cast<std::size_t>(length));
    MPI_Bcast(s.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
}

void broadcast(std::vector<std::uint64_t>& v)
{
    std::uint64_t length = v.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    v.resize(static_cast<std::size_t>(length));
    MPI_Bcast(v.data(), static_cast<int>(length), MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

// Rank 0 prints every rank's failure (empty = none) in rank order.
void printFailures(const std::vector<std::string>& failures)
{
    for (const auto& f : failures)
        if (!f.empty())
            std::fprintf(stderr, "parallax-index: %s\n", f.c_str());
}

// ---- Small byte packing for the per-rank results ----

void put(std::string& out, std::uint64_t v)
{
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void put(std::string& out, const std::string& s)
{
    put(out, static_cast<std::uint64_t>(s.size()));
    out += s;
}
std::uint64_t takeU64(const std::string& in, std::size_t& at)
{
    std::uint64_t v = 0;
    if (at + 8 <= in.size())
        std::memcpy(&v, in.data() + at, 8);
    at += 8;
    return v;
}
std::string takeString(const std::string& in, std::size_t& at)
{
    const auto n = static_cast<std::size_t>(takeU64(in, at));
    std::string s = at <= in.size() ? in.substr(at, n) : std::string();
    at += n;
    return s;
}

struct RankResult {
    std::string error; // empty on success
    io::SliceResult slice;
    double seconds = 0;
    double cpuSeconds = 0; // user + system time the rank's process spent on its slice
    std::uint64_t cores = 0; // the CPUs the rank's process may run on (its binding)
};

double processCpuSeconds()
{
    rusage usage {};
    if (::getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    auto secondsOf = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime);
}

std::string pack(const RankResult& r)
{
    std::string out;
    put(out, r.error);
    put(out, r.slice.shard.name);
    put(out, r.slice.shard.firstPe);
    put(out, r.slice.shard.peCount);
    put(out, r.slice.shard.fileBytes);
    put(out, r.slice.shard.headerHash);
    put(out, io::encodeReport(r.slice.logReport));
    put(out, io::encodeReport(r.slice.summaryReport));
    put(out, r.slice.totals.storeBytes);
    put(out, r.slice.totals.timedExecutions);
    put(out, static_cast<std::uint64_t>(r.slice.totals.entryTimes.size()));
    for (const auto t : r.slice.totals.entryTimes)
        put(out, static_cast<std::uint64_t>(t));
    put(out, r.slice.events);
    put(out, r.slice.bytesRead);
    put(out, static_cast<std::uint64_t>(r.seconds * 1e6));
    put(out, static_cast<std::uint64_t>(r.cpuSeconds * 1e6));
    put(out, r.cores);
    return out;
}

RankResult unpack(const std::string& in)
{
    RankResult r;
    std::size_t at = 0;
    r.error = takeString(in, at);
    r.slice.shard.name = takeString(in, at);
    r.slice.shard.firstPe = takeU64(in, at);
    r.slice.shard.peCount = takeU64(in, at);
    r.slice.shard.fileBytes = takeU64(in, at);
    r.slice.shard.headerHash = takeU64(in, at);
    const auto logReport = takeString(in, at);
    const auto summaryReport = takeString(in, at);
    r.slice.totals.storeBytes = takeU64(in, at);
    r.slice.totals.timedExecutions = takeU64(in, at);
    const auto entries = takeU64(in, at);
    if (entries > (in.size() - std::min(at, in.size())) / 8)
        throw std::runtime_error("a damaged entry time table");
    for (std::uint64_t e = 0; e < entries; ++e)
        r.slice.totals.entryTimes.push_back(static_cast<core::TimeUs>(takeU64(in, at)));
    r.slice.events = takeU64(in, at);
    r.slice.bytesRead = takeU64(in, at);
    r.seconds = static_cast<double>(takeU64(in, at)) / 1e6;
    r.cpuSeconds = static_cast<double>(takeU64(in, at)) / 1e6;
    r.cores = takeU64(in, at);
    if (r.error.empty()) {
        r.slice.logReport = io::decodeReport(logReport);
        r.slice.summaryReport = io::decodeReport(summaryReport);
    }
    return r;
}

// A fingerprint of what a rank found: the same files and symbol table on every rank, or the
// ranks do not see the same run.
std::uint64_t fingerprintOf(const core::Trace& t)
{
    std::string s = t.files.stsPath + "\n" + std::to_string(t.metadata.processors);
    for (const auto* list : { &t.files.logPaths, &t.files.sumPaths, &t.files.sumdPaths })
        for (const auto& p : *list)
            s += "\n" + p;
    return io::CacheHash::of(s.data(), s.size());
}

// The CPUs this process may run on. mpirun binds ranks (OpenMPI: each rank to one core when
// there are 2 ranks or fewer, to a socket beyond), srun to the task's --cpus-per-task; threads
// beyond this count only take turns.
unsigned coresAllowed()
{
    const unsigned machine = std::max(1U, std::thread::hardware_concurrency());
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return static_cast<unsigned>(CPU_COUNT(&set));
#endif
    return machine;
}

// Without --threads: the rank's share of its node (the node's cores over the ranks on it), and
// never more than the cores the rank is bound to.
unsigned defaultThreads(unsigned cores)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int local = 1;
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    const unsigned machine = std::max(1U, std::thread::hardware_concurrency());
    return std::clamp(machine / static_cast<unsigned>(std::max(local, 1)), 1U, cores);
}

std::string formatBytes(std::uint64_t b)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(b) / 1e6);
    return buf;
}

int run(const Job& job, const std::vector<std::string>& args)
{
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    const auto parsed = indexer::parseOptions(args, error);
    if (!parsed) {
        if (job.rank == 0)
            std::fprintf(stderr, "parallax-index: %s (see parallax-index --help)\n", error.c_str());
        return indexer::kExitUsage;
    }
    const auto& o = *parsed;
    if (o.help) {
        if (job.rank == 0)
            std::fputs(indexer::kUsage, stdout);
        return indexer::kExitOk;
    }
    const unsigned cores = coresAllowed();
    const unsigned threads = o.threads != 0 ? o.threads : defaultThreads(cores);
    // Threads that would share too few cores: said once, by rank 0, with the way out; the job
    // goes on (the index is the same, only slower).
    unsigned fewestCores = cores;
    MPI_Allreduce(&cores, &fewestCores, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
    if (job.rank == 0 && threads > fewestCores)
        std::fprintf(stderr,
            "parallax-index: warning: %u threads per rank, but a rank may run on only %u "
            "core%s (its CPU binding), so its threads take turns. mpirun binds each rank to one "
            "core when there are 2 ranks or fewer: give each rank its cores with "
            "'mpirun --map-by slot:PE=%u' or '--bind-to none' (Slurm: srun --cpus-per-task=%u)\n",
            threads, fewestCores, fewestCores == 1 ? "" : "s", threads, threads);
    io::LoadOptions options;
    options.threads = threads;

    // 1. Every rank finds the run (symbol table, file list) on its own file system view.
    auto found = io::findRun(o.run, options);
    std::string failure;
    if (!found.trace)
        failure = "rank " + std::to_string(job.rank) + " (" + job.host
            + ") cannot read the run: " + found.error;
    const bool everyoneFound = allOk(failure.empty());
    auto failures = gatherStrings(failure, job);
    if (!everyoneFound) {
        printFailures(failures);
        return indexer::kExitFatal;
    }
    const auto& run = *found.trace;
    std::uint64_t mine = fingerprintOf(run);
    std::uint64_t root = mine;
    MPI_Bcast(&root, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    failure = mine == root ? std::string()
                           : "rank " + std::to_string(job.rank) + " (" + job.host
            + ") sees other files or another symbol table than rank 0 for " + o.run;
    const bool sameRun = allOk(failure.empty());
    failures = gatherStrings(failure, job);
    if (!sameRun) {
        printFailures(failures);
        return indexer::kExitFatal;
    }
    auto rows = io::indexRowsOfFound(run, options);
    if (rows.total() == 0) {
        if (job.rank == 0)
            std::fprintf(stderr, "parallax-index: %s has neither logs nor summaries to index\n",
                o.run.c_str());
        return indexer::kExitFatal;
    }
    if (static_cast<std::uint64_t>(job.size) > rows.total()) {
        if (job.rank == 0)
            std::fprintf(stderr,
                "parallax-index: %d ranks for a run of %llu PEs: use at most %llu ranks\n",
                job.size, static_cast<unsigned long long>(rows.total()),
                static_cast<unsigned long long>(rows.total()));
        return indexer::kExitUsage;
    }

    // 2. Rank 0 prepares the output (no manifest while the shards change) and the slices.
    std::string outDir;
    std::vector<std::uint64_t> bounds;
    std::vector<io::IndexKeyEntry> keyBefore;
    std::string setupError;
    if (job.rank == 0) {
        try {
            io::CacheOptions cache;
            cache.directory = o.cacheDir;
            outDir = o.output.empty() ? io::cacheFilePath(o.run, options, cache) : o.output;
            if (outDir.empty())
                throw std::runtime_error("no index directory: give -o INDEX_DIR");
            keyBefore = io::indexKeyOf(run.files, setupError);
            if (keyBefore.empty())
                throw std::runtime_error(setupError);
            const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                                 .count();
            for (const auto& e : keyBefore)
                if (e.mtimeNs > now - kRacyNs)
                    throw std::runtime_error(e.path
                        + " changed less than 2 s ago (a later change in the same clock tick "
                          "could go unseen): index it once the run is complete");
            std::error_code ec;
            if (fs::exists(outDir, ec) && !fs::is_directory(outDir, ec))
                throw std::runtime_error(outDir + " exists and is not a directory");
            fs::create_directories(outDir, ec);
            if (ec)
                throw std::runtime_error("cannot create " + outDir + " (" + ec.message() + ")");
            io::removeManifest(outDir);
            bounds
                = io::sliceByBytes(io::rowBytes(run, options), static_cast<std::size_t>(job.size));
            setupError.clear();
        } catch (const std::exception& e) {
            setupError = e.what();
        }
    }
    broadcast(setupError);
    if (!setupError.empty()) {
        if (job.rank == 0)
            std::fprintf(stderr, "parallax-index: %s\n", setupError.c_str());
        return indexer::kExitFatal;
    }
    broadcast(outDir);
    broadcast(bounds);

    // 3. Each rank indexes its slice into its shard.
    RankResult result;
    const auto sliceStart = std::chrono::steady_clock::now();
    const double cpuStart = processCpuSeconds();
    const auto shards = static_cast<std::size_t>(job.size);
    const auto buildId = io::sliceBuildId(run, options, rows, shards);
    const auto r = static_cast<std::size_t>(job.rank);
    try {
        result.slice = io::indexSlice(
            run, options, rows, outDir, buildId, r, shards, bounds[r], bounds[r + 1] - bounds[r]);
    } catch (const std::exception& e) {
        result.error = "rank " + std::to_string(job.rank) + " (" + job.host
            + ") could not write its shard: " + e.what();
    }
    result.seconds = secondsSince(sliceStart);
    result.cpuSeconds = processCpuSeconds() - cpuStart;
    result.cores = cores;
    const auto results = gatherStrings(pack(result), job);

    // 4. Rank 0 writes the manifest when every rank succeeded and the run did not change.
    int code = indexer::kExitOk;
    if (job.rank == 0) {
        std::vector<RankResult> all;
        std::vector<std::string> errors;
        for (const auto& bytes : results) {
            try {
                all.push_back(unpack(bytes));
            } catch (const std::exception& e) {
                all.emplace_back().error = std::string("a rank's result was damaged: ") + e.what();
            }
            errors.push_back(all.back().error);
        }
        const bool ok = std::all_of(
            all.begin(), all.end(), [](const RankResult& x) { return x.error.empty(); });
        try {
            if (!ok)
                throw std::runtime_error("");
            std::string keyError;
            const auto keyAfter = io::indexKeyOf(run.files, keyError);
            bool same = keyAfter.size() == keyBefore.size();
            for (std::size_t k = 0; same && k < keyAfter.size(); ++k)
                same = keyAfter[k].path == keyBefore[k].path
                    && keyAfter[k].size == keyBefore[k].size
                    && keyAfter[k].mtimeNs == keyBefore[k].mtimeNs;
            if (!same)
                throw std::runtime_error(
                    "the run's files changed while they were indexed: index it again");
            std::vector<core::ImportReport> logReports;
            std::vector<core::ImportReport> summaryReports;
            std::vector<io::ShardInfo> infos;
            std::uint64_t events = 0;
            std::uint64_t bytes = 0;
            rows.storeBytes = 0;
            rows.entryTimes.clear();
            rows.timedExecutions = 0;
            for (auto& x : all) {
                logReports.push_back(std::move(x.slice.logReport));
                summaryReports.push_back(std::move(x.slice.summaryReport));
                infos.push_back(x.slice.shard);
                io::addSliceTotals(rows, x.slice);
                events += x.slice.events;
                bytes += x.slice.bytesRead;
            }
            io::mergeSliceReports(*found.trace, logReports, summaryReports);
            io::writeManifest(outDir, *found.trace, rows,
                io::indexOptionFlags(options.readLogs, options.readSummaries), keyAfter, buildId,
                infos);
            std::printf("parallax-index: %s -> %s: %llu PEs, %llu events, %s read in %.3f s on %d "
                        "ranks x %u threads; %llu warnings\n",
                o.run.c_str(), outDir.c_str(), static_cast<unsigned long long>(rows.total()),
                static_cast<unsigned long long>(events), formatBytes(bytes).c_str(),
                secondsSince(start), job.size, threads,
                static_cast<unsigned long long>(
                    found.trace->report.total(core::Severity::Warning)));
            for (std::size_t k = 0; k < all.size(); ++k) {
                const auto& x = all[k];
                std::printf("  rank %zu: PEs %llu-%llu, %s, %llu events in %.2f s (%.1f MB/s; "
                            "CPU %.2f s, %.0f ns/event; %llu core%s)\n",
                    k, static_cast<unsigned long long>(x.slice.shard.firstPe),
                    static_cast<unsigned long long>(
                        x.slice.shard.firstPe + x.slice.shard.peCount - 1),
                    formatBytes(x.slice.bytesRead).c_str(),
                    static_cast<unsigned long long>(x.slice.events), x.seconds,
                    x.seconds > 0 ? static_cast<double>(x.slice.bytesRead) / 1e6 / x.seconds : 0.0,
                    x.cpuSeconds,
                    x.slice.events > 0 ? x.cpuSeconds * 1e9 / static_cast<double>(x.slice.events)
                                       : 0.0,
                    static_cast<unsigned long long>(x.cores), x.cores == 1 ? "" : "s");
            }
        } catch (const std::exception& e) {
            printFailures(errors);
            if (std::strlen(e.what()) > 0)
                std::fprintf(stderr, "parallax-index: %s\n", e.what());
            std::fprintf(stderr, "parallax-index: no index written\n");
            // The shards of a failed build are no index: remove them.
            std::error_code ec;
            for (std::size_t k = 0; k < shards; ++k)
                fs::remove(fs::path(outDir) / io::shardFileName(k, shards), ec);
            code = indexer::kExitFatal;
        }
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    // --version and --help answer without starting MPI (no launcher, no network set-up).
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--version") {
            std::printf("parallax-index %s\n", PARALLAX_VERSION);
            return indexer::kExitOk;
        }
        if (arg == "--help" || arg == "-h") {
            std::fputs(indexer::kUsage, stdout);
            return indexer::kExitOk;
        }
    }
    MPI_Init(&argc, &argv);
    Job job;
    MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &job.size);
    char host[MPI_MAX_PROCESSOR_NAME] = {};
    int hostLength = 0;
    MPI_Get_processor_name(host, &hostLength);
    job.host.assign(host, static_cast<std::size_t>(std::max(hostLength, 0)));
    int code = indexer::kExitFatal;
    try {
        code = run(job, std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        // Out of memory between the guarded steps: the other ranks would wait for this one in
        // the next collective forever, so the job is stopped (no manifest was written).
        std::fprintf(stderr, "parallax-index: rank %d: internal error: %s\n", job.rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, indexer::kExitFatal);
    }
    MPI_Finalize();
    return code;
}
