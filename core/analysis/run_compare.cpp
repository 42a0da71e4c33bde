#include "run_compare.h"

#include "core/trace.h"
#include "csv_export.h"
#include "interval_grid.h"
#include "time_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace parallax::core::analysis {

namespace {

constexpr std::int64_t kCompareDefaultBins = 200;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The program a run ran: the first word of its command line, without the directory.
std::string programOf(const RunMetadata& metadata)
{
    const auto& line = metadata.commandLine;
    const auto end = line.find(' ');
    auto program = line.substr(0, end);
    if (const auto slash = program.rfind('/'); slash != std::string::npos)
        program = program.substr(slash + 1);
    return program;
}

// Entry-method time summed over the side's PEs (comm threads apart), by entry key.
std::map<std::string, std::pair<double, EntryId>> entryTimes(
    const CompareSide& side, const Progress& progress, std::size_t& peCount, double& total)
{
    TimeProfileOptions one;
    one.bins = 1;
    std::map<std::string, std::pair<double, EntryId>> times;
    const auto profile = computeTimeProfile(*side.trace, side.request, one, progress);
    if (!profile)
        return times;
    peCount = profile->peCount;
    const auto& metadata = side.trace->metadata;
    for (int e = 0; e < profile->columns.entryCount; ++e) {
        double t = 0.0;
        for (std::int64_t i = 0; i < profile->grid.count; ++i)
            t += profile->at(i, e);
        if (t <= 0.0)
            continue;
        auto& slot = times[entryKey(metadata, e)];
        if (slot.first == 0.0)
            slot.second = e;
        slot.first += t;
        total += t;
    }
    return times;
}

} // namespace

std::string entryKey(const RunMetadata& metadata, EntryId id)
{
    const auto& chare = metadata.chareNameOfEntry(id);
    const auto& name = metadata.entryName(id);
    return chare.empty() ? name : chare + "::" + name;
}

std::optional<TimeUs> firstUserEvent(
    const Trace& trace, const AnalysisRequest& request, UserEventId event)
{
    const auto r = resolve(trace, request);
    std::optional<TimeUs> first;
    auto take = [&](TimeUs t) {
        if (t >= r.range.begin && t < r.range.end && (!first || t < *first))
            first = t;
    };
    for (const auto pe : r.pes) {
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        for (const auto& u : p.userEvents)
            if (u.id == event) {
                take(u.time);
                if (u.time >= r.range.begin)
                    break; // sorted by time
            }
        for (const auto& b : p.userBrackets)
            if (b.id == event)
                take(b.begin);
    }
    return first;
}

std::optional<RunComparison> compareRuns(
    const std::vector<CompareSide>& sides, const CompareOptions& options, const Progress& progress)
{
    RunComparison result;
    const auto n = sides.size();
    std::vector<std::map<std::string, std::pair<double, EntryId>>> times(n);
    result.peCounts.assign(n, 0);
    result.totalUs.assign(n, 0.0);
    for (std::size_t s = 0; s < n; ++s) {
        const auto& side = sides[s];
        result.labels.push_back(side.label);
        result.ranges.push_back(resolve(*side.trace, side.request).range);
        times[s] = entryTimes(side, progress, result.peCounts[s], result.totalUs[s]);
        if (progress.isCancelled())
            return std::nullopt;
    }

    // Entries by name over all sides.
    std::map<std::string, EntryComparison> byName;
    for (std::size_t s = 0; s < n; ++s)
        for (const auto& [name, time] : times[s]) {
            auto& e = byName[name];
            if (e.timeUs.empty()) {
                e.name = name;
                e.timeUs.assign(n, 0.0);
                e.ids.assign(n, kNoEntry);
            }
            e.timeUs[s] = time.first;
            e.ids[s] = time.second;
        }
    for (auto& [name, e] : byName) {
        if (std::all_of(e.ids.begin(), e.ids.end(), [](EntryId id) { return id != kNoEntry; }))
            ++result.matchedEntries;
        result.entries.push_back(std::move(e));
    }
    auto weight = [n](const EntryComparison& e) {
        if (n == 2)
            return std::abs(e.timeUs[1] - e.timeUs[0]);
        return *std::max_element(e.timeUs.begin(), e.timeUs.end());
    };
    std::stable_sort(result.entries.begin(), result.entries.end(),
        [&](const EntryComparison& a, const EntryComparison& b) { return weight(a) > weight(b); });

    // Warnings: different programs, PE counts or lengths.
    // Ranges of one run need not run the same entry methods; other runs of one program do.
    const bool oneRun = std::all_of(sides.begin(), sides.end(),
        [&](const CompareSide& side) { return side.trace == sides.front().trace; });
    const bool fewInCommon = !oneRun && !result.entries.empty()
        && (result.matchedEntries == 0 || result.matchedEntries * 2 < result.entries.size());
    for (std::size_t s = 1; s < n; ++s) {
        const auto& a = sides[0].trace->metadata;
        const auto& b = sides[s].trace->metadata;
        const auto pa = programOf(a);
        const auto pb = programOf(b);
        if (!pa.empty() && !pb.empty() && pa != pb) {
            result.warnings.push_back(result.labels[0] + " ran " + pa + " but " + result.labels[s]
                + " ran " + pb + ": the runs may be different programs");
            result.differentPrograms = result.differentPrograms || fewInCommon;
        }
        if (result.peCounts[0] != result.peCounts[s])
            result.warnings.push_back(result.labels[0] + " has "
                + std::to_string(result.peCounts[0]) + " PEs but " + result.labels[s] + " has "
                + std::to_string(result.peCounts[s]) + ": times are summed over all PEs");
        // Two ranges of one run should be alike in length; two runs may differ (that is the
        // point of comparing them).
        const auto la = result.ranges[0].length();
        const auto lb = result.ranges[s].length();
        if (sides[0].trace == sides[s].trace && std::max(la, lb) > std::min(la, lb) * 11 / 10)
            result.warnings.push_back("the ranges differ in length (" + result.labels[0] + " "
                + std::to_string(la) + " µs, " + result.labels[s] + " " + std::to_string(lb)
                + " µs): totals are not per unit of time");
    }
    if (n > 1 && fewInCommon)
        result.warnings.push_back("only " + std::to_string(result.matchedEntries) + " of "
            + std::to_string(result.entries.size())
            + " entry methods ran in every run: the symbol tables may describe different programs");
    result.differentPrograms
        = result.differentPrograms || (n > 1 && result.matchedEntries == 0 && fewInCommon);

    // Aligned profiles.
    result.origins.assign(n, 0);
    std::vector<bool> found(n, true);
    TimeUs longest = 1;
    for (std::size_t s = 0; s < n; ++s) {
        if (options.origin == CompareOrigin::UserEvent) {
            const auto t = firstUserEvent(*sides[s].trace, sides[s].request, options.event);
            found[s] = t.has_value();
            if (!t)
                result.warnings.push_back(result.labels[s] + " has no user event "
                    + std::to_string(options.event) + " in its range: it has no time profile");
            result.origins[s] = t.value_or(result.ranges[s].begin);
        } else {
            result.origins[s] = result.ranges[s].begin;
        }
        longest = std::max(longest, result.ranges[s].end - result.origins[s]);
    }
    const auto grid = gridForRange({ 0, longest }, options.intervalSize,
        options.intervalSize > 0 ? 0 : (options.bins > 0 ? options.bins : kCompareDefaultBins));
    result.intervalSize = grid.size;
    const auto count = static_cast<std::size_t>(grid.count);
    result.busyPercent.assign(n, std::vector<double>(count, kNaN));
    for (std::size_t s = 0; s < n; ++s) {
        if (!found[s])
            continue;
        auto request = sides[s].request;
        request.range = { result.origins[s], result.origins[s] + grid.limit() };
        TimeProfileOptions each;
        each.intervalSize = grid.size;
        const auto profile = computeTimeProfile(*sides[s].trace, request, each, progress);
        if (!profile)
            return std::nullopt;
        const double capacity
            = static_cast<double>(grid.size) * static_cast<double>(profile->peCount);
        for (std::size_t i = 0; i < count && static_cast<std::int64_t>(i) < profile->grid.count;
             ++i) {
            if (result.origins[s] + static_cast<TimeUs>(i) * grid.size >= result.ranges[s].end)
                break;
            double busy = 0.0;
            for (int e = 0; e < profile->columns.entryCount; ++e)
                busy += profile->at(static_cast<std::int64_t>(i), e);
            result.busyPercent[s][i] = capacity > 0 ? busy * 100.0 / capacity : 0.0;
        }
    }
    return result;
}

std::string comparisonCsv(const RunComparison* c)
{
    if (c == nullptr || c->labels.size() == 2) {
        std::string out = "entry,a_us,b_us,delta_us,ratio\n";
        if (c == nullptr)
            return out;
        for (const auto& e : c->entries) {
            const double a = e.timeUs[0];
            const double b = e.timeUs[1];
            out += csvField(e.name) + ',' + formatCsvNumber(a) + ',' + formatCsvNumber(b) + ','
                + formatCsvNumber(b - a) + ',' + (a > 0.0 ? formatCsvNumber(b / a) : "") + '\n';
        }
        return out;
    }
    std::string out = "entry";
    for (const auto& label : c->labels)
        out += ',' + csvField(label + "_us");
    out += '\n';
    for (const auto& e : c->entries) {
        out += csvField(e.name);
        for (const double t : e.timeUs)
            out += ',' + formatCsvNumber(t);
        out += '\n';
    }
    return out;
}

std::string comparisonProfileCsv(const RunComparison* c)
{
    std::string out = "interval,offset_us";
    if (c == nullptr)
        return out + ",a_busy_pct,b_busy_pct,delta_pct\n";
    const bool two = c->labels.size() == 2;
    for (std::size_t s = 0; s < c->labels.size(); ++s)
        out += ',' + (two ? std::string(s == 0 ? "a" : "b") : csvField(c->labels[s])) + "_busy_pct";
    if (two)
        out += ",delta_pct";
    out += '\n';
    const auto count = c->busyPercent.empty() ? 0 : c->busyPercent.front().size();
    auto cell = [](double v) {
        return std::isnan(v) ? std::string() : formatCsvNumber(v);
    };
    for (std::size_t i = 0; i < count; ++i) {
        out += std::to_string(i) + ',' + std::to_string(static_cast<TimeUs>(i) * c->intervalSize);
        for (const auto& side : c->busyPercent)
            out += ',' + cell(side[i]);
        if (two)
            out += ',' + cell(c->busyPercent[1][i] - c->busyPercent[0][i]);
        out += '\n';
    }
    return out;
}

} // namespace parallax::core::analysis
