#include "generator.h"

#include "output_file.h"
#include "parallel_for.h"
#include "pe_file_writer.h"
#include "planted_classes.h"
#include "run_model.h"
#include "run_schedule.h"
#include "sts_writer.h"
#include "symbol_table.h"

#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace parallax::gen {

namespace {

constexpr std::size_t kListedPes = 32;

std::string joinPes(const std::vector<PeId>& pes)
{
    std::string text;
    for (const PeId pe : pes) {
        if (!text.empty()) {
            text += ',';
        }
        text += std::to_string(pe);
    }
    return text;
}

std::vector<std::string> plantedLines(const GeneratorOptions& options, const RunModel& model)
{
    std::vector<std::string> lines;
    if (!options.overloadedPes.empty()) {
        lines.push_back("planted overloaded-pes " + joinPes(options.overloadedPes) + " factor "
            + formatFactor(options.overloadFactor));
    }
    if (!options.slowIterations.empty()) {
        lines.push_back("planted slow-iterations " + joinPes(options.slowIterations) + " factor "
            + formatFactor(options.slowIterationFactor));
    }
    if (options.bimodalEntry) {
        lines.push_back("planted bimodal-entry " + model.symbols().shortName(entry::kCompute)
            + " ep " + std::to_string(entry::kCompute) + " fraction "
            + formatFactor(RunModel::kBimodalSlowPerMille / 1000.0) + " factor "
            + formatFactor(RunModel::kBimodalSlowFactor));
    }
    const auto& classes = model.peClasses();
    const auto classLine = [&](PeClass peClass) {
        // Long lists are left to --truth.
        const std::vector<PeId> pes = pesOfClass(classes, peClass);
        return pes.size() <= kListedPes
            ? joinPes(pes)
            : std::to_string(pes.size()) + " of " + std::to_string(options.pes);
    };
    if (options.heavyFraction > 0.0) {
        lines.push_back("planted heavy-pes " + classLine(PeClass::Heavy) + " factor "
            + formatFactor(options.heavyFactor));
    }
    if (options.anomalousPes > 0) {
        lines.push_back("planted anomalous-pes " + classLine(PeClass::Anomalous) + " entry "
            + model.symbols().shortName(model.rebuildPairlistEntry()) + " ep "
            + std::to_string(model.rebuildPairlistEntry()));
    }
    if (options.specialPe0) {
        std::string line = "planted special-pe0 entries";
        for (const PlantedEntry role : { PlantedEntry::ReceiveStats, PlantedEntry::LoadBalance,
                 PlantedEntry::ReportProgress }) {
            line += ' ';
            line += model.symbols().shortName(model.symbols().planted(role));
        }
        lines.push_back(std::move(line));
    }
    if (options.alternatingPhases) {
        lines.push_back("planted alternating-phases halves 0-" + std::to_string(options.pes / 2 - 1)
            + "," + std::to_string(options.pes / 2) + "-" + std::to_string(options.pes - 1)
            + " entries "
            + model.symbols().shortName(model.symbols().planted(PlantedEntry::ComputeBonded)) + " "
            + model.symbols().shortName(model.symbols().planted(PlantedEntry::ComputeNonbonded))
            + " swap at iteration " + std::to_string(model.iterations() / 2) + " of "
            + std::to_string(model.iterations()));
    }
    if (model.hasHeavySender()) {
        lines.push_back("planted heavy-sender " + std::to_string(model.heavySender()) + " targets "
            + joinPes(model.heavyTargets()));
    }
    return lines;
}

} // namespace

GeneratorOutcome failedRun(std::string error)
{
    GeneratorOutcome outcome;
    outcome.exitCode = 1;
    outcome.error = std::move(error);
    return outcome;
}

int writerThreads(const GeneratorOptions& options)
{
    if (options.threads > 0) {
        return options.threads;
    }
    return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

GeneratorOutcome generateRun(const GeneratorOptions& options)
{
    if (!options.like.empty()) {
        return generateLeanMdRun(options);
    }
    GeneratorOutcome outcome;
    const auto failWith = [](std::string message) {
        return failedRun(std::move(message));
    };
    if (auto error = createOutputDirectory(options.outDir)) {
        return failWith(*error);
    }

    const SymbolTable symbols(options.entries, plantedEntriesOf(options));
    const RunModel model(options, symbols, chooseRunSize(options));
    const int threads = writerThreads(options);

    RunSchedule schedule;
    if (auto error = computeSchedule(model, threads, schedule)) {
        return failWith(*error);
    }

    const std::filesystem::path directory(options.outDir);
    const auto runFile = [&](std::string_view suffix) {
        return (directory / (options.name + std::string(suffix))).string();
    };
    if (auto error = writeStsFile(runFile(".sts"), model, StsKind::Projections)) {
        return failWith(*error);
    }
    if (auto error = writeProjrcFile(runFile(".projrc"), schedule.maxEndTime())) {
        return failWith(*error);
    }
    if (options.summaries) {
        if (auto error = writeStsFile(runFile(".sum.sts"), model, StsKind::Summary)) {
            return failWith(*error);
        }
    }

    PeFileSettings settings;
    settings.directory = options.outDir;
    settings.name = options.name;
    settings.gzip = options.gzip;
    settings.summaries = options.summaries;
    settings.binSize = options.binSize;

    std::vector<PeWriterScratch> scratch(
        static_cast<std::size_t>(std::min(threads, model.numPes())));
    std::mutex errorMutex;
    std::optional<std::string> firstError;
    parallelFor(model.numPes(), scratch, 1, [&](std::int64_t pe, PeWriterScratch& buffers) {
        {
            const std::lock_guard lock(errorMutex);
            if (firstError) {
                return;
            }
        }
        if (auto error = writePeFiles(model, schedule, settings, static_cast<PeId>(pe), buffers)) {
            const std::lock_guard lock(errorMutex);
            if (!firstError) {
                firstError = std::move(error);
            }
        }
    });
    if (firstError) {
        return failWith(*firstError);
    }

    if (!options.truthFile.empty()) {
        if (auto error = writeTruthFile(options.truthFile, model.peClasses())) {
            return failWith(*error);
        }
    }
    outcome.planted = plantedLines(options, model);
    return outcome;
}

} // namespace parallax::gen
