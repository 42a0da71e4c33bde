#pragma once

#include "core/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::core {
class Trace;
}

namespace parallax::core::analysis {

struct UsageProfile;
struct TimeProfile;
struct Overview;
struct Histogram;
struct CommunicationOverTime;
struct Extrema;
enum class HistogramMetric : std::uint8_t;

// The CSV behind every analysis, the same for `parallax-cli` and the views' "Export Data":
// a header row, then one row per non-zero cell. A null result gives the header alone.

// Every activity column (an entry id or "idle", "overhead", "pack", "unpack") is followed by its
// name column: the entry method's name from the .sts, quoted as CSV needs; times are in
// microseconds (the ASCII suffix _us in column names).

// A CSV field: quoted (with doubled quotes) when it holds a comma, a quote or a line break.
std::string csvField(const std::string& text);

// Whole numbers without a decimal point, anything else with 6 significant digits.
std::string formatCsvNumber(double value);

// pe,activity,activity_name,percent (pe "avg" first)
std::string usageCsv(const UsageProfile* usage);
// interval,begin_us,end_us,activity,activity_name,time_us,percent
std::string timeProfileCsv(const TimeProfile* profile);
// pe,column,begin_us,end_us,dominant,dominant_name,utilization_pct,idle_pct
std::string overviewCsv(const Overview* overview);
// metric,bin,lo,hi,activity,activity_name,count (hi "inf" for the overflow bin)
std::string histogramCsv(const Histogram* histogram);
// interval,begin_us,end_us,metric,activity,activity_name,value
std::string commCsv(const CommunicationOverTime* comm);
// rank,pe,score, then group,activity,activity_name,value for avg, non-outliers and outliers
std::string extremaCsv(const Extrema* extrema);

// The Timeline's data: pe,begin_us,end_us,kind,entry,entry_name,source_pe,msg_bytes, one row
// per execution ("exec"), idle, pack and unpack interval of `pes` (in that order) overlapping
// `window`, by begin time within a PE; the entry columns are empty for the other kinds.
std::string timelineCsv(const Trace& trace, const std::vector<PeId>& pes, TimeRange window);

// "duration", "msg-size", "idle" (the CLI's --metric names).
std::string_view histogramMetricKey(HistogramMetric metric);

} // namespace parallax::core::analysis
