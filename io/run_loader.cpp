#include "run_loader.h"

#include "byte_source.h"
#include "core/pe_trace_builder.h"
#include "file_info.h"
#include "line_reader.h"
#include "log_line_parser.h"
#include "pe_detail_cache.h"
#include "reduction_manifest.h"
#include "run_discovery.h"
#include "run_parallel.h"
#include "store_estimate.h"
#include "sts_reader.h"
#include "summary_reader.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <mutex>
#include <vector>

namespace parallax::io {

namespace {

bool looksBinary(std::string_view line)
{
    return std::any_of(line.begin(), line.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u == 0 || (u < 32 && c != '\t' && c != '\r');
    });
}

} // namespace

bool readPeLog(const std::string& path, core::PeId pe, const core::RunMetadata& metadata,
    core::PeTrace& out, core::ImportReport& report,
    const std::function<bool(std::uint64_t, std::uint64_t)>& onChunk, core::StoreArena* arena)
{
    const auto fileName = fileNameOf(path);
    std::string error;
    auto source = ByteSource::open(path, error);
    if (!source) {
        report.add(core::Issue::FileError, fileName, 0, error);
        out = core::PeTrace {};
        out.pe = pe;
        return true;
    }
    LineReader lines(*source);
    LogLineParser parser(metadata);
    core::PeTraceBuilder builder(pe, metadata, fileName, report);
    builder.useArena(arena);
    core::LogRecord record;
    std::string why;
    std::string_view line;
    std::uint64_t reported = 0;
    std::uint64_t reportedLines = 0;
    std::uint64_t malformedInARow = 0;
    bool first = true;
    bool cancelled = false;

    // After an accepted record: false once the log has ended (END_COMPUTATION) or the load was
    // cancelled.
    auto accepted = [&]() {
        malformedInARow = 0;
        builder.add(record, lines.lineNumber());
        if (builder.ended()) {
            // Java stops at the first END_COMPUTATION; count what follows, do not parse it.
            std::uint64_t after = 0;
            while (lines.next(line)) {
                if (line.empty())
                    continue;
                if (++after == 1)
                    report.add(core::Issue::RecordsAfterEnd, fileName, lines.lineNumber(),
                        "record after END_COMPUTATION ignored (Java stops reading there)");
            }
            if (after > 1)
                report.increment(core::Issue::RecordsAfterEnd, after - 1);
            return false;
        }
        return true;
    };
    auto progressed = [&]() {
        if (onChunk && lines.lineNumber() - reportedLines >= 16384) {
            const auto consumed = lines.bytesConsumed();
            const auto read = lines.lineNumber();
            if (!onChunk(consumed - reported, read - reportedLines)) {
                cancelled = true;
                return false;
            }
            reported = consumed;
            reportedLines = read;
        }
        return true;
    };

    // Header: "PROJECTIONS-RECORD [n] [DELTA]" (the count is not the record count).
    for (;;) {
        // The common records straight from a whole source's text (no line copied or split
        // first); any other line is read below and parsed field by field.
        if (!first && lines.cursor() != nullptr) {
            const char* newline = nullptr;
            if (parser.parseInPlace(lines.cursor(), lines.textEnd(), record, newline)) {
                lines.skipLine(newline);
                if (!accepted() || !progressed())
                    break;
                continue;
            }
        }
        if (!lines.next(line))
            break;
        if (first) {
            first = false;
            if (line.starts_with("PROJECTIONS-RECORD")) {
                if (line.find("DELTA") != std::string_view::npos) {
                    report.add(core::Issue::UnsupportedLog, fileName, 1,
                        "delta-encoded log (historic format) is not supported; PE left out");
                    out = core::PeTrace {};
                    out.pe = pe;
                    return true;
                }
                continue;
            }
            if (looksBinary(line)) {
                report.add(core::Issue::UnsupportedLog, fileName, 1,
                    "binary or non-text log (e.g. +binary-trace) is not supported; PE left out");
                out = core::PeTrace {};
                out.pe = pe;
                return true;
            }
            report.add(core::Issue::MalformedLine, fileName, 1,
                "no PROJECTIONS-RECORD header; reading the line as a record");
        }
        if (line.empty()) {
            report.increment(core::Issue::BlankLine);
            continue;
        }
        const auto status = parser.parse(line, record, why);
        if (status == ParseStatus::Ok) {
            if (!accepted())
                break;
        } else {
            const bool lastLine = lines.endedMidLine();
            report.add(status == ParseStatus::UnknownType ? core::Issue::UnknownRecordType
                                                          : core::Issue::MalformedLine,
                fileName, lines.lineNumber(),
                why + (lastLine ? " (last line, cut short)" : "") + ": '"
                    + std::string(line.substr(0, 80)) + (line.size() > 80 ? "...'" : "'"));
            ++malformedInARow;
        }
        if (!progressed())
            break;
    }
    for (const auto lineNumber : lines.overlongLineNumbers())
        report.add(core::Issue::OverlongLine, fileName, lineNumber, "line over 1 MiB skipped");
    if (lines.overlongLines() > lines.overlongLineNumbers().size())
        report.increment(
            core::Issue::OverlongLine, lines.overlongLines() - lines.overlongLineNumbers().size());
    if (lines.failed())
        report.add(core::Issue::GzipError, fileName, lines.lineNumber(),
            lines.error() + "; records before line " + std::to_string(lines.lineNumber() + 1)
                + " kept");
    if (parser.doubledMulticasts() > 0)
        report.increment(core::Issue::MulticastCountDoubled, parser.doubledMulticasts());
    if (onChunk && !cancelled)
        onChunk(lines.bytesConsumed() - reported, lines.lineNumber() - reportedLines);
    out = builder.finish();
    return !cancelled;
}

void finishLoadReport(core::Trace& trace)
{
    auto& files = trace.files;
    // PEs without a file of a kind that others have (docs/format.md §5.6: reported, not fatal).
    auto reportMissing = [&](const std::vector<std::string>& paths, const char* kind) {
        for (const auto p : core::Trace::pesLackingFile(paths))
            trace.report.add(core::Issue::MissingFile,
                files.baseName + "." + std::to_string(p) + kind, 0,
                "PE " + std::to_string(p) + " has no " + kind + " file");
    };
    // A reduced run left the other PEs' logs out on purpose: not a problem to report.
    if (!attachReducedRun(trace))
        reportMissing(files.logPaths, ".log");
    reportMissing(files.sumPaths, ".sum");
    reportMissing(files.sumdPaths, ".sumd");
}

FoundRun findRun(const std::string& path, const LoadOptions& options)
{
    FoundRun run;
    run.path = path;
    try {
        auto trace = std::make_shared<core::Trace>();
        auto& report = trace->report;
        if (options.progress)
            options.progress({ "finding files", 0, 0, 0, 0 });
        auto located = locateSymbolTable(path);
        if (!located.ok) {
            run.error = located.error;
            return run;
        }
        trace->files = std::move(located.files);
        auto& files = trace->files;

        if (options.progress)
            options.progress({ "reading symbol table", 0, 0, 0, 0 });
        auto sts = readSts(files.stsPath, report);
        if (!sts.ok) {
            run.error = sts.error;
            return run;
        }
        trace->metadata = std::move(sts.metadata);
        auto& meta = trace->metadata;
        if (!files.projrcPath.empty())
            meta.projrcEndTime = readProjrcEndTime(files.projrcPath, report);

        const auto processors = collectFiles(files, meta.processors, report);
        if (processors != meta.processors) {
            meta.processors = processors;
            if (meta.smp && std::int64_t { meta.nodeSize } * meta.numNodes > processors) {
                meta.smp = false;
                meta.commThreadsPerNode = 0;
                meta.nodeSize = 1;
                meta.numNodes = processors;
            }
        }
        if (options.readLogs && options.memoryBudget > 0)
            run.estimate = estimateStore(files);
        run.trace = std::move(trace);
    } catch (const std::exception& e) {
        run.error = path + ": could not be loaded (" + e.what() + ")";
    }
    return run;
}

LoadResult loadRun(const std::string& path, const LoadOptions& options)
{
    return loadFoundRun(findRun(path, options), options);
}

LoadResult loadFoundRun(FoundRun run, const LoadOptions& options)
{
    LoadResult result;
    if (!run.trace) {
        result.error = std::move(run.error);
        return result;
    }
    try {
        auto trace = std::move(run.trace);
        auto& report = trace->report;
        auto& files = trace->files;
        const auto& meta = trace->metadata;
        auto progress = [&](const LoadProgress& p) {
            if (options.progress)
                options.progress(p);
        };
        auto isCancelled = [&]() {
            return options.cancelled && options.cancelled();
        };
        const auto processors = static_cast<std::size_t>(meta.processors);

        // A run too big for the memory budget opens from its summaries; its logs are read one
        // PE at a time when a view asks (Trace::detailSource).
        bool readLogs = options.readLogs;
        auto deferLogs = [&](std::uint64_t storeBytes) {
            readLogs = false;
            trace->deferredStoreBytes = storeBytes;
            trace->detailSource = std::make_shared<PeDetailCache>(meta, files.logPaths,
                std::max<std::uint64_t>(options.memoryBudget / 4, std::uint64_t { 64 } << 20));
        };
        if (readLogs && run.overBudget(options))
            deferLogs(run.estimate->storeBytes);

        // Per-PE logs, in parallel: workers take the next PE from a shared counter.
        std::vector<std::size_t> logPes;
        if (readLogs)
            for (std::size_t p = 0; p < processors; ++p)
                if (!files.logPaths[p].empty())
                    logPes.push_back(p);
        const std::size_t pesSize = logPes.empty() ? 0 : logPes.back() + 1;
        trace->pes.resize(pesSize);
        for (std::size_t p = 0; p < pesSize; ++p)
            trace->pes[p].pe = static_cast<core::PeId>(p);
        std::vector<core::ImportReport> reports(logPes.size());
        // The estimate rests on a gzip trailer and a sample that a file can make lie, so the
        // budget is also held to while reading: past it, the logs read so far are dropped and
        // the run opens as one over the budget.
        const bool enforceBudget = readLogs && options.memoryBudget > 0;
        const std::uint64_t peBytes = processors * kStoreBytesPerPe;
        std::atomic<std::uint64_t> recordsRead { 0 };
        std::atomic<bool> overBudget { false };
        std::atomic<std::size_t> filesDone { 0 };
        std::atomic<std::uint64_t> bytesDone { 0 };
        std::atomic<std::uint64_t> lastReported { 0 };
        std::atomic<bool> stop { false };
        std::mutex progressMutex;
        const auto bytesTotal = files.logBytes;
        auto reportProgress = [&](bool force) {
            const auto done = bytesDone.load();
            if (!force && done - lastReported.load() < (4U << 20))
                return;
            lastReported = done;
            std::lock_guard lock(progressMutex);
            progress({ "reading logs " + std::to_string(filesDone.load()) + "/"
                    + std::to_string(logPes.size()),
                done, bytesTotal, filesDone.load(), logPes.size() });
        };
        // The PEs' columns, in large blocks shared by the run (core::StoreArena).
        core::StoreArena arena;
        auto readLog = [&](std::size_t k) {
            if (stop.load())
                return;
            const auto pe = logPes[k];
            auto onChunk = [&](std::uint64_t delta, std::uint64_t lines) {
                bytesDone += delta;
                reportProgress(false);
                if (isCancelled())
                    stop = true;
                const auto records = recordsRead += lines;
                if (enforceBudget
                    && records * kStoreBytesPerRecord + peBytes > options.memoryBudget) {
                    overBudget = true;
                    stop = true;
                }
                return !stop.load();
            };
            try {
                readPeLog(files.logPaths[pe], static_cast<core::PeId>(pe), meta, trace->pes[pe],
                    reports[k], onChunk, &arena);
            } catch (const std::exception& e) {
                // Out of memory or a bug: leave this PE out, keep the rest of the run.
                reports[k].add(core::Issue::FileError, fileNameOf(files.logPaths[pe]), 0,
                    std::string("could not be read: ") + e.what());
                trace->pes[pe] = core::PeTrace {};
                trace->pes[pe].pe = static_cast<core::PeId>(pe);
            }
            ++filesDone;
            reportProgress(true);
        };
        const unsigned threads = loadThreads(options.threads);
        progress(
            { "reading logs 0/" + std::to_string(logPes.size()), 0, bytesTotal, 0, logPes.size() });
        runParallel(threads, logPes.size(), readLog);
        if (overBudget.load() && !isCancelled()) {
            stop = false;
            report.add(core::Issue::FileError, files.baseName, 0,
                "the logs hold more records than their sizes suggested (more than "
                    + std::to_string(recordsRead.load())
                    + "); they are left unread to stay within"
                      " the memory budget, and single PEs are read when a view needs them");
            // What the store would have held, extrapolated from the share of the log bytes
            // read so far; more than the budget in any case.
            const double share = bytesTotal == 0 ? 1.0
                                                 : std::clamp(static_cast<double>(bytesDone.load())
                                                         / static_cast<double>(bytesTotal),
                                                     1e-6, 1.0);
            const auto extrapolated = static_cast<std::uint64_t>(
                static_cast<double>(recordsRead.load() * kStoreBytesPerRecord) / share);
            deferLogs(std::max(options.memoryBudget + 1, extrapolated + peBytes));
            logPes.clear();
            reports.clear();
            trace->pes.clear();
            trace->pes.shrink_to_fit();
        }
        if (stop.load() || isCancelled()) {
            result.cancelled = true;
            return result;
        }
        for (const auto& r : reports)
            report.merge(r);

        // Summaries, in parallel too (a twentieth of the log bytes on a typical run); the
        // per-PE reports are merged in PE order, as if read one after the other.
        trace->summaries.resize(options.readSummaries ? processors : 0);
        trace->details.resize(options.readSummaries ? processors : 0);
        if (options.readSummaries) {
            progress({ "reading summaries", bytesDone.load(), bytesTotal, filesDone.load(),
                logPes.size() });
            std::vector<core::ImportReport> summaryReports(processors);
            runParallel(threads, processors, [&](std::size_t p) {
                if (stop.load() || isCancelled()) {
                    stop = true;
                    return;
                }
                if (!files.sumPaths[p].empty())
                    trace->summaries[p] = readSummary(
                        files.sumPaths[p], static_cast<core::PeId>(p), summaryReports[p]);
                if (!files.sumdPaths[p].empty())
                    trace->details[p] = readSummaryDetail(
                        files.sumdPaths[p], static_cast<core::PeId>(p), summaryReports[p]);
            });
            if (stop.load()) {
                result.cancelled = true;
                return result;
            }
            for (const auto& r : summaryReports)
                report.merge(r);
        }

        finishLoadReport(*trace);

        progress({ "done", bytesDone.load(), bytesTotal, filesDone.load(), logPes.size() });
        result.trace = std::move(trace);
    } catch (const std::exception& e) {
        result.error = run.path + ": could not be loaded (" + e.what() + ")";
        result.trace.reset();
    }
    return result;
}

} // namespace parallax::io
