#include "pe_file_writer.h"

#include "log_writer.h"
#include "output_file.h"
#include "summary_writer.h"

#include <filesystem>

namespace parallax::gen {

namespace {

std::string peFilePath(const PeFileSettings& settings, PeId pe, std::string_view extension)
{
    std::string file = settings.name;
    file += '.';
    file += std::to_string(pe);
    file += extension;
    return (std::filesystem::path(settings.directory) / file).string();
}

} // namespace

std::optional<std::string> writePeFiles(const RunModel& model, const RunSchedule& schedule,
    const PeFileSettings& settings, PeId pe, PeWriterScratch& scratch)
{
    OutputFile logFile;
    if (!logFile.open(
            peFilePath(settings, pe, settings.gzip ? ".log.gz" : ".log"), settings.gzip)) {
        return logFile.error();
    }
    LogWriter log(logFile, schedule.recordCount(pe), scratch.logText);
    const TimeUs endTime = schedule.endTime(pe);
    if (settings.summaries) {
        const TimeUs binSize = summaryBinSize(settings.binSize, endTime);
        scratch.summary.reset(
            model.symbols().entryCount(), binSize, summaryBinCount(binSize, endTime));
    }

    std::vector<TraceRecord>& records = scratch.simulation.records;
    records.clear();
    const auto drain = [&]() {
        for (const TraceRecord& record : records) {
            log.write(record);
            if (settings.summaries) {
                scratch.summary.add(record);
            }
        }
        records.clear();
        return !logFile.failed();
    };
    const auto internalError = [pe](const std::string& what) {
        return "internal error: PE " + std::to_string(pe) + ": " + what;
    };

    PeState state;
    PeSimulator simulator(model, pe, state, scratch.simulation);
    std::array<Contribution, 2> children {};
    const auto childSpan = [&children](int count) {
        return std::span<const Contribution>(children.data(), static_cast<std::size_t>(count));
    };

    simulator.beginComputation();
    if (pe == 0) {
        const StartupPlan plan = simulator.runMainPrologue();
        if (plan.groups.back().event != schedule.startup.groups.back().event
            || plan.groups.back().created != schedule.startup.groups.back().created) {
            return internalError("start-up differs from the schedule pass");
        }
    }
    simulator.runStartup(schedule.startup);
    int childCount = collectChildContributions(model, schedule, pe, -1, children);
    simulator.runReduction(-1, childSpan(childCount));
    if (!drain()) {
        return logFile.error();
    }

    for (int iteration = 0; iteration < model.iterations(); ++iteration) {
        if (state.nextEvent != schedule.stepSetupEvent(pe, iteration)) {
            return internalError("event numbers differ from the schedule pass in iteration "
                + std::to_string(iteration));
        }
        simulator.runStepSetup(iteration, schedule.iterationStart(iteration), nullptr);
        if (!drain()) {
            return logFile.error();
        }
        collectIncomingGhosts(model, schedule, pe, iteration, scratch.replay, scratch.incoming);
        simulator.runGhostExchange(iteration, scratch.incoming);
        childCount = collectChildContributions(model, schedule, pe, iteration, children);
        simulator.runReduction(iteration, childSpan(childCount));
        if (!drain()) {
            return logFile.error();
        }
    }
    simulator.runFinish(schedule.iterationStart(model.iterations()));
    if (!drain() || !log.flush() || !logFile.close()) {
        return logFile.error();
    }
    if (state.records != schedule.recordCount(pe) || state.now != endTime) {
        return internalError("record count differs from the schedule pass");
    }

    if (settings.summaries) {
        if (auto error = writeSumFile(peFilePath(settings, pe, ".sum"), scratch.summary, pe,
                model.numPes(), scratch.summaryText)) {
            return error;
        }
        if (auto error = writeSumDetailFile(peFilePath(settings, pe, ".sumd"), scratch.summary, pe,
                model.numPes(), scratch.summaryText)) {
            return error;
        }
    }
    return std::nullopt;
}

} // namespace parallax::gen
