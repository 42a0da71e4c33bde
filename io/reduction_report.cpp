#include "reduction_report.h"

#include "core/text_args.h"
#include "json_value.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace parallax::io {

namespace {

using core::analysis::kRetentionStrata;
using core::analysis::QualityBins;

std::string number(double v)
{
    if (!std::isfinite(v))
        return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string fixed(double v, int decimals)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

double fraction(std::uint64_t part, std::uint64_t whole)
{
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string retentionJson(const std::array<double, 3>& retention)
{
    std::string out = "{";
    for (std::size_t s = 0; s < kRetentionStrata.size(); ++s)
        out += (s == 0 ? "" : ", ") + jsonQuoted("top" + std::to_string(kRetentionStrata[s])) + ": "
            + number(retention[s]);
    return out + "}";
}

const char* binRuleName(QualityBins rule)
{
    return rule == QualityBins::SeedRange ? "seed-range" : "longest-execution";
}

} // namespace

std::string reductionJson(const ReductionReport& report)
{
    const auto& p = report.parameters;
    const auto& q = report.quality;
    std::ostringstream o;
    o << "{\n";
    o << "  \"format\": \"parallax-reduction\",\n  \"version\": 1,\n";
    o << "  \"source\": " << jsonQuoted(p.source) << ",\n";
    o << "  \"run\": " << jsonQuoted(p.runName) << ",\n";
    o << "  \"parameters\": {\"keep\": " << jsonQuoted(p.keep)
      << ", \"keep_count\": " << p.keepCount << ", \"select\": " << jsonQuoted(p.select)
      << ", \"k\": " << jsonQuoted(p.k) << ", \"seed\": " << p.seed << ", \"range_us\": ["
      << q.range.begin << ", " << q.range.end
      << "], \"range_given\": " << (p.rangeGiven ? "true" : "false") << "},\n";
    o << "  \"processors\": " << report.processors << ",\n";
    o << "  \"traced_span_us\": [" << report.tracedSpan.begin << ", " << report.tracedSpan.end
      << "],\n";
    o << "  \"pes_with_logs\": " << q.originalPes << ",\n";
    o << "  \"pes_with_summaries\": " << report.plan.pesWithSummary << ",\n";
    o << "  \"k_used\": " << p.kUsed << ",\n";
    o << "  \"clusters_non_empty\": " << p.clustersNonEmpty << ",\n";
    o << "  \"kept\": [";
    for (std::size_t i = 0; i < report.kept.size(); ++i) {
        const auto& k = report.kept[i];
        o << (i == 0 ? "\n" : ",\n") << "    {\"pe\": " << k.pe
          << ", \"role\": " << jsonQuoted(k.role) << ", \"cluster\": " << k.cluster
          << ", \"distance\": " << number(k.distance) << "}";
    }
    o << "\n  ],\n";
    const auto& plan = report.plan;
    o << "  \"bytes\": {\"run\": " << plan.runBytes << ", \"written\": " << plan.copiedBytes
      << ", \"logs_total\": " << plan.logBytesTotal << ", \"logs_kept\": " << plan.logBytesKept
      << ", \"log_fraction\": " << number(fraction(plan.logBytesKept, plan.logBytesTotal))
      << ", \"written_fraction\": " << number(fraction(plan.copiedBytes, plan.runBytes)) << "},\n";
    o << "  \"quality\": {\n";
    o << "    \"histogram\": {\"bars\": " << (q.binCount + 1) << ", \"rule\": \""
      << binRuleName(q.binRule) << "\", \"bin_width_us\": " << number(q.binWidthUs)
      << ", \"minimum_us\": " << number(q.minimumUs)
      << ", \"longest_execution_us\": " << q.longestExecutionUs
      << ", \"bars_with_executions\": " << q.kept.proportionality.bars << "},\n";
    o << "    \"pe_fraction\": " << number(q.peFraction()) << ",\n";
    o << "    \"kept\": {\"h_mean\": " << number(q.kept.proportionality.mean)
      << ", \"h_sd\": " << number(q.kept.proportionality.sd)
      << ", \"retention_percent\": " << retentionJson(q.kept.retention)
      << ", \"log_byte_fraction\": " << number(q.kept.logByteFraction) << "},\n";
    o << "    \"control\": {\"draws\": " << q.controlDraws
      << ", \"h_mean\": " << number(q.control.proportionality.mean)
      << ", \"h_sd\": " << number(q.control.proportionality.sd)
      << ", \"h_mean_sd_over_draws\": " << number(q.controlSpread.sd)
      << ", \"retention_percent\": " << retentionJson(q.control.retention)
      << ", \"log_byte_fraction\": " << number(q.control.logByteFraction) << "},\n";
    o << "    \"least_idle\": [";
    for (std::size_t i = 0; i < q.leastIdle.size(); ++i)
        o << (i == 0 ? "" : ", ") << q.leastIdle[i];
    o << "]\n  }\n}\n";
    return o.str();
}

std::string reductionMarkdown(const ReductionReport& report)
{
    const auto& p = report.parameters;
    const auto& q = report.quality;
    const auto& plan = report.plan;
    const double ratio = q.peFraction();
    std::ostringstream o;
    o << "# Reduced run of " << p.runName << "\n\n";
    o << "Source: `" << p.source << "`\n\n";
    o << "This directory is a Projections run: the symbol tables and the summary files (`.sum`, "
         "`.sumd`) of every PE, and the detailed logs of "
      << q.keptPes << " of the " << q.originalPes << " PEs that had one (" << fixed(100 * ratio, 1)
      << " %). Whatever Parallax computes from the logs (Timeline, Histogram, Usage Profile, "
         "Extrema, ...) covers the kept PEs only; the other PEs are listed as PEs without "
         "logs and remain in the summaries. A reduced run's default time range starts at the "
         "kept PEs' first BEGIN_COMPUTATION; to compare a view with the original run, give both "
         "the range of the figures below.\n\n";
    o << "## What was kept and why\n\n";
    o << "Asked for: `--keep " << p.keep << "`, selection `" << p.select << "`";
    if (p.select == "clusters")
        o << " (k = " << p.k << (p.k == "auto" ? " → " + std::to_string(p.kUsed) : std::string())
          << ", " << p.clustersNonEmpty << " non-empty clusters)";
    else
        o << " (seed " << p.seed << ")";
    o << ".\n\n";
    if (p.select == "clusters") {
        o << "The worker PEs (comm threads apart) were grouped by k-means over their time per "
             "entry method; each non-empty cluster keeps its *exemplar* (the member nearest the "
             "cluster's centre) and the remaining places go to *outliers* (the members farthest "
             "from their centre), shared among the clusters in proportion to their size.";
        if (report.kept.size() > p.keepCount)
            o << " There are more non-empty clusters than the " << p.keepCount
              << " places asked for, so every exemplar was kept and no outlier.";
        o << "\n\n";
    } else
        o << "PEs were drawn uniformly at random (deterministic for the seed).\n\n";
    o << "| PE | role | cluster | distance (µs) |\n|---:|---|---:|---:|\n";
    for (const auto& k : report.kept)
        o << "| " << k.pe << " | " << k.role << " | "
          << (k.cluster < 0 ? "–" : std::to_string(k.cluster)) << " | "
          << (k.cluster < 0 ? "–" : fixed(k.distance, 1)) << " |\n";
    o << "\n## Size\n\n";
    o << "| | bytes | fraction |\n|---|---:|---:|\n";
    o << "| logs kept / all logs | " << core::formatBytes(plan.logBytesKept) << " / "
      << core::formatBytes(plan.logBytesTotal) << " | "
      << fixed(100 * fraction(plan.logBytesKept, plan.logBytesTotal), 1) << " % |\n";
    o << "| files written / files of the run | " << core::formatBytes(plan.copiedBytes) << " / "
      << core::formatBytes(plan.runBytes) << " | "
      << fixed(100 * fraction(plan.copiedBytes, plan.runBytes), 1) << " % |\n\n";
    o << "(The files written are the run's files; this report and `reduction.json` come on "
         "top.)\n\n";
    o << "## Quality\n\n";
    o << "Figures over " << core::formatDuration(q.range.begin) << " – "
      << core::formatDuration(q.range.end)
      << (p.rangeGiven ? " (the range asked for" : " (the traced span") << ", `--range "
      << q.range.begin << ":" << q.range.end << "`). The control is the mean over "
      << q.controlDraws << " random selections of the same size.\n\n";
    o << "| measure | ideal | this selection | random control |\n|---|---:|---:|---:|\n";
    o << "| H̄ (mean of H_r/H_o) | P_r/P_o = " << fixed(ratio, 4) << " | "
      << fixed(q.kept.proportionality.mean, 4) << " | " << fixed(q.control.proportionality.mean, 4)
      << " (± " << fixed(q.controlSpread.sd, 4) << " over draws) |\n";
    o << "| σ of H_r/H_o | 0 | " << fixed(q.kept.proportionality.sd, 4) << " | "
      << fixed(q.control.proportionality.sd, 4) << " |\n";
    for (std::size_t s = 0; s < kRetentionStrata.size(); ++s)
        o << "| top " << kRetentionStrata[s] << " least idle kept (" << q.strataSizes[s]
          << " PEs) | 100 % | " << fixed(q.kept.retention[s], 0) << " % | "
          << fixed(q.control.retention[s], 0) << " % |\n";
    o << "| log bytes kept | – | " << fixed(100 * q.kept.logByteFraction, 1) << " % | "
      << fixed(100 * q.control.logByteFraction, 1) << " % |\n\n";
    o << "Least idle PEs (first 20): ";
    for (std::size_t i = 0; i < q.leastIdle.size(); ++i)
        o << (i == 0 ? "" : ", ") << q.leastIdle[i];
    o << "\n\n## How to read this\n\n";
    o << "- **Histogram proportionality** (seed 000 §4.6.2). H_o^i and H_r^i count the executions "
         "in bar i of the duration histogram of the original run and of the kept PEs. Over the "
      << q.kept.proportionality.bars << " of " << (q.binCount + 1)
      << " bars where H_o^i ≠ 0, H̄ is the mean of H_r^i/H_o^i and σ their standard deviation "
         "(population). Projections does not rescale the kept PEs, so a faithful selection has "
         "H̄ close to P_r/P_o (criterion 1) and a small σ (criterion 2: every duration is kept "
         "in the same proportion). H̄ well above P_r/P_o means the kept PEs execute more than "
         "their share (busy PEs were chosen); a large σ means some durations are over- or "
         "under-represented — typically rare long executions that no kept PE has.\n";
    o << "- **Bars**: " << q.binCount << " equal bins ";
    if (q.binRule == QualityBins::SeedRange)
        o << "of 100 µs over [0.1 ms, 10 ms) plus one bar for ≥ 10 ms (the seed's range); "
             "executions shorter than 0.1 ms are in no bar.\n";
    else
        o << "of " << fixed(q.binWidthUs, 2) << " µs over [0, "
          << core::formatDuration(q.longestExecutionUs)
          << ") — the longest execution in the range — plus an overflow bar (which holds the "
             "longest); every execution that begins in the range is in a bar.\n";
    o << "- **Least-idle retention** (seed 000 §4.6.3): the worker PEs ranked by idle share "
         "over the range, least idle first; the share of the top 5, 10 and 20 among the kept "
         "PEs. The least idle PEs are the usual suspects of load imbalance, so a good reduction "
         "keeps them; a random selection keeps about P_r/P_o of each stratum.\n";
    o << "- **The control** tells whether the selection beats chance: compare each column with "
         "the random one.\n";
    if (!plan.notes.empty()) {
        o << "\n## Notes\n\n";
        for (const auto& n : plan.notes)
            o << "- " << n << "\n";
    }
    return o.str();
}

std::vector<std::pair<std::string, std::string>> reductionReportFiles(const ReductionReport& report)
{
    return { { kReductionJsonName, reductionJson(report) },
        { kReductionMarkdownName, reductionMarkdown(report) } };
}

} // namespace parallax::io
