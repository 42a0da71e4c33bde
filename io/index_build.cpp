#include "index_build.h"

#include "cache_hash.h"
#include "file_info.h"
#include "run_parallel.h" // loadThreads
#include "summary_reader.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace parallax::io {

namespace fs = std::filesystem;

namespace {

// One PE's share of a slice, parsed on a worker and written in PE order.
struct ParsedPe {
    core::PeTrace trace;
    std::optional<core::PeSummary> summary;
    std::optional<core::PeSummaryDetail> detail;
    core::ImportReport logReport;
    core::ImportReport summaryReport;
    std::uint64_t bytes = 0;
};

void parsePe(const core::Trace& found, const LoadOptions& options, const IndexRows& rows,
    std::size_t p, ParsedPe& out)
{
    const auto& files = found.files;
    const auto pe = static_cast<core::PeId>(p);
    out.trace.pe = pe;
    if (p < rows.pes && !files.logPaths[p].empty()) {
        out.bytes += fileSizeOrZero(files.logPaths[p]);
        try {
            readPeLog(files.logPaths[p], pe, found.metadata, out.trace, out.logReport);
        } catch (const std::exception& e) {
            // Out of memory or a bug: leave this PE out, keep the rest of the run (as loadRun).
            out.logReport.add(core::Issue::FileError, fileNameOf(files.logPaths[p]), 0,
                std::string("could not be read: ") + e.what());
            out.trace = core::PeTrace {};
            out.trace.pe = pe;
        }
    }
    if (p < rows.summaries && !files.sumPaths[p].empty()) {
        out.bytes += fileSizeOrZero(files.sumPaths[p]);
        out.summary = readSummary(files.sumPaths[p], pe, out.summaryReport);
    }
    if (p < rows.details && !files.sumdPaths[p].empty()) {
        out.bytes += fileSizeOrZero(files.sumdPaths[p]);
        out.detail = readSummaryDetail(files.sumdPaths[p], pe, out.summaryReport);
    }
    (void)options;
}

// ---- Reports as bytes ----

void putU64(std::string& out, std::uint64_t v)
{
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void putString(std::string& out, const std::string& s)
{
    putU64(out, s.size());
    out += s;
}

class ByteCursor {
public:
    explicit ByteCursor(const std::string& bytes)
        : m_bytes(bytes)
    { }
    std::uint64_t u64()
    {
        need(8);
        std::uint64_t v = 0;
        std::memcpy(&v, m_bytes.data() + m_at, 8);
        m_at += 8;
        return v;
    }
    std::string string()
    {
        const auto n = u64();
        need(n);
        auto s = m_bytes.substr(m_at, static_cast<std::size_t>(n));
        m_at += static_cast<std::size_t>(n);
        return s;
    }
    [[nodiscard]] bool done() const { return m_at == m_bytes.size(); }

private:
    void need(std::uint64_t n) const
    {
        if (n > m_bytes.size() - m_at)
            throw std::runtime_error("a damaged import report");
    }
    const std::string& m_bytes;
    std::size_t m_at = 0;
};

} // namespace

IndexRows indexRowsOfFound(const core::Trace& found, const LoadOptions& options)
{
    IndexRows rows;
    const auto& files = found.files;
    if (options.readLogs)
        for (std::size_t p = files.logPaths.size(); p > 0; --p)
            if (!files.logPaths[p - 1].empty()) {
                rows.pes = p;
                break;
            }
    if (options.readSummaries) {
        rows.summaries
            = static_cast<std::uint64_t>(std::max<core::PeId>(found.metadata.processors, 0));
        rows.details = rows.summaries;
    }
    return rows;
}

std::vector<std::uint64_t> rowBytes(const core::Trace& found, const LoadOptions& options)
{
    const auto rows = indexRowsOfFound(found, options);
    std::vector<std::uint64_t> bytes(static_cast<std::size_t>(rows.total()), 0);
    const auto& files = found.files;
    for (std::size_t p = 0; p < bytes.size(); ++p) {
        if (p < rows.pes)
            bytes[p] += fileSizeOrZero(files.logPaths[p]);
        if (p < rows.summaries)
            bytes[p] += fileSizeOrZero(files.sumPaths[p]) + fileSizeOrZero(files.sumdPaths[p]);
    }
    return bytes;
}

std::vector<std::uint64_t> sliceByBytes(const std::vector<std::uint64_t>& bytes, std::size_t slices)
{
    const auto n = bytes.size();
    if (slices < 1 || slices > n)
        throw std::invalid_argument("more slices than rows");
    std::uint64_t total = 0;
    for (const auto b : bytes)
        total += b + 1; // every row weighs something, so empty ones still spread
    std::vector<std::uint64_t> bounds { 0 };
    std::uint64_t sum = 0;
    std::size_t p = 0;
    for (std::size_t s = 1; s < slices; ++s) {
        // The slice ends where the running total first reaches s/slices of the whole, leaving at
        // least one row for itself and for each slice after it.
        const auto target = static_cast<std::uint64_t>(
            static_cast<double>(total) * static_cast<double>(s) / static_cast<double>(slices));
        const auto last = n - (slices - s); // rows p .. last-1 may go to this slice
        do {
            sum += bytes[p] + 1;
            ++p;
        } while (p < last && sum + (bytes[p] + 1) / 2 < target);
        bounds.push_back(p);
    }
    bounds.push_back(n);
    return bounds;
}

std::uint64_t sliceBuildId(const core::Trace& found, const LoadOptions& options,
    const IndexRows& rows, std::size_t shardCount)
{
    struct stat st { };
    ::stat(found.files.stsPath.c_str(), &st);
    const std::uint64_t facts[]
        = { static_cast<std::uint64_t>(st.st_size), static_cast<std::uint64_t>(st.st_mtim.tv_sec),
              static_cast<std::uint64_t>(st.st_mtim.tv_nsec),
              indexOptionFlags(options.readLogs, options.readSummaries), rows.pes, rows.summaries,
              rows.details, shardCount };
    CacheHash h;
    const auto name = fileNameOf(found.files.stsPath);
    h.update(name.data(), name.size());
    h.update(facts, sizeof facts);
    return h.digest();
}

namespace {

// Parses the PEs of a slice on `threads` workers, at most `window` PEs ahead of the caller, which
// takes each one in PE order as soon as it is parsed (writes it into the shard) while the
// workers go on. The workers live for the whole slice: each keeps its per-thread buffers (the
// whole-log buffer, the builder's staging) for every PE it parses. Starting fresh threads for
// every few PEs, as before, paid those buffers' page faults again each time: 115 against 84 ns
// of CPU per event on 2 threads against 1 (docs/cluster.md).
class SlicePipeline {
public:
    SlicePipeline(
        unsigned threads, std::uint64_t count, std::function<void(std::uint64_t, ParsedPe&)> parse)
        : m_window(std::max<std::size_t>(std::size_t { threads } * 2U, 2))
        , m_count(count)
        , m_parse(std::move(parse))
        , m_slots(m_window)
        , m_ready(m_window, 0)
    {
        try {
            for (unsigned t = 0; t < threads; ++t)
                m_workers.emplace_back([this] { work(); });
        } catch (...) {
            stopAndJoin();
            throw;
        }
    }
    ~SlicePipeline() { stopAndJoin(); }
    SlicePipeline(const SlicePipeline&) = delete;
    SlicePipeline& operator=(const SlicePipeline&) = delete;

    // Calls take(k, parsed PE k) for k = 0 .. count-1 in order; rethrows a worker's exception.
    void forEachInOrder(const std::function<void(std::uint64_t, ParsedPe&)>& take)
    {
        for (std::uint64_t k = 0; k < m_count; ++k) {
            const auto slot = static_cast<std::size_t>(k % m_window);
            {
                std::unique_lock lock(m_mutex);
                m_parsed.wait(lock, [&] { return m_stop || m_ready[slot] != 0; });
                if (m_ready[slot] == 0)
                    break; // a worker failed
            }
            take(k, m_slots[slot]);
            m_slots[slot] = ParsedPe {};
            {
                std::lock_guard lock(m_mutex);
                m_ready[slot] = 0;
                m_written = k + 1;
            }
            m_freed.notify_all();
        }
        stopAndJoin();
        if (m_failure)
            std::rethrow_exception(m_failure);
    }

private:
    void work()
    {
        for (;;) {
            std::uint64_t k = 0;
            {
                std::unique_lock lock(m_mutex);
                m_freed.wait(lock,
                    [&] { return m_stop || m_next >= m_count || m_next < m_written + m_window; });
                if (m_stop || m_next >= m_count)
                    return;
                k = m_next++;
            }
            const auto slot = static_cast<std::size_t>(k % m_window);
            try {
                m_parse(k, m_slots[slot]);
            } catch (...) {
                std::lock_guard lock(m_mutex);
                if (!m_failure)
                    m_failure = std::current_exception();
                m_stop = true;
                m_parsed.notify_all();
                m_freed.notify_all();
                return;
            }
            {
                std::lock_guard lock(m_mutex);
                m_ready[slot] = 1;
            }
            m_parsed.notify_all();
        }
    }

    void stopAndJoin()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_freed.notify_all();
        m_parsed.notify_all();
        for (auto& t : m_workers)
            if (t.joinable())
                t.join();
    }

    const std::size_t m_window;
    const std::uint64_t m_count;
    const std::function<void(std::uint64_t, ParsedPe&)> m_parse;
    std::vector<ParsedPe> m_slots; // PE k in slot k % window
    std::vector<char> m_ready; // slot holds a parsed PE the caller has not taken yet
    std::mutex m_mutex;
    std::condition_variable m_parsed;
    std::condition_variable m_freed;
    std::uint64_t m_next = 0; // the next PE a worker takes
    std::uint64_t m_written = 0; // PEs the caller has taken
    bool m_stop = false;
    std::exception_ptr m_failure;
    std::vector<std::thread> m_workers;
};

} // namespace

SliceResult indexSlice(const core::Trace& found, const LoadOptions& options, const IndexRows& rows,
    const std::string& directory, std::uint64_t buildId, std::size_t shardIndex,
    std::size_t shardCount, std::uint64_t firstPe, std::uint64_t peCount)
{
    SliceResult result;
    ShardWriter shard(directory, buildId, shardIndex, shardCount, firstPe, peCount);
    auto parse = [&](std::uint64_t k, ParsedPe& x) {
        parsePe(found, options, rows, static_cast<std::size_t>(firstPe + k), x);
    };
    auto take = [&](std::uint64_t k, ParsedPe& x) {
        const auto p = firstPe + k;
        shard.add(p < rows.pes ? &x.trace : nullptr, x.summary ? &*x.summary : nullptr,
            x.detail ? &*x.detail : nullptr);
        result.logReport.merge(x.logReport);
        result.summaryReport.merge(x.summaryReport);
        if (p < rows.pes) {
            result.totals.storeBytes += x.trace.memoryBytes();
            result.totals.addEntryTimes(x.trace, found.metadata.entryCount());
            result.events += x.trace.recordCount;
        }
        result.bytesRead += x.bytes;
    };
    const unsigned threads = loadThreads(options.threads);
    if (threads <= 1 || peCount <= 1) {
        for (std::uint64_t k = 0; k < peCount; ++k) {
            ParsedPe x;
            parse(k, x);
            take(k, x);
        }
    } else {
        SlicePipeline pipeline(
            static_cast<unsigned>(std::min<std::uint64_t>(threads, peCount)), peCount, parse);
        pipeline.forEachInOrder(take);
    }
    result.shard = shard.finish();
    return result;
}

void addSliceTotals(IndexRows& rows, const SliceResult& slice)
{
    const auto& t = slice.totals;
    rows.storeBytes += t.storeBytes;
    rows.timedExecutions += t.timedExecutions;
    if (rows.entryTimes.size() < t.entryTimes.size())
        rows.entryTimes.resize(t.entryTimes.size(), 0);
    for (std::size_t e = 0; e < t.entryTimes.size(); ++e)
        rows.entryTimes[e] += t.entryTimes[e];
}

void mergeSliceReports(core::Trace& found, const std::vector<core::ImportReport>& logReports,
    const std::vector<core::ImportReport>& summaryReports)
{
    for (const auto& r : logReports)
        found.report.merge(r);
    for (const auto& r : summaryReports)
        found.report.merge(r);
    finishLoadReport(found);
}

std::string encodeReport(const core::ImportReport& report)
{
    std::string out;
    putU64(out, core::kIssueKinds);
    for (std::size_t k = 0; k < core::kIssueKinds; ++k)
        putU64(out, report.count(static_cast<core::Issue>(k)));
    putU64(out, report.examples().size());
    for (const auto& e : report.examples()) {
        putU64(out, static_cast<std::uint64_t>(e.issue));
        putString(out, e.file);
        putU64(out, e.line);
        putString(out, e.message);
    }
    return out;
}

core::ImportReport decodeReport(const std::string& bytes)
{
    ByteCursor in(bytes);
    if (in.u64() != core::kIssueKinds)
        throw std::runtime_error("an import report of another build");
    std::vector<std::uint64_t> counts(core::kIssueKinds);
    for (auto& c : counts)
        c = in.u64();
    core::ImportReport report;
    std::vector<std::uint64_t> examples(core::kIssueKinds, 0);
    const auto n = in.u64();
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto k = in.u64();
        if (k >= core::kIssueKinds)
            throw std::runtime_error("a damaged import report");
        auto file = in.string();
        const auto line = in.u64();
        auto message = in.string();
        report.add(static_cast<core::Issue>(k), file, line, std::move(message));
        ++examples[k];
    }
    for (std::size_t k = 0; k < core::kIssueKinds; ++k) {
        if (examples[k] > counts[k])
            throw std::runtime_error("a damaged import report");
        report.increment(static_cast<core::Issue>(k), counts[k] - examples[k]);
    }
    if (!in.done())
        throw std::runtime_error("a damaged import report");
    return report;
}

} // namespace parallax::io
