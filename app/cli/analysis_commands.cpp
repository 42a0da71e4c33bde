#include "analysis_commands.h"

#include "command_support.h"
#include "commands.h"
#include "core/analysis/time_profile.h"
#include "core/analysis/usage_profile.h"
#include "core/text_args.h"

#include <ostream>

namespace parallax::cli {

namespace {

const char* const kCommonHelp
    = "  --range B:E        time window, e.g. 10ms:25ms (units ns, us, ms, s; plain = us)\n"
      "  --pes LIST         PEs, e.g. 0-3,5,7-15:2 (default: every PE with data)\n"
      "  --entries LIST     entry method ids (default: all)\n"
      "  --compat java      the reference tool's rules (see docs/differences.md)\n"
      "  --threads N        worker threads (default: all cores)\n";

// Loads the run and fills the request; returns -1 to go on, else the exit code.
int prepare(const std::string& command, const std::vector<std::string>& args,
    std::set<std::string> options, const std::string& help, CommandLine& cl, core::TracePtr& trace,
    core::analysis::AnalysisRequest& request, std::ostream& out, std::ostream& err)
{
    options.insert({ "range", "pes", "entries", "compat" });
    if (const int rc = parseCommand(command, args, std::move(options), cl, out, err, help.c_str());
        rc != kExitOk)
        return rc < 0 ? kExitOk : rc;
    if (const int rc = parseAnalysisRequest(command, cl, request, err); rc != kExitOk)
        return rc;
    int rc = kExitOk;
    trace = load(cl, err, rc);
    if (!trace)
        return rc;
    if (const int check = checkRequestAgainstRun(command, *trace, request, err); check != kExitOk)
        return check;
    return -1;
}

bool parseIntervalOptions(const std::string& command, const CommandLine& cl, core::TimeUs& size,
    std::int64_t& bins, std::ostream& err, int& rc)
{
    std::string error;
    if (const auto v = cl.parser.value("interval")) {
        const auto t = core::parseTime(*v, &error);
        if (!t || *t <= 0) {
            rc = usageError(
                err, command, "--interval: " + (t ? std::string("must be positive") : error));
            return false;
        }
        size = *t;
    }
    if (const auto v = cl.parser.value("bins")) {
        const auto n = core::parsePeList(*v, &error);
        if (!n || n->size() != 1 || v->find_first_not_of("0123456789") != std::string::npos
            || n->front() < 1 || n->front() > 10'000'000) {
            rc = usageError(err, command, "--bins needs a number from 1 to 10000000");
            return false;
        }
        bins = n->front();
    }
    if (size > 0 && bins > 0) {
        rc = usageError(err, command, "give --interval or --bins, not both");
        return false;
    }
    return true;
}

} // namespace

int runUsage(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string("usage: parallax-cli usage RUN [options]\n\n"
                      "Per PE, the % of the range spent in each entry method, idle, overhead,\n"
                      "pack and unpack, as CSV pe,activity,percent (pe 'avg' = the average over\n"
                      "the selected PEs); one row per non-zero cell.\n\noptions:\n")
        + kCommonHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc = prepare("usage", args, {}, help, cl, trace, request, out, err); rc >= 0)
        return rc;
    const auto usage = core::analysis::computeUsageProfile(*trace, request);
    if (!usage)
        return kExitFatal;
    out << "pe,activity,percent\n";
    const int width = usage->columns.count();
    auto row = [&](const std::string& pe, const double* values) {
        for (int c = 0; c < width; ++c)
            if (values[c] != 0.0)
                out << pe << ',' << usage->columns.name(c) << ',' << formatNumber(values[c])
                    << '\n';
    };
    row("avg", usage->average.data());
    for (std::size_t k = 0; k < usage->pes.size(); ++k)
        row(std::to_string(usage->pes[k]),
            usage->percent.data() + k * static_cast<std::size_t>(width));
    return kExitOk;
}

int runTimeProfile(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string help
        = std::string("usage: parallax-cli time-profile RUN [--interval T | --bins N] [options]\n\n"
                      "Time per entry method (and idle, overhead, pack, unpack) summed over the\n"
                      "selected PEs, per interval, as CSV\n"
                      "interval,begin_us,end_us,activity,time_us,percent\n"
                      "(percent of the interval's processor time); one row per non-zero cell.\n\n"
                      "options:\n"
                      "  --interval T       interval size, e.g. 1ms\n"
                      "  --bins N           number of intervals (default 1000)\n")
        + kCommonHelp;
    CommandLine cl;
    core::TracePtr trace;
    core::analysis::AnalysisRequest request;
    if (const int rc
        = prepare("time-profile", args, { "interval", "bins" }, help, cl, trace, request, out, err);
        rc >= 0)
        return rc;
    core::analysis::TimeProfileOptions options;
    int rc = kExitOk;
    if (!parseIntervalOptions("time-profile", cl, options.intervalSize, options.bins, err, rc))
        return rc;
    const auto profile = core::analysis::computeTimeProfile(*trace, request, options);
    if (!profile)
        return kExitFatal;
    out << "interval,begin_us,end_us,activity,time_us,percent\n";
    const int width = profile->columns.count();
    std::string line;
    for (std::int64_t i = 0; i < profile->grid.count; ++i) {
        for (int c = 0; c < width; ++c) {
            const double v = profile->at(i, c);
            if (v == 0.0)
                continue;
            line = std::to_string(i + profile->grid.firstIndex);
            line += ',' + std::to_string(profile->grid.begin(i)) + ','
                + std::to_string(profile->grid.end(i)) + ',' + profile->columns.name(c) + ','
                + formatNumber(v) + ',' + formatNumber(profile->percent(i, c)) + '\n';
            out << line;
        }
    }
    return kExitOk;
}

} // namespace parallax::cli
