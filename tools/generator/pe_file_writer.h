#pragma once

#include "pe_simulator.h"
#include "run_model.h"
#include "run_schedule.h"
#include "summary_accumulator.h"
#include "text_buffer.h"
#include "trace_types.h"

#include <optional>
#include <string>
#include <vector>

namespace parallax::gen {

struct PeFileSettings {
    std::string directory;
    std::string name;
    bool gzip = false;
    bool summaries = true;
    TimeUs binSize = 1000;
};

// Buffers one writing thread reuses from PE to PE.
struct PeWriterScratch {
    SimulationBuffers simulation;
    ReplayBuffers replay;
    std::vector<MessageSend> incoming;
    SummaryAccumulator summary;
    TextBuffer logText;
    TextBuffer summaryText { std::size_t { 1 } << 16 };
};

// Writes NAME.<pe>.log[.gz] and, with summaries, NAME.<pe>.sum and NAME.<pe>.sumd: replays
// the PE stage by stage with the cross-PE facts of the schedule, streaming every stage's
// records to the log and to the summary accumulator. Returns an error message on failure.
std::optional<std::string> writePeFiles(const RunModel& model, const RunSchedule& schedule,
    const PeFileSettings& settings, PeId pe, PeWriterScratch& scratch);

} // namespace parallax::gen
