#include "render_options.h"

#include <algorithm>
#include <sstream>

namespace parallax::render {

namespace {

// Options several views share, written once.
const RenderOption kIntervalOption { "interval", "T", "interval size, e.g. 1ms" };
const RenderOption kBinsOption { "bins", "N", "number of intervals (instead of --interval)" };
const RenderOption kEntriesOption { "entries", "LIST", "count only these entry method ids" };

// The views, in the order of `render --help` (see render_options.h to add one).
const std::vector<RenderView> kRenderViews = {
    { "overview", "per PE and time column: utilization or the dominant activity",
        { { "columns", "N", "time columns" },
            { "color", "activity|utilization", "what a cell's colour shows" },
            { "by", "auto|pes|node|block[:N]|signature|cluster",
                "PE groups as rows (see docs/groups.md)" },
            { "mode", "sum|set|key", "how a group is drawn" } } },
    { "usage", "per PE: % of time per entry method, idle and overhead",
        { { "by", "auto|pes|node|block[:N]|signature|cluster", "PE groups (see docs/groups.md)" },
            { "mode", "sum|set|key", "how a group is drawn" } } },
    { "time-profile", "time per entry method summed over the PEs, per interval",
        { kIntervalOption, kBinsOption } },
    { "histogram", "executions by duration, messages by size or PEs by idle %",
        { { "metric", "duration|msg-size|idle", "what is counted" },
            { "bins", "N", "number of bins" }, { "bin-size", "X", "width of a bin" },
            { "min", "X", "lower end of the first bin" },
            { "entries", "LIST", "count only these entry method ids (then no idle periods)" } } },
    { "comm", "messages and bytes sent and received per interval",
        { kIntervalOption, kBinsOption,
            { "metric", "M",
                "msgs_sent, bytes_sent, msgs_recv, bytes_recv, ext_msgs_recv, ...\n"
                "(as the comm command)" } } },
    { "extrema", "the PEs that stand out",
        { { "criterion", "C",
              "least-idle, most-idle, overhead, active-entries, grain-size,\n"
              "msgs-sent, bytes-sent or clustering" },
            { "count", "N", "number of extreme PEs" },
            { "clusters", "K", "clusters for the clustering criterion" },
            { "by", "pes|node|block", "rank PEs or groups of PEs" } } },
    { "timeline", "the PEs' executions over time (without --pes: the first 16 PEs)",
        { { "show", "critical-path|none", "draw the critical path (docs/why.md)" },
            { "mode", "sum|set|key", "how a PE group is drawn" } } },
    { "clusters", "equivalence classes of PEs by k-means",
        { { "k", "N|auto", "number of clusters" }, { "outliers", "N", "outliers in all" } } },
    { "entry-profile", "per entry method: executions and time", { kEntriesOption } },
    { "call-table", "per entry method: who sent its messages", { kEntriesOption } },
    { "user-events", "user events per event id and PE",
        { { "events", "LIST", "the user event ids shown" } } },
    { "log", "the first PE of --pes: its log record by record",
        { { "records", "all|executions|messages|user|idle|pack|markers", "which records" } } },
    { "why", "the critical path or the idle blame as a table (docs/why.md)",
        { { "show", "critical-path|path-entry|blame-pe|caused-entry|caused-pe",
            "the table: the path's steps, the path's time per entry method,\n"
            "the idle blamed per producer and consumer PE, or the idle each\n"
            "entry method or PE caused" } } },
    { "noise", "executions far longer than usual, grouped into noise events",
        { { "k", "K", "scaled MADs above the median" },
            { "min-excess", "T", "at least this much longer than the median" }, kEntriesOption } },
    { "comm-matrix", "messages or bytes per pair of PEs (or nodes)",
        { { "metric", "messages|bytes", "what a cell counts" },
            { "by", "pe|pe-by-node|node", "the matrix's rows and columns" },
            { "external", "on|off", "only messages between SMP nodes" } } },
    { "msg-size-evolution", "messages per time interval and size bin",
        { { "event", "send|receive", "count sends or receives" },
            { "sizes", "log|linear", "size bins of powers of two or of equal width" },
            { "size-bin", "B", "width of a linear size bin in bytes" }, kIntervalOption,
            kBinsOption, kEntriesOption } },
    { "animation", "every PE's utilization per frame, as an animated PNG",
        { { "frames", "N", "number of frames over the range" },
            { "interval", "T", "one frame per interval of T" },
            { "fps", "F", "frames per second: 1, 2, 5, 10, 20 or 30" },
            { "frame", "N", "the frame drawn into an SVG" },
            { "frames-dir", "DIR", "also every frame as DIR/frame-0001.png, ...",
                OptionUse::Render } } },
    { "user-stats", "user statistics over time or per PE",
        { { "stat", "ID", "the stat shown" },
            { "aggregate", "sum|mean|min|max|count|last", "how samples are combined" },
            { "by", "time|pe", "over time or per PE" }, kIntervalOption, kBinsOption } },
    { "memory", "memory in use over time, or per PE",
        { { "by", "time|pe", "over time or per PE" }, kIntervalOption, kBinsOption } },
    { "counters", "hardware counters per entry method or PE (also NAME.count.sts)",
        { { "counter", "NAME", "the counter shown" },
            { "metric", "total|rate", "totals or rates per microsecond" },
            { "by", "entry|pe", "per entry method or per PE" } } },
    { "compare", "two runs (or two ranges of one) side by side",
        { { "with", "RUN_B", "the run to compare with", OptionUse::Render },
            { "range-b", "B:E", "the range of the second run (or of the same run)" },
            { "align", "start|event:ID", "the common time axis' origin" },
            { "show", "both|difference", "both runs or their difference" }, kIntervalOption,
            kBinsOption } },
    { "iterations", "the run's time steps against the median",
        { { "color", "busy|lateness", "what a cell's colour shows" } } },
    { "model", "one entry method's execution durations against a measure, with fits",
        { { "entry", "ID", "the entry method (default: the heaviest with something to plot)" },
            { "x", "msg-bytes|iteration|user-value", "what the durations are plotted against" },
            { "log-y", "[=on|off]",
                "durations on a log axis (1-2-5 ticks; 0 drawn at the lowest\n"
                "decade), for a few long outliers over many short executions",
                OptionUse::View, true } } },
    // Drawn from a recorded utilization stream, not a run (render_live.cpp reads these).
    { "live", "a recorded utilization stream: 10 s of 100-ms bars and one second at 1 ms",
        { { "replay", "FILE", "the recording (instead of RUN)", OptionUse::Render },
            { "up-to", "N", "the window ends after chunk N", OptionUse::Render },
            { "second", "N", "the second drawn at 1 ms", OptionUse::Render },
            { "sts", "FILE", "the program's .util.sts, for entry names", OptionUse::Render } } },
};

// "  --name VALUE          help", the help's later lines below it.
void writeOption(std::ostream& out, const std::string& spec, const std::string& help)
{
    constexpr std::size_t kColumn = 26;
    const std::string indent(kColumn, ' ');
    out << "  " << spec;
    if (spec.size() + 4 > kColumn)
        out << "\n" << indent;
    else
        out << std::string(kColumn - 2 - spec.size(), ' ');
    for (const char c : help) {
        out << c;
        if (c == '\n')
            out << indent;
    }
    out << "\n";
}

const char* const kUsage
    = "usage: parallax-cli render VIEW RUN -o OUT.png [--width W] [--height H] [options]\n"
      "       parallax-cli render --session FILE.parallax VIEW -o OUT.png [options]\n\n";

void writeCommonOptions(std::ostream& out)
{
    out << "options:\n";
    writeOption(out, "-o, --output FILE", "the PNG (or SVG) to write");
    writeOption(out, "--session FILE",
        "draw the view as a saved session (File > Save Session) has it:\n"
        "its run, range, PEs, options and entry colours; options given\n"
        "here win over the session's");
    writeOption(out, "--width W, --height H", "picture size in pixels (default 1600 x 900)");
    writeOption(out, "--range B:E, --pes LIST", "as for the analysis commands");
}

} // namespace

const std::vector<RenderView>& renderViews()
{
    return kRenderViews;
}

const RenderView* findRenderView(const std::string& key)
{
    const auto it = std::find_if(kRenderViews.begin(), kRenderViews.end(),
        [&key](const RenderView& v) { return key == v.key; });
    return it == kRenderViews.end() ? nullptr : &*it;
}

std::vector<std::string> commonRenderOptions()
{
    return { "output", "width", "height", "range", "pes" };
}

std::string renderHelp()
{
    std::ostringstream out;
    out << kUsage
        << "Draws a view exactly as the desktop app does, offscreen, and saves it as PNG (or, for\n"
           "the timeline and the table views, as SVG when OUT ends in .svg).\n";
    // The VIEW list, wrapped; packaging reads it ("VIEW: a, b, ...\n... z.").
    std::string line = "VIEW:";
    for (std::size_t i = 0; i < kRenderViews.size(); ++i) {
        const std::string word
            = std::string(kRenderViews[i].key) + (i + 1 == kRenderViews.size() ? "." : ",");
        if (line.size() + 1 + word.size() > 90) {
            out << line << "\n";
            line = word;
        } else {
            line += " " + word;
        }
    }
    out << line << "\n"
        << "The animation is written as an animated PNG of every frame; counters also reads the\n"
           "older NAME.count.sts files.\n\n";
    writeCommonOptions(out);
    out << "\nview options (parallax-cli render VIEW --help tells more):\n";
    for (const auto& view : kRenderViews) {
        if (view.options.empty())
            continue;
        std::string names;
        for (const auto& option : view.options)
            names += (names.empty() ? "--" : ", --") + std::string(option.name);
        writeOption(out, view.key, names);
    }
    return out.str();
}

std::string renderViewHelp(const RenderView& view)
{
    std::ostringstream out;
    out << "usage: parallax-cli render " << view.key << " RUN -o OUT.png [options]\n\n"
        << "The " << view.key << " view: " << view.summary << ".\n\n";
    writeCommonOptions(out);
    if (!view.options.empty()) {
        out << "\n" << view.key << " options:\n";
        for (const auto& option : view.options)
            writeOption(out,
                "--" + std::string(option.name) + (option.flag ? "" : " ") + option.value,
                option.help);
    }
    return out.str();
}

std::string optionElsewhere(const RenderView& view, const std::string& option)
{
    std::vector<std::string> takers;
    for (const auto& v : kRenderViews)
        for (const auto& o : v.options)
            if (option == o.name)
                takers.emplace_back(v.key);
    if (takers.empty())
        return {};
    std::string message = "the " + std::string(view.key) + " view has no option --" + option;
    if (takers.size() == 1)
        return message + ": --" + option + " applies to the " + takers.front() + " view only";
    message += " (it goes with";
    for (std::size_t i = 0; i < takers.size(); ++i)
        message += (i == 0 ? " " : ", ") + takers[i];
    return message + ")";
}

} // namespace parallax::render
