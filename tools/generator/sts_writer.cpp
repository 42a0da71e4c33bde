#include "sts_writer.h"

#include "output_file.h"
#include "symbol_table.h"
#include "text_buffer.h"

namespace parallax::gen {

namespace {

void appendLine(TextBuffer& text, std::string_view keyword, std::int64_t value)
{
    text.append(keyword);
    text.appendField(value);
    text.append('\n');
}

void appendQuoted(TextBuffer& text, std::string_view value)
{
    text.append('"');
    text.append(value);
    text.append('"');
}

} // namespace

std::optional<std::string> writeStsFile(
    const std::string& path, const RunModel& model, StsKind kind)
{
    StsHeader header;
    header.processors = model.numPes();
    if (model.isSmp()) {
        header.smpNodeSize = model.nodeSize();
        header.smpNodes = model.numPes() / model.nodeSize();
    }
    header.commandLine = "./synth_stencil " + std::to_string(model.iterations()) + " "
        + std::to_string(model.elementsPerPe()) + " +sumDetail";
    return writeStsFile(path, header, model.symbols(), kind);
}

std::optional<std::string> writeStsFile(
    const std::string& path, const StsHeader& header, const SymbolTable& symbols, StsKind kind)
{
    const bool projections = kind == StsKind::Projections;
    TextBuffer text(std::size_t { 1 } << 16);
    if (projections) {
        text.append("PROJECTIONS_ID \n");
        text.append("VERSION 11.0\n");
        appendLine(text, "TOTAL_PHASES", 1);
    }
    text.append("MACHINE ");
    appendQuoted(text, "netlrts-linux-x86_64");
    text.append('\n');
    appendLine(text, "PROCESSORS", header.processors);
    if (header.smpNodeSize > 0) {
        text.append("SMPMODE");
        text.appendField(header.smpNodeSize);
        text.appendField(header.smpNodes);
        text.append('\n');
    }
    text.append("USERNAME \"parallax\"\n");
    text.append("HOSTNAME \"parallax-gen\"\n");
    text.append("COMMANDLINE ");
    appendQuoted(text, header.commandLine);
    text.append('\n');
    text.append("TIMESTAMP 2024-01-01T00:00:00Z\n");
    text.append("CHARMVERSION v8.0.0\n");
    appendLine(text, "TOTAL_CHARES", static_cast<std::int64_t>(symbols.chares().size()));
    appendLine(text, "TOTAL_EPS", symbols.entryCount());
    appendLine(text, "TOTAL_MSGS", static_cast<std::int64_t>(symbols.messageSizes().size()));
    appendLine(text, "TOTAL_PSEUDOS", 0);
    // The summary module registers no user events of its own.
    appendLine(text, "TOTAL_EVENTS",
        projections ? static_cast<std::int64_t>(symbols.userEvents().size()) : 0);

    for (std::size_t id = 0; id < symbols.chares().size(); ++id) {
        const ChareType& chareType = symbols.chares()[id];
        text.append("CHARE");
        text.appendField(static_cast<std::int64_t>(id));
        text.append(' ');
        appendQuoted(text, chareType.name);
        text.appendField(chareType.ndims);
        text.append('\n');
    }
    for (std::size_t id = 0; id < symbols.entries().size(); ++id) {
        const EntryMethod& method = symbols.entries()[id];
        text.append("ENTRY CHARE");
        text.appendField(static_cast<std::int64_t>(id));
        text.append(' ');
        appendQuoted(text, method.name);
        text.appendField(method.chare);
        text.appendField(method.message);
        text.append('\n');
    }
    for (std::size_t id = 0; id < symbols.messageSizes().size(); ++id) {
        text.append("MESSAGE");
        text.appendField(static_cast<std::int64_t>(id));
        text.appendField(symbols.messageSizes()[id]);
        text.append('\n');
    }
    if (projections) {
        appendLine(text, "TOTAL_STATS", static_cast<std::int64_t>(symbols.userStats().size()));
        for (const UserEventName& event : symbols.userEvents()) {
            text.append("EVENT");
            text.appendField(event.id);
            text.append(' ');
            text.append(event.name);
            text.append('\n');
        }
        for (const UserEventName& stat : symbols.userStats()) {
            text.append("STAT");
            text.appendField(stat.id);
            text.append(' ');
            text.append(stat.name);
            text.append('\n');
        }
    }
    text.append("END\n");
    return writeWholeFile(path, text.view());
}

std::optional<std::string> writeProjrcFile(const std::string& path, TimeUs globalEndTime)
{
    TextBuffer text(256);
    text.append("RC_GLOBAL_START_TIME 0\n");
    text.append("RC_GLOBAL_END_TIME   ");
    text.appendInt(globalEndTime);
    text.append('\n');
    return writeWholeFile(path, text.view());
}

} // namespace parallax::gen
