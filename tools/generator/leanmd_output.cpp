// Writes a `--like leanmd-smp` run: the template's symbol table, then every PE's log and
// summaries, PEs in parallel.

#include "generator.h"
#include "leanmd_template.h"
#include "log_writer.h"
#include "output_file.h"
#include "parallel_for.h"
#include "sts_writer.h"
#include "summary_accumulator.h"
#include "summary_writer.h"
#include "text_buffer.h"

#include <filesystem>
#include <mutex>

namespace parallax::gen {

namespace {

struct LeanMdScratch {
    std::vector<TraceRecord> records;
    SummaryAccumulator summary;
    TextBuffer logText;
    TextBuffer summaryText { std::size_t { 1 } << 16 };
};

std::optional<std::string> writeLeanMdPe(
    const LeanMdModel& model, const GeneratorOptions& options, PeId pe, LeanMdScratch& scratch)
{
    const std::filesystem::path directory(options.outDir);
    const auto peFile = [&](std::string_view extension) {
        return (directory / (options.name + "." + std::to_string(pe) + std::string(extension)))
            .string();
    };
    // A first pass counts the records (for the log's header) and finds the last time (for the
    // summary bins); the second writes them. Only one step is in memory at a time.
    std::uint64_t recordCount = 0;
    TimeUs endTime = 0;
    simulateLeanMdPe(model, pe, scratch.records, [&](const std::vector<TraceRecord>& records) {
        recordCount += records.size();
        if (!records.empty()) {
            endTime = records.back().time;
        }
    });

    OutputFile logFile;
    if (!logFile.open(peFile(options.gzip ? ".log.gz" : ".log"), options.gzip)) {
        return logFile.error();
    }
    LogWriter log(logFile, recordCount, scratch.logText);
    if (options.summaries) {
        const TimeUs binSize = summaryBinSize(options.binSize, endTime);
        scratch.summary.reset(
            model.symbols().entryCount(), binSize, summaryBinCount(binSize, endTime));
    }
    simulateLeanMdPe(model, pe, scratch.records, [&](const std::vector<TraceRecord>& records) {
        for (const TraceRecord& record : records) {
            log.write(record);
            if (options.summaries) {
                scratch.summary.add(record);
            }
        }
    });
    if (!log.flush() || !logFile.close()) {
        return logFile.error();
    }
    if (!options.summaries) {
        return std::nullopt;
    }
    // Charm++ writes the number of worker PEs into every .sum header, comm threads' included.
    if (auto error = writeSumFile(
            peFile(".sum"), scratch.summary, pe, model.workerPes(), scratch.summaryText)) {
        return error;
    }
    return writeSumDetailFile(
        peFile(".sumd"), scratch.summary, pe, model.workerPes(), scratch.summaryText);
}

} // namespace

GeneratorOutcome generateLeanMdRun(const GeneratorOptions& options)
{
    const auto failWith = [](std::string message) {
        return failedRun(std::move(message));
    };
    if (auto error = createOutputDirectory(options.outDir)) {
        return failWith(*error);
    }

    const LeanMdModel model(options);
    const std::filesystem::path directory(options.outDir);
    const auto runFile = [&](std::string_view suffix) {
        return (directory / (options.name + std::string(suffix))).string();
    };
    StsHeader header;
    header.processors = model.totalPes();
    header.smpNodeSize = LeanMdModel::kNodeSize;
    header.smpNodes = model.nodes();
    header.commandLine = "./leanmd 3 3 3 " + std::to_string(model.steps())
        + " +balancer GreedyLB +sumDetail +p" + std::to_string(model.workerPes()) + " ++ppn "
        + std::to_string(LeanMdModel::kNodeSize);
    if (auto error = writeStsFile(runFile(".sts"), header, model.symbols(), StsKind::Projections)) {
        return failWith(*error);
    }
    if (auto error = writeProjrcFile(runFile(".projrc"), model.endTime())) {
        return failWith(*error);
    }
    if (options.summaries) {
        if (auto error
            = writeStsFile(runFile(".sum.sts"), header, model.symbols(), StsKind::Summary)) {
            return failWith(*error);
        }
    }

    const int threads = writerThreads(options);
    std::vector<LeanMdScratch> scratch(
        static_cast<std::size_t>(std::min(threads, model.totalPes())));
    std::mutex errorMutex;
    std::optional<std::string> firstError;
    parallelFor(model.totalPes(), scratch, 1, [&](std::int64_t pe, LeanMdScratch& buffers) {
        if (auto error = writeLeanMdPe(model, options, static_cast<PeId>(pe), buffers)) {
            const std::lock_guard lock(errorMutex);
            if (!firstError) {
                firstError = std::move(error);
            }
        }
    });
    if (firstError) {
        return failWith(*firstError);
    }
    return {};
}

} // namespace parallax::gen
