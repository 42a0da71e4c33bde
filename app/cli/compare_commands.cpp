#include "compare_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/iterations.h"
#include "core/analysis/run_compare.h"
#include "core/text_args.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <ostream>

namespace parallax::cli {

namespace {

const char* const kHelp
    = "usage: parallax-cli compare RUN_A [RUN_B ...] [options]\n\n"
      "Compares runs, or two ranges of one run: the time of every entry method summed over the\n"
      "PEs (comm threads apart), matched by name (Chare::entry, not by id), as CSV\n"
      "entry,a_us,b_us,delta_us,ratio (delta = B - A; ratio = B / A, below 1 where B is\n"
      "faster), largest change first; with more than two runs, one column per run:\n"
      "entry,<run>_us,... Warnings (other PE counts, other command names, few entry methods\n"
      "in common) go to stderr; runs of different programs are an error unless --force.\n\n"
      "options:\n"
      "  --range B:E        the range of every run (default: each run's traced span)\n"
      "  --range-a B:E, --range-b B:E\n"
      "                     the ranges of A and B; with a single RUN, two ranges of it\n"
      "  --pes LIST         the PEs of every run (default: every PE with data)\n"
      "  --profile          instead, the busy % of the PEs per interval on a common time axis:\n"
      "                     interval,offset_us,a_busy_pct,b_busy_pct,delta_pct (one column per\n"
      "                     run for more than two; empty after a run's range ends)\n"
      "  --align start|event:ID\n"
      "                     the axis' origin in each run: its range's start (default) or the\n"
      "                     first occurrence of user event ID in the range\n"
      "  --interval T       interval of --profile, e.g. 1ms\n"
      "  --bins N           number of intervals over the longest run (default 200)\n"
      "  --by iteration     instead, the two runs' iterations (as parallax-cli iterations finds\n"
      "                     them) paired by index: iteration,duration_a_us,duration_b_us,ratio,\n"
      "                     slowest_pe_a,slowest_pe_b (ratio = B / A); stderr says how each\n"
      "                     run's iterations were found and when their counts differ\n"
      "  --every T          with --by iteration: an iteration every T in both runs\n"
      "  --force            compare runs of different programs all the same\n"
      "  --include-comm-threads\n"
      "                     count SMP comm threads in the sums (default: kept apart)\n"
      "  --threads N        worker threads (default: all cores)\n";

// A short name for a run: its directory's name (or the file's, without .sts).
std::string runLabel(const std::string& path)
{
    std::filesystem::path p(path);
    if (p.filename().empty())
        p = p.parent_path();
    if (std::filesystem::is_directory(p))
        return p.filename().string();
    auto name = p.filename().string();
    if (const auto dot = name.find(".sts"); dot != std::string::npos)
        name = name.substr(0, dot);
    return name;
}

bool parseRange(const std::string& command, const std::string& option, const std::string& text,
    core::TimeRange& range, std::ostream& err, int& rc)
{
    std::string error;
    const auto parsed = core::parseTimeRange(text, &error);
    if (!parsed) {
        rc = usageError(err, command, "--" + option + ": " + error);
        return false;
    }
    range.begin = parsed->begin.value_or(0);
    range.end = parsed->end.value_or(core::kTimeMax);
    return true;
}

// `compare --by iteration`: the two sides' iterations paired by index.
int compareByIteration(const std::vector<core::analysis::CompareSide>& sides,
    const core::analysis::IterationRequest& how, std::ostream& out, std::ostream& err)
{
    if (sides.size() != 2)
        return usageError(err, "compare", "--by iteration compares two runs or two ranges");
    std::vector<core::analysis::IterationResult> found;
    for (const auto& side : sides) {
        found.push_back(core::analysis::findIterations(*side.trace, side.request, how));
        const auto& f = found.back();
        err << "parallax-cli compare: " << side.label << ": " << f.iterations.size()
            << " iterations";
        if (f.source == "user-event")
            err << " from user event " << f.markerId << " ("
                << side.trace->metadata.userEvents.at(f.markerId) << ")";
        else if (f.source == "entry")
            err << " from entry method " << f.markerId << " ("
                << side.trace->metadata.entryName(f.markerId) << ")";
        else if (f.source == "every")
            err << " of equal length (--every)";
        else
            err << ": nothing marks iterations in its range (give --every T)";
        err << "\n";
    }
    const auto na = found[0].iterations.size();
    const auto nb = found[1].iterations.size();
    if (na != nb)
        err << "parallax-cli compare: note: the runs have " << na << " and " << nb
            << " iterations; they are paired by index, the last " << (na > nb ? na - nb : nb - na)
            << " of " << sides[na > nb ? 0 : 1].label << " have no partner (empty fields)\n";
    out << core::analysis::iterationComparisonCsv(found[0], found[1]);
    return kExitOk;
}

} // namespace

int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "compare";
    CommandLine cl;
    if (const int rc = parseCommand(command, args,
            { "range", "range-a", "range-b", "pes", "align", "interval", "bins", "by", "every" },
            cl, out, err, kHelp, { "profile", "include-comm-threads", "force" }, true);
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    core::analysis::AnalysisRequest common;
    if (const int rc = parseAnalysisRequest(command, cl, common, err); rc != kExitOk)
        return rc;
    core::analysis::CompareOptions options;
    int rc = kExitOk;
    const auto by = cl.parser.value("by").value_or("entry");
    if (by != "entry" && by != "iteration")
        return usageError(err, command, "--by takes entry or iteration, got '" + by + "'");
    const bool byIteration = by == "iteration";
    core::analysis::IterationRequest how;
    if (const auto every = cl.parser.value("every")) {
        if (!byIteration)
            return usageError(err, command, "--every goes with --by iteration");
        std::string error;
        const auto t = core::parseTime(*every, &error);
        if (!t || *t <= 0)
            return usageError(
                err, command, "--every: " + (t ? std::string("needs a time above zero") : error));
        how.every = *t;
    }
    if (byIteration && cl.parser.flag("profile"))
        return usageError(err, command, "--profile and --by iteration are two different tables");
    if (!parseIntervalOptions(command, cl, options.intervalSize, options.bins, err, rc))
        return rc;
    if (const auto align = cl.parser.value("align"); align && *align != "start") {
        const std::string prefix = "event:";
        int id = 0;
        const auto* begin = align->data() + std::min(prefix.size(), align->size());
        const auto* end = align->data() + align->size();
        const auto [ptr, ec] = std::from_chars(begin, end, id);
        if (align->rfind(prefix, 0) != 0 || ec != std::errc() || ptr != end || begin == end)
            return usageError(
                err, command, "--align takes start or event:ID, got '" + *align + "'");
        options.origin = core::analysis::CompareOrigin::UserEvent;
        options.event = id;
    }

    // The sides: every RUN, or two ranges of a single one.
    const auto& paths = cl.runs;
    const bool ranged = cl.parser.value("range-a") || cl.parser.value("range-b");
    if (ranged && paths.size() > 2)
        return usageError(err, command, "--range-a and --range-b compare two runs or two ranges");
    if (paths.size() == 1 && !(cl.parser.value("range-a") && cl.parser.value("range-b")))
        return usageError(err, command,
            "give a second RUN, or --range-a and --range-b to compare two ranges of " + paths[0]);
    if (ranged && cl.parser.value("range"))
        return usageError(err, command, "give --range, or --range-a and --range-b, not both");
    std::map<std::string, core::TracePtr> loaded;
    std::vector<core::TracePtr> traces;
    for (std::size_t k = 0; k < std::max<std::size_t>(paths.size(), 2); ++k) {
        const auto& path = paths[std::min(k, paths.size() - 1)];
        auto& trace = loaded[path];
        if (!trace) {
            CommandLine one = cl;
            one.run = path;
            trace = load(one, err, rc);
            if (!trace)
                return rc;
        }
        traces.push_back(trace);
    }
    std::vector<core::analysis::CompareSide> sides(traces.size());
    std::map<std::string, int> labels;
    for (std::size_t k = 0; k < sides.size(); ++k) {
        auto& side = sides[k];
        side.trace = traces[k].get();
        side.request = common;
        const char* option = k == 0 ? "range-a" : "range-b";
        if (const auto r = cl.parser.value(option); r && ranged) {
            if (!parseRange(command, option, *r, side.request.range, err, rc))
                return rc;
        }
        if (const int check = checkRequestAgainstRun(command, *side.trace, side.request, err);
            check != kExitOk)
            return check;
        side.label = runLabel(paths[std::min(k, paths.size() - 1)]);
        if (paths.size() == 1)
            side.label.append(k == 0 ? "[A]" : "[B]");
        if (const int seen = ++labels[side.label]; seen > 1)
            side.label.append("#").append(std::to_string(seen));
    }
    if (byIteration)
        return compareByIteration(sides, how, out, err);
    if (options.origin == core::analysis::CompareOrigin::UserEvent)
        for (const auto& side : sides)
            if (!core::analysis::firstUserEvent(*side.trace, side.request, options.event))
                return usageError(err, command,
                    "user event " + std::to_string(options.event)
                        + " does not occur in the range of " + side.label);
    const auto comparison = core::analysis::compareRuns(sides, options);
    if (!comparison)
        return kExitFatal;
    for (const auto& w : comparison->warnings)
        err << "parallax-cli compare: warning: " << w << "\n";
    if (comparison->differentPrograms && !cl.parser.flag("force")) {
        err << "parallax-cli compare: the runs are different programs ("
            << comparison->matchedEntries
            << " entry methods in common); --force compares them anyway\n";
        return kExitFatal;
    }
    out << (cl.parser.flag("profile") ? core::analysis::comparisonProfileCsv(&*comparison)
                                      : core::analysis::comparisonCsv(&*comparison));
    return kExitOk;
}

} // namespace parallax::cli
