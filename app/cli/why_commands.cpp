#include "why_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/critical_path.h"
#include "core/analysis/csv_export.h"
#include "core/analysis/entry_model.h"
#include "core/analysis/idle_blame.h"
#include "core/analysis/iterations.h"
#include "core/text_args.h"
#include "core/trace.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <set>
#include <sstream>

namespace parallax::cli {

namespace {

using core::analysis::csvField;

// What the why commands print for an entry id ("" for none in a path, a word in blame tables).
std::string whyEntryName(const core::Trace& trace, core::EntryId entry, const char* none)
{
    if (entry < 0 || static_cast<std::size_t>(entry) >= trace.metadata.entries.size())
        return none;
    return trace.metadata.entryName(entry);
}

std::string whyPeText(core::PeId pe)
{
    return pe == core::kNoPe ? "*" : std::to_string(pe);
}

std::string whyPercent(core::TimeUs part, core::TimeUs whole)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f",
        whole <= 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
    return buf;
}

const char* const kWhyOptionsHelp
    = "  --range B:E        time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us);\n"
      "                     default: the traced span of the run\n"
      "  --pes LIST         PEs, e.g. 0-3,5 (default: every PE with a log)\n"
      "  --include-comm-threads\n"
      "                     SMP comm threads as PEs of their own (default: their relays are\n"
      "                     part of the messages they pass on)\n"
      "  --threads N        worker threads for reading logs (default: all cores)\n";

// The start of both commands: prepareAnalysisCommand with the help's option lines appended,
// and --entries refused (every execution is a node of the graph, whatever its entry method).
// Returns -1 to go on, else the exit code.
int prepareWhyCommand(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> options, const std::string& help, std::set<std::string> flags,
    CommandLine& cl, core::TracePtr& trace, core::analysis::AnalysisRequest& request,
    std::ostream& out, std::ostream& err)
{
    if (const int rc = prepareAnalysisCommand(command, args, std::move(options),
            help + kWhyOptionsHelp, cl, trace, request, out, err, std::move(flags));
        rc >= 0)
        return rc;
    if (!request.entries.empty())
        return usageError(err, command, "--entries does not apply (every entry method counts)");
    return -1;
}

} // namespace

int runCriticalPath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help = std::string(
        "usage: parallax-cli critical-path RUN [--range B:E] [--pes LIST]\n"
        "                      [--summary | --by-entry]\n\n"
        "The chain of executions and messages that made the range as long as it was.\n"
        "It ends with the execution that ends last in the range and walks back: each\n"
        "execution waited either for its message (sent after its PE was free, or the PE\n"
        "sat idle until it came) or for the previous execution on its PE. Only verified\n"
        "message links are followed (the Timeline's arrows; comm-thread relays are part\n"
        "of the message). CSV, earliest step first, each step beginning where the one\n"
        "before it ended:\n"
        "step,pe,kind,entry,begin_us,end_us\n"
        "kind exec: (part of) an execution on pe up to the send that continues the path;\n"
        "kind message: from its send on pe to the execution it started on the next row's\n"
        "PE, entry = the entry method it was sent to; kind wait: pe was free but the next\n"
        "execution had not begun. A range with no execution prints the header only (and a\n"
        "note on stderr). --summary prints key: value lines instead: length, the time in\n"
        "each kind, the PEs on the path, why it starts where it does and how many links\n"
        "could not be resolved (docs/why.md). --by-entry prints, instead, the path's time\n"
        "per entry method, most exec time first (what to speed up to shorten the path):\n"
        "entry,name,exec_us,message_us,executions,share_pct\n"
        "(message_us: messages sent to it in flight on the path; share_pct: exec_us of\n"
        "the path's length)\n\n"
        "options:\n");
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareWhyCommand("critical-path", args, {}, help, { "summary", "by-entry" },
            cl, trace, request, out, err);
        rc >= 0)
        return rc;
    if (cl.parser.flag("summary") && cl.parser.flag("by-entry"))
        return usageError(err, "critical-path", "give --summary or --by-entry, not both");
    const auto path = core::analysis::findCriticalPath(*trace, request);
    if (path.empty())
        err << "parallax-cli critical-path: note: no execution of the selected PEs in "
            << path.range.begin << ":" << path.range.end << " us\n";
    using Kind = core::analysis::CriticalStep::Kind;
    if (cl.parser.flag("summary")) {
        std::vector<core::PeId> pes;
        for (const auto& step : path.steps)
            pes.push_back(step.pe);
        std::sort(pes.begin(), pes.end());
        pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
        out << "range_us: " << path.range.begin << ":" << path.range.end << "\n";
        out << "steps: " << path.steps.size() << "\n";
        out << "begin_us: " << (path.empty() ? 0 : path.steps.front().begin) << "\n";
        out << "end_us: " << (path.empty() ? 0 : path.steps.back().end) << "\n";
        out << "length_us: " << path.length() << "\n";
        out << "exec_us: " << path.total(Kind::Exec) << "\n";
        out << "message_us: " << path.total(Kind::Message) << "\n";
        out << "wait_us: " << path.total(Kind::Wait) << "\n";
        out << "pes: " << (pes.empty() ? std::string("none") : core::formatPeList(pes)) << "\n";
        out << "starts_because: " << (path.empty() ? "" : path.startReason) << "\n";
        out << "unresolved_links: " << path.unresolvedLinks << "\n";
        return kExitOk;
    }
    if (cl.parser.flag("by-entry")) {
        out << "entry,name,exec_us,message_us,executions,share_pct\n";
        for (const auto& share : core::analysis::criticalPathByEntry(path))
            out << share.entry << "," << csvField(whyEntryName(*trace, share.entry, "")) << ","
                << share.exec << "," << share.message << "," << share.executions << ","
                << whyPercent(share.exec, path.length()) << "\n";
        return kExitOk;
    }
    out << "step,pe,kind,entry,begin_us,end_us\n";
    std::size_t n = 0;
    for (const auto& step : path.steps)
        out << n++ << "," << step.pe << "," << core::analysis::criticalStepKindName(step.kind)
            << "," << csvField(whyEntryName(*trace, step.entry, "")) << "," << step.begin << ","
            << step.end << "\n";
    return kExitOk;
}

int runIdleBlame(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help = std::string(
        "usage: parallax-cli idle-blame RUN [--range B:E] [--pes LIST]\n"
        "                   [--by pe|entry|detail | --caused]\n\n"
        "Who made the PEs idle. Each idle period of a selected PE in the range is blamed\n"
        "on the message that ended it: the message that started the PE's first execution\n"
        "after the idle (beginning at most 50 us after it), when it came from another PE\n"
        "through a verified link. Its producer is the sending PE and the entry method that\n"
        "sent it ('(between executions)' for a send made outside any). CSV, most idle\n"
        "first:\n"
        "producer_pe,producer_entry,consumer_pe,idle_us,count\n"
        "(idle_us: the idle time, clipped to the range, those messages ended; count: idle\n"
        "periods)\n"
        "  --by pe      (default) the blame matrix: one row per producer PE and consumer\n"
        "               PE, over every producer entry (producer_entry = *)\n"
        "  --by entry   one row per producer entry method, over every producer and consumer\n"
        "               PE (producer_pe = consumer_pe = *)\n"
        "  --by detail  one row per producer PE, entry and consumer PE, plus the producer's\n"
        "               own reason for sending late, one level up:\n"
        "               producer_late,producer_late_pe,producer_late_entry (message = its\n"
        "               execution waited for a message from that PE's entry method; busy =\n"
        "               that PE was running that entry method before; none = not known)\n"
        "  --caused     idle caused, instead: CSV "
        "kind,producer,name,idle_us,count,share_pct\n"
        "               with kind pe (producer = PE), entry (producer = entry id or *),\n"
        "               then unblamed (producer = why: self-message, no-sender,\n"
        "               unresolved-link, nothing-after) and a last row total (all idle of\n"
        "               the selected PEs in the range); share_pct = of that total\n\n"
        "options:\n");
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareWhyCommand(
            "idle-blame", args, { "by" }, help, { "caused" }, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    using Grouping = core::analysis::BlameGrouping;
    auto grouping = Grouping::Pe;
    if (const auto by = cl.parser.value("by")) {
        if (*by == "entry")
            grouping = Grouping::Entry;
        else if (*by == "detail")
            grouping = Grouping::Detail;
        else if (*by != "pe")
            return usageError(err, "idle-blame", "--by must be pe, entry or detail");
        if (cl.parser.flag("caused"))
            return usageError(err, "idle-blame", "give --by or --caused, not both");
    }
    const auto blame = core::analysis::findIdleBlame(*trace, request);
    const auto& t = *trace;
    constexpr const char* kBetween = "(between executions)";
    if (cl.parser.flag("caused")) {
        out << "kind,producer,name,idle_us,count,share_pct\n";
        using Kind = core::analysis::IdleCaused::Kind;
        for (const auto& row : core::analysis::idleCaused(blame)) {
            if (row.kind == Kind::Pe)
                out << "pe," << row.pe << ",";
            else if (row.kind == Kind::Entry)
                out << "entry," << (row.entry < 0 ? "*" : std::to_string(row.entry)) << ","
                    << csvField(whyEntryName(t, row.entry, kBetween));
            else
                out << "unblamed," << core::analysis::blamedIdleKindName(row.unblamed) << ",";
            out << "," << row.idle << "," << row.count << ","
                << whyPercent(row.idle, blame.totalIdle) << "\n";
        }
        out << "total,idle,," << blame.totalIdle << "," << blame.idles.size() << ","
            << whyPercent(blame.totalIdle, blame.totalIdle) << "\n";
        return kExitOk;
    }
    out << "producer_pe,producer_entry,consumer_pe,idle_us,count";
    if (grouping == Grouping::Detail)
        out << ",producer_late,producer_late_pe,producer_late_entry";
    out << "\n";
    for (const auto& row : core::analysis::aggregateBlame(blame, grouping)) {
        out << whyPeText(row.producerPe) << ","
            << (grouping == Grouping::Pe ? "*"
                                         : csvField(whyEntryName(t, row.producerEntry, kBetween)))
            << "," << whyPeText(row.consumerPe) << "," << row.idle << "," << row.count;
        if (grouping == Grouping::Detail)
            out << "," << core::analysis::producerLateName(row.producerLate) << ","
                << (row.producerLatePe == core::kNoPe ? "" : std::to_string(row.producerLatePe))
                << "," << csvField(whyEntryName(t, row.producerLateEntry, ""));
        out << "\n";
    }
    return kExitOk;
}

int runIterations(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help = std::string(
        "usage: parallax-cli iterations RUN [--range B:E] [--pes LIST]\n"
        "                   [--every T | --at T1,T2,... | --event ID | --entry ID]\n\n"
        "The run's iterations (time steps) and, in each, the busiest PE against the\n"
        "median one. Found, unless told how: from a user event whose name speaks of\n"
        "steps (step, iter, phase, cycle; each occurrence starts an iteration), else from\n"
        "an entry method that every selected PE executes the same number of times (at\n"
        "least 3; the coarsest such entry, e.g. a step broadcast to a group): iteration k\n"
        "starts at its earliest k-th execution. Each iteration lasts until the next one\n"
        "starts, the last until the range ends. How they were found goes to stderr. CSV:\n"
        "iteration,begin_us,end_us,duration_us,slowest_pe,slowest_busy_us,median_busy_us\n"
        "(busy: entry-method time inside the iteration; slowest = the busiest PE)\n"
        "  --every T        an iteration every T (e.g. 10ms) from the range's begin\n"
        "  --at T1,T2,...   iterations starting at these times\n"
        "  --event ID       a user event marks each start (parallax-cli user-events)\n"
        "  --entry ID       an entry method marks them (parallax-cli entries)\n\n"
        "options:\n");
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareWhyCommand("iterations", args, { "every", "at", "event", "entry" },
            help, {}, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::IterationRequest how;
    int given = 0;
    std::string error;
    if (const auto every = cl.parser.value("every")) {
        ++given;
        const auto t = core::parseTime(*every, &error);
        if (!t || *t <= 0)
            return usageError(err, "iterations",
                "--every: " + (t ? std::string("needs a time above zero") : error));
        how.every = *t;
    }
    if (const auto at = cl.parser.value("at")) {
        ++given;
        std::stringstream list(*at);
        std::string item;
        while (std::getline(list, item, ',')) {
            const auto t = core::parseTime(item, &error);
            if (!t)
                return usageError(err, "iterations", "--at: " + error);
            how.starts.push_back(*t);
        }
        if (how.starts.empty())
            return usageError(err, "iterations", "--at needs at least one time");
    }
    std::int64_t id = -1;
    if (cl.parser.value("event")) {
        ++given;
        if (const int rc = readIntOption("iterations", cl, "event", 0, INT32_MAX, id, err);
            rc != kExitOk)
            return rc;
        if (!trace->metadata.userEvents.contains(static_cast<std::int32_t>(id)))
            return usageError(
                err, "iterations", "--event: this run has no user event " + std::to_string(id));
        how.userEvent = static_cast<core::UserEventId>(id);
    }
    if (cl.parser.value("entry")) {
        ++given;
        const auto count = static_cast<std::int64_t>(trace->metadata.entries.size());
        if (const int rc = readIntOption(
                "iterations", cl, "entry", 0, std::max<std::int64_t>(count - 1, 0), id, err);
            rc != kExitOk)
            return rc;
        if (count == 0)
            return usageError(err, "iterations", "--entry: this run has no entry methods");
        how.entry = static_cast<core::EntryId>(id);
    }
    if (given > 1)
        return usageError(err, "iterations", "give one of --every, --at, --event and --entry");
    const auto found = core::analysis::findIterations(*trace, request, how);
    const auto& t = *trace;
    if (found.source == "user-event")
        err << "parallax-cli iterations: from user event " << found.markerId << " ("
            << t.metadata.userEvents.at(found.markerId) << ")\n";
    else if (found.source == "note")
        err << "parallax-cli iterations: from the notes naming steps\n";
    else if (found.source == "entry")
        err << "parallax-cli iterations: from entry method " << found.markerId << " ("
            << whyEntryName(t, found.markerId, "") << ")\n";
    else if (found.source == "none")
        err << "parallax-cli iterations: note: nothing in the range marks iterations (no user "
               "event or note named for steps, no entry method run equally often on every PE); "
               "give "
               "--every, --at, --event or --entry\n";
    out << core::analysis::iterationsCsv(found);
    return kExitOk;
}

namespace {

std::string modelNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

int runModel(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help = std::string(
        "usage: parallax-cli model RUN --entry ID [--x msg-bytes|iteration|user-value]\n"
        "                   [--table fits|groups|points|summary] [--range B:E] [--pes LIST]\n\n"
        "A performance model of one entry method: the durations of its executions (those\n"
        "that begin in the range on the selected PEs) against\n"
        "  msg-bytes   the size of the message that started each (default)\n"
        "  iteration   the iteration it ran in (as parallax-cli iterations finds them)\n"
        "  user-value  the value the program recorded during it (traceUserSuppliedData)\n"
        "with least-squares fits (durations in us):\n"
        "  --table fits     (default) fit,formula,a,b,c,r2,points: linear y = a + b x,\n"
        "                   power y = a x^b (over x > 0), quadratic y = a + b x + c x^2;\n"
        "                   r2 over the points fitted, in us (not in log space)\n"
        "  --table groups   x,x_min,x_max,count,mean_us,sd_us,min_us,max_us: the points\n"
        "                   with the same x (or, above 64 values, 20 bins of equal counts)\n"
        "  --table points   pe,begin_us,x,duration_us\n"
        "  --table summary  key: value lines, with the bimodality coefficient of the\n"
        "                   durations and multimodal: yes when it is above 5/9\n"
        "Executions without an x (no message, outside every iteration, no value) are left\n"
        "out and counted in the summary.\n\n"
        "options:\n");
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepareWhyCommand(
            "model", args, { "entry", "x", "table" }, help, {}, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    if (!cl.parser.value("entry"))
        return usageError(err, "model", "--entry ID is required (parallax-cli entries lists them)");
    const auto entryCount = static_cast<std::int64_t>(trace->metadata.entries.size());
    if (entryCount == 0)
        return usageError(err, "model", "this run has no entry methods");
    std::int64_t entry = -1;
    if (const int rc = readIntOption("model", cl, "entry", 0, entryCount - 1, entry, err);
        rc != kExitOk)
        return rc;
    using core::analysis::ModelX;
    auto x = ModelX::MessageBytes;
    if (const auto text = cl.parser.value("x")) {
        if (*text == "iteration")
            x = ModelX::Iteration;
        else if (*text == "user-value")
            x = ModelX::UserValue;
        else if (*text != "msg-bytes")
            return usageError(err, "model", "--x must be msg-bytes, iteration or user-value");
    }
    const std::string table = cl.parser.value("table").value_or("fits");
    if (table != "fits" && table != "groups" && table != "points" && table != "summary")
        return usageError(err, "model", "--table must be fits, groups, points or summary");
    const auto id = static_cast<core::EntryId>(entry);
    const auto model = core::analysis::modelEntry(*trace, request, id, x);
    const std::string name = whyEntryName(*trace, id, "");
    if (model.points.empty())
        err << "parallax-cli model: note: no execution of entry " << id << " (" << name << ") with "
            << (cl.parser.value("x").value_or("msg-bytes"))
            << " in the range on the selected PEs\n";
    if (x == ModelX::Iteration && model.iterationSource == "none")
        err << "parallax-cli model: note: no iterations found (see parallax-cli iterations)\n";
    if (table == "summary") {
        const auto best = std::max_element(model.fits.begin(), model.fits.end(),
            [](const auto& l, const auto& r) { return l.r2 < r.r2; });
        double mean = 0;
        for (const auto& p : model.points)
            mean += static_cast<double>(p.duration);
        out << "entry: " << id << "\n";
        out << "entry_name: " << name << "\n";
        out << "x: " << cl.parser.value("x").value_or("msg-bytes") << "\n";
        out << "points: " << model.points.size() << "\n";
        out << "without_x: " << model.withoutX << "\n";
        out << "groups: " << model.groups.size() << "\n";
        out << "mean_us: "
            << modelNumber(
                   model.points.empty() ? 0.0 : mean / static_cast<double>(model.points.size()))
            << "\n";
        out << "bimodality: " << modelNumber(model.bimodality) << "\n";
        out << "multimodal: " << (model.multimodal() ? "yes" : "no") << "\n";
        out << "best_fit: "
            << (best == model.fits.end() ? std::string("none")
                                         : core::analysis::modelFormula(*best) + " (r2 "
                           + modelNumber(best->r2) + ")")
            << "\n";
        return kExitOk;
    }
    if (table == "points") {
        out << "pe,begin_us,x,duration_us\n";
        for (const auto& p : model.points)
            out << p.pe << "," << p.begin << "," << modelNumber(p.x) << "," << p.duration << "\n";
        return kExitOk;
    }
    if (table == "groups") {
        out << "x,x_min,x_max,count,mean_us,sd_us,min_us,max_us\n";
        for (const auto& g : model.groups)
            out << modelNumber(g.x) << "," << modelNumber(g.xMin) << "," << modelNumber(g.xMax)
                << "," << g.count << "," << modelNumber(g.mean) << "," << modelNumber(g.sd) << ","
                << g.min << "," << g.max << "\n";
        return kExitOk;
    }
    out << "fit,formula,a,b,c,r2,points\n";
    for (const auto& f : model.fits)
        out << core::analysis::modelFitName(f.kind) << ","
            << csvField(core::analysis::modelFormula(f)) << "," << modelNumber(f.a) << ","
            << modelNumber(f.b) << "," << modelNumber(f.c) << "," << modelNumber(f.r2) << ","
            << f.points << "\n";
    return kExitOk;
}

} // namespace parallax::cli
