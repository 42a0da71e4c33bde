#include "export_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/text_args.h"
#include "export/export_plan.h"
#include "export/export_run.h"
#include "export/staged_output.h"
#include "io/run_discovery.h"

#include <chrono>
#include <cstdio>
#include <ostream>

namespace parallax::cli {

namespace {

const char* const kExportHelp
    = R"(usage: parallax-cli export RUN --format otf2|perfetto -o OUT [options]

Writes the run for other tools. --format otf2: an OTF2 archive, the directory OUT holding
traces.otf2, traces.def and traces/ (Vampir, the Score-P tools, Pipit). --format perfetto: a
Chrome/Perfetto trace-event JSON file, gzip-compressed when OUT ends in .gz (ui.perfetto.dev,
chrome://tracing). Executions, idle, pack and unpack, the messages (each send paired with the
execution it started, as the Timeline's arrows), user events and user stats; docs/otf2.md says
how each Projections record maps and what is lost. OUT is written under a temporary name beside
it and renamed when complete: an interrupted export leaves nothing behind. Prints what was
written as key: value lines.

options:
  --format otf2|perfetto
  -o, --output OUT     the directory (otf2) or file (perfetto) to create
  --range B:E          time window, e.g. 10ms:25ms (default: the traced span)
  --pes LIST           PEs to export, e.g. 0-3,8 (default: every PE with a log, comm threads
                       included)
  --force              replace an existing OUT
  --threads N          worker threads (default: all cores)
)";

std::string exportSecondsText(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

} // namespace

int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> rest = args;
    for (auto& a : rest)
        if (a == "-o")
            a = "--output";
    CommandLine cl;
    if (const int rc = parseCommand("export", rest, { "format", "output", "range", "pes" }, cl, out,
            err, kExportHelp, { "force" });
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    const auto formatText = cl.parser.value("format");
    if (!formatText)
        return usageError(err, "export", "missing --format otf2|perfetto");
    exporter::ExportFormat format = exporter::ExportFormat::Perfetto;
    if (*formatText == "otf2")
        format = exporter::ExportFormat::Otf2;
    else if (*formatText != "perfetto")
        return usageError(
            err, "export", "--format takes otf2 or perfetto, got '" + *formatText + "'");
    if (format == exporter::ExportFormat::Otf2 && !exporter::otf2Available()) {
        err << "parallax-cli export: this build cannot write OTF2 (it was built without the OTF2 "
               "library; Debian: libopen-trace-format2-dev)\n";
        return kExitFatal;
    }
    const auto output = cl.parser.value("output");
    if (!output || output->empty())
        return usageError(err, "export",
            format == exporter::ExportFormat::Otf2 ? "missing -o DIR (the archive's directory)"
                                                   : "missing -o FILE.json[.gz]");
    core::analysis::AnalysisRequest request;
    if (const int rc = parseAnalysisRequest("export", cl, request, err); rc != kExitOk)
        return rc;
    const bool force = cl.parser.flag("force");

    // The output is checked before the logs are read (a refusal should not wait for them).
    const auto located = io::locateSymbolTable(cl.run);
    if (!located.ok) {
        err << "parallax-cli: " << located.error << "\n";
        return kExitFatal;
    }
    const auto kind = format == exporter::ExportFormat::Otf2 ? exporter::TargetKind::Directory
                                                             : exporter::TargetKind::File;
    if (const auto check = exporter::checkExportTarget(located.files, *output, kind, force);
        !check.ok())
        return usageError(err, "export",
            check.message
                + (check.problem == exporter::TargetCheck::Problem::Exists ? "; --force replaces it"
                                                                           : ""));
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    if (!trace->hasLogs()) {
        err << "parallax-cli export: " << trace->files.baseName
            << " has no logs (summary files only), so there are no executions to export\n";
        return kExitFatal;
    }
    if (const int bad = checkRequestAgainstRun("export", *trace, request, err); bad != kExitOk)
        return bad;

    const auto start = std::chrono::steady_clock::now();
    exporter::ExportRequest what;
    what.range = request.range;
    what.pes = request.pes;
    what.threads = cl.threads;
    const auto planned = exporter::planExport(*trace, what);
    if (!planned.plan) {
        err << "parallax-cli export: " << planned.error << "\n";
        return kExitFatal;
    }
    const auto& plan = *planned.plan;
    if (format == exporter::ExportFormat::Perfetto) {
        const auto estimate = exporter::estimatePerfettoBytes(*trace, plan);
        if (estimate > exporter::kPerfettoUiJsonLimit)
            err << "parallax-cli export: warning: the JSON will be about "
                << core::formatBytes(estimate) << ", more than Perfetto's UI loads in a browser ("
                << core::formatBytes(exporter::kPerfettoUiJsonLimit)
                << " or so); cut it with --range or --pes, or open it through trace_processor\n";
    }
    exporter::ExportOptions options;
    options.force = force;
    const auto result = exporter::exportRun(*trace, plan, format, *output, options);
    if (!result.ok) {
        err << "parallax-cli export: " << result.error << "\n";
        return kExitFatal;
    }
    const double took
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<core::PeId> pes;
    for (const auto& p : plan.pes)
        pes.push_back(p.pe);
    out << "format: " << exporter::formatName(format) << "\n";
    out << "output: " << *output << "\n";
    out << "range_us: " << plan.range.begin << ":" << plan.range.end << "\n";
    out << "pes: " << core::formatPeList(pes) << "\n";
    out << "executions: " << result.counts.executions << "\n";
    out << "messages: " << result.counts.messages << "\n";
    out << "unmatched_sends: " << result.counts.unmatchedSends << "\n";
    out << "weak_links: " << plan.weakLinks << "\n";
    out << "user_events: " << result.counts.userEvents << "\n";
    out << "samples: " << result.counts.samples << "\n";
    out << "bytes: " << result.bytes << "\n";
    if (format == exporter::ExportFormat::Perfetto)
        out << "json_bytes: " << result.uncompressedBytes << "\n";
    out << "seconds: " << exportSecondsText(took) << "\n";
    return kExitOk;
}

} // namespace parallax::cli
