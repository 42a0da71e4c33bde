#include "generator_options.h"

#include "planted_classes.h"
#include "run_model.h"
#include "symbol_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <optional>
#include <system_error>

namespace parallax::gen {

namespace {

constexpr PeId kMaxPes = 1 << 20;
constexpr int kMinEntries = entry::kFirstOptionalEntry; // the fixed entries of SymbolTable
constexpr int kMaxEntries = 20000;
constexpr int kMaxIterations = 1000000;
constexpr int kMaxThreads = 1024;

template <typename Integer> bool parseInteger(std::string_view text, Integer& value)
{
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto [end, code] = std::from_chars(first, last, value);
    return code == std::errc {} && end == last && !text.empty();
}

bool parseDouble(std::string_view text, double& value)
{
    const char* first = text.data();
    const char* last = text.data() + text.size();
    const auto [end, code] = std::from_chars(first, last, value);
    return code == std::errc {} && end == last && !text.empty();
}

// "3,17", "0-3" or "0-3,8,10-11" -> sorted unique PE numbers.
bool parsePeList(std::string_view text, std::vector<PeId>& pes)
{
    if (text.empty()) {
        return false;
    }
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view {} : text.substr(comma + 1);
        if (comma != std::string_view::npos && text.empty()) {
            return false; // trailing comma
        }
        const std::size_t dash = item.find('-');
        PeId first = 0;
        PeId last = 0;
        if (dash == std::string_view::npos) {
            if (!parseInteger(item, first)) {
                return false;
            }
            last = first;
        } else if (!parseInteger(item.substr(0, dash), first)
            || !parseInteger(item.substr(dash + 1), last) || last < first) {
            return false;
        }
        if (first < 0 || last >= kMaxPes) {
            return false;
        }
        for (PeId pe = first; pe <= last; ++pe) {
            pes.push_back(pe);
        }
    }
    std::sort(pes.begin(), pes.end());
    pes.erase(std::unique(pes.begin(), pes.end()), pes.end());
    return true;
}

std::string quoted(std::string_view text)
{
    std::string result;
    result.reserve(text.size() + 2);
    result += '\'';
    result += text;
    result += '\'';
    return result;
}

// The planted classes must fit into the run and leave at least one normal PE.
std::optional<std::string> checkPlantedClasses(const GeneratorOptions& options, bool sawHeavyFactor)
{
    if (sawHeavyFactor && !(options.heavyFraction > 0.0)) {
        return "--heavy-factor needs --heavy-fraction (which PEs are heavy)";
    }
    std::int64_t reserved = options.specialPe0 ? 1 : 0;
    for (const PeId pe : options.overloadedPes) {
        if (pe != 0 || !options.specialPe0) {
            ++reserved;
        }
    }
    const std::int64_t planted = reserved + options.anomalousPes + heavyPeCount(options);
    if (planted > std::int64_t { options.pes } - 1 && planted > reserved) {
        return "the planted classes take " + std::to_string(planted) + " of the "
            + std::to_string(options.pes) + " PEs (at least one PE must stay normal)";
    }
    if (const int needed = kMinEntries + plantedEntriesOf(options).count();
        options.entries < needed) {
        return "--entries " + std::to_string(options.entries) + " leaves no room for the planted "
            + "classes' entry methods (at least " + std::to_string(needed) + ")";
    }
    if (options.alternatingPhases && options.pes < 2) {
        return "--alternating-phases needs at least 2 PEs (two halves)";
    }
    if (options.alternatingPhases && chooseRunSize(options).iterations < 2) {
        return "--alternating-phases needs at least 2 iterations (raise --events-per-pe or "
               "--iterations)";
    }
    return std::nullopt;
}

constexpr std::string_view kLeanMdSmp = "leanmd-smp";

// A template fixes the program, the machine layout and the record mix, so only the size,
// seed and output options go with it.
std::optional<std::string> checkTemplateOptions(
    const GeneratorOptions& options, const std::vector<std::string_view>& given)
{
    constexpr std::array<std::string_view, 12> kAllowed
        = { "--out", "--name", "--pes", "--events-per-pe", "--iterations", "--seed", "--gz",
              "--threads", "--bin-size", "--no-sum", "--like", "--help" };
    for (const std::string_view option : given) {
        if (std::find(kAllowed.begin(), kAllowed.end(), option) == kAllowed.end()) {
            return "--like " + options.like + " cannot be combined with " + std::string(option)
                + " (the template fixes the program and the machine layout)";
        }
    }
    if (options.pes % 2 != 0) {
        return "--like " + options.like + " needs an even --pes (2 worker PEs per SMP node), not "
            + std::to_string(options.pes);
    }
    return std::nullopt;
}

} // namespace

std::string formatFactor(double factor)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, factor);
    std::string text(buffer, result.ptr);
    if (text.find_first_of(".e") == std::string::npos) {
        text += ".0";
    }
    return text;
}

ParsedCommandLine parseCommandLine(const std::vector<std::string_view>& arguments)
{
    ParsedCommandLine parsed;
    GeneratorOptions& options = parsed.options;
    bool sawOut = false;
    bool sawHeavyFactor = false;
    std::vector<std::string_view> given; // options that were given, in order

    for (std::size_t i = 0; i < arguments.size(); ++i) {
        std::string_view option = arguments[i];
        std::optional<std::string_view> inlineValue;
        if (const std::size_t equals = option.find('=');
            option.starts_with("--") && equals != std::string_view::npos) {
            inlineValue = option.substr(equals + 1);
            option = option.substr(0, equals);
        }
        const auto fail = [&](const std::string& message) {
            parsed.error = message;
            return parsed;
        };
        // Fetches the value of an option that takes one ("--pes 16" or "--pes=16").
        std::string_view value;
        const auto needValue = [&]() {
            if (inlineValue) {
                value = *inlineValue;
                return true;
            }
            if (i + 1 >= arguments.size()) {
                return false;
            }
            value = arguments[++i];
            return true;
        };
        const auto isFlag = [&](std::string_view name) {
            return option == name && !inlineValue;
        };

        if (option == "--help" || option == "-h") {
            parsed.showHelp = true;
            return parsed;
        }
        if (option == "--version") {
            parsed.showVersion = true;
            return parsed;
        }
        if (option.starts_with("--")) {
            given.push_back(option);
        }
        if (isFlag("--gz")) {
            options.gzip = true;
        } else if (isFlag("--no-sum")) {
            options.summaries = false;
        } else if (isFlag("--bimodal-entry")) {
            options.bimodalEntry = true;
        } else if (isFlag("--special-pe0")) {
            options.specialPe0 = true;
        } else if (isFlag("--alternating-phases")) {
            options.alternatingPhases = true;
        } else if (option == "--out" || option == "--name" || option == "--pes"
            || option == "--events-per-pe" || option == "--iterations" || option == "--entries"
            || option == "--seed" || option == "--smp" || option == "--threads"
            || option == "--bin-size" || option == "--overloaded-pes"
            || option == "--overload-factor" || option == "--heavy-sender"
            || option == "--slow-iterations" || option == "--slow-iteration-factor"
            || option == "--heavy-fraction" || option == "--heavy-factor" || option == "--anomalous"
            || option == "--truth" || option == "--shape" || option == "--like") {
            if (!needValue()) {
                return fail(std::string(option) + " needs a value");
            }
            const std::string bad = "bad value " + quoted(value) + " for " + std::string(option);
            if (option == "--out") {
                if (value.empty()) {
                    return fail(bad);
                }
                options.outDir = std::string(value);
                sawOut = true;
            } else if (option == "--name") {
                if (value.empty() || value.find_first_of("/\\ \t") != std::string_view::npos) {
                    return fail(bad + " (a file name prefix without spaces or slashes)");
                }
                options.name = std::string(value);
            } else if (option == "--pes") {
                if (!parseInteger(value, options.pes) || options.pes < 1 || options.pes > kMaxPes) {
                    return fail(bad + " (1.." + std::to_string(kMaxPes) + ")");
                }
            } else if (option == "--events-per-pe") {
                if (!parseInteger(value, options.eventsPerPe) || options.eventsPerPe < 1
                    || options.eventsPerPe > 2000000000) {
                    return fail(bad + " (a positive number of records)");
                }
            } else if (option == "--iterations") {
                int iterations = 0;
                if (!parseInteger(value, iterations) || iterations < 1
                    || iterations > kMaxIterations) {
                    return fail(bad + " (1.." + std::to_string(kMaxIterations) + ")");
                }
                options.iterations = iterations;
            } else if (option == "--entries") {
                if (!parseInteger(value, options.entries) || options.entries < kMinEntries
                    || options.entries > kMaxEntries) {
                    return fail(bad + " (" + std::to_string(kMinEntries) + ".."
                        + std::to_string(kMaxEntries) + ")");
                }
            } else if (option == "--seed") {
                if (!parseInteger(value, options.seed)) {
                    return fail(bad + " (an unsigned 64-bit integer)");
                }
            } else if (option == "--smp") {
                if (!parseInteger(value, options.smpNodeSize) || options.smpNodeSize < 1) {
                    return fail(bad + " (PEs per node, at least 1)");
                }
            } else if (option == "--threads") {
                if (!parseInteger(value, options.threads) || options.threads < 1
                    || options.threads > kMaxThreads) {
                    return fail(bad + " (1.." + std::to_string(kMaxThreads) + ")");
                }
            } else if (option == "--bin-size") {
                if (!parseInteger(value, options.binSize) || options.binSize < 1
                    || options.binSize > 3600000000LL) {
                    return fail(bad + " (microseconds, at least 1)");
                }
            } else if (option == "--overloaded-pes") {
                options.overloadedPes.clear();
                if (!parsePeList(value, options.overloadedPes)) {
                    return fail(bad + " (a PE list such as 3,17 or 0-3)");
                }
            } else if (option == "--slow-iterations") {
                options.slowIterations.clear();
                if (!parsePeList(value, options.slowIterations)) {
                    return fail(bad + " (an iteration list such as 3,7 or 4-5)");
                }
            } else if (option == "--slow-iteration-factor") {
                if (!parseDouble(value, options.slowIterationFactor)
                    || !(options.slowIterationFactor > 0.0)
                    || options.slowIterationFactor > 1000.0) {
                    return fail(bad + " (a number in (0, 1000])");
                }
            } else if (option == "--overload-factor") {
                if (!parseDouble(value, options.overloadFactor) || !(options.overloadFactor > 0.0)
                    || options.overloadFactor > 1000.0) {
                    return fail(bad + " (a number in (0, 1000])");
                }
            } else if (option == "--heavy-sender") {
                PeId pe = 0;
                if (!parseInteger(value, pe) || pe < 0) {
                    return fail(bad + " (a PE number)");
                }
                options.heavySender = pe;
            } else if (option == "--heavy-fraction") {
                if (!parseDouble(value, options.heavyFraction) || !(options.heavyFraction > 0.0)
                    || options.heavyFraction > 0.5) {
                    return fail(bad + " (a fraction of the PEs in (0, 0.5])");
                }
            } else if (option == "--heavy-factor") {
                if (!parseDouble(value, options.heavyFactor) || !(options.heavyFactor > 1.0)
                    || options.heavyFactor > 100.0) {
                    return fail(bad + " (a work factor in (1, 100])");
                }
                sawHeavyFactor = true;
            } else if (option == "--anomalous") {
                if (!parseInteger(value, options.anomalousPes) || options.anomalousPes < 0
                    || options.anomalousPes > kMaxPes) {
                    return fail(bad + " (a number of PEs)");
                }
            } else if (option == "--shape") {
                if (value != "default" && value != "realistic") {
                    return fail(bad + " (default or realistic)");
                }
                options.distinctIndices = value == "realistic";
            } else if (option == "--like") {
                if (value != kLeanMdSmp) {
                    return fail("unknown --like template " + quoted(value)
                        + " (known: " + std::string(kLeanMdSmp) + ")");
                }
                options.like = std::string(value);
            } else if (option == "--truth") {
                if (value.empty()) {
                    return fail(bad + " (a file name)");
                }
                options.truthFile = std::string(value);
            }
        } else if (inlineValue
            && (option == "--gz" || option == "--no-sum" || option == "--bimodal-entry"
                || option == "--special-pe0" || option == "--alternating-phases")) {
            return fail(std::string(option) + " takes no value");
        } else {
            return fail("unknown option " + quoted(arguments[i]) + " (see --help)");
        }
    }

    if (!sawOut) {
        parsed.error = "--out DIR is required (see --help)";
        return parsed;
    }
    if (!options.like.empty()) {
        if (auto error = checkTemplateOptions(options, given)) {
            parsed.error = std::move(*error);
        }
        return parsed;
    }
    for (const PeId pe : options.overloadedPes) {
        if (pe >= options.pes) {
            parsed.error = "--overloaded-pes: PE " + std::to_string(pe)
                + " does not exist (the run has " + std::to_string(options.pes) + " PEs)";
            return parsed;
        }
    }
    if (!options.slowIterations.empty()) {
        const int iterations = chooseRunSize(options).iterations;
        if (options.slowIterations.back() >= iterations) {
            parsed.error = "--slow-iterations: iteration "
                + std::to_string(options.slowIterations.back()) + " does not exist (the run has "
                + std::to_string(iterations) + " iterations, 0-" + std::to_string(iterations - 1)
                + ")";
            return parsed;
        }
    }
    if (options.heavySender && *options.heavySender >= options.pes) {
        parsed.error = "--heavy-sender: PE " + std::to_string(*options.heavySender)
            + " does not exist (the run has " + std::to_string(options.pes) + " PEs)";
        return parsed;
    }
    if (auto error = checkPlantedClasses(options, sawHeavyFactor)) {
        parsed.error = std::move(*error);
        return parsed;
    }
    if (options.smpNodeSize > 0 && options.pes % options.smpNodeSize != 0) {
        parsed.error = "--smp " + std::to_string(options.smpNodeSize) + " does not divide --pes "
            + std::to_string(options.pes) + " (every SMP node has the same number of PEs)";
        return parsed;
    }
    return parsed;
}

std::string usageText()
{
    return R"(Usage: parallax-gen --out DIR [options]

Writes a synthetic Charm++ Projections run (VERSION 11.0, as Charm++ 7/8 writes it):
NAME.sts, NAME.N.log[.gz] per PE, NAME.N.sum, NAME.N.sumd, NAME.sum.sts, NAME.projrc.
The simulated program is a 1-D chare array "Worker" (ELEMENTS per PE) exchanging ghosts
with the neighbouring PEs, a 3-D array "Patch", a group "WorkerMgr" started by a group
broadcast every iteration, a spanning-tree reduction to the "Main" chare, and a mix of
further entry methods. Identical arguments give byte-identical files on every platform,
whatever the number of threads.

Options:
  --out DIR              output directory, created if missing (required)
  --name NAME            base name of the files (default: run)
  --pes N                number of PEs (default: 4)
  --events-per-pe N      approximate number of log records per PE (default: 20000)
  --iterations K         number of iterations (default: derived from --events-per-pe
                         with 8 Worker elements per PE; when given, the number of
                         elements per PE is derived instead)
  --entries N            total number of entry methods in the .sts, at least 23 (and
                         one more per entry method of a planted class)
                         (default: 40); the extra ones are executed as a mix of
                         short tasks, a few often and most rarely
  --seed S               seed of the deterministic random streams (default: 1)
  --gz                   write NAME.N.log.gz (zlib) instead of NAME.N.log
  --smp NODESIZE         SMP run: SMPMODE NODESIZE PES/NODESIZE in the .sts, cheaper
                         messages inside a node (NODESIZE must divide --pes)
  --threads T            write T PEs in parallel (default: hardware threads)
  --bin-size US          summary bin size in microseconds (default: 1000); doubled
                         while a PE would need 60000 bins or more, as Charm++ does
  --no-sum               do not write .sum, .sumd and .sum.sts
  --shape SHAPE          default, or realistic: every Worker and Patch execution
                         carries an array index of its own (1-D and 3-D), as on a run
                         with many objects per PE, instead of a few elements repeated
  --like TEMPLATE        write a run shaped like a measured real run instead of the
                         program above; TEMPLATE: leanmd-smp = LeanMD (3-D Cell and 6-D
                         Compute arrays, SDAG) on SMP nodes of 2 worker PEs and a comm
                         thread: --pes worker PEs (even) plus --pes/2 comm threads,
                         --events-per-pe or --iterations set the time steps (about 3600
                         records per worker PE and step); only --out, --name, --seed,
                         --gz, --threads, --bin-size and --no-sum go with it
                         (docs/generator.md)
  --help                 print this text
  --version              print the version

Planted problems (each printed on stdout as one "planted ..." line at the end):
  --overloaded-pes LIST  these PEs get FACTOR times the Worker::compute work per
                         iteration, so they are the least idle (LIST: 3,17 or 0-3)
  --overload-factor F    work factor of the overloaded PEs (default: 2.0)
  --slow-iterations LIST in these iterations (0-based, LIST: 3,7 or 4-5) every PE gets
                         FACTOR times the Worker::compute work, so they take longer
  --slow-iteration-factor F  work factor of the slow iterations (default: 3.0)
  --bimodal-entry        Worker::compute gets a second mode: 20% of its executions
                         take 4 times longer
  --heavy-sender PE      every Worker element on PE sends 36 extra messages per
                         iteration to the next 16 PEs: about 10 times the messages
                         and bytes of any other PE

Planted PE classes, for checking clustering and groups (see --truth):
  --heavy-fraction F     this fraction of the PEs (at least one, F in (0, 0.5]) is heavy:
                         X times the work in the application's entry methods (compute,
                         recvGhost, integrate, the mix and the phase tasks); chosen from
                         the seed, one per stratum of PE numbers, so they are spread
                         over the machine
  --heavy-factor X       work factor of the heavy PEs (default: 3.0)
  --anomalous N          N PEs chosen from the seed also run Patch::rebuildPairlist every
                         iteration, an entry method no other PE runs
  --special-pe0          PE 0 also plays the load balancer's and the Main chare's roles:
                         CentralLB::ReceiveStats and Main::reportProgress every iteration,
                         CentralLB::LoadBalance every 4th
  --alternating-phases   every PE runs 4 Patch tasks per iteration: PEs of the first half
                         run computeBonded in the first half of the iterations and
                         computeNonbonded in the second, the other PEs the reverse; the
                         whole-run totals are alike, the per-half ones are not
  --truth FILE           write the planted class of every PE as CSV "pe,class" (normal,
                         heavy, anomalous, pe0, phase-a, phase-b, overloaded); heavy
                         and anomalous PEs are chosen among the PEs no other option took,
                         and only PEs left over are phase-a or phase-b

Exit status: 0 on success, 1 when a file cannot be written, 2 for bad arguments.
)";
}

} // namespace parallax::gen
