#include "group_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/clustering.h"
#include "core/analysis/group_aggregation.h"
#include "core/analysis/pe_groups.h"
#include "core/analysis/usage_profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <ostream>

namespace parallax::cli {

namespace {

const char* const kGroupsHelp
    = "usage: parallax-cli groups RUN --by node|block:N|signature|cluster|list:FILE\n"
      "                  [--mode sum|set|key|signature] [options]\n\n"
      "The usage profile (time per entry method, idle, overhead, pack, unpack over the range)\n"
      "aggregated over groups of PEs, as CSV\n"
      "group,first_pe,last_pe,members,mode,role,pe,activity,activity_name,value_us,percent\n"
      "with one row per non-zero value (a missing row is 0).\n\n"
      "  --by node          one group per SMP node of the .sts (comm threads with their node);\n"
      "                     without SMP every PE is its own node\n"
      "  --by block:N       blocks of N consecutive PE ids (0..N-1, N..2N-1, ...); 'block'\n"
      "                     alone: the smallest power of two giving at most 200 blocks\n"
      "  --by signature     PEs that executed the same set of entry methods in the range\n"
      "  --by cluster       the k-means clusters of `parallax-cli clusters` (--k N or auto,\n"
      "                     the default); comm threads kept apart are in no cluster\n"
      "  --by list:FILE     the named PE lists of FILE, one per line 'name: 0-15,32'\n"
      "                     ('#' starts a comment); a PE may be in several lists\n"
      "  --mode sum         (default) roles sum (total of the members) and mean\n"
      "  --mode set         roles min, max, mean and sd (population) over the members, each\n"
      "                     activity on its own\n"
      "  --mode key         role first (the group's first PE), slowest (the most entry-method\n"
      "                     time among the others), fastest (the least among the rest), each a\n"
      "                     real PE named in column pe, and rest (the mean of the others)\n"
      "  --mode signature   each group split by signature, then sum and mean in each part\n"
      "                     (group 'node 0 / signature 2')\n"
      "  --timings          print the time of each step on stderr\n\n"
      "Columns: members = PEs aggregated in the row's group; pe = the PE whose own value it is\n"
      "(first, slowest, fastest), empty otherwise; activity, activity_name as in `usage`;\n"
      "value_us = µs in the range; percent = % of the range per member, i.e. value_us / range\n"
      "length x 100, divided by members for role sum (so sum and mean have the same percent).\n"
      "Comm threads kept apart (the default) are aggregated in a row of their own per group\n"
      "('node 0 comm threads'), never with the workers.\n\n"
      "options:\n"
      "  --range B:E        time window, e.g. 10ms:25ms (default: the traced span)\n"
      "  --pes LIST         PEs, e.g. 0-3,5,7-15:2 (default: every PE with data)\n"
      "  --entries LIST     entry method ids (default: all)\n"
      "  --k N|auto         clusters for --by cluster (default: auto)\n"
      "  --include-comm-threads\n"
      "                     aggregate SMP comm threads with the workers of their group\n"
      "  --threads N        worker threads (default: all cores)\n";

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int runGroups(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    namespace analysis = core::analysis;
    const std::string command = "groups";
    CommandLine cl;
    if (const int rc = parseCommand(command, args, { "by", "mode", "range", "pes", "entries", "k" },
            cl, out, err, kGroupsHelp, { "include-comm-threads", "timings" });
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    const auto byText = cl.parser.value("by");
    if (!byText)
        return usageError(err, command, "--by is required (node, block:N, signature or cluster)");
    std::string error;
    const auto by = analysis::parseGroupBy(*byText, &error);
    if (!by)
        return usageError(err, command, "--by: " + error);
    int k = 0;
    if (const auto kText = cl.parser.value("k")) {
        if (by->kind != analysis::GroupKind::Cluster)
            return usageError(err, command, "--k goes with --by cluster");
        if (*kText != "auto") {
            std::int64_t value = 0;
            if (const int rc = readIntOption(command, cl, "k", 1, 100000, value, err);
                rc != kExitOk)
                return rc;
            k = static_cast<int>(value);
        }
    }
    std::optional<std::vector<analysis::NamedPeList>> lists;
    if (by->kind == analysis::GroupKind::List) {
        std::ifstream in(by->listFile, std::ios::binary);
        if (!in)
            return usageError(err, command, "--by list: cannot read '" + by->listFile + "'");
        std::string text;
        char chunk[4096];
        while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
            text.append(chunk, static_cast<std::size_t>(in.gcount()));
        lists = analysis::parsePeLists(text, &error);
        if (!lists)
            return usageError(err, command, by->listFile + ": " + error);
    }
    auto mode = analysis::AggregationMode::Sum;
    if (const auto m = cl.parser.value("mode")) {
        const auto parsed = analysis::parseAggregationMode(*m, &error);
        if (!parsed)
            return usageError(err, command, "--mode: " + error);
        mode = *parsed;
    }
    analysis::AnalysisRequest request;
    if (const int rc = parseAnalysisRequest(command, cl, request, err); rc != kExitOk)
        return rc;
    int rc = kExitOk;
    double loadSeconds = 0;
    const auto trace = load(cl, err, rc, &loadSeconds);
    if (!trace)
        return rc;
    if (const int check = checkRequestAgainstRun(command, *trace, request, err); check != kExitOk)
        return check;

    auto start = std::chrono::steady_clock::now();
    const auto usage = analysis::computeUsageProfile(*trace, request);
    if (!usage)
        return kExitFatal;
    const double usageSeconds = secondsSince(start);

    start = std::chrono::steady_clock::now();
    std::optional<analysis::PeSignatures> signatures;
    if (by->kind == analysis::GroupKind::Signature || mode == analysis::AggregationMode::Signature)
        signatures = analysis::computeSignatures(*trace, request);
    const double signatureSeconds = secondsSince(start);

    start = std::chrono::steady_clock::now();
    std::vector<analysis::PeGroup> groups;
    switch (by->kind) {
    case analysis::GroupKind::Node:
        groups = analysis::groupByNode(trace->metadata, usage->pes);
        break;
    case analysis::GroupKind::Block:
        groups = analysis::groupByBlock(usage->pes,
            by->blockSize > 0 ? by->blockSize : analysis::autoBlockSize(usage->pes.size()));
        break;
    case analysis::GroupKind::Signature:
        if (signatures)
            groups = analysis::groupBySignature(trace->metadata, *signatures);
        break;
    case analysis::GroupKind::List:
        groups = analysis::groupByLists(*lists);
        analysis::markCommThreads(groups, trace->metadata);
        break;
    case analysis::GroupKind::Cluster: {
        analysis::ClusterOptions options;
        options.k = k;
        // The usage profile above holds the clustering's vectors: no second pass over events.
        const auto clustering = analysis::clusterFeatures(
            analysis::featuresFromUsage(*usage), options, request.threads);
        if (!clustering)
            return kExitFatal;
        if (!clustering->error.empty())
            return usageError(err, command, "--by cluster: " + clustering->error);
        groups = analysis::groupByAssignment(clustering->features.pes, clustering->cluster);
        break;
    }
    }
    double groupSeconds = secondsSince(start);
    // Slices of groups, each written before the next is aggregated: 16,000 groups of 200
    // entry methods would hold 50 MB of values at once; a slice's memory is reused by the next.
    constexpr std::size_t kSlice = 256;
    std::size_t rows = 0;
    for (std::size_t first = 0;; first += kSlice) {
        const auto last = std::min(first + kSlice, groups.size());
        const std::vector<analysis::PeGroup> slice(
            std::make_move_iterator(groups.begin() + static_cast<std::ptrdiff_t>(first)),
            std::make_move_iterator(groups.begin() + static_cast<std::ptrdiff_t>(last)));
        start = std::chrono::steady_clock::now();
        const auto aggregation = analysis::aggregateGroups(
            *usage, slice, mode, signatures ? &*signatures : nullptr, request.threads);
        groupSeconds += secondsSince(start);
        rows += aggregation.groups.size();
        out << analysis::groupAggregationCsv(aggregation, first == 0);
        if (last >= groups.size())
            break;
    }
    if (cl.parser.flag("timings")) {
        char line[200];
        std::snprintf(line, sizeof line,
            "parallax-cli groups: load %.3f s, usage profile %.3f s, signatures %.3f s, "
            "grouping and aggregation %.3f s (%zu PEs, %zu rows)\n",
            loadSeconds, usageSeconds, signatureSeconds, groupSeconds, usage->pes.size(), rows);
        err << line;
    }
    return kExitOk;
}

} // namespace parallax::cli
