#include "reduce_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/text_args.h"
#include "io/run_discovery.h"
#include "io/run_reduction.h"

#include <cstdint>
#include <cstdio>
#include <ostream>

namespace parallax::cli {

namespace {

const char* const kReduceHelp = R"(usage: parallax-cli reduce RUN --keep 5%|N -o OUT [options]

Writes a reduced run into the directory OUT: the symbol tables (.sts, .sum.sts, .projrc), the
.sum and .sumd files of every PE and the logs of the kept PEs only, all copied byte for byte,
plus reduction.json and REDUCTION.md (the quality report). OUT is written under a temporary
name and renamed at the end; the source run is never written to. Prints the figures as
key: value lines (see docs/reduction.md).

options:
  --keep 5%|N          the share of the PEs with logs (rounded up) or their number to keep
  -o, --output OUT     the directory to create (absent or empty, or any with --force)
  --select clusters|random
                       clusters (default): k-means exemplars plus outliers; random: a
                       uniform draw (deterministic for --seed)
  --k N|auto           clusters for --select clusters (default auto)
  --seed S             seed of the random selection; the control draws use S+1, S+2, ...
                       (default 1)
  --range B:E          time window for the selection and the quality figures (default: the
                       traced span)
  --bins longest|seed  the 100 histogram bars: 99 equal bins up to the longest execution plus
                       overflow (default), or the seed's 100 us bins over [0.1 ms, 10 ms)
  --control-draws N    random selections averaged into the control (default 20, at least 20)
  --force              replace a non-empty OUT
  --allow-no-summaries write a reduced run of a run without .sum/.sumd files (the PEs left out
                       are then lost entirely)
  --threads N          worker threads (default: all cores)
)";

std::string fixed(double v, int decimals)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

void printSummary(const io::ReductionOutcome& outcome, const std::string& outDir, std::ostream& out)
{
    const auto& r = outcome.report;
    const auto& q = r.quality;
    const auto fraction = [](std::uint64_t part, std::uint64_t whole) {
        return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
    };
    out << "output: " << outDir << "\n";
    out << "select: " << r.parameters.select << "\n";
    out << "kept: " << q.keptPes << " of " << q.originalPes << " PEs with logs\n";
    out << "asked: " << r.parameters.keepCount << "\n";
    if (r.parameters.select == "clusters")
        out << "clusters: k " << r.parameters.kUsed << ", " << r.parameters.clustersNonEmpty
            << " non-empty\n";
    out << "kept_pes: ";
    for (std::size_t i = 0; i < r.kept.size(); ++i)
        out << (i == 0 ? "" : ",") << r.kept[i].pe << ":" << r.kept[i].role;
    out << "\n";
    out << "log_bytes: " << r.plan.logBytesKept << " of " << r.plan.logBytesTotal << "\n";
    out << "log_fraction: " << fixed(fraction(r.plan.logBytesKept, r.plan.logBytesTotal), 4)
        << "\n";
    out << "written_bytes: " << r.plan.copiedBytes << " of " << r.plan.runBytes << "\n";
    out << "written_fraction: " << fixed(fraction(r.plan.copiedBytes, r.plan.runBytes), 4) << "\n";
    out << "pe_fraction: " << fixed(q.peFraction(), 4) << "\n";
    out << "h_bars: " << q.kept.proportionality.bars << " of " << (q.binCount + 1) << "\n";
    out << "h_mean: " << fixed(q.kept.proportionality.mean, 4) << "\n";
    out << "h_sd: " << fixed(q.kept.proportionality.sd, 4) << "\n";
    out << "control_draws: " << q.controlDraws << "\n";
    out << "control_h_mean: " << fixed(q.control.proportionality.mean, 4) << "\n";
    out << "control_h_sd: " << fixed(q.control.proportionality.sd, 4) << "\n";
    for (std::size_t s = 0; s < core::analysis::kRetentionStrata.size(); ++s) {
        const auto top = core::analysis::kRetentionStrata[s];
        out << "retention_top" << top << ": " << fixed(q.kept.retention[s], 1) << "\n";
        out << "control_retention_top" << top << ": " << fixed(q.control.retention[s], 1) << "\n";
    }
    out << "report: " << outDir << "/" << io::kReductionMarkdownName << "\n";
}

} // namespace

int runReduce(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> rest = args;
    for (auto& a : rest)
        if (a == "-o")
            a = "--output";
    CommandLine cl;
    if (const int rc = parseCommand("reduce", rest,
            { "keep", "output", "select", "k", "seed", "range", "bins", "control-draws" }, cl, out,
            err, kReduceHelp, { "force", "allow-no-summaries" });
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;

    io::ReductionSettings settings;
    settings.source = cl.run;
    std::string error;
    const auto keep = cl.parser.value("keep");
    if (!keep)
        return usageError(err, "reduce", "missing --keep 5%|N");
    const auto amount = core::analysis::parseKeepAmount(*keep, &error);
    if (!amount)
        return usageError(err, "reduce", "--keep: " + error);
    settings.keep = *amount;
    settings.keepText = *keep;
    const auto output = cl.parser.value("output");
    if (!output || output->empty())
        return usageError(err, "reduce", "missing -o OUT (the directory to write)");
    settings.outDir = *output;
    const auto select = cl.parser.value("select").value_or("clusters");
    if (select == "random")
        settings.select = io::PeSelectionMethod::Random;
    else if (select != "clusters")
        return usageError(err, "reduce", "--select takes clusters or random, got '" + select + "'");
    if (const auto k = cl.parser.value("k"); k && *k != "auto") {
        std::int64_t value = 0;
        if (const int rc = readIntOption("reduce", cl, "k", 1, 100'000, value, err); rc != kExitOk)
            return rc;
        settings.k = static_cast<int>(value);
    }
    std::int64_t seed = 1;
    if (const int rc = readIntOption("reduce", cl, "seed", 0, INT64_MAX, seed, err); rc != kExitOk)
        return rc;
    settings.seed = static_cast<std::uint64_t>(seed);
    std::int64_t draws = 20;
    if (const int rc = readIntOption("reduce", cl, "control-draws", 20, 10'000, draws, err);
        rc != kExitOk)
        return rc;
    settings.quality.controlDraws = static_cast<int>(draws);
    if (const auto bins = cl.parser.value("bins")) {
        if (*bins == "seed")
            settings.quality.bins = core::analysis::QualityBins::SeedRange;
        else if (*bins != "longest")
            return usageError(err, "reduce", "--bins takes longest or seed, got '" + *bins + "'");
    }
    if (const int rc = parseAnalysisRequest("reduce", cl, settings.request, err); rc != kExitOk)
        return rc;
    settings.rangeGiven = cl.parser.value("range").has_value();
    settings.force = cl.parser.flag("force");
    settings.allowNoSummaries = cl.parser.flag("allow-no-summaries");

    // The output is checked before the logs are read (a refusal should not wait for them).
    const auto located = io::locateSymbolTable(cl.run);
    if (!located.ok) {
        err << "parallax-cli: " << located.error << "\n";
        return kExitFatal;
    }
    if (const auto check
        = io::checkReducedRunOutput(located.files, settings.outDir, settings.force);
        !check.ok())
        return usageError(err, "reduce",
            check.message
                + (check.problem == io::OutputCheck::Problem::NotEmpty ? "; --force replaces it"
                                                                       : ""));
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    if (const int check = checkRequestAgainstRun("reduce", *trace, settings.request, err);
        check != kExitOk)
        return check;
    const auto outcome = io::reduceRun(*trace, settings);
    using Failure = io::ReductionOutcome::Failure;
    switch (outcome.failure) {
    case Failure::None:
        printSummary(outcome, settings.outDir, out);
        return kExitOk;
    case Failure::BadRequest: {
        std::string message = outcome.error;
        if (outcome.missingSummaries)
            message += " (--allow-no-summaries writes it anyway)";
        return usageError(err, "reduce", message);
    }
    case Failure::WriteFailed:
    case Failure::Cancelled:
        break;
    }
    err << "parallax-cli reduce: " << outcome.error << "\n";
    return kExitFatal;
}

} // namespace parallax::cli
