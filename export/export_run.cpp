#include "export_run.h"

#include "core/trace.h"
#include "export_plan.h"
#include "otf2_writer.h"
#include "perfetto_writer.h"
#include "staged_output.h"

#include <exception>

namespace parallax::exporter {

namespace {

bool endsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size()
        && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

const char* formatName(ExportFormat format)
{
    return format == ExportFormat::Otf2 ? "otf2" : "perfetto";
}

ExportResult exportRun(const core::Trace& trace, const ExportPlan& plan, ExportFormat format,
    const std::string& target, const ExportOptions& options)
{
    ExportResult result;
    const auto kind = format == ExportFormat::Otf2 ? TargetKind::Directory : TargetKind::File;
    if (const auto check = checkExportTarget(trace.files, target, kind, options.force);
        !check.ok()) {
        result.error = check.message;
        return result;
    }
    if (format == ExportFormat::Otf2 && !otf2Available()) {
        result.error = "this build has no OTF2 support (the OTF2 library was not found when it "
                       "was built; Debian: libopen-trace-format2-dev)";
        return result;
    }
    try {
        StagedOutput staged(target, kind);
        if (!staged.ok()) {
            result.error = staged.error();
            return result;
        }
        result = format == ExportFormat::Otf2
            ? writeOtf2(trace, plan, staged.path(), options.progress)
            : writePerfetto(trace, plan, staged.path(), endsWith(target, ".gz"), options.progress);
        if (!result.ok)
            return result; // the staged output is removed
        result.bytes = outputBytes(staged.path());
        if (!staged.commit()) {
            result.ok = false;
            result.error = staged.error();
        }
    } catch (const std::exception& e) {
        result = {};
        result.error = std::string("cannot write the export: ") + e.what();
    }
    return result;
}

std::uint64_t estimatePerfettoBytes(const core::Trace& trace, const ExportPlan& plan)
{
    // Typical sizes of one event as writePerfetto spells it (measured on real runs).
    constexpr std::uint64_t kSlice = 220;
    constexpr std::uint64_t kFlowEnd = 150;
    constexpr std::uint64_t kFlowStart = 90;
    constexpr std::uint64_t kInstant = 140;
    constexpr std::uint64_t kCounter = 100;
    std::uint64_t bytes = 4096;
    for (const auto& e : plan.pes) {
        const auto& p = trace.pes[static_cast<std::size_t>(e.pe)];
        const auto B = plan.range.begin;
        const auto E = plan.range.end;
        const auto packs = p.packsOverlapping(B, E).size() + p.unpacksOverlapping(B, E).size();
        bytes += (e.executions + packs) * kSlice + e.unmatchedSends.size() * kInstant
            + (p.userEvents.size() + p.userBrackets.size() * 2 + p.notes.size()) * kInstant
            + (p.stats.size() + p.memory.size() + p.userSupplied.size() + 500) * kCounter;
    }
    bytes += plan.messages.size() * (kFlowEnd + kFlowStart);
    return bytes;
}

} // namespace parallax::exporter
