#include "csv_export.h"

#include "communication.h"
#include "core/trace.h"
#include "extrema.h"
#include "histogram.h"
#include "overview.h"
#include "time_profile.h"
#include "usage_profile.h"

#include <algorithm>
#include <cstdio>

namespace parallax::core::analysis {

std::string formatCsvNumber(double value)
{
    char buf[64];
    // Range first: converting a double outside long long's range (or NaN) is undefined.
    if (value < 1e15 && value > -1e15
        && value == static_cast<double>(static_cast<long long>(value)))
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(value));
    else
        std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string_view histogramMetricKey(HistogramMetric metric)
{
    switch (metric) {
    case HistogramMetric::Duration:
        return "duration";
    case HistogramMetric::MessageSize:
        return "msg-size";
    case HistogramMetric::IdlePercent:
        return "idle";
    }
    return "duration";
}

std::string usageCsv(const UsageProfile* usage)
{
    std::string out = "pe,activity,activity_name,percent\n";
    if (usage == nullptr)
        return out;
    const int width = usage->columns.count();
    auto row = [&](const std::string& pe, const double* values) {
        for (int c = 0; c < width; ++c)
            if (values[c] != 0.0)
                out += pe + ',' + usage->columns.name(c) + ',' + csvField(usage->columns.label(c))
                    + ',' + formatCsvNumber(values[c]) + '\n';
    };
    row("avg", usage->average.data());
    for (std::size_t k = 0; k < usage->pes.size(); ++k)
        row(std::to_string(usage->pes[k]),
            usage->percent.data() + k * static_cast<std::size_t>(width));
    return out;
}

std::string timeProfileCsv(const TimeProfile* profile)
{
    std::string out = "interval,begin_us,end_us,activity,activity_name,time_us,percent\n";
    if (profile == nullptr)
        return out;
    const auto& p = *profile;
    for (std::int64_t i = 0; i < p.grid.count; ++i)
        for (int c = 0; c < p.columns.count(); ++c) {
            const double v = p.at(i, c);
            if (v == 0.0)
                continue;
            out += std::to_string(i + p.grid.firstIndex) + ',' + std::to_string(p.grid.begin(i))
                + ',' + std::to_string(p.grid.end(i)) + ',' + p.columns.name(c) + ','
                + csvField(p.columns.label(c)) + ',' + formatCsvNumber(v) + ','
                + formatCsvNumber(p.percent(i, c)) + '\n';
        }
    return out;
}

std::string overviewCsv(const Overview* overview)
{
    std::string out = "pe,column,begin_us,end_us,dominant,dominant_name,utilization_pct,idle_pct\n";
    if (overview == nullptr)
        return out;
    const auto& o = *overview;
    for (std::size_t k = 0; k < o.pes.size(); ++k)
        for (std::int64_t i = 0; i < o.grid.count; ++i) {
            const auto index = o.index(k, i);
            if (o.utilization[index] == 0.0F && o.idle[index] == 0.0F)
                continue;
            out += std::to_string(o.pes[k]) + ',' + std::to_string(i + o.grid.firstIndex) + ','
                + std::to_string(o.grid.begin(i)) + ',' + std::to_string(o.grid.end(i)) + ','
                + o.columns.name(o.dominant[index]) + ','
                + csvField(o.columns.label(o.dominant[index])) + ','
                + formatCsvNumber(static_cast<double>(o.utilization[index])) + ','
                + formatCsvNumber(static_cast<double>(o.idle[index])) + '\n';
        }
    return out;
}

std::string histogramCsv(const Histogram* histogram)
{
    std::string out = "metric,bin,lo,hi,activity,activity_name,count\n";
    if (histogram == nullptr)
        return out;
    const auto& h = *histogram;
    const std::string name(histogramMetricKey(h.metric));
    for (std::int64_t b = 0; b <= h.bins; ++b) {
        const std::string lo = formatCsvNumber(h.binLow(b));
        const std::string hi = b == h.bins ? std::string("inf") : formatCsvNumber(h.binLow(b + 1));
        for (int c = 0; c < h.columns.count(); ++c) {
            const double n = h.count(b, c);
            if (n != 0.0)
                out += name + ',' + std::to_string(b) + ',' + lo + ',' + hi + ','
                    + h.columns.name(c) + ',' + csvField(h.columns.label(c)) + ','
                    + formatCsvNumber(n) + '\n';
        }
    }
    return out;
}

std::string commCsv(const CommunicationOverTime* comm)
{
    std::string out = "interval,begin_us,end_us,metric,activity,activity_name,value\n";
    if (comm == nullptr)
        return out;
    const auto& r = *comm;
    for (std::int64_t i = 0; i < r.grid.count; ++i)
        for (int m = 0; m < kCommMetrics; ++m)
            for (int c = 0; c < r.columns.count(); ++c) {
                const double v = r.at(static_cast<CommMetric>(m), i, c);
                if (v == 0.0)
                    continue;
                out += std::to_string(i + r.grid.firstIndex) + ',' + std::to_string(r.grid.begin(i))
                    + ',' + std::to_string(r.grid.end(i)) + ','
                    + std::string(commMetricName(static_cast<CommMetric>(m))) + ','
                    + r.columns.name(c) + ',' + csvField(r.columns.label(c)) + ','
                    + formatCsvNumber(v) + '\n';
            }
    return out;
}

std::string extremaCsv(const Extrema* extrema)
{
    std::string out = "rank,pe,score\n";
    if (extrema == nullptr)
        return out + "group,activity,activity_name,value\n";
    const auto& x = *extrema;
    for (std::size_t i = 0; i < x.extremes.size(); ++i)
        out += std::to_string(i + 1) + ',' + std::to_string(x.extremes[i]) + ','
            + formatCsvNumber(x.extremeScores[i]) + '\n';
    out += "group,activity,activity_name,value\n";
    const std::pair<const char*, const std::vector<double>*> groups[] = { { "avg", &x.average },
        { "non-outliers", &x.nonOutliers }, { "outliers", &x.outliers } };
    for (const auto& [group, values] : groups)
        for (int c = 0; c < x.columns.count() && static_cast<std::size_t>(c) < values->size(); ++c)
            if ((*values)[static_cast<std::size_t>(c)] != 0.0)
                out += std::string(group) + ',' + x.columns.name(c) + ','
                    + csvField(x.columns.label(c)) + ','
                    + formatCsvNumber((*values)[static_cast<std::size_t>(c)]) + '\n';
    return out;
}

std::string timelineCsv(const Trace& trace, const std::vector<PeId>& pes, TimeRange window)
{
    std::string out = "pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes\n";
    struct Row {
        TimeUs begin;
        TimeUs end;
        int kind; // 0 exec, 1 idle, 2 pack, 3 unpack
        std::size_t index;
    };
    static const char* const kKinds[] = { "exec", "idle", "pack", "unpack" };
    std::vector<Row> rows;
    for (const auto pe : pes) {
        if (pe < 0 || static_cast<std::size_t>(pe) >= trace.pes.size())
            continue;
        const auto& p = trace.pes[static_cast<std::size_t>(pe)];
        rows.clear();
        const auto execs = p.executionsOverlapping(window.begin, window.end);
        for (auto i = execs.first; i < execs.last; ++i)
            rows.push_back({ p.executions.begin[i], p.executions.end[i], 0, i });
        const IntervalColumns* others[] = { &p.idles, &p.packs, &p.unpacks };
        for (int k = 0; k < 3; ++k) {
            const auto& c = *others[k];
            const auto r = overlappingRange(c.begin, c.end, window.begin, window.end);
            for (auto i = r.first; i < r.last; ++i)
                rows.push_back({ c.begin[i], c.end[i], k + 1, i });
        }
        std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return a.begin != b.begin ? a.begin < b.begin : a.kind < b.kind;
        });
        for (const auto& row : rows) {
            out += std::to_string(pe) + ',' + std::to_string(row.begin) + ','
                + std::to_string(row.end) + ',' + kKinds[row.kind];
            if (row.kind == 0) {
                const auto entry = static_cast<EntryId>(p.executions.entry[row.index]);
                out += ',' + std::to_string(entry) + ',' + csvField(trace.metadata.entryName(entry))
                    + ',' + std::to_string(p.executions.sourcePe[row.index]) + ','
                    + std::to_string(p.executions.msgBytes[row.index]);
            } else {
                out += ",,,,";
            }
            out += '\n';
        }
    }
    return out;
}

} // namespace parallax::core::analysis
