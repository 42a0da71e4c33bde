#include "cluster_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/clustering.h"
#include "core/analysis/csv_export.h"
#include "core/text_args.h"

#include <charconv>
#include <cstdio>
#include <ostream>

namespace parallax::cli {

namespace {

const char* const kClustersHelp
    = "usage: parallax-cli clusters RUN [--k N|auto] [--sweep A:B] [--outliers N] [options]\n\n"
      "Equivalence classes of PEs: k-means over each PE's time per entry method in the range\n"
      "(no normalisation; seeds spread on the bounding-box diagonal, so the result is\n"
      "deterministic). Prints CSV pe,cluster,role,distance: role is exemplar (the member\n"
      "nearest its cluster's centroid), outlier (the members farthest from it, shared among\n"
      "the clusters in proportion to their size) or member; distance to the centroid in us.\n"
      "With --sweep, prints CSV k,nonempty,wcss,chosen instead (wcss in us^2).\n\n"
      "options:\n"
      "  --k N|auto         number of clusters (default auto: the elbow of the within-cluster\n"
      "                     sum of squares over the sweep; see docs/clusters.md)\n"
      "  --sweep A:B        the k tried by auto (default 2:20, capped at the PE count); with\n"
      "                     this option the sweep itself is printed. Above 2048 PEs the sweep\n"
      "                     runs on an evenly spaced sample of 2048 PEs.\n"
      "  --outliers N       outliers in all (default: 5 % of the PEs, rounded up, minus the\n"
      "                     exemplars)\n"
      "  --range B:E        time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us);\n"
      "                     default: the traced span (cluster one phase with its window)\n"
      "  --pes LIST         PEs, e.g. 0-3,5,7-15:2 (default: every PE with data)\n"
      "  --entries LIST     entry method ids to use as dimensions (default: all that ran)\n"
      "  --include-comm-threads\n"
      "                     cluster SMP comm threads too (default: kept apart, not listed)\n"
      "  --threads N        worker threads (default: all cores)\n";

std::string fixed3(double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", value);
    return buf;
}

bool parseInt(const std::string& text, int& value)
{
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return !text.empty() && ec == std::errc() && ptr == end;
}

} // namespace

int runClusters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "clusters";
    CommandLine cl;
    if (const int rc
        = parseCommand(command, args, { "k", "sweep", "outliers", "range", "pes", "entries" }, cl,
            out, err, kClustersHelp, { "include-comm-threads" });
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    core::analysis::AnalysisRequest request;
    if (const int rc = parseAnalysisRequest(command, cl, request, err); rc != kExitOk)
        return rc;
    core::analysis::ClusterOptions options;
    if (const auto k = cl.parser.value("k"); k && *k != "auto") {
        if (!parseInt(*k, options.k) || options.k < 1 || options.k > 100'000)
            return usageError(err, command, "--k needs 'auto' or a number from 1 to 100000");
    }
    if (const auto sweep = cl.parser.value("sweep")) {
        const auto colon = sweep->find(':');
        int a = 0;
        int b = 0;
        if (colon == std::string::npos || !parseInt(sweep->substr(0, colon), a)
            || !parseInt(sweep->substr(colon + 1), b) || a < 1 || b < a || b > 100'000)
            return usageError(err, command,
                "--sweep needs A:B with 1 <= A <= B <= 100000, e.g. 2:20 (got '" + *sweep + "')");
        options.sweepMin = a;
        options.sweepMax = b;
        options.sweep = true;
    }
    if (const int rc
        = readIntOption(command, cl, "outliers", 0, 100'000'000, options.outliers, err);
        rc != kExitOk)
        return rc;
    int rc = kExitOk;
    const auto trace = load(cl, err, rc);
    if (!trace)
        return rc;
    if (const int check = checkRequestAgainstRun(command, *trace, request, err); check != kExitOk)
        return check;
    const auto result = core::analysis::clusterPes(*trace, request, options);
    if (!result)
        return kExitFatal;
    if (!result->error.empty())
        return usageError(err, command, result->error);
    if (!result->features.apart.empty())
        err << "parallax-cli: note: " << result->features.apart.size()
            << " comm-thread PEs kept apart, not clustered (--include-comm-threads to include "
               "them)\n";
    if (options.sweep) {
        if (result->sweepSample < result->features.pes.size())
            err << "parallax-cli: note: the sweep ran on " << result->sweepSample << " of "
                << result->features.pes.size() << " PEs (evenly spaced)\n";
        out << "k,nonempty,wcss,chosen\n";
        for (const auto& row : result->sweep)
            out << row.k << ',' << row.nonEmpty << ',' << core::analysis::formatCsvNumber(row.wcss)
                << ',' << (row.chosen ? 1 : 0) << '\n';
        return kExitOk;
    }
    if (result->splitOff > 0)
        err << "parallax-cli: note: k = " << result->k << ": the elbow's "
            << result->k - result->splitOff << " plus " << result->splitOff
            << " split off for PEs far from their cluster\n";
    if (!result->converged)
        err << "parallax-cli: note: k-means stopped after " << result->iterations
            << " iterations before membership settled\n";
    std::string csv = "pe,cluster,role,distance\n";
    const auto& pes = result->features.pes;
    for (std::size_t i = 0; i < pes.size(); ++i) {
        csv += std::to_string(pes[i]);
        csv += ',';
        csv += std::to_string(result->cluster[i]);
        csv += ',';
        csv += core::analysis::clusterRoleName(result->role[i]);
        csv += ',';
        csv += fixed3(result->distance[i]);
        csv += '\n';
    }
    out << csv;
    return kExitOk;
}

} // namespace parallax::cli
